"""Round trip: a library exported as BibTeX, BibLaTeX, RIS or CSL-JSON and imported into an
empty library comes back paper by paper, with every field a person sees; imported into the
library it came from, it adds nothing and changes nothing (every record merges).

The library holds every kind of paper and awkward character (:mod:`kinds`), every whole
bibliography of ``tests/fixtures/bib`` (Zotero, Better BibTeX, JabRef, Mendeley, EndNote,
PubMed, Web of Science, Scopus, citation.js), every author page of ``tests/fixtures/pages``
and a few papers whose fields no format has a place for (:data:`AWKWARD`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from refman.core.export import ExportFormat, export_papers
from refman.core.importing.values import RecordStatus, SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperDetail
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord, PersonName
from tests.helpers.fixtures import FIXTURES, PAGES, page_from_bytes, read_page
from tests.unit.core.export.kinds import import_kinds

#: The formats that refman both exports and imports, with a file name of each.
FILES = {
    ExportFormat.BIBTEX: "library.bib",
    ExportFormat.BIBLATEX: "library.bib",
    ExportFormat.RIS: "library.ris",
    ExportFormat.CSL_JSON: "library.json",
}

#: Papers with what the formats' own fields cannot say; refman's extension says it.
AWKWARD = (
    ParsedRecord(
        title="Reading Notes on Shared Sensor Logs",
        title_provisional=False,
        abstract="Ends in a backslash \\",
        year=2021,
        venue="Workshop on Logs",
        authors=("University of California, Berkeley", "Maria de la Cruz", "李明"),
        author_names=(
            PersonName("University of California, Berkeley", literal=True),
            PersonName("de la Cruz", "Maria"),  # no particle: "de la" is part of the name
            PersonName("李明"),  # one name only, not an organisation
        ),
        authors_complete=True,
        type="paper-conference",
        pages="S12–S14",
        citekey="0042",
        extra={
            "note": "Kept for the reading group",  # a bibliographic note that reads as a note
            "status": "in press",
            "event-place": "Oslo",
            "accessed": {"date-parts": [[2024, 2, 29]]},
        },
        tags=("Logs; streaming", "Neoplasms, Experimental", "to read"),
        notes=("  Indented first line\n\n\nthen three breaks  ", "Accepted at ICML 2021"),
        status="reading",  # the reader's marks: JabRef's fields, refman's extension
        rating=4,
    ),
    ParsedRecord(
        title="Suggested Title From The Abstract",
        title_provisional=True,
        abstract="A record an author page gave without a title: {\\em emphasis} and $x_1$.",
        year=2019,
        authors=("Ana Lima",),
        author_names=(PersonName("Lima", "Ana"),),
        authors_complete=False,
        type="manuscript",
        url="https://example.org/a{b}c\\",
        citekey="lima2019suggested",
        subjects=("q-bio.GN", "cs.LG"),
    ),
)


def _fill(library: LibraryService) -> list[PaperDetail]:
    """Import every kind of paper, the fixtures and :data:`AWKWARD`; the papers."""
    import_kinds(library)
    files = [*sorted((FIXTURES / "bib").iterdir()), *sorted(PAGES.iterdir())]
    for path in [f for f in files if not f.name.startswith(("damaged", "not-"))]:
        library.import_pages([SourcedPage(read_page(path), path.name)])
    page = ParsedPage("", PageFormat.BIBTEX, None, list(AWKWARD))
    library.import_pages([SourcedPage(page, "awkward.bib")])
    return library.details(library.paper_ids())


def _seen(paper: PaperDetail, *, with_notes: bool) -> dict[str, Any]:
    """Every field of a paper that a person sees."""
    return {
        "title": paper.title,
        "title_provisional": paper.title_provisional,
        "authors": paper.authors,
        "author_names": paper.author_names,
        "authors_complete": paper.authors_complete,
        "year": paper.year,
        "venue": paper.venue,
        "subjects": paper.subjects,
        "abstract": paper.abstract,
        "abstract_text": paper.abstract_text,
        "doi": paper.doi,
        "arxiv_id": paper.arxiv_id,
        "url": paper.url,
        "type": paper.type,
        "citekey": paper.citekey,
        "volume": paper.volume,
        "issue": paper.issue,
        "pages": paper.pages,
        "publisher": paper.publisher,
        "extra": paper.extra,
        "tags": sorted(t.name for t in paper.tags),
        "attributed_to": sorted(paper.attributed_to),  # whose author pages brought it
        # the only exception: an export without notes leaves the notes out, as asked
        "notes": [n.text for n in paper.notes] if with_notes else [],
        "reading": (paper.status, paper.rating),
    }


def _page(text: str, fmt: ExportFormat) -> SourcedPage:
    page = page_from_bytes(text.encode("utf-8"), FILES[fmt])
    assert page.warnings == []
    return SourcedPage(page, FILES[fmt])


@pytest.mark.parametrize("with_notes", [False, True], ids=["without-notes", "with-notes"])
@pytest.mark.parametrize("fmt", list(FILES))
def test_an_export_imported_into_an_empty_library_gives_back_every_paper_whole(
    library: LibraryService, tmp_path: Path, fmt: ExportFormat, with_notes: bool
) -> None:
    papers = _fill(library)
    assert len(papers) > 50
    text = export_papers(papers, fmt, with_notes=with_notes)
    empty = LibraryService.open(tmp_path / "empty.sqlite")
    try:
        result = empty.import_pages([_page(text, fmt)])
        back = empty.details(empty.paper_ids())
    finally:
        empty.close()
    assert len(result.new_ids) == len(papers)
    twins = {str(p.citekey): p for p in back}
    assert sorted(twins) == sorted(str(p.citekey) for p in papers)
    for paper in papers:
        twin = twins[str(paper.citekey)]
        assert _seen(twin, with_notes=with_notes) == _seen(paper, with_notes=with_notes), (
            paper.citekey
        )


@pytest.mark.parametrize("fmt", list(FILES))
def test_an_export_imported_into_its_own_library_adds_and_changes_nothing(
    library: LibraryService, fmt: ExportFormat
) -> None:
    papers = _fill(library)
    page = _page(export_papers(papers, fmt, with_notes=True), fmt)
    ids = {p.citekey: p.id for p in papers}
    plan = library.plan_import([page])
    assert [(r.status, r.target_id, r.adds) for r in plan.records] == [
        (RecordStatus.MERGE, ids[r.record.citekey], ()) for r in plan.records
    ]
    assert len(plan.records) == len(papers)
    result = library.import_pages([page])
    assert (result.new_ids, result.merged_ids) == ((), ())
    assert sorted(result.unchanged_ids) == sorted(ids.values())
    after = library.details([p.id for p in papers])
    assert [(_seen(p, with_notes=True), p.modified) for p in after] == [
        (_seen(p, with_notes=True), p.modified) for p in papers
    ]
