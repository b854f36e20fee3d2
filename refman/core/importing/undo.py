"""Undoing an import: every paper it touched goes back to exactly how it was before."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from refman.common.errors import ConflictError
from refman.core.importing.purge import withdraw
from refman.core.paper_state import PaperState
from refman.core.state_io import Registry, write_states
from refman.store.bulk import chunks, raw_rows
from refman.store.models import (
    BatchPaper,
    ImportBatch,
    Note,
)
from refman.store.models_files import PaperFile
from refman.store.search import SearchIndex


def undo_import(session: Session, search: SearchIndex, batch_ids: Sequence[int]) -> set[int]:
    """Return the library to its state before these import batches.

    Papers the batches added are withdrawn at once and deleted afterwards
    (:mod:`refman.core.importing.purge`); papers they merged into are restored from the
    snapshots taken before the merge; persons, subjects and tags they created go too, unless
    something else uses them then.

    Returns:
        The ids of every paper touched.

    Raises:
        ConflictError: The import is no longer in the library (undone elsewhere).
    """
    found = set(
        session.execute(select(ImportBatch.id).where(ImportBatch.id.in_(batch_ids))).scalars()
    )
    if not found:
        raise ConflictError(
            "That import is no longer in the library: it was undone elsewhere.",
            "Nothing was changed.",
        )
    touched: set[int] = set()
    withdrawn: list[int] = []
    created: dict[str, list[int]] = {"persons": [], "subjects": [], "tags": [], "notes": []}
    registry = Registry(session)
    for batch_id in sorted(found, reverse=True):
        batch = session.get(ImportBatch, batch_id)
        assert batch is not None
        for kind, ids in json.loads(batch.created or "{}").items():
            created.setdefault(kind, []).extend(ids)
        rows = raw_rows(  # (a hundred thousand rows: as the driver gives them)
            session,
            select(BatchPaper.paper_id, BatchPaper.action, BatchPaper.before).where(
                BatchPaper.batch_id == batch_id
            ),
        )
        restore = [PaperState.from_json(json.loads(before)) for _, _, before in rows if before]
        added = [pid for pid, action, _ in rows if action == "added"]
        touched.update(pid for pid, _, _ in rows)
        if restore:
            when = restore[0].modified_at or batch.imported_at
            write_states(session, registry, [], restore, when, search)
        withdrawn.extend(added)
        session.execute(delete(ImportBatch).where(ImportBatch.id == batch_id))
    for part in chunks(created["notes"]):
        session.execute(delete(Note).where(Note.id.in_(part)))
    for part in chunks(created.get("files", [])):  # a PDF imported, on a paper that stays
        session.execute(delete(PaperFile).where(PaperFile.id.in_(part)))
    withdraw(session, withdrawn, created)
    return touched
