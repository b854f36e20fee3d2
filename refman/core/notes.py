"""Note operations: add, edit, delete and put back the Markdown notes of a paper; the saves of
a note being typed undone as one step (:func:`merged_inverse`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from refman.common.errors import ConflictError, EditConflictError, NotFoundError
from refman.core.context import Context, Handler, require_papers
from refman.core.operations import (
    AddNote,
    DeleteNote,
    EditNote,
    Operation,
    Outcome,
    RestoreNote,
    SetNote,
)
from refman.core.reading import view_of
from refman.core.rules import typed_text
from refman.core.values import Changes, NoteView
from refman.store.connection import writer
from refman.store.models import Note


def merged_inverse(earlier: Operation[Any], later: Operation[Any]) -> Operation[Any] | None:
    """One inverse for two changes in a row that undo as one step, or None.

    Typing in a note saves it many times; all those saves undo together: the inverse of the
    first save puts back the text from before the typing, expecting the text of the last.
    """
    if (
        isinstance(earlier, SetNote)
        and isinstance(later, SetNote)
        and earlier.note.id == later.note.id
    ):
        return SetNote(earlier.note, expect_text=later.expect_text)
    return None


def no_note(note_id: int) -> NotFoundError:
    """The error for a note id the library does not hold."""
    return NotFoundError(f"There is no note #{note_id}.", "The note may have been deleted.")


def _note(session: Session, note_id: int, expect_text: str | None = None) -> Note:
    note = session.get(Note, note_id)
    if note is None:
        raise no_note(note_id)
    if expect_text is not None and note.text != expect_text:
        raise ConflictError(
            f"Note #{note_id} was changed elsewhere since.",
            "It was left as it is now.",
        )
    return note


def _changed(ctx: Context, view: NoteView) -> Changes:
    # notes_fts follows the notes table by itself (triggers).
    return Changes(papers=frozenset([view.paper_id]), notes=True)


def add_note(ctx: Context, op: AddNote) -> Outcome[NoteView]:
    """Add a note to a paper."""
    require_papers(ctx.session, [op.paper_id])
    who = writer(ctx.session)
    note = Note(
        paper_id=op.paper_id,
        text=typed_text(op.text),
        created_at=ctx.now,
        modified_at=ctx.now,
        created_by=who,
        modified_by=who,
    )
    ctx.session.add(note)
    ctx.session.flush()
    view = view_of(note)
    inverse = DeleteNote(view.id, expect_text=view.text)
    return Outcome(view, _changed(ctx, view), inverse, op.label)


def edit_note(ctx: Context, op: EditNote) -> Outcome[NoteView]:
    """Replace a note's text (an unchanged text changes nothing).

    Raises:
        EditConflictError: Someone else changed the note since the text it is based on was
            read, or deleted it (then the other person's text is None).
        NotFoundError: There is no such note (and the edit was based on nothing).
    """
    if op.based_on is not None and ctx.session.get(Note, op.note_id) is None:
        raise EditConflictError(
            f"Note #{op.note_id} was deleted elsewhere since you began editing it.",
            "What you wrote may be kept as a new note of its paper.",
            (("text", op.based_on, op.text, None),),
        )
    note = _note(ctx.session, op.note_id)
    before = view_of(note)
    text = typed_text(op.text)
    if note.text == text:
        return Outcome(before)
    if op.based_on is not None and note.text != op.based_on:
        raise EditConflictError(
            f"Note #{note.id} was changed by {note.modified_by or 'someone else'} since you "
            "began editing it.",
            "Keep yours, keep theirs, or keep both as two notes.",
            (("text", op.based_on, op.text, note.text),),
        )
    note.text, note.modified_at = text, ctx.now
    note.modified_by = writer(ctx.session)
    after = view_of(note)
    return Outcome(after, _changed(ctx, after), SetNote(before, expect_text=text), op.label)


def delete_note(ctx: Context, op: DeleteNote) -> Outcome[NoteView]:
    """Delete a note."""
    note = _note(ctx.session, op.note_id, op.expect_text)
    view = view_of(note)
    ctx.session.delete(note)
    ctx.session.flush()
    return Outcome(view, _changed(ctx, view), RestoreNote(view), op.label)


def restore_note(ctx: Context, op: RestoreNote) -> Outcome[NoteView]:
    """Put a deleted note back exactly.

    Raises:
        NotFoundError: Its paper is no longer in the library.
    """
    view = op.note
    require_papers(ctx.session, [view.paper_id])
    ctx.session.add(
        Note(
            id=view.id,
            paper_id=view.paper_id,
            text=view.text,
            created_at=view.created,
            modified_at=view.modified,
            created_by=view.created_by,
            modified_by=view.modified_by,
        )
    )
    ctx.session.flush()
    return Outcome(view, _changed(ctx, view), DeleteNote(view.id, expect_text=view.text))


def set_note(ctx: Context, op: SetNote) -> Outcome[NoteView]:
    """Put a note's text and modification time back exactly."""
    note = _note(ctx.session, op.note.id, op.expect_text)
    before = view_of(note)
    note.text, note.modified_at = op.note.text, op.note.modified
    note.modified_by = op.note.modified_by
    after = view_of(note)
    return Outcome(after, _changed(ctx, after), SetNote(before, expect_text=after.text))


HANDLERS: dict[type, Handler] = {
    AddNote: add_note,
    EditNote: edit_note,
    DeleteNote: delete_note,
    RestoreNote: restore_note,
    SetNote: set_note,
}
