"""The import operations: import pages, undo an import, and make it again (Redo)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from refman.core.attachments import RemoveFiles
from refman.core.context import Context, Handler
from refman.core.importing.apply import apply_import
from refman.core.importing.files import attach_record_files
from refman.core.importing.import_ids import NOTHING_GIVEN, GivenBack, given_back
from refman.core.importing.plan import PreparedPlan, prepare_import
from refman.core.importing.purge import pending
from refman.core.importing.undo import undo_import
from refman.core.importing.values import ImportResult
from refman.core.operations import ImportPages, Outcome, UndoImport
from refman.core.values import Changes
from refman.store.models import ImportBatch
from refman.store.models_files import PaperFile
from refman.store.search import SearchIndex


@dataclass(frozen=True, slots=True)
class RedoImport(ImportPages):
    """An undone import made again, giving back the ids it gave
    (:mod:`~refman.core.importing.import_ids`)."""

    back: GivenBack = field(default_factory=GivenBack)


def import_pages(ctx: Context, op: ImportPages) -> Outcome[ImportResult]:
    """Import pages; the inverse undoes exactly this import (and can import it again)."""
    at = op.at or ctx.now
    given = op.back if isinstance(op, RedoImport) else NOTHING_GIVEN
    result = apply_import(
        ctx.session,
        ctx.search,
        op.pages,
        op.choices,
        at,
        ctx.progress,
        ctx.cancelled,
        ctx.prepared,
        given,
    )
    files = [] if result.dry_run else attach_record_files(ctx, op.pages, result)
    if not result.batch_ids:
        changes = Changes(papers=frozenset(result.unchanged_ids))
        if not files:
            return Outcome(result, changes)
        return Outcome(result, changes, RemoveFiles(tuple(files)), op.label)
    if files:  # undoing the import takes them off too
        _record_created(ctx.session, result.batch_ids[0], "files", files)
    changes = Changes(
        papers=frozenset(result.paper_ids),
        added=frozenset(result.new_ids),
        tags=True,
        structure=True,
    )
    back = given_back(ctx.session, op.pages, result, given)
    redo = RedoImport(op.pages, op.choices, at, back)
    return Outcome(result, changes, UndoImport(result.batch_ids, redo), op.label)


def _stored_copies(session: Session, batch_ids: Sequence[int]) -> list[str]:
    """The storage paths of the files these batches attached (copies, not links)."""
    ids = [
        i
        for (created,) in session.execute(
            select(ImportBatch.created).where(ImportBatch.id.in_(list(batch_ids)))
        )
        for i in json.loads(created or "{}").get("files", [])
    ]
    rows = session.execute(
        select(PaperFile.path).where(PaperFile.id.in_(ids), PaperFile.linked.is_(False))
    )
    return [path for (path,) in rows]


def _record_created(session: Session, batch_id: int, kind: str, ids: list[int]) -> None:
    """Add ids to what a batch created (undo takes them away)."""
    batch = session.get(ImportBatch, batch_id)
    assert batch is not None
    created = json.loads(batch.created or "{}")
    created[kind] = [*created.get(kind, []), *ids]
    batch.created = json.dumps(created)


def undo_import_op(ctx: Context, op: UndoImport) -> Outcome[None]:
    """Take an import back; the inverse imports the same pages again. The copies of the
    files it attached are set aside once that is done (deleted at Empty Trash)."""
    stored = _stored_copies(ctx.session, op.batch_ids)
    ctx.files.writable(stored)  # refused while nothing changed, not left behind
    touched = undo_import(ctx.session, ctx.search, op.batch_ids)
    if stored:
        ctx.after_commit.append(partial(ctx.files.set_aside_all, stored))
    changes = Changes(
        papers=frozenset(touched), tags=True, structure=True, purging=bool(pending(ctx.session))
    )
    return Outcome(None, changes, op.redo, "Undo import")


def prepare_import_op(session: Session, search: SearchIndex, op: ImportPages) -> PreparedPlan:
    """Plan an import before the write lock is taken (other writers go on meanwhile)."""
    return prepare_import(session, search, op.pages)


HANDLERS: dict[type, Handler] = {
    ImportPages: import_pages,
    RedoImport: import_pages,
    UndoImport: undo_import_op,
}
#: What an operation works out in a read before its write transaction.
PREPARERS: dict[type, Callable[[Session, SearchIndex, Any], Any]] = {
    ImportPages: prepare_import_op,
    RedoImport: prepare_import_op,
}
