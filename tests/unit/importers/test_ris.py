"""Reading RIS files as Zotero, Mendeley, EndNote, PubMed, Scopus and Web of Science write them
(and Web of Science's and PubMed's own tagged formats): field by field, records without their
end left out with a warning, stray lines reported, and a re-import that adds nothing."""

from __future__ import annotations

import json

import pytest

from refman.core.export.bibtex import bib_name
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.importers.errors import NotABibliographyError
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord, PersonName
from refman.importers.ris import parse_ris
from refman.importers.ris_fields import ris_person
from refman.importers.sources import load_bytes, load_source
from refman.importers.tagged import parse_medline, parse_wos
from tests.helpers.fixtures import FIXTURES

BIB = FIXTURES / "bib"


def read(name: str) -> ParsedPage:
    page = load_source(BIB / name).parse()
    assert page.format is PageFormat.RIS and page.owner == "" and page.claimed is None
    return page


def by_title(page: ParsedPage) -> dict[str, ParsedRecord]:
    return {r.title: r for r in page.records}


def test_zotero_ris_field_by_field() -> None:
    page = read("zotero.ris")
    # Zotero names the PDF in its storage folder; it is not on this machine: said so.
    assert page.warnings == [
        "1 file the bibliography names was not found (Smith et al. - 2020.pdf): "
        "the papers are imported without them."
    ]
    r = page.records[0]
    assert r.title == "Deep learning for DNA sequence analysis: a Bayesian view"
    assert r.abstract == "We study deep networks for DNA sequences and reach 95% accuracy."
    assert (r.type, r.year) == ("article-journal", 2020)
    assert r.venue == "Journal of Computational Biology"
    assert r.author_names == (
        PersonName("Smith", "John"),
        PersonName("Müller", "Jürgen"),
        PersonName("Berg", "Jan", particle="van der"),
    )
    assert r.authors == ("John Smith", "Jürgen Müller", "Jan van der Berg")
    assert (r.doi, r.volume, r.issue, r.pages) == ("10.1089/cmb.2019.0123", "27", "3", "100-110")
    assert r.url == "https://www.liebertpub.com/doi/10.1089/cmb.2019.0123"
    assert r.extra == {
        "container-title-short": "J. Comput. Biol.",
        "accessed": {"date-parts": [[2024, 1, 5]]},
        "ISSN": "1066-5277",
        "language": "en",
        "title-short": "Deep learning for DNA",
        "source": "DOI.org (Crossref)",
        "issued": {"date-parts": [[2020, 3, 15]]},
    }
    assert r.tags == ("Bayesian methods", "genomics")
    assert r.notes == ("Read for the survey; section 3 has the key proof.",)  # HTML as text
    assert (r.line, r.citekey) == (1, None)
    assert r.raw.startswith("TY  - JOUR\nTI  - Deep") and r.raw.endswith("ER  - ")


def test_zotero_ris_other_types() -> None:
    talk, preprint, report = read("zotero.ris").records[1:]
    assert (talk.type, talk.publisher, talk.pages) == (
        "paper-conference",
        "USENIX Association",
        "745-760",
    )
    assert talk.extra["ISBN"] == "978-1-939133-39-7"
    assert talk.extra["editor"] == [{"family": "Gross", "given": "Jonathan L."}]
    assert talk.extra["issued"] == {"date-parts": [[2024, 4]]}
    assert (preprint.type, preprint.venue, preprint.arxiv_id) == ("article", "arXiv", "1706.03762")
    assert preprint.extra["note"] == "arXiv:1706.03762 [cs]" and preprint.notes == ()
    assert report.author_names == (PersonName("World Health Organization", literal=True),)
    assert (report.type, report.extra["number"]) == ("report", "WHO/2021.1")


def test_mendeley_ris_keeps_the_citation_key() -> None:
    paper, book = read("mendeley.ris").records
    assert paper.citekey == "Kowalski2017" and paper.arxiv_id == "1705.01234"
    assert (paper.venue, paper.pages, paper.notes) == (
        "Proceedings of the ACM Conference on Computer and Communications Security",
        "1175-1191",
        ("Read twice.",),
    )
    assert (book.type, book.venue, book.extra["collection-title"]) == (
        "book",
        None,
        "Springer Series in Climate",
    )
    assert book.extra["ISBN"] == "978-3-16-148410-0"


def test_endnote_ris_with_crlf_month_only_dates_and_multiline_values() -> None:
    page = read("endnote.ris")
    assert page.warnings == []
    article, chapter = page.records
    assert article.extra["issued"] == {"date-parts": [[2009, 8, 26]]}  # DA "Aug 26"
    assert article.tags == ("ash", "volcanoes", "plumes")  # one keyword per line
    assert article.url is None  # "<Go to ISI>://…" is no link
    assert article.extra["note"] == "Accession Number: 000269187500003\nTimes Cited: 12"
    assert article.pages == "L16301-L16306"
    assert chapter.notes == ("My own note about\nthe proof in section 2.",)
    assert chapter.extra["editor"] == [
        {"family": "Gross", "given": "J. L."},
        {"family": "Yellen", "given": "J."},
    ]
    assert (chapter.type, chapter.venue) == ("chapter", "Handbook of Graph Theory")


@pytest.mark.parametrize(
    "note",
    [
        "TODO: check the proof of Lemma 2, it looks wrong.",
        "Published results contradict our lab data.",
        "<p>Zotero note: <b>important</b> for the review</p>",
    ],
)
def test_a_readers_note_stays_a_note(note: str) -> None:
    text = f"TY  - JOUR\nTI  - A Paper\nAU  - Doe, Jane\nPY  - 2020\nN1  - {note}\nER  - \n"
    [record] = parse_ris(text).records
    assert len(record.notes) == 1 and "note" not in record.extra
    assert record.notes[0].split()[0] in note


def test_pubmed_ris() -> None:
    [r] = read("pubmed.ris").records
    assert r.authors == ("Ngozi Okafor", "Wei A Chen", "Priya Patel")
    assert (r.venue, r.volume, r.issue, r.pages) == ("Nature", "572", "7769", "100-110")
    assert r.extra["PMID"] == "31452104" and r.citekey == "Okafor2019"
    assert r.tags == ("Humans", "Neoplasms, Experimental")  # commas inside a KW stay


def test_scopus_ris() -> None:
    [r] = read("scopus.ris").records
    assert r.authors == ("J. Garcia", "H. Ørsted", "K. O'Neil")
    assert (r.pages, r.doi) == ("e2020RG000712", "10.1029/2020rg000712")
    assert r.extra["source"] == "Scopus"
    assert r.extra["note"].startswith("Cited By :12; Export Date")  # not a reader's note
    assert r.notes == ()


def test_web_of_science_ris_and_tagged_export() -> None:
    [ris] = read("wos.ris").records
    assert ris.author_names[2] == PersonName("Davis", "Sammy", suffix="Jr.")
    assert ris.extra["issued"] == {"date-parts": [[2022, 7]]}
    tagged = read("wos-tagged.txt")
    article, talk = tagged.records
    assert article.title == "Robust training with L1 penalties"  # continued line
    assert article.authors == ("Asa Lindqvist", "Jean de la Fontaine")  # one per line
    assert (article.doi, article.pages, article.publisher) == (
        "10.5555/jmlr.2022.0001",
        "1-12",
        "MICROTOME PUBL",
    )
    assert article.tags == ("robustness", "regularization", "sparse models")
    assert article.extra["issued"] == {"date-parts": [[2022, 7]]}
    assert (talk.type, talk.extra["event-place"]) == ("paper-conference", "Santa Clara, CA")


def test_pubmed_medline_format() -> None:
    first, second = read("pubmed.nbib").records
    assert first.title == "Learning to rank proteins with graph neural networks."
    assert first.abstract.endswith("graph networks trained on structures.")
    assert first.author_names[1] == PersonName("Berg", "Jan", particle="van der")
    assert (first.pages, first.doi) == ("100-110", "10.1038/s41586-019-1234-5")  # "100-10"
    assert (first.extra["PMID"], first.extra["PMCID"], first.extra["ISSN"]) == (
        "31452104",
        "PMC6712345",
        "1476-4687",
    )
    assert first.extra["issued"] == {"date-parts": [[2019, 8]]}
    assert first.tags == ("protein ranking", "graph networks")
    assert (second.authors, second.venue, second.year) == (("W Chen",), "Science", 2018)


def test_damaged_records_are_skipped_and_stray_lines_reported() -> None:
    page = read("damaged.ris")
    assert [r.title for r in page.records] == ["A whole first record", "A whole book"]
    assert page.warnings == [
        "Skipped the record “A record that lost its end” on line 7: it has no end (‘ER  - ’) "
        "before the next record starts on line 10.",
        "Line 13 of the record “A whole book” (line 10) is not a RIS field and cannot "
        "continue ‘PY’; it was ignored: ‘this line is garbage inside a record’.",
        "Line 16 is not part of any record and was ignored: ‘<html>junk</html>’.",
        "Skipped the record “The last record has no end” on line 18: it has no end "
        "(‘ER  - ’) before the file ends.",
    ]
    assert page.records[1].year == 2003 and page.records[1].type == "book"


def test_a_byte_order_mark_and_utf16_do_not_lose_the_first_record() -> None:
    text = (BIB / "mendeley.ris").read_text(encoding="utf-8")
    assert len(parse_ris("\ufeff" + text).records) == 2
    page = load_bytes(text.encode("utf-16"), "export.ris").parse()
    assert [r.citekey for r in page.records] == ["Kowalski2017", "Dubois2001"]


@pytest.mark.parametrize(
    ("reader", "text", "reason"),
    [
        (parse_ris, "Shopping list: milk, eggs.", "holds no RIS records"),
        (parse_ris, "TY  - JOUR\nTI  - Never ends\n", "no record of the RIS file is whole"),
        (parse_wos, "FN Clarivate\nPT J\nTI x\n", "no record of the Web of Science file"),
        (parse_medline, "nothing here", "holds no MEDLINE records"),
    ],
)
def test_not_a_ris_file(reader: object, text: str, reason: str) -> None:
    with pytest.raises(NotABibliographyError, match=reason):
        reader(text)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("Smith, John", PersonName("Smith", "John")),
        ("Smith, J. A.", PersonName("Smith", "J. A.")),
        ("van der Berg, Jan", PersonName("Berg", "Jan", "van der")),
        ("Doe, John, Jr.", PersonName("Doe", "John", "", "Jr.")),
        ("World Health Organization", PersonName("World Health Organization", literal=True)),
        ("", None),
    ],
)
def test_ris_names(written: str, expected: PersonName | None) -> None:
    assert ris_person(written) == expected


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("C. Li", PersonName("Li", "C.")),
        ("M. D. Fox", PersonName("Fox", "M. D.")),
        ("Jane Q. Public", PersonName("Public", "Jane Q.")),
        ("J.-P. Sartre", PersonName("Sartre", "J.-P.")),
        ("Jan van der Berg", PersonName("Berg", "Jan", "van der")),
        ("Sammy Davis Jr.", PersonName("Davis", "Sammy", "", "Jr.")),
    ],
)
def test_a_name_written_given_name_first_is_a_person(written: str, expected: PersonName) -> None:
    assert ris_person(written) == expected


@pytest.mark.parametrize(
    "written",
    [
        "World Health Organization",
        "Human Genome Sequencing Consortium",
        "International Committee of Medical Journal Editors",
        "Open Science Collaboration",
        "R Core Team",
        "ACM SIGPLAN",
        "Alpha Beta Gamma Delta Epsilon",  # five words: more than a person's name has
        "Plato",
        "UNESCO",
        "Fox MD",  # Vancouver: the family name first, then initials
        "Li C.",
    ],
)
def test_a_name_without_a_comma_that_is_no_persons_stays_whole(written: str) -> None:
    assert ris_person(written) == PersonName(written, literal=True)


def test_a_chinese_japanese_or_korean_name_without_a_comma_is_family_name_first() -> None:
    """As such names are written (and as BibTeX's "李, 明" is read): 李明, not 明 李."""
    assert ris_person("李 明") == PersonName("李", "明")
    assert ris_person("山田　太郎") == PersonName("山田", "太郎")  # (an ideographic space)
    assert ris_person("李明") == PersonName("李明")  # one word: whole, as its family name
    assert PersonName("李", "明").display == "李明"


_IEEE = """TY  - JOUR
AU  - C. Li
AU  - M. D. Fox
AU  - World Health Organization
TI  - Level set evolution without re-initialization
T2  - IEEE Transactions on Image Processing
PY  - 2010
ER  -
"""


def test_ieee_xplore_authors_written_given_name_first_are_people(library: LibraryService) -> None:
    page = parse_ris(_IEEE)
    [r] = page.records
    assert r.author_names == (
        PersonName("Li", "C."),
        PersonName("Fox", "M. D."),
        PersonName("World Health Organization", literal=True),
    )
    assert r.authors == ("C. Li", "M. D. Fox", "World Health Organization")
    [pid] = library.import_pages([SourcedPage(page, "ieee.ris")]).new_ids
    paper = library.paper(pid)
    assert paper.citekey == "li2010level"
    names = [bib_name(p, ascii_only=False) for p in paper.author_names]
    assert names == ["Li, C.", "Fox, M. D.", "{World Health Organization}"]


def test_authors_and_editors_keep_the_files_order_when_tags_are_mixed() -> None:
    text = (
        "TY  - CHAP\nAU  - Smith, John\nA1  - Doe, Jane\nAU  - World Health Organization\n"
        "ED  - Roe, Richard\nA2  - Poe, Edgar\nED  - Moe, Mary\nTI  - A chapter\nER  - \n"
    )
    [r] = parse_ris(text).records
    assert r.authors == ("John Smith", "Jane Doe", "World Health Organization")
    assert r.authors_complete
    assert r.extra["editor"] == [
        {"family": "Roe", "given": "Richard"},
        {"family": "Poe", "given": "Edgar"},
        {"family": "Moe", "given": "Mary"},
    ]


def test_a_record_without_title_or_end_is_named_plainly() -> None:
    text = "TY  - JOUR\nTI  - Whole\nER  - \nTY  - JOUR\nPY  - 2003\nstray\n"
    page = parse_ris(text)
    assert [r.title for r in page.records] == ["Whole"]
    assert page.warnings == [
        "Line 6 of a record (line 4) is not a RIS field and cannot continue ‘PY’; it was "
        "ignored: ‘stray’.",
        "Skipped a record on line 4: it has no end (‘ER  - ’) before the file ends.",
    ]


@pytest.mark.parametrize("name", ["zotero.ris", "endnote.ris", "wos-tagged.txt", "pubmed.nbib"])
def test_import_then_reimport_adds_nothing(library: LibraryService, name: str) -> None:
    first = library.import_pages([SourcedPage(read(name), name)])
    assert first.new_ids
    again = library.import_pages([SourcedPage(read(name), name)])
    assert again.new_ids == () and again.merged_ids == () and again.batch_ids == ()


def test_the_same_paper_from_bibtex_and_ris_is_one_paper(library: LibraryService) -> None:
    bib = load_source(BIB / "zotero.bib").parse()
    library.import_pages([SourcedPage(bib, "zotero.bib")])
    result = library.import_pages([SourcedPage(read("zotero.ris"), "zotero.ris")])
    assert result.new_ids == ()  # every record is already in the library


_EXTENDED = """TY  - UNPB
AU  - 李明,
AU  - University of California, Berkeley
TI  - A Preprint
PB  - arXiv
PY  - 2023
SP  - 100–110
KW  - Neoplasms, Experimental
N1  - one two
ID  - 0042
C8  - {EXTENSION}
ER  -
""".replace(
    "{EXTENSION}",
    json.dumps(
        {
            "refman": {
                "author_names": [
                    {"family": "李明"},
                    {"literal": "University of California, Berkeley"},
                ],
                "citekey": "0042",
                "notes": ["one\ntwo"],
                "subjects": ["cs.LG"],
            }
        },
        ensure_ascii=False,
    ),
)


def test_refmans_extension_in_c8_wins_over_what_the_tags_suggest() -> None:
    [r] = parse_ris(_EXTENDED).records
    assert r.author_names == (
        PersonName("李明"),
        PersonName("University of California, Berkeley", literal=True),
    )
    assert r.authors == ("李明", "University of California, Berkeley")
    assert (r.citekey, r.notes, r.subjects) == ("0042", ("one\ntwo",), ("cs.LG",))
    assert (r.type, r.venue, r.publisher) == ("article", "arXiv", None)  # PB arXiv: a preprint
    assert (r.pages, r.tags) == ("100–110", ("Neoplasms, Experimental",))


@pytest.mark.parametrize(
    "c8", ["C8  - 17", 'C8  - {"other": {"citekey": "x"}}', 'C8  - {"refman": {"citekey": 5}}']
)
def test_a_c8_that_is_not_refmans_extension_changes_nothing(c8: str) -> None:
    plain = "\n".join(line for line in _EXTENDED.splitlines() if not line.startswith("C8"))
    odd = plain.replace("ER  -", c8 + "\nER  -")
    [r] = parse_ris(odd).records
    assert r.citekey is None and r.notes == ("one two",)  # an all-digit ID is a record number
    assert r.author_names[0] == PersonName("李明")  # "Family," is a person, not a body


def test_a_web_of_science_record_without_title_or_end_is_named_plainly() -> None:
    text = "FN Clarivate Analytics Web of Science\nVR 1.0\n"
    text += "PT J\nAU Smith, J\nTI Kept\nER\nPT J\nAU Doe, A\n"
    page = parse_wos(text)
    assert [r.title for r in page.records] == ["Kept"]
    assert any(w.startswith("Skipped a record on line 7: it has no end") for w in page.warnings), (
        page.warnings
    )


def test_a_title_holding_latex_is_kept_as_the_text_it_prints() -> None:
    """Zotero writes an arXiv paper's title as arXiv gives it, LaTeX and all."""
    text = "TY  - JOUR\nTI  - Fast $k$-means for Erd\\H{o}s graphs\nPY  - 2021\nER  - \n"
    [record] = parse_ris(text).records
    assert record.title == "Fast k-means for Erdős graphs"
