"""A field a bibliography gives that refman cannot read (a DOI that is none, a year that is
not one, CSL-JSON authors given as text) is left out of the record with a warning naming the
record and the value: the import goes on, and the person sees what was not taken."""

from __future__ import annotations

from refman.importers.bibtex import parse_bibtex
from refman.importers.csljson import parse_csl_json
from refman.importers.ris import parse_ris


def test_a_bibtex_entry_s_unreadable_year_and_doi_are_left_out_and_said() -> None:
    page = parse_bibtex(
        "@article{ok, author={Ng, Ada}, title={Fine}, year={2001}, doi={10.1000/fine.1}}\n"
        "@article{odd, author={Ng, Ada}, title={Odd}, year={abc}, doi={10.1/a}}\n"
    )
    fine, odd = page.records
    assert (fine.year, fine.doi) == (2001, "10.1000/fine.1")
    assert (odd.year, odd.doi, odd.title) == (None, None, "Odd")
    assert page.warnings == [
        "The entry ‘odd’ on line 2: the year “abc” and the DOI “10.1/a” could not be read; "
        "left out."
    ]


def test_a_ris_record_s_unreadable_date_is_left_out_and_said() -> None:
    page = parse_ris(
        "TY  - JOUR\nTI  - Fine\nPY  - 2001///\nER  - \n\n"
        "TY  - JOUR\nTI  - Odd\nPY  - 20x9\nER  - \n"
    )
    assert [r.year for r in page.records] == [2001, None]
    assert page.warnings == ["The record on line 6: the date “20x9” could not be read; left out."]


def test_csl_json_authors_given_as_text_are_left_out_and_said() -> None:
    page = parse_csl_json(
        '[{"id": "fine", "type": "article", "title": "Fine", "author": [{"family": "Ng"}]},'
        ' {"id": "odd", "type": "article", "title": "Odd", "author": "Ada Ng"}]'
    )
    assert [r.authors for r in page.records] == [("Ng",), ()]
    assert page.warnings == [
        "The item ‘odd’: the authors (not a list of names) could not be read; left out."
    ]


def test_more_unreadable_fields_are_said_as_the_file_wrote_them() -> None:
    page = parse_bibtex("@article{odd, title={Odd}, date={20x9}, doi={not a doi}}\n")
    assert page.records[0].year is None and page.records[0].doi is None
    assert page.warnings == [
        "The entry ‘odd’ on line 1: the date “20x9” and the DOI “not a doi” could not be "
        "read; left out."
    ]
    csl = parse_csl_json(
        '[{"id": "a", "type": "article", "title": "A", "author": ["Smith, John"],'
        ' "issued": {"date-parts": [["abc"]]}},'
        ' {"id": "b", "type": "article", "title": "B", "issued": {"raw": "20x9"}}]'
    )
    assert [(r.authors, r.year) for r in csl.records] == [((), None), ((), None)]
    assert csl.warnings == [
        "The item ‘a’: the authors (not a list of names) and the date issued could not be "
        "read; left out.",
        "The item ‘b’: the date issued could not be read; left out.",
    ]
