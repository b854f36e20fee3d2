"""An undone import's papers, deleted for good after the undo.

Deleting a hundred thousand papers (their words out of the search index, their keys, rows
and links) takes seconds a person would wait on an undo. So an undo withdraws the papers it
takes away at once (:func:`withdraw`: into the Trash's table, marked as being deleted, where
no list, count, search, lookup by id nor import sees them) and :func:`purge_step` deletes
them afterwards, a few thousand per transaction, between other changes; the people,
subjects and tags the import created go with the last of them, if nothing uses them then.
The work waits in the library itself: a window closed halfway goes on with it next time.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Select, delete, exists, func, insert, select
from sqlalchemy.orm import Session

from refman.core.context import Context, Handler
from refman.core.operations import Operation, Outcome
from refman.core.person_ties import ties_of
from refman.core.state_io import delete_papers
from refman.core.values import Changes
from refman.store.bulk import chunks, id_set
from refman.store.models import (
    Attribution,
    Authorship,
    ImportBatch,
    Paper,
    PaperSubject,
    PaperTag,
    Person,
    Subject,
    Tag,
)
from refman.store.models_upkeep import Purge, PurgingPaper, TrashedPaper
from refman.store.search import SearchIndex

#: How many papers one step deletes (about a quarter of a second at a million papers).
PURGE_CHUNK = 2000


@dataclass(frozen=True, slots=True)
class PurgeStep(Operation[int]):
    """Delete for good up to ``limit`` of the papers undone imports withdrew (all of them
    are out of sight already); the value is how many still wait. Never on the undo history.
    """

    limit: int = PURGE_CHUNK

    @property
    def large(self) -> bool:
        """And the deleting of what the undo withdrew."""
        return True

    @property
    def label(self) -> str:
        """For the busy indicator and the log."""
        return "Finish undoing an import"


def withdraw(
    session: Session, paper_ids: Sequence[int], created: Mapping[str, Sequence[Any]]
) -> None:
    """Take papers out of sight, to be deleted by :func:`purge_step`, with what an import
    created (deleted then if unused); with no papers, what it created goes at once."""
    ids = sorted(set(paper_ids))
    if not ids:
        delete_orphans(session, created)
        return
    withdrawn = select(Paper.id).where(Paper.id.in_(id_set(ids)))
    out_of_sight(session, withdrawn)
    session.execute(insert(PurgingPaper).from_select(["paper_id"], withdrawn))
    session.add(Purge(created=json.dumps(dict(created))))


def out_of_sight(session: Session, ids: Select[Any]) -> None:
    """Put these papers (a select of their ids) into the Trash's table, which no list
    shows, unless they are there already (trashed since). Not the papers' rows: a hundred
    thousand rows rewritten took most of a second."""
    fresh = ids.where(ids.selected_columns[0].not_in(select(TrashedPaper.paper_id)))
    session.execute(insert(TrashedPaper).from_select(["paper_id"], fresh))


def pending(session: Session) -> int:
    """How many papers wait to be deleted; 1 when only what their imports created is left
    to sweep; 0 when nothing is left to do."""
    waiting = session.scalar(select(func.count()).select_from(PurgingPaper)) or 0
    if waiting:
        return int(waiting)
    return 1 if session.scalar(select(Purge.id).limit(1)) is not None else 0


def purge_step(session: Session, search: SearchIndex, limit: int = PURGE_CHUNK) -> int:
    """Delete up to ``limit`` withdrawn papers; after the last, what their imports created
    that nothing uses. Returns how many papers still wait."""
    ids = list(
        session.execute(
            select(PurgingPaper.paper_id).order_by(PurgingPaper.paper_id).limit(limit)
        ).scalars()
    )
    delete_papers(session, search, ids)  # (their rows in the purge table go with them)
    left = int(session.scalar(select(func.count()).select_from(PurgingPaper)) or 0)
    if not left:
        for purge_id, created in session.execute(select(Purge.id, Purge.created)).all():
            delete_orphans(session, json.loads(created))
            session.execute(delete(Purge).where(Purge.id == purge_id))
    return left


def delete_orphans(
    session: Session, created: Mapping[str, Sequence[Any]], *, keep: bool = False
) -> dict[str, list[dict[str, Any]]]:
    """Delete the tags, subjects and persons an undone or reverted import created, if now
    unused; with ``keep``, the rows deleted, by kind, and the people's ties
    (:func:`~refman.core.person_ties.ties_of`: an undo of a revert puts them back with their
    ids)."""
    gone: dict[str, list[dict[str, Any]]] = {}
    unused: dict[str, tuple[Any, ColumnElement[bool]]] = {
        "tags": (Tag, ~exists().where(PaperTag.tag_id == Tag.id)),
        "subjects": (Subject, ~exists().where(PaperSubject.subject_id == Subject.id)),
        "persons": (
            Person,
            ~exists().where(Authorship.person_id == Person.id)
            & ~exists().where(Attribution.person_id == Person.id)
            & ~exists().where(ImportBatch.owner_id == Person.id),
        ),
    }
    for kind, (model, condition) in unused.items():
        for part in chunks(sorted(set(created.get(kind, [])))):
            if keep:
                rows = session.execute(select(model.__table__).where(model.id.in_(part), condition))
                kept = [dict(row._mapping) for row in rows]
                gone.setdefault(kind, []).extend(kept)
                if model is Person:  # (their aliases and told-apart pairs go with them)
                    for tie, tied in ties_of(session, [r["id"] for r in kept]).items():
                        gone.setdefault(tie, []).extend(tied)
            session.execute(delete(model).where(model.id.in_(part), condition))
    return gone


def purge_op(ctx: Context, op: PurgeStep) -> Outcome[int]:
    """Delete some of the papers undone imports withdrew."""
    left = purge_step(ctx.session, ctx.search, op.limit)
    # The papers were out of sight already: only the people and tags that went with the
    # last of them are news.
    changes = Changes(purging=True) if left else Changes(tags=True, people=True)
    return Outcome(left, changes, None, op.label)


HANDLERS: dict[type, Handler] = {PurgeStep: purge_op}
