"""RIS, CSL-JSON and CSV exports of a library holding every kind of paper, read back with
rispy, jsonschema + json and csv and compared with the papers field by field."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import rispy
from jsonschema import Draft7Validator

from refman.common.errors import NotFoundError
from refman.core.csl import csl_item
from refman.core.export import ExportFormat, export_papers
from refman.core.export.csljson import csl_schema_errors
from refman.core.export.ris import ris_name
from refman.core.library import LibraryService
from refman.core.values import PaperDetail
from refman.importers.records import PersonName
from tests.unit.core.export.kinds import extension_of, import_kinds

SCHEMA = Path(__file__).resolve().parents[4] / "refman" / "data" / "csl-data.json"
RIS_TYPES = {
    "article": "UNPB",
    "paper-conference": "CPAPER",
    "article-journal": "JOUR",
    "book": "BOOK",
    "chapter": "CHAP",
    "report": "RPRT",
    "thesis": "THES",
    "webpage": "ELEC",
}


@pytest.fixture
def papers(library: LibraryService) -> list[PaperDetail]:
    return import_kinds(library)


def _line(text: str) -> str:
    return " ".join(text.split())


def _ris_name(p: PersonName) -> str:
    if p.literal:
        return p.family
    family = f"{p.particle} {p.family}".strip()
    return ", ".join([family, p.given, *([p.suffix] if p.suffix else [])])


def _ris_expected(paper: PaperDetail, with_notes: bool) -> dict[str, Any]:
    issued = paper.extra.get("issued", {}).get("date-parts", [[paper.year]])[0]
    out: dict[str, Any] = {
        "type_of_reference": RIS_TYPES[paper.type],
        "title": paper.title,
        "year": str(paper.year),
        "id": paper.citekey,
    }
    if paper.author_names:
        out["authors"] = [_ris_name(p) for p in paper.author_names]
    if "editor" in paper.extra:
        out["secondary_authors"] = [f"{e['family']}, {e['given']}" for e in paper.extra["editor"]]
    if len(issued) > 1:
        out["date"] = "/".join(f"{p:02d}" for p in issued)
    arxiv_venue = paper.venue == "arXiv" and not paper.arxiv_id
    simple = {
        "secondary_title": paper.venue if paper.venue != "arXiv" else None,
        "volume": paper.volume,
        "number": paper.issue,
        # the item's publisher "arXiv" goes out only when no arXiv id (in AN) says it
        "publisher": paper.publisher or ("arXiv" if arxiv_venue else None),
        "note": paper.extra.get("number"),
        "doi": paper.doi,
        "place_published": paper.extra.get("publisher-place"),
        "edition": paper.extra.get("edition"),
        "issn": paper.extra.get("ISBN") or paper.extra.get("ISSN"),
        "abstract": _line(paper.abstract_text) or None,
    }
    out.update({k: v for k, v in simple.items() if v})
    if paper.pages and re.fullmatch(r"\d+-\d+", paper.pages):  # a range RIS readers rebuild
        first, _, last = paper.pages.partition("-")
        out.update(start_page=first, end_page=last)
    elif paper.pages:  # "100–110" stays whole, so that the en dash comes back
        out["start_page"] = paper.pages
    if paper.arxiv_id:  # the arXiv id and its link (not "arXiv" as the publisher)
        out["accession_number"] = f"arXiv:{paper.arxiv_id}"
    url = paper.url or (f"https://arxiv.org/abs/{paper.arxiv_id}" if paper.arxiv_id else None)
    if url:
        out["urls"] = [url]
    if paper.tags:
        out["keywords"] = [t.name for t in paper.tags]
    if with_notes and paper.notes:
        out["notes"] = [_line(n.text) for n in paper.notes]
    return out


@pytest.mark.parametrize("with_notes", [False, True])
def test_rispy_reads_back_every_field_of_every_paper(
    papers: list[PaperDetail], with_notes: bool
) -> None:
    text = export_papers(papers, ExportFormat.RIS, with_notes=with_notes)
    assert text.startswith("TY  - UNPB\n")  # no "1." header lines
    records = rispy.loads(text)
    assert len(records) == len(papers)
    for paper, record in zip(papers, records, strict=True):
        extension = json.loads(record.pop("custom8", "{}")).get("refman", {})
        assert record == _ris_expected(paper, with_notes), paper.citekey
        assert extension == extension_of("ris", paper, with_notes=with_notes), paper.citekey


def test_ris_values_stay_on_one_line(papers: list[PaperDetail]) -> None:
    text = export_papers(papers, ExportFormat.RIS, with_notes=True)
    assert all(line == "" or line[2:6] == "  - " for line in text.splitlines())


def _validator() -> Draft7Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema)


@pytest.mark.parametrize("with_notes", [False, True])
def test_csl_json_validates_against_the_official_schema_and_holds_every_field(
    papers: list[PaperDetail], with_notes: bool
) -> None:
    data = json.loads(export_papers(papers, ExportFormat.CSL_JSON, with_notes=with_notes))
    assert not list(_validator().iter_errors(data))
    for paper, item in zip(papers, data, strict=True):
        expected = dict(csl_item(paper), **{"citation-key": paper.citekey})
        if with_notes and paper.notes:
            expected["annote"] = "\n\n".join(n.text for n in paper.notes)
        extension = extension_of("csl-json", paper, with_notes=with_notes)
        if extension:
            expected["custom"] = {"refman": extension}
        assert item == expected, paper.citekey
        assert (item["id"], item["title"], item["type"]) == (paper.citekey, paper.title, paper.type)
        assert item["issued"]["date-parts"][0][0] == paper.year
        assert item.get("DOI") == paper.doi and item.get("volume") == paper.volume
        assert item.get("abstract", "") == paper.abstract_text
        assert item.get("keyword", "") == ", ".join(t.name for t in paper.tags)


def test_csl_json_keeps_variables_the_schema_does_not_know_under_custom(
    papers: list[PaperDetail],
) -> None:
    odd = papers[0]
    odd = type(odd)(**{**_fields(odd), "extra": {"weird-key": 1, "ISBN": ["not", "text"]}})
    [item] = json.loads(export_papers([odd], ExportFormat.CSL_JSON))
    assert not list(_validator().iter_errors([item]))
    ours = item["custom"].pop("refman")
    assert item["custom"] == {"weird-key": 1, "ISBN": ["not", "text"]}
    # refman's reader takes no variable from another program's "custom": its own extension
    # holds them for refman
    assert ours["extra"] == {"weird-key": 1, "ISBN": ["not", "text"]}


def _fields(paper: PaperDetail) -> dict[str, Any]:
    return {name: getattr(paper, name) for name in paper.__slots__}


@pytest.mark.parametrize("with_notes", [False, True])
def test_csv_reads_back_every_field_of_every_paper(
    papers: list[PaperDetail], with_notes: bool
) -> None:
    text = export_papers(papers, ExportFormat.CSV, with_notes=with_notes)
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert len(rows) == len(papers)
    assert ("notes" in rows[0]) is with_notes
    for paper, row in zip(papers, rows, strict=True):
        authors = [p.display for p in paper.author_names]
        if authors and not paper.authors_complete:
            authors.append("et al.")
        assert row["citekey"] == paper.citekey and row["type"] == paper.type
        assert row["title"] == paper.title and row["abstract"] == paper.abstract_text
        assert row["authors"] == "; ".join(authors)
        assert row["year"] == str(paper.year) and row["date"].startswith(str(paper.year))
        assert row["venue"] == ("" if paper.venue in (None, "arXiv") else paper.venue)
        for column in ("volume", "issue", "pages", "doi"):
            assert row[column] == (getattr(paper, column) or "")
        assert row["publisher"] == csl_item(paper).get("publisher", "")
        arxiv_link = f"https://arxiv.org/abs/{paper.arxiv_id}" if paper.arxiv_id else ""
        assert row["url"] == (paper.url or arxiv_link)
        assert row["arxiv"] == (paper.arxiv_id or "")
        assert row["keywords"] == "; ".join(t.name for t in paper.tags)
        assert row["isbn"] == paper.extra.get("ISBN", "")
        if with_notes:
            assert row["notes"] == "\n\n".join(n.text for n in paper.notes)


def test_the_service_exports_in_the_order_given_and_refuses_a_missing_paper(
    library: LibraryService, papers: list[PaperDetail]
) -> None:
    ids = [papers[2].id, papers[0].id, papers[2].id]
    data = json.loads(library.export(ids, "csl-json"))
    assert [item["id"] for item in data] == [papers[2].citekey, papers[0].citekey]
    assert library.export([], ExportFormat.CSV).startswith("citekey,type,title,")
    with pytest.raises(NotFoundError):
        library.export([papers[0].id, 9999], ExportFormat.BIBTEX)
    with pytest.raises(ValueError):
        library.export([papers[0].id], "word")


def test_formats_know_their_labels_and_file_suffixes() -> None:
    assert [(f.value, f.label, f.suffix) for f in ExportFormat] == [
        ("bibtex", "BibTeX", ".bib"),
        ("biblatex", "BibLaTeX", ".bib"),
        ("ris", "RIS", ".ris"),
        ("csl-json", "CSL-JSON", ".json"),
        ("csv", "CSV", ".csv"),
    ]


def test_checking_items_by_shape_finds_what_checking_each_item_finds() -> None:
    items: list[dict[str, Any]] = [
        {"id": "a", "type": "article", "ISBN": ["x"], "issued": {"date-parts": [[2020, 1, 1, 5]]}},
        {"id": "b", "type": "journal-article", "title": "T"},
        {"type": "book"},
        {"id": "c", "type": "article", "ISBN": ["y"], "issued": {"date-parts": [[2021, 2, 2, 6]]}},
        {"id": 4, "type": "book", "author": [{"family": "X", "given": 3}], "custom": 1},
        {"id": "d", "type": "article", "issued": {"date-parts": [[2020, 1, 1]]}, "note": True},
    ]
    full = {
        (e.absolute_path[0], tuple(e.absolute_path)[1:]) for e in _validator().iter_errors(items)
    }
    by_shape = {
        (int(line.split("/")[0].split(":")[0]), tuple(line.split(": ")[0].split("/")[1:]))
        for line in csl_schema_errors(items)
    }
    # item 3 has item 0's shape: its problems are reported once, under item 0
    same_shape = {(3, ("ISBN",)), (3, ("issued",))}
    assert {(i, tuple(map(str, p))) for i, p in full} - same_shape == by_shape
    assert csl_schema_errors(items[5:]) == ["0/note: True is not of type 'string'"]


def test_csv_cells_that_look_like_formulas_are_kept_as_text(library: LibraryService) -> None:
    from refman.core.importing.values import SourcedPage
    from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

    hostile = ParsedRecord('=HYPERLINK("http://evil.example")', False, "@SUM(A1:A9) abstract")
    page = ParsedPage("", PageFormat.BIBTEX, None, [hostile])
    [pid] = library.import_pages([SourcedPage(page, "x.bib")]).new_ids
    [row] = csv.DictReader(io.StringIO(library.export([pid], ExportFormat.CSV), newline=""))
    assert row["title"] == '\'=HYPERLINK("http://evil.example")'
    assert row["abstract"] == "'@SUM(A1:A9) abstract"


def test_an_edited_year_is_the_year_of_every_export_and_citation(
    library: LibraryService,
) -> None:
    """A bibliography gave a full date (Zotero writes a month for nearly every entry); the
    person corrects the year: citations and exports say the new year, not the old date."""
    from refman.core.importing.values import SourcedPage
    from refman.importers import parse_text

    bib = "@article{m1, title={Test paper}, author={Doe, Jane}, journal={J}, year=2020, month=jan}"
    [pid] = library.import_pages([SourcedPage(parse_text(bib, "m.bib"), "m.bib")]).new_ids
    assert "Jan. 2020" in library.cite([pid], "ieee")
    library.edit_fields(pid, year=2021)
    assert library.cite([pid], "apa").startswith("Doe, J. (2021).")
    assert "2020" not in library.cite([pid], "ieee")
    assert "  year = 2021," in library.export([pid], ExportFormat.BIBTEX)
    [entry] = rispy.loads(library.export([pid], ExportFormat.RIS))
    assert entry["year"] == "2021" and "2020" not in entry.get("date", "")
    [row] = csv.DictReader(io.StringIO(library.export([pid], ExportFormat.CSV), newline=""))
    assert (row["year"], row["date"]) == ("2021", "2021")
    [item] = json.loads(library.export([pid], ExportFormat.CSL_JSON))
    assert item["issued"] == {"date-parts": [[2021]]}
    library.edit_fields(pid, year=None)
    assert "issued" not in json.loads(library.export([pid], ExportFormat.CSL_JSON))[0]
    library.edit_fields(pid, year=2020)  # the year the date was given for: the date again
    assert "Jan. 2020" in library.cite([pid], "ieee")


def test_an_entry_without_a_title_is_exported_without_one(
    library: LibraryService, tmp_path: Path
) -> None:
    # refman shows "Untitled record" for a bibliography entry without a title; an export
    # must not print that as the paper's title.
    from refman.core.importing.values import SourcedPage
    from refman.importers.bibtex import parse_bibtex

    bib = "@misc{nt1, author = {One, Ann}, howpublished = {Personal communication}, year = 1999}"
    [pid] = library.import_pages([SourcedPage(parse_bibtex(bib), "nt.bib")]).new_ids
    assert library.paper(pid).title == "Untitled record"  # what the window shows
    for fmt in ExportFormat:
        assert "Untitled" not in library.export([pid], fmt), fmt
    [item] = json.loads(library.export([pid], ExportFormat.CSL_JSON))
    assert "title" not in item and not csl_schema_errors([item])
    [entry] = rispy.loads(library.export([pid], ExportFormat.RIS))
    assert entry["authors"] == ["One, Ann"] and "title" not in entry


@pytest.mark.parametrize(
    ("person", "written"),
    [
        (PersonName("Berg", "Jan", "van der"), "van der Berg, Jan"),
        (PersonName("Davis", "Sammy", suffix="Jr."), "Davis, Sammy, Jr."),
        (PersonName("李明"), "李明,"),  # one name, a person: the comma says it is no body
        (PersonName("World Health Organization", literal=True), "World Health Organization"),
    ],
)
def test_ris_names(person: PersonName, written: str) -> None:
    assert ris_name(person) == written
