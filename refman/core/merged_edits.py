"""A change to a paper the person saw in the library, which someone else merged into another
paper meanwhile (a colleague on the shared library, another window): it goes to the paper
kept, where the merge took the paper's notes and files, not to the merged paper left in the
Trash. A field typed (:class:`EditShownPaper`), a tag put on or taken off, the reading status
or the stars, a file attached, a note added (:class:`ChangeShownPapers`): one rule,
:func:`kept_paper`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from refman.core.attachments import AttachFiles, attach_files
from refman.core.context import Context, Handler
from refman.core.merged_keys import where_merged
from refman.core.notes import add_note
from refman.core.operations import (
    AddNote,
    EditPaper,
    FieldValues,
    Operation,
    Outcome,
    TagPapers,
    UntagPapers,
)
from refman.core.papers import edit_paper
from refman.core.reading_status import MarkPapers, mark_papers
from refman.core.rules import FieldEdits
from refman.core.tagging import tag_papers, untag_papers
from refman.store.models import Paper

T = TypeVar("T")

#: The changes of papers seen that follow them to the paper kept by a merge, and their
#: handlers (each names its papers ``paper_id`` or ``paper_ids``).
FOLLOWED: dict[type, Handler] = {
    EditPaper: edit_paper,
    TagPapers: tag_papers,
    UntagPapers: untag_papers,
    MarkPapers: mark_papers,
    AttachFiles: attach_files,
    AddNote: add_note,
}


@dataclass(frozen=True, slots=True)
class Followed(Generic[T]):
    """What a change of papers seen produced, and where it went.

    Attributes:
        value: The change's own value (the note added, the files attached, ...).
        moved: (paper seen, paper kept) for each paper seen that had been merged into
            another since: the change went to the paper kept.
    """

    value: T
    moved: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class ChangeShownPapers(Operation[Followed[T]]):
    """One of the :data:`FOLLOWED` changes, of papers the person saw in the library (not in
    the Trash): a paper merged since into another is changed as that one."""

    change: Operation[T]
    #: False: the papers were seen in the Trash, and are changed as they are (merged or not).
    follow: bool = True

    @property
    def label(self) -> str:
        """The change's own ("Add tag “x” to 1 paper")."""
        return self.change.label


@dataclass(frozen=True, slots=True)
class EditShownPaper(Operation[int]):
    """Edit a paper's fields as :class:`~refman.core.operations.EditPaper` does, the person
    having seen the paper in the library (not in the Trash): merged since into another
    paper, the edit goes to that one (based on the values seen: a field the paper kept holds
    otherwise is asked about). Its value: the paper edited."""

    paper_id: int
    edits: FieldEdits
    based_on: FieldValues = ()
    #: False: the paper was seen in the Trash, and is edited as it is (merged or not).
    follow: bool = True

    @property
    def label(self) -> str:
        """ "Edit title and year"."""
        return EditPaper(self.paper_id, self.edits).label


def kept_paper(session: Session, paper_id: int) -> int:
    """The paper a paper in the Trash was merged into (merged on since: where that one went)
    while it is in the Trash; the paper itself otherwise."""
    seen = {paper_id}
    while (
        session.scalar(select(Paper.trashed_at).where(Paper.id == paper_id)) is not None
        and (into := where_merged(session, [paper_id]).get(paper_id)) is not None
        and into not in seen
    ):
        paper_id = into
        seen.add(into)
    return paper_id


def change_shown_papers(ctx: Context, op: ChangeShownPapers[Any]) -> Outcome[Followed[Any]]:
    """Apply the change to the papers seen, or to those they were merged into since."""
    change: Any = op.change
    ids = (change.paper_id,) if hasattr(change, "paper_id") else change.paper_ids
    kept = {pid: kept_paper(ctx.session, pid) if op.follow else pid for pid in ids}
    if hasattr(change, "paper_id"):
        change = replace(change, paper_id=kept[change.paper_id])
    else:
        change = replace(change, paper_ids=tuple(kept[pid] for pid in ids))
    done: Outcome[Any] = FOLLOWED[type(change)](ctx, change)
    moved = tuple((pid, into) for pid, into in kept.items() if into != pid)
    return Outcome(Followed(done.value, moved), done.changes, done.inverse, done.label)


def edit_shown_paper(ctx: Context, op: EditShownPaper) -> Outcome[int]:
    """Edit the paper shown, or the paper it was merged into since."""
    edit = EditPaper(op.paper_id, op.edits, op.based_on)
    done = change_shown_papers(ctx, ChangeShownPapers(edit, op.follow))
    target = done.value.moved[0][1] if done.value.moved else op.paper_id
    return Outcome(target, done.changes, done.inverse, done.label)


HANDLERS: dict[type, Handler] = {
    EditShownPaper: edit_shown_paper,
    ChangeShownPapers: change_shown_papers,
}
