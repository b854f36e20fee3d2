"""The import operations: import pages, and undo an import."""

from __future__ import annotations

from refman.core.context import Context, Handler
from refman.core.importing.apply import apply_import
from refman.core.importing.undo import undo_import
from refman.core.importing.values import ImportResult
from refman.core.operations import ImportPages, Outcome, UndoImport
from refman.core.values import Changes


def import_pages(ctx: Context, op: ImportPages) -> Outcome[ImportResult]:
    """Import pages; the inverse undoes exactly this import (and can import it again)."""
    at = op.at or ctx.now
    result = apply_import(
        ctx.session, ctx.search, op.pages, op.choices, at, ctx.progress, ctx.cancelled
    )
    if not result.batch_ids:
        return Outcome(result, Changes(papers=frozenset(result.unchanged_ids)))
    changes = Changes(
        papers=frozenset(result.paper_ids),
        added=frozenset(result.new_ids),
        tags=True,
        structure=True,
    )
    redo = ImportPages(op.pages, op.choices, at)
    return Outcome(result, changes, UndoImport(result.batch_ids, redo), op.label)


def undo_import_op(ctx: Context, op: UndoImport) -> Outcome[None]:
    """Take an import back; the inverse imports the same pages again."""
    touched = undo_import(ctx.session, ctx.search, op.batch_ids)
    changes = Changes(papers=frozenset(touched), tags=True, structure=True)
    return Outcome(None, changes, op.redo, "Undo import")


HANDLERS: dict[type, Handler] = {ImportPages: import_pages, UndoImport: undo_import_op}
