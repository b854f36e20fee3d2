"""The record of an import: a batch per page, the papers each brought, and how to undo it."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime

from sqlalchemy.orm import Session

from refman.common.text import person_key
from refman.core.importing.values import FOUND, RecordOutcome, SourcedPage
from refman.core.paper_state import PaperState
from refman.core.registry import Registry
from refman.store.bulk import bulk_insert
from refman.store.connection import writer
from refman.store.models import BatchPaper, ImportBatch


def batch_actions(records: Sequence[RecordOutcome]) -> dict[int, str]:
    """What a page's batch records about each paper: "added", "merged" or "found".

    A paper the page made is "added"; a paper it found again is "merged" when the page added
    something to it, or when the paper is new in this import (the page brought it too), and
    "found" when it was in the library and the page brought nothing new about it.
    """
    rank = {"added": 0, "merged": 1, FOUND: 2}
    actions: dict[int, str] = {}
    for r in records:
        if r.paper_id is None:
            continue
        if r.created:
            action = "added"
        elif not r.in_library or r.updated:
            action = "merged"
        else:
            action = FOUND
        if rank[action] < rank[actions.get(r.paper_id, FOUND)] or r.paper_id not in actions:
            actions[r.paper_id] = action
    return actions


def _given(session: Session, ids: Sequence[int], page: int) -> int | None:
    """A page's batch id given back, if no batch holds it (else one never given)."""
    if page < len(ids) and session.get(ImportBatch, ids[page]) is None:
        return ids[page]
    return None


def write_batches(
    session: Session,
    pages: Sequence[SourcedPage],
    outcomes: Sequence[RecordOutcome],
    registry: Registry,
    now: datetime,
    before: Mapping[int, PaperState],
    raw: Mapping[tuple[int, int], str],
    tags: Sequence[str] = (),
    ids: Sequence[int] = (),
) -> list[int]:
    """Record an import: one batch per page, with the papers it added or changed, the state
    each changed paper had before (for undo), the raw records the pages held, and (on the
    first batch) what the import created and the tags it put on papers (``applied_tags``:
    a revert keeps every other tag). ``ids``: the batches' ids a Redo gives back (the undo
    deleted those batches), by page."""
    batch_ids: list[int] = []
    snapshotted: set[int] = set()
    for pi, sp in enumerate(pages):
        owner_id = registry.persons.get(person_key(sp.page.owner)) if sp.page.owner else None
        batch = ImportBatch(
            id=_given(session, ids, pi),
            imported_at=now,
            source=sp.source,
            owner_id=owner_id,
            format=str(sp.page.format),
            claimed=sp.page.claimed,
            parsed=len(sp.page.records),
            warnings=json.dumps(list(sp.page.warnings)),
            created=json.dumps({**registry.created, "applied_tags": list(tags)} if pi == 0 else {}),
            imported_by=writer(session),
        )
        batch.import_id = batch_ids[0] if batch_ids else 0
        session.add(batch)
        session.flush()
        if not batch_ids:
            batch.import_id = batch.id
        batch_ids.append(batch.id)
        rows = []
        mine = [r for r in outcomes if r.ref[0] == pi]
        for pid, action in batch_actions(mine).items():
            snapshot = None
            if action == "merged" and pid in before and pid not in snapshotted:
                snapshot = json.dumps(before[pid].to_json())
                snapshotted.add(pid)
            rows.append(
                {
                    "batch_id": batch.id,
                    "paper_id": pid,
                    "action": action,
                    "before": snapshot,
                    "raw": raw.get((pi, pid)),
                }
            )
        bulk_insert(session, BatchPaper, rows)
    return batch_ids
