"""Asking a person to choose when someone else changed what they were editing.

A note or a field saved from the window carries what the person started from; when another
person (or program) has changed it since, the library refuses the save with both versions
(:class:`~refman.common.errors.EditConflictError`) and the window asks: keep mine, keep
theirs, or (for a note) keep both as two notes. Nothing is written until the person chose.

Closing the question (Esc, the window's close button) never loses what was typed: a note keeps
both texts (Keep Both is the question's Esc), and a field is "Decide Later" — the typed text
stays in the field, not saved and marked, over the other person's value
(:mod:`refman.ui.held_edits`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMainWindow, QMessageBox, QWidget

from refman.common.errors import EditConflictError, LibraryUnavailableError, RefmanError
from refman.common.text import join_words
from refman.core import operations as ops
from refman.core.operations import Outcome
from refman.core.rules import FieldEdits
from refman.core.values import Changes, NoteView

from refman.ui.held_edits import Hold
from refman.ui.shown_changes import moved_text

if TYPE_CHECKING:
    from refman.ui.controller import LibraryController

#: What the person may choose, with the button each gets.
MINE = "mine"
THEIRS = "theirs"
BOTH = "both"
_BUTTONS = {MINE: "Keep Mine", THEIRS: "Keep Theirs", BOTH: "Keep Both"}
#: The button (and Esc) of a question without Keep Both: nothing chosen, nothing lost.
LATER = "Decide Later"

#: (parent, title, question, mine, theirs, choices) -> the choice, or None to decide later.
Chooser = Callable[[QWidget | None, str, str, str, str, tuple[str, ...]], str | None]


def _ask(
    parent: QWidget | None,
    title: str,
    question: str,
    mine: str,
    theirs: str,
    choices: tuple[str, ...],
) -> str | None:
    box = QMessageBox(parent)
    box.setObjectName("conflictDialog")
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(title)
    box.setText(question)
    box.setInformativeText(f"Theirs:\n{_short(theirs)}\n\nYours:\n{_short(mine)}")
    box.setDetailedText(f"Theirs:\n{theirs}\n\nYours:\n{mine}")
    buttons = {box.addButton(_BUTTONS[c], QMessageBox.ButtonRole.AcceptRole): c for c in choices}
    escape = next((button for button, choice in buttons.items() if choice == BOTH), None)
    if escape is None:  # Esc and the close button: decide later (the typed text waits)
        escape = box.addButton(LATER, QMessageBox.ButtonRole.RejectRole)
        escape.setToolTip("Keep your text where you typed it, not saved, and choose later")
    box.setEscapeButton(escape)
    box.exec()
    clicked = box.clickedButton()
    return next((choice for button, choice in buttons.items() if button is clicked), None)


def _short(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: The dialog (tests put a stand-in here).
chooser: Chooser = _ask


def choose(
    parent: QWidget | None,
    title: str,
    question: str,
    mine: str,
    theirs: str,
    choices: tuple[str, ...] = (MINE, THEIRS),
) -> str | None:
    """Ask which version to keep; None when the person closed the question (or chose
    Decide Later). Esc and the close button choose Keep Both where it is offered."""
    return chooser(parent, title, question, mine, theirs, choices)


def merged_text(paper_id: int, kept: int, names: Sequence[str]) -> str:
    """What the status bar says of an edit of a paper merged into another elsewhere meanwhile,
    saved to the paper kept (where its notes went)."""
    fields = join_words([name.replace("_", " ") for name in names])
    return moved_text(paper_id, kept, f"your {fields} was saved to", ", with its notes")


def _moved(
    controller: LibraryController, paper_id: int, names: Sequence[str], follow: bool
) -> Callable[[int], None] | None:
    """Tells the person their edit went to the paper kept by a merge (None: not followed)."""

    def tell(kept: int) -> None:
        window = controller.window
        if isinstance(window, QMainWindow):
            window.statusBar().showMessage(merged_text(paper_id, kept, names), 20_000)

    return tell if follow else None


def save_field(
    controller: LibraryController,
    paper_id: int,
    edit: tuple[Callable[[str], FieldEdits], str, str],
    revert: Callable[[], None],
    shown: tuple[Callable[[], None], Hold],
    *,
    follow: bool = True,
) -> None:
    """Save an edited field of a paper, based on the value shown when typing began: someone
    else's change since is not overwritten, the person chooses (:func:`resolve_fields`).

    Args:
        edit: Makes the edits from a text; the text typed; the text shown before typing.
        revert: Shows the field's value again when the edit is refused.
        shown: Shows the paper as it is in the library; keeps an edit not saved in its
            field (the question closed).
        follow: The paper was seen in the library (not in the Trash): merged into another
            paper elsewhere since, the edit goes to that one, and the status bar says so.
    """
    make, text, before = edit
    try:
        seen = tuple(make(before).items())
    except RefmanError:  # nothing valid was shown (a field its rule would refuse)
        seen = ()

    def refused(error: RefmanError) -> None:
        if isinstance(error, LibraryUnavailableError):  # kept in the field: nothing is lost
            for name, _value in make(text).items():
                shown[1](paper_id, name, text, before, True)
            return
        revert()

    controller.edit_fields(
        paper_id,
        lambda: make(text),
        on_error=refused,
        based_on=seen,
        on_conflict=lambda e: resolve_fields(controller, paper_id, e, shown, follow=follow),
        on_moved=_moved(controller, paper_id, [n for n, _ in seen] or ["edit"], follow),
    )


def resolve_fields(
    controller: LibraryController,
    paper_id: int,
    error: EditConflictError,
    shown: tuple[Callable[[], None], Hold],
    *,
    follow: bool = True,
) -> None:
    """Ask, field by field, whether to keep one's own edit or the other person's value; save
    the edits kept (based on the value now there) and show the paper as it then is. A
    question closed keeps the edit in its field, not saved (nothing typed is lost)."""
    reload, hold = shown
    for name, _base, mine, theirs in error.fields:
        label = name.replace("_", " ")
        choice = choose(
            controller.window,
            "Paper Changed Elsewhere",
            f"The {label} of this paper was changed by someone else since you began editing "
            "it. Which one should the paper keep?",
            _text(mine),
            _text(theirs),
        )
        if choice == MINE:
            controller.edit_fields(
                paper_id,
                lambda n=name, v=mine: FieldEdits(**{n: v}),  # type: ignore[misc]
                based_on=((name, theirs),),  # type: ignore[arg-type]
                on_conflict=lambda e: resolve_fields(controller, paper_id, e, shown, follow=follow),
                on_moved=_moved(controller, paper_id, [name], follow),
            )
        elif choice is None:
            hold(paper_id, name, _text(mine), _text(theirs), False)
    reload()


def _text(value: object) -> str:
    return "" if value is None else str(value)


def resolve_note(
    controller: LibraryController,
    note_id: int,
    paper_id: int | None,
    error: EditConflictError,
    on_kept: Callable[[Outcome[NoteView]], None] | None = None,
) -> None:
    """Ask whether to keep one's own text of a note, the other person's, or both (one's own
    as a new note); closing the question keeps both: nothing typed is lost. A note deleted
    elsewhere (theirs None) keeps one's own text as a new note without a question
    (``on_kept`` is told of it)."""
    _, _, mine, theirs = error.fields[0]
    choice: str | None = BOTH
    if theirs is not None:
        choice = choose(
            controller.window,
            "Note Changed Elsewhere",
            f"{error.message} Which text should the note keep?",
            str(mine),
            str(theirs),
            (MINE, THEIRS, BOTH),
        )
    if choice == MINE:
        controller.edit_note(
            note_id,
            str(mine),
            based_on=str(theirs),
            on_conflict=lambda e: resolve_note(controller, note_id, paper_id, e, on_kept),
        )
        return
    if choice != THEIRS and paper_id is not None:
        controller.apply(ops.AddNote(paper_id, str(mine)), on_kept)
    controller.changed.emit(Changes(papers=frozenset({paper_id} if paper_id else ()), notes=True))
