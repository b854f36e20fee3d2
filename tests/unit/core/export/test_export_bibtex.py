"""BibTeX and BibLaTeX exports of a library holding every kind of paper, read back with
bibtexparser and pybtex and compared with the papers field by field."""

from __future__ import annotations

import calendar
import dataclasses
import re
from pathlib import Path

import pytest
from pybtex.database import Person

from refman.common.text import latex_to_text
from refman.core.export import ExportFormat, bibtex, export_papers
from refman.core.library import LibraryService
from refman.core.rules import ITEM_TYPES
from refman.core.values import PaperDetail, TagView
from refman.importers.bibtex import parse_bibtex
from refman.importers.records import PersonName
from tests.helpers.bibtex_program import typeset
from tests.helpers.fixtures import page_from_bytes
from tests.unit.core.export.bibcheck import (
    ENTRY_TYPES,
    MONTHS,
    decode,
    decoded_fields,
    expected_fields,
    parse_bibtexparser,
    parse_pybtex,
    people,
)
from tests.unit.core.export.kinds import SPECIALS, import_kinds

DIALECTS = [ExportFormat.BIBTEX, ExportFormat.BIBLATEX]
FILES = {
    ExportFormat.BIBTEX: "a.bib",
    ExportFormat.BIBLATEX: "a.bib",
    ExportFormat.RIS: "a.ris",
    ExportFormat.CSL_JSON: "a.json",
}


@pytest.fixture
def papers(library: LibraryService) -> list[PaperDetail]:
    return import_kinds(library)


@pytest.mark.parametrize("fmt", DIALECTS)
@pytest.mark.parametrize("with_notes", [False, True])
def test_bibtexparser_reads_back_every_field_of_every_paper(
    papers: list[PaperDetail], fmt: ExportFormat, with_notes: bool
) -> None:
    biblatex = fmt is ExportFormat.BIBLATEX
    entries = parse_bibtexparser(export_papers(papers, fmt, with_notes=with_notes))
    assert list(entries) == [p.citekey for p in papers]
    for paper in papers:
        kind, raw = entries[str(paper.citekey)]
        assert kind == ENTRY_TYPES[paper.type][biblatex], paper.citekey
        expected = expected_fields(paper, biblatex=biblatex, with_notes=with_notes)
        assert decoded_fields(raw, paper) == expected, paper.citekey


def _squash(text: str) -> str:
    return " ".join(text.split())


def _pybtex_person(person: Person) -> PersonName | str:
    given = [*person.first_names, *person.middle_names]
    parts = [
        decode(" ".join(person.last_names)),
        decode(" ".join(given)),
        decode(" ".join(person.prelast_names)),
        decode(" ".join(person.lineage_names)),
    ]
    if parts == ["others", "", "", ""]:
        return "others"
    last = " ".join(person.last_names)
    if last.startswith("{") and last.endswith("}") and not any(parts[1:]):
        return PersonName(decode(last[1:-1]), literal=True)
    return PersonName(parts[0], parts[1], parts[2], parts[3])


@pytest.mark.parametrize("fmt", DIALECTS)
def test_pybtex_reads_the_same_entries_without_a_complaint(
    papers: list[PaperDetail], fmt: ExportFormat
) -> None:
    text = export_papers(papers, fmt, with_notes=True)
    ours = parse_bibtexparser(text)
    theirs = parse_pybtex(text)
    assert list(theirs.entries) == list(ours)
    for key, (kind, raw) in ours.items():
        entry = theirs.entries[key]
        assert entry.type == kind
        for role in ("author", "editor"):
            got = [_pybtex_person(p) for p in entry.persons.get(role, [])]
            assert got == (people(raw[role]) if role in raw else []), (key, role)
        fields = {k: _squash(v) for k, v in entry.fields.items()}
        want = {k: _squash(v) for k, v in raw.items() if k not in ("author", "editor")}
        if "month" in want:  # pybtex expands the month macro
            want["month"] = calendar.month_name[MONTHS.index(want["month"]) + 1]
        assert fields == want, key


def test_bibtex_is_ascii_except_characters_latex_has_no_name_for_and_abstracts(
    papers: list[PaperDetail],
) -> None:
    text = export_papers(papers, ExportFormat.BIBTEX)
    for paper in papers:  # an abstract is written as refman keeps it: LaTeX source, in UTF-8
        text = text.replace(paper.abstract, "")
    assert {c for c in text if not c.isascii()} == set("中文")
    assert r"M{\"u}ller, J{\"u}rgen" in text
    assert r"Th{\d{i}} Minh" in text  # a dot below: accent by accent
    assert "Müller, Jürgen" in export_papers(papers, ExportFormat.BIBLATEX)


def test_every_special_character_is_escaped_and_braces_balance(
    papers: list[PaperDetail],
) -> None:
    text = export_papers(papers, ExportFormat.BIBTEX)
    title = re.search(r"title = \{(.*)\},\n", text)
    assert title is not None
    assert r"50{\%}" in text and r"{\$}5" in text and r"{\#}" in text and r"{\_}" in text
    assert r"{\textasciitilde}" in text and r"{\textasciicircum}" in text
    assert r"\{Revisited\}" in text  # a brace pair stays a pair
    assert r"lone \textbraceright{} closing" in text  # a lone brace cannot be \}
    depth = 0
    for char in text:  # BibTeX counts every brace, escaped or not
        depth += (char == "{") - (char == "}")
        assert depth >= 0
    assert depth == 0
    specials = set(SPECIALS.replace(" ", ""))  # the library does hold every one of them
    assert specials <= set(papers[0].title) and specials <= set(papers[0].abstract_text)


def test_titles_protect_capitals_and_keys_are_the_citation_keys(
    papers: list[PaperDetail],
) -> None:
    text = export_papers(papers, ExportFormat.BIBTEX)
    assert "{DNA:}" in text and "{GPUs}" in text and "{{\\r{A}}ngstr" in text
    assert "title = {{The} refman {Home} {Page}}" in text
    assert all(f"{{{p.citekey}," in text for p in papers)


def test_arxiv_preprints_are_misc_with_eprint_and_the_derived_link_is_left_out(
    papers: list[PaperDetail],
) -> None:
    preprint = papers[0]
    kind, raw = parse_bibtexparser(export_papers([preprint], ExportFormat.BIBTEX))[
        "doe2023attention"
    ]
    assert kind == "misc"
    assert (raw["eprint"], raw["archivePrefix"], raw["primaryClass"]) == (
        "2306.01234",
        "arXiv",
        "cs.LG",
    )
    assert "url" not in raw and "publisher" not in raw and "number" not in raw
    assert raw["author"].endswith(" and others")
    kind, raw = parse_bibtexparser(export_papers([preprint], ExportFormat.BIBLATEX))[
        "doe2023attention"
    ]
    assert kind == "online"
    assert (raw["eprinttype"], raw["eprintclass"], raw["date"]) == ("arxiv", "cs.LG", "2023-06")


def test_corporate_von_and_jr_names(papers: list[PaperDetail]) -> None:
    text = export_papers(papers, ExportFormat.BIBTEX)
    assert "author = {{World Health Organization}}" in text
    assert "van der Berg, Jan and Davis, Jr., Sammy and von Neumann-Kessler, Ludwig" in text


def test_notes_go_out_only_when_asked(papers: list[PaperDetail]) -> None:
    assert "annote" not in export_papers(papers, ExportFormat.BIBTEX)
    assert "annote = {Check section 4 {\\&} the 100{\\%} claim." in export_papers(
        papers, ExportFormat.BIBTEX, with_notes=True
    )


def test_no_papers_make_an_empty_file() -> None:
    assert export_papers([], ExportFormat.BIBTEX) == ""
    assert export_papers([], "biblatex") == ""


BIBTEX_TYPES = {"article-journal": "article", "article-magazine": "article"}
BIBTEX_TYPES |= {"article-newspaper": "article", "paper-conference": "inproceedings"}
BIBTEX_TYPES |= {"book": "book", "chapter": "incollection", "thesis": "phdthesis"}
BIBTEX_TYPES |= {"report": "techreport", "entry-encyclopedia": "incollection"}
BIBLATEX_TYPES = dict(BIBTEX_TYPES, thesis="thesis", report="report", article="online")
BIBLATEX_TYPES |= {"entry-encyclopedia": "inreference", "webpage": "online"}
BIBLATEX_TYPES |= {"post-weblog": "online", "dataset": "dataset", "software": "software"}
BIBLATEX_TYPES |= {"manuscript": "unpublished", "patent": "patent"}


@pytest.mark.parametrize("item_type", list(ITEM_TYPES))
def test_every_type_refman_knows_has_an_entry_type(
    papers: list[PaperDetail], item_type: str
) -> None:
    paper = dataclasses.replace(papers[2], type=item_type)
    for fmt, table in (
        (ExportFormat.BIBTEX, BIBTEX_TYPES),
        (ExportFormat.BIBLATEX, BIBLATEX_TYPES),
    ):
        text = export_papers([paper], fmt)
        parse_pybtex(text)
        [(kind, _raw)] = parse_bibtexparser(text).values()
        assert kind == table.get(item_type, "misc")


def test_a_published_paper_with_an_arxiv_id_keeps_its_own_link_and_publisher(
    papers: list[PaperDetail],
) -> None:
    journal = dataclasses.replace(papers[2], arxiv_id="2001.00001", subjects=("q-bio.GN",))
    [(kind, raw)] = parse_bibtexparser(export_papers([journal], ExportFormat.BIBTEX)).values()
    assert kind == "article"
    assert raw["url"] == journal.url and raw["publisher"] == "Mary Ann Liebert"
    assert (raw["eprint"], raw["primaryClass"]) == ("2001.00001", "q-bio.GN")
    assert raw["number"] == "3"  # the issue, not "arXiv:2001.00001"
    preprint = dataclasses.replace(papers[0], url="https://example.org/preprint")
    [(_kind, raw)] = parse_bibtexparser(export_papers([preprint], ExportFormat.BIBTEX)).values()
    assert raw["url"] == "https://example.org/preprint"


@pytest.mark.parametrize("fmt", DIALECTS)
def test_abstracts_go_out_as_refman_keeps_them_and_keywords_keep_their_commas(
    papers: list[PaperDetail], fmt: ExportFormat
) -> None:
    raw = "We use \\textbf{bold} & reach 95\\% with $\\alpha^{2}$ — {\\em DNA}.\n\nSecond."
    tags = (TagView(1, "Neoplasms, Experimental", None), TagView(2, "a; b", None))
    paper = dataclasses.replace(papers[2], abstract=raw, tags=tags)
    [(_kind, fields)] = parse_bibtexparser(export_papers([paper], fmt)).values()
    assert fields["abstract"] == raw  # it is LaTeX already: written as it is
    assert fields["keywords"] == "{Neoplasms, Experimental}, {a; b}"
    assert "x-refman" not in fields  # the entry says everything


@pytest.mark.parametrize("fmt", DIALECTS)
def test_braces_an_abstract_shows_are_written_as_braces(
    papers: list[PaperDetail], fmt: ExportFormat
) -> None:
    # an author page's abstract: its braces are text (refman shows them as typed)
    raw = "Fig. 1 shows {braces} in prose, a lone { one and \\emph{some} LaTeX."
    paper = dataclasses.replace(papers[2], abstract=raw, abstract_text=latex_to_text(raw))
    text = export_papers([paper], fmt)
    [(_kind, fields)] = parse_bibtexparser(text).values()
    assert fields["abstract"] == (
        "Fig. 1 shows \\{braces\\} in prose, a lone \\textbraceleft{} one and \\emph{some} LaTeX."
    )
    # as BibTeX prints it, and as refman reads it back: the text refman shows
    [back] = parse_bibtex(text.replace("x-refman", "x-ignored")).records
    assert latex_to_text(back.abstract) == paper.abstract_text
    assert paper.abstract_text == "Fig. 1 shows {braces} in prose, a lone { one and some LaTeX."


@pytest.mark.parametrize("fmt", DIALECTS)
def test_a_percent_sign_of_an_abstract_is_written_escaped(
    papers: list[PaperDetail], fmt: ExportFormat
) -> None:
    """An author page's "54.1%" went out bare: a comment to LaTeX, which hides the brace that
    closes the field in the ``.bbl`` biber writes, so that biblatex failed the document
    (whether or not the style prints abstracts). An escaped one stays as it is."""
    raw = "We reach 54.1% utilization (95\\% before) on $n$ GPUs."
    paper = dataclasses.replace(papers[2], abstract=raw, abstract_text=latex_to_text(raw))
    text = export_papers([paper], fmt)
    [(_kind, fields)] = parse_bibtexparser(text).values()
    assert fields["abstract"] == "We reach 54.1\\% utilization (95\\% before) on $n$ GPUs."
    [back] = parse_bibtex(text).records  # the abstract as refman kept it, by its extension
    assert (back.abstract, latex_to_text(back.abstract)) == (raw, paper.abstract_text)
    [back] = parse_bibtex(text.replace("x-refman", "x-ignored")).records
    assert latex_to_text(back.abstract) == "We reach 54.1% utilization (95% before) on n GPUs."


@pytest.mark.parametrize("fmt", [*DIALECTS, ExportFormat.RIS, ExportFormat.CSL_JSON])
def test_reading_status_and_stars_go_out_and_come_back(
    papers: list[PaperDetail], fmt: ExportFormat
) -> None:
    marked = [
        dataclasses.replace(papers[0], status="reading", rating=4),
        dataclasses.replace(papers[1], status="read"),
        papers[2],
    ]
    text = export_papers(marked, fmt)
    if fmt in DIALECTS:  # as JabRef writes them (and reads them)
        entries = parse_bibtexparser(text)
        assert entries[str(papers[0].citekey)][1]["readstatus"] == "skimmed"
        assert entries[str(papers[0].citekey)][1]["ranking"] == "rank4"
        assert entries[str(papers[1].citekey)][1]["readstatus"] == "read"
        assert "ranking" not in entries[str(papers[1].citekey)][1]
        assert "readstatus" not in entries[str(papers[2].citekey)][1]
        assert '"status"' not in text and '"rating"' not in text  # no need of the extension
    records = {r.citekey: r for r in page_from_bytes(text.encode(), FILES[fmt]).records}
    assert [(records[p.citekey].status, records[p.citekey].rating) for p in marked] == [
        ("reading", 4),
        ("read", None),
        (None, None),
    ]


def test_a_name_whose_family_name_starts_in_lower_case_is_kept_whole(
    papers: list[PaperDetail],
) -> None:
    names = (PersonName("de la Cruz", "Maria"), PersonName("Cruz", "Ana", "de la"))
    paper = dataclasses.replace(papers[2], author_names=names)
    text = export_papers([paper], ExportFormat.BIBTEX)
    assert "author = {{de la Cruz}, Maria and de la Cruz, Ana}" in text


def test_a_long_export_written_in_pieces_on_two_cores_is_the_file_written_alone(
    papers: list[PaperDetail], monkeypatch: pytest.MonkeyPatch
) -> None:
    """6,000 entries in pieces (half of them written by a helper process), each citation key
    twice: the same text as the file written whole, every entry read back once, the keys
    unique across the pieces."""
    many = [
        dataclasses.replace(papers[i % len(papers)], id=i + 1, citekey=f"k{i % 3000}")
        for i in range(6000)
    ]
    split = export_papers(many, ExportFormat.BIBTEX)
    monkeypatch.setattr(bibtex, "PIECE", len(many))  # one piece, written here
    assert split == export_papers(many, ExportFormat.BIBTEX)
    entries = parse_bibtexparser(split)
    assert list(entries) == [f"k{i}" for i in range(3000)] + [f"k{i}-2" for i in range(3000)]


def test_a_papers_language_is_biblatexs_langid_and_bibtexs_language(
    library: LibraryService,
) -> None:
    from refman.core.importing.values import SourcedPage
    from refman.importers.bibtex import parse_bibtex

    entry = "@article{k,\n  title = {Sprache},\n  author = {Ott, Ida},\n  langid = {ngerman},\n}\n"
    (paper,) = library.import_pages([SourcedPage(parse_bibtex(entry), "de.bib")]).new_ids
    biblatex = parse_bibtexparser(library.export([paper], "biblatex"))["k"][1]
    assert (biblatex.get("langid"), biblatex.get("language")) == ("ngerman", None)
    assert parse_bibtexparser(library.export([paper], "bibtex"))["k"][1]["language"] == "ngerman"


def test_a_key_made_safe_for_bibtex_never_takes_another_entrys_key_or_other_key(
    papers: list[PaperDetail],
) -> None:
    """Keys BibTeX cannot read ("smith 2020", "smith,2020" → "smith-2020") are made up; a
    made-up key is never the key or one of the other keys (``ids``) of another entry of the
    file: biber and bibtex would read two entries for one key."""
    a, b, c, d = (dataclasses.replace(papers[i % len(papers)], id=i + 1) for i in range(4))
    many = [
        dataclasses.replace(a, citekey="smith 2020"),
        dataclasses.replace(b, citekey="smith,2020"),
        dataclasses.replace(c, citekey="smith-2020", aliases=("smith-2020-2",)),
        dataclasses.replace(d, citekey="jones2021", aliases=("smith-2020-3",)),
    ]
    entries = parse_bibtexparser(export_papers(many, ExportFormat.BIBLATEX))
    assert list(entries) == ["smith-2020-4", "smith-2020-5", "smith-2020", "jones2021"]
    named = [
        k
        for key, (_, fields) in entries.items()
        for k in [key, *fields.get("ids", "").split(", ")]
        if k
    ]
    assert len(named) == len(set(named)) == 6


def test_keys_that_differ_beyond_ascii_case_stay_as_they_are(papers: list[PaperDetail]) -> None:
    """BibTeX (and refman) compare keys ignoring the case of ASCII letters only: straße2020
    and STRASSE2020, Ørsted1820 and ørsted1820 are two keys, written as they are."""
    keys = ("straße2020", "STRASSE2020", "Ørsted1820", "ørsted1820")
    many = [
        dataclasses.replace(papers[i % len(papers)], id=i + 1, citekey=key)
        for i, key in enumerate(keys)
    ]
    assert list(parse_bibtexparser(export_papers(many, ExportFormat.BIBLATEX))) == list(keys)


def test_a_key_with_an_apostrophe_is_written_as_it_is(
    papers: list[PaperDetail], tmp_path: Path
) -> None:
    """BibTeX takes O'Neil2020 (and LaTeX's \\cite of it): the export keeps it."""
    paper = dataclasses.replace(papers[0], citekey="O'Neil2020")
    bbl = typeset(export_papers([paper], ExportFormat.BIBTEX), tmp_path)
    assert "\\bibitem{O'Neil2020}" in bbl
