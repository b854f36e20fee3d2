"""A paper added by hand: checked by the fields' rules, added as a one-record import (one
undo step, in the history), and never a duplicate of a paper the library holds."""

from __future__ import annotations

import pytest

from refman.common.errors import InvalidValueError
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.new_papers import Added, typed_page, typed_record
from refman.core.operations import ImportPages
from refman.importers.bibtex import parse_bibtex
from refman.importers.typed_names import typed_authors
from tests.helpers.fixtures import sourced
from tests.helpers.pages import publication_page


def _add(library: LibraryService, title: str, authors: str = "", **fields: str) -> Added:
    record = typed_record(title, authors, fields)
    return Added.of(record, library.import_pages([typed_page(record)]))


@pytest.mark.parametrize(
    ("line", "names", "complete"),
    [
        ("Ann Smith, Bob Jones and Carol White", ("Ann Smith", "Bob Jones", "Carol White"), True),
        ("Knuth, Donald E.", ("Donald E. Knuth",), True),
        ("van Rossum, Guido", ("Guido van Rossum",), True),
        ("Smith, A. and Jones, B.", ("A. Smith", "B. Jones"), True),
        # BibTeX's author field, as a JabRef or Zotero user copies it
        ("Knuth, Donald E. and Graham, Ronald L.", ("Donald E. Knuth", "Ronald L. Graham"), True),
        ("Smith, John and Doe, Jane and Roe, R.", ("John Smith", "Jane Doe", "R. Roe"), True),
        ("de la Cruz, Maria and van der Berg, Jan", ("Maria de la Cruz", "Jan van der Berg"), True),
        ("Smith, Ann and others", ("Ann Smith",), False),
        ("Ann Smith and others", ("Ann Smith",), False),
        ("张, 伟", ("张伟",), True),
        ("李明，王伟", ("李明", "王伟"), True),  # a Chinese keyboard's comma
        # PubMed's and the Vancouver style's "family name, initials"
        ("Smith J, Doe JA", ("J. Smith", "J. A. Doe"), True),
        ("Smith A., Doe J. A.", ("A. Smith", "J. A. Doe"), True),
        ("Li X, Wang Y, Zhang Z et al.", ("X. Li", "Y. Wang", "Z. Zhang"), False),
        ("Henry Ford II", ("Henry Ford II",), True),
        # two short words are given name and family name ("Ng Yu", "Li Na"); a name of
        # initials in capitals after a family name is "Family I" in any list
        ("Ng Yu", ("Ng Yu",), True),
        ("Li Na and Bo An", ("Li Na", "Bo An"), True),
        ("Ng AY, Li Na", ("A. Y. Ng", "Li Na"), True),
        ("Li Na, Wang Wei, Smith J", ("Li Na", "Wang Wei", "J. Smith"), True),
        ("山田太郎、鈴木一郎", ("山田太郎", "鈴木一郎"), True),
        ("Ashish Vaswani et al.", ("Ashish Vaswani",), False),
        ("Plato", ("Plato",), True),
        # BibTeX's braces keep an organisation whole, as JabRef users type it
        ("{World Health Organization}", ("World Health Organization",), True),
        (
            "Ann Smith and {Centre for Tidal Studies}",
            ("Ann Smith", "Centre for Tidal Studies"),
            True,
        ),
        ("", (), False),
    ],
)
def test_an_author_line_reads_as_people_write_it(
    line: str, names: tuple[str, ...], complete: bool
) -> None:
    people, whole = typed_authors(line)
    assert (tuple(person.display for person in people), whole) == (names, complete)


def test_family_names_typed_first_are_the_family_names() -> None:
    """ "Knuth, Donald E. and Graham, Ronald L." is two people, not four: Knuth and Graham
    are their family names (as a citation writes them)."""
    record = typed_record("Concrete Mathematics", "Knuth, Donald E. and Graham, Ronald L.")
    assert [(p.family, p.given) for p in record.author_names] == [
        ("Knuth", "Donald E."),
        ("Graham", "Ronald L."),
    ]
    [pubmed] = typed_record("Title", "O'Brien PJ").author_names
    assert (pubmed.family, pubmed.given) == ("O'Brien", "P. J.")
    [chinese] = typed_record("Title", "张, 伟").author_names
    assert (chinese.family, chinese.given) == ("张", "伟")


def test_a_paper_by_hand_is_a_paper_with_what_was_typed(library: LibraryService) -> None:
    added = _add(
        library,
        "The Art of Computer Programming",
        "Knuth, Donald E.",
        year="1968",
        type="book",
        publisher="Addison-Wesley",
        doi="https://doi.org/10.5555/260999",
    )
    assert added.created and added.resembles is None
    paper = library.paper(added.paper_id)
    assert (paper.title, paper.year, paper.type) == (
        "The Art of Computer Programming",
        1968,
        "book",
    )
    assert (paper.publisher, paper.doi) == ("Addison-Wesley", "10.5555/260999")
    assert paper.authors == ("Donald E. Knuth",)
    assert paper.citekey == "knuth1968art"
    assert added.text() == f"Added #{added.paper_id} “The Art of Computer Programming”."
    [entry] = library.history()
    assert entry.pages[0].source == "Added by hand: “The Art of Computer Programming”"


def test_a_paper_the_library_holds_is_filled_in_not_added_twice(
    library: LibraryService,
) -> None:
    page = publication_page("Zhuo Jiang", [("Stragglers in Large Training Jobs", 2024, "arXiv")])
    [held] = library.import_pages([sourced(page)]).new_ids
    again = _add(library, "Stragglers in large training jobs", doi="10.1145/1234567")
    assert (again.paper_id, again.created, again.updated) == (held, False, True)
    assert library.paper(held).doi == "10.1145/1234567"
    assert library.count() == 1
    assert again.text() == (
        f"“Stragglers in large training jobs” is in the library already, as #{held}: "
        "added what it lacked."
    )
    same = _add(library, "Stragglers in Large Training Jobs")
    assert (same.created, same.updated) == (False, False)
    assert same.text().endswith("nothing new to add.")


def test_a_paper_by_hand_with_its_first_author_keeps_the_authors_the_library_knew(
    library: LibraryService,
) -> None:
    """Someone types only the first author of a paper the library holds with three names and
    "et al.": the paper keeps its three authors (a shorter list never replaces a longer one)."""
    bib = (
        "@article{grid, title = {Gradient Sparsity in Federated Learning}, year = 2023,\n"
        "  author = {Ann Smith and Bob Jones and Carol White and others}}\n"
    )
    [held] = library.import_pages([SourcedPage(parse_bibtex(bib), "refs.bib")]).new_ids
    again = _add(library, "Gradient sparsity in federated learning", "Ann Smith", year="2023")
    assert (again.paper_id, again.created) == (held, False)
    paper = library.paper(held)
    assert (paper.authors, paper.authors_complete) == (
        ("Ann Smith", "Bob Jones", "Carol White"),
        False,
    )


def test_a_bad_value_is_refused_with_why_before_anything_changes(
    library: LibraryService,
) -> None:
    for title, authors, fields, said in [
        ("", "", {}, "A title cannot be empty."),
        ("T", "", {"year": "MMXX"}, "“MMXX” is not a year."),
        ("T", "", {"doi": "hello"}, "“hello” is not a DOI."),
        ("T", "", {"type": "scroll"}, "“scroll” is not a type of publication refman knows."),
        ("T", "we study the effect of many things on other things in a way", {}, "authors"),
    ]:
        with pytest.raises(InvalidValueError) as refused:
            typed_record(title, authors, fields)
        assert said in str(refused.value)
    assert library.count() == 0


def test_undo_takes_a_paper_by_hand_back(library: LibraryService) -> None:
    record = typed_record("A Report No Page Lists", "Ann Smith", {"type": "report"})
    outcome = library.apply(ImportPages((typed_page(record),)))
    assert library.count() == 1
    assert outcome.inverse is not None
    library.apply(outcome.inverse)
    assert library.count() == 0


def test_a_citation_key_another_paper_holds_is_refused_and_nothing_is_added(
    library: LibraryService,
) -> None:
    """The person typed that key: the paper is not added under another one without a word
    (an imported bibliography's taken key is replaced, with a warning; a key typed is not)."""
    held = _add(library, "The Art of Computer Programming", "Knuth, Donald E.", year="1968")
    key = library.paper(held.paper_id).citekey
    assert key == "knuth1968art"
    for typed in (key, key.upper()):
        with pytest.raises(InvalidValueError) as refused:
            _add(library, "Concrete Mathematics", citekey=typed)
        assert str(refused.value).startswith(
            f"“{typed}” is already a citation key of paper #{held.paper_id}."
        )
    assert library.count() == 1 and len(library.history()) == 1
    same = _add(library, "The Art of Computer Programming", citekey=key, volume="1")
    assert (same.paper_id, same.updated) == (held.paper_id, True)  # its own key: no clash
    free = _add(library, "Concrete Mathematics", citekey="gkp1994")
    assert library.paper(free.paper_id).citekey == "gkp1994"


def test_a_paper_found_in_the_trash_is_said_to_be_there(library: LibraryService) -> None:
    """It stays in the Trash (as any import leaves it): "in the library already" would send
    the person looking for it in the list in vain."""
    held = _add(library, "The Art of Computer Programming", "Knuth, Donald E.")
    library.trash([held.paper_id])
    again = _add(library, "The Art of Computer Programming", year="1968")
    assert (again.paper_id, again.created, again.updated) == (held.paper_id, False, True)
    assert again.text() == (
        f"“The Art of Computer Programming” is in the Trash, as #{held.paper_id}: added what "
        "it lacked. Restore it from the Trash to see it in the list again."
    )
    assert library.paper(held.paper_id).year == 1968
