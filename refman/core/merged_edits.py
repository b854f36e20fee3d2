"""An edit of a paper the person saw in the library, which someone else merged into another
paper meanwhile (a colleague on the shared library, another window): it goes to the paper
kept, where the merge took the paper's notes and files, not to the merged paper left in the
Trash (:class:`EditShownPaper`)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from refman.core.context import Context, Handler
from refman.core.merged_keys import where_merged
from refman.core.operations import EditPaper, FieldValues, Operation, Outcome
from refman.core.papers import edit_paper
from refman.core.rules import FieldEdits
from refman.store.models import Paper


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


def edit_shown_paper(ctx: Context, op: EditShownPaper) -> Outcome[int]:
    """Edit the paper shown, or the paper it was merged into since."""
    target = kept_paper(ctx.session, op.paper_id) if op.follow else op.paper_id
    done = edit_paper(ctx, EditPaper(target, op.edits, op.based_on))
    return Outcome(target, done.changes, done.inverse, done.label)


HANDLERS: dict[type, Handler] = {EditShownPaper: edit_shown_paper}
