"""Revision 0028: an abstract that only says there is none names no paper. The keys an older
refman made of such abstracts — a paper's abstract key and blocking keys, and the key kept
for a paper merged into another — go when a library is upgraded, and only those."""

from __future__ import annotations

from alembic import command
from sqlalchemy import Engine, text

from refman.common.text import normalize_for_match
from refman.core.importing.values import RecordStatus, SourcedPage
from refman.core.library import LibraryService
from refman.core.matching import key_hash, make_keys, match_keys
from refman.core.paper_merge import MergePapers
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from refman.store import schema

PLACEHOLDER = "No abstract available."
REAL = (
    "We measure how coral reefs sound at night with hydrophones moored for a year, and tell "
    "the snapping of shrimp from the calls of fish."
)


def _page(*records: ParsedRecord) -> list[SourcedPage]:
    page = ParsedPage("Ada Ng", PageFormat.PUBLICATION_LIST, len(records), list(records))
    return [SourcedPage(page, "ng.txt")]


def _record(title: str, abstract: str) -> ParsedRecord:
    return ParsedRecord(title, False, abstract, year=2021, authors=("Ada Ng",))


def _as_of_0027(engine: Engine, paper_ids: list[int], merged: tuple[int, int]) -> None:
    """Take the library down to revision 0027 and give it the keys refman of that revision
    made: the placeholder's abstract key and blocking keys, and its key kept for the paper
    merged (``merged``: the merged paper, the paper kept)."""
    cfg = schema._alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0027")
    norm = normalize_for_match(PLACEHOLDER)
    old = make_keys(None, norm)  # (the keys without the rule)
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM library_tasks"))  # (the downgrade's: a library of 0027)
        for paper_id in paper_ids:
            conn.execute(
                text("UPDATE papers SET abstract_key = :key WHERE id = :id"),
                {"key": key_hash("abstract", norm), "id": paper_id},
            )
            for block in old.blocks:
                conn.execute(
                    text("INSERT INTO match_blocks (key, paper_id) VALUES (:key, :id)"),
                    {"key": block, "id": paper_id},
                )
        conn.execute(
            text(
                "INSERT INTO merged_keys (merged_id, kind, key, value, paper_id) "
                "VALUES (:merged, 'abstract', :key, :value, :kept)"
            ),
            {
                "merged": merged[0],
                "key": key_hash("abstract", norm),
                "value": norm,
                "kept": merged[1],
            },
        )


def test_an_older_librarys_keys_of_placeholders_go_and_the_others_stay(
    library: LibraryService, library_location: str
) -> None:
    coral, kernels, real = library.import_pages(
        _page(
            _record("Coral reef acoustics", PLACEHOLDER),
            _record("Sparse attention kernels", PLACEHOLDER),
            _record("Tidal mixing in fjords", REAL),
        )
    ).new_ids
    (other,) = library.import_pages(
        _page(_record("Sparse attention kernels, again", PLACEHOLDER))
    ).new_ids
    library.apply(MergePapers(kernels, other))
    with library.db.engine.connect() as conn:
        real_keys = conn.execute(
            text("SELECT abstract_key FROM papers WHERE id = :id"), {"id": real}
        ).scalar_one()
    _as_of_0027(library.db.engine, [coral, kernels], (other, kernels))
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        with upgraded.db.engine.connect() as conn:
            rows = conn.execute(text("SELECT id, abstract_key FROM papers")).all()
            keys: dict[int, int | None] = {int(i): k for i, k in rows}
            blocks = conn.execute(
                text("SELECT key FROM match_blocks WHERE paper_id = :id ORDER BY key"),
                {"id": coral},
            ).scalars()
            merged = conn.execute(text("SELECT kind FROM merged_keys WHERE kind = 'abstract'"))
            assert merged.all() == []
            assert list(blocks) == sorted(match_keys("Coral reef acoustics", False, "").blocks)
        assert keys[coral] is None and keys[kernels] is None
        assert keys[real] == real_keys is not None  # (a real abstract's key stays)
        # an import of another paper with the placeholder: a paper of its own
        later = _page(_record("Graph partitioning at scale", PLACEHOLDER))
        (record,) = upgraded.plan_import(later).records
        assert record.status is RecordStatus.NEW
        again = _page(_record("Tidal mixing", REAL))
        (same,) = upgraded.plan_import(again).records
        assert same.status is RecordStatus.MERGE and same.target_id == real
    finally:
        upgraded.close()
