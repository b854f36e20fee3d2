"""An abstract that only says there is none ("No abstract available.", "N/A", "Résumé non
disponible") names no paper: two unrelated papers that carry the same one stay two papers,
are no look-alikes and are not related; the paper keeps it as given, and a merge takes it
for no abstract."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlalchemy import select

from refman.core.importing.values import RecordStatus, SourcedPage
from refman.core.library import LibraryService
from refman.core.matching import match_keys
from refman.core.paper_merge import MergePapers
from refman.core.placeholder_abstracts import is_placeholder_abstract
from refman.importers import parse_text
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from refman.store.models import Paper

#: Placeholders as pages and databases write them.
PLACEHOLDERS = [
    "Abstract not available.",
    "No abstract available.",
    "No abstract",
    "Abstract: Not available",
    "This article has no abstract.",
    "[No abstract available]",
    "Abstract unavailable.",
    "Not available",
    "N/A",
    "Abstract forthcoming",
    "To appear.",
    "Summary not available",
    "Résumé non disponible",
    "Kein Abstract verfügbar",
    "Sin resumen",
    "Resumo não disponível",
    "Аннотация отсутствует",
    "暂无摘要",
    "No abstract is available for this article.",
    "Il n'y a pas de résumé pour cet article.",
]

_REAL = (
    "We measure how coral reefs sound at night with hydrophones moored for a year, and "
    "tell the snapping of shrimp from the calls of fish."
)


def _bib(entries: list[tuple[str, str]]) -> str:
    """A bibliography of one author's papers: (title, abstract) each."""
    return "\n".join(
        f"@article{{ng{i},\n  author = {{Ng, Ada and Berg, Tomas}},\n  title = {{{title}}},\n"
        f"  journal = {{Journal of Tests}},\n  year = {{2021}},\n  abstract = {{{abstract}}},\n}}"
        for i, (title, abstract) in enumerate(entries)
    )


def test_the_placeholders_are_told_and_real_abstracts_are_not() -> None:
    assert all(is_placeholder_abstract(text) for text in PLACEHOLDERS)
    for text in ("", _REAL, "To appear in the proceedings of ICML.", "We study graphs."):
        assert not is_placeholder_abstract(text), text
    keys = match_keys("Coral reef acoustics", False, "No abstract is available for this article.")
    assert keys.abstract is None and [kind for kind, _ in keys.exact] == ["title"]


def test_papers_of_one_author_with_the_same_placeholder_stay_two_papers(
    library: LibraryService,
) -> None:
    """Every placeholder twice, under two unrelated titles of the same two authors: each
    record is a paper of its own, with its abstract as the bibliography gave it."""
    entries = [
        (f"{topic} study number {i}", placeholder)
        for i, placeholder in enumerate(PLACEHOLDERS)
        for topic in ("Coral reef acoustics", "Sparse attention kernels")
    ]
    pages = [SourcedPage(parse_text(_bib(entries)), "ng.bib")]
    plan = library.plan_import(pages)
    assert {r.status for r in plan.records} == {RecordStatus.NEW}
    result = library.import_pages(pages)
    assert len(result.new_ids) == len(entries) == len(library.paper_ids())
    by_title = {library.paper(i).title: library.paper(i).abstract for i in result.new_ids}
    assert by_title == dict(entries)  # kept as given
    # and a later import of another such paper is a new paper too, no look-alike
    later = [SourcedPage(parse_text(_bib([("Tidal mixing in fjords", "Abstract: not available")])))]
    (record,) = library.plan_import(later).records
    assert record.status is RecordStatus.NEW and record.similarity is None
    assert len(library.import_pages(later).new_ids) == 1


def test_a_placeholder_gives_a_paper_no_abstract_key(library: LibraryService) -> None:
    pages = [SourcedPage(parse_text(_bib([("Coral reef acoustics", "No abstract available.")])))]
    (paper_id,) = library.import_pages(pages).new_ids
    with library.db.reading() as session:
        key = session.scalar(select(Paper.abstract_key).where(Paper.id == paper_id))
    assert key is None


def test_a_real_abstract_replaces_a_placeholder_and_a_placeholder_fills_in_nothing(
    library: LibraryService,
) -> None:
    first = [SourcedPage(parse_text(_bib([("Coral reef acoustics", "Abstract not available.")])))]
    (paper_id,) = library.import_pages(first).new_ids
    again = [SourcedPage(parse_text(_bib([("Coral reef acoustics", _REAL)])))]
    (record,) = library.plan_import(again).records
    assert record.status is RecordStatus.MERGE and "the abstract" in record.adds
    library.import_pages(again)
    assert library.paper(paper_id).abstract == _REAL
    # a paper without abstract merged with one whose abstract is a placeholder stays without
    kept, other = library.import_pages(
        [
            SourcedPage(
                parse_text(
                    _bib([("Tidal mixing in fjords", ""), ("Tidal mixing in the fjords", "N/A")])
                )
            )
        ],
    ).new_ids
    merged = library.apply(MergePapers(kept, other)).value
    assert "the abstract" not in merged.added and library.paper(kept).abstract == ""


@pytest.mark.parametrize("placeholder", ["Abstract not available.", "Résumé non disponible"])
def test_papers_sharing_only_a_placeholder_are_not_related(
    library: LibraryService, placeholder: str
) -> None:
    records = [
        ParsedRecord(title, False, placeholder, year=2020)
        for title in ("Coral reef acoustics", "Sparse attention kernels", "Tidal mixing")
    ]
    page = ParsedPage("Ada Ng", PageFormat.PUBLICATION_LIST, len(records), records)
    ids = library.import_pages([SourcedPage(page)], at=datetime(2024, 1, 1)).new_ids
    assert len(ids) == 3
    assert library.related(ids[0]) == []
