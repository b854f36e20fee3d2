"""Undoing an import: every paper it touched goes back to exactly how it was before."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from refman.common.errors import ConflictError
from refman.core.importing.changed_since import first_changed
from refman.core.importing.purge import withdraw
from refman.core.importing.readings import marks_given
from refman.core.paper_state import PaperState
from refman.core.reading_status import put_readings
from refman.core.registry import Registry
from refman.core.spellings import spell_again
from refman.core.state_io import write_states
from refman.store.bulk import chunks, raw_rows
from refman.store.models import (
    BatchPaper,
    ImportBatch,
    Note,
    Paper,
)
from refman.store.models_files import PaperFile
from refman.store.search import SearchIndex


def undo_import(session: Session, search: SearchIndex, batch_ids: Sequence[int]) -> set[int]:
    """Return the library to its state before these import batches.

    Papers the batches added are withdrawn at once and deleted afterwards
    (:mod:`refman.core.importing.purge`); papers they merged into are restored from the
    snapshots taken before the merge, with the reading status and stars they had; people
    they named again (a better spelling) get back the spelling they had; persons, subjects
    and tags they created go too, unless something else uses them then.

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
    _refuse_if_found_again(session, sorted(found))
    batches = [_read_batch(session, batch_id) for batch_id in sorted(found, reverse=True)]
    created: dict[str, list[Any]] = {"persons": [], "subjects": [], "tags": [], "notes": []}
    for _, made, _, _, _ in batches:
        for kind, ids in made.items():
            created.setdefault(kind, []).extend(ids)
    _refuse_if_changed_since(session, batches, created)
    touched: set[int] = set()
    withdrawn: list[int] = []
    registry = Registry(session)
    for batch_id, _, imported_at, rows, restore in batches:
        added = [pid for pid, action, _ in rows if action == "added"]
        touched.update(pid for pid, _, _ in rows)
        if restore:
            when = restore[0].modified_at or imported_at
            write_states(session, registry, [], restore, when, search)
        withdrawn.extend(added)
        session.execute(delete(ImportBatch).where(ImportBatch.id == batch_id))
    gone = set(withdrawn)  # the reading status and stars it gave the papers it merged into
    back = {pid: had for pid, (_, had) in marks_given(created).items() if pid not in gone}
    put_readings(session, back, versioned=False)
    touched |= spell_again(session, search, created.get("respelled", []), back=True)
    for part in chunks(created["notes"]):
        session.execute(delete(Note).where(Note.id.in_(part)))
    for part in chunks(created.get("files", [])):  # a PDF imported, on a paper that stays
        session.execute(delete(PaperFile).where(PaperFile.id.in_(part)))
    withdraw(session, withdrawn, created)
    return touched


#: A batch as the undo reads it: its id, what it made, when, its papers' rows (id, action,
#: snapshot) and the snapshots of the papers it merged into.
_Batch = tuple[int, dict[str, list[Any]], datetime, list[tuple[Any, ...]], list[PaperState]]


def _read_batch(session: Session, batch_id: int) -> _Batch:
    batch = session.get(ImportBatch, batch_id)
    assert batch is not None
    rows = raw_rows(  # (a hundred thousand rows: as the driver gives them)
        session,
        select(BatchPaper.paper_id, BatchPaper.action, BatchPaper.before).where(
            BatchPaper.batch_id == batch_id
        ),
    )
    restore = [PaperState.from_json(json.loads(before)) for _, _, before in rows if before]
    made: dict[str, list[Any]] = json.loads(batch.created or "{}")
    return batch_id, made, batch.imported_at, rows, restore


def _refuse_if_changed_since(
    session: Session, batches: Sequence[_Batch], created: dict[str, list[Any]]
) -> None:
    """Refuse to undo an import one of whose papers was changed since (in another window,
    on the command line, by a colleague): undoing would lose that.

    Raises:
        ConflictError: Naming the paper and what was done to it; nothing is changed.
    """
    if not batches:
        return
    found = first_changed(
        session,
        [b[0] for b in batches],
        min(b[2] for b in batches),
        created,
        [s for b in batches for s in b[4]],
    )
    if found is not None:
        title, done = found
        raise ConflictError(
            f"This import cannot be undone exactly: its paper “{title}” was {done} since, "
            "which undoing would lose. Nothing was changed.",
            "Revert it from Import History (refman revert): that keeps the papers changed since.",
        )


def _refuse_if_found_again(session: Session, batch_ids: list[int]) -> None:
    """Refuse to undo an import one of whose new papers a later import found again (another
    window or the command line, in between): undoing would delete that import's paper too.

    Raises:
        ConflictError: Naming the paper and the later import; nothing is changed.
    """
    mine = select(BatchPaper.paper_id).where(
        BatchPaper.batch_id.in_(batch_ids), BatchPaper.action == "added"
    )
    later = session.execute(
        select(Paper.title, ImportBatch.import_id, ImportBatch.source)
        .join(BatchPaper, BatchPaper.paper_id == Paper.id)
        .join(ImportBatch, ImportBatch.id == BatchPaper.batch_id)
        .where(Paper.id.in_(mine), BatchPaper.batch_id.not_in(batch_ids))
        .limit(1)
    ).first()
    if later is not None:
        title, import_id, source = later
        raise ConflictError(
            f"This import cannot be undone: its paper “{title}” was found again by a later "
            f"import (#{import_id}, {source}), which undoing would delete too. Nothing was "
            "changed.",
            "Revert it from Import History (refman revert): that removes what only this "
            "import brought and keeps what later imports found too.",
        )
