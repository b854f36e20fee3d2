"""The notes of the paper shown: one :class:`~refman.ui.notes_editor.NoteCard` each, newest
last; notes being typed in keep their text when the paper's notes are read again, and a note
deleted elsewhere while typed in comes back as a new note (:mod:`refman.ui.note_saving`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import shiboken6
from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QMainWindow, QVBoxLayout, QWidget

from refman.core.operations import AddNote, Outcome
from refman.core.values import NoteView

from refman.ui.controller import LibraryController
from refman.ui.look import plain_label, set_muted
from refman.ui.note_saving import PendingNotes
from refman.ui.notes_editor import NoteCard
from refman.ui.shown_changes import Follows, change_shown

#: What the status bar says when a note written in was deleted elsewhere.
KEPT_NOTE = "The note you were writing was deleted elsewhere; what you wrote is kept as a new note."


class NotesEditor(QWidget):
    """The notes of one paper, newest last.

    Signals:
        note_opened(NoteCard): A note was added and the cursor put in it.
    """

    note_opened = Signal(object)

    def __init__(self, controller: LibraryController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("notesEditor")
        self.controller = controller
        self.pending = PendingNotes(controller)
        self.pending.on_kept = self._note_kept
        self.paper_id: int | None = None
        #: The paper was seen in the library: a merge elsewhere since is followed.
        self.follows: Follows = lambda: False
        #: Shows a paper (the pane sets it): where a note added goes, its paper merged since.
        self.go_to: Callable[[int], None] = lambda _paper_id: None
        self._opening: int | None = None  # (a note added there, opened once shown)
        self.cards: dict[int, NoteCard] = {}
        #: The note just added, until the cursor leaves it (it goes if nothing is in it).
        self.fresh: int | None = None
        self.empty = plain_label("No notes yet.", self)
        set_muted(self.empty)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(8)
        self._layout.addWidget(self.empty)
        self.destroyed.connect(self.pending.on_editor_destroyed)

    def flush(self) -> None:
        """Save every note's typed text now."""
        for card in self.cards.values():
            card.save()
        self.pending.save_all()

    def card_written(self) -> NoteCard | None:
        """The card of the note typed in last, if it is shown."""
        return self.cards.get(self.pending.last or 0)

    def text_written(self) -> str:
        """The text of the note typed in last, or of every note shown (newest last)."""
        card = self.card_written()
        if card is not None:
            return card.text()
        return "\n\n".join(shown.text() for shown in self.cards.values())

    def show_notes(self, paper_id: int | None, notes: Sequence[NoteView]) -> None:
        """Show a paper's notes; notes being typed in keep their text."""
        if paper_id != self.paper_id:
            self.on_card_left(self.fresh or 0)
            self.flush()
            for card in self.cards.values():
                card.hide()
                card.deleteLater()
            self.cards = {}
            self.paper_id = paper_id
        wanted = {n.id: n for n in notes}
        for note_id in [i for i in self.cards if i not in wanted]:
            card = self.cards.pop(note_id)
            if note_id in self.pending.texts:  # gone from the paper while typed in: saved
                # where it is now (a merge elsewhere moved it to the paper kept), or kept as
                # a new note when it was deleted (the save meets the deletion)
                card.save()
            card.hide()
            card.deleteLater()
        for index, note in enumerate(notes):
            shown = self.cards.get(note.id)
            if shown is not None:
                shown.set_note(note)
                continue
            card = NoteCard(note, self.pending, self)
            card.delete_requested.connect(self.on_card_delete_requested)
            card.left.connect(self.on_card_left)
            self.cards[note.id] = card
            self._layout.insertWidget(index + 1, card)
        self.empty.setVisible(not notes)
        if (opening := self.cards.get(self._opening or 0)) is not None:
            self._opening = None
            self._open(opening)

    def add_note(self) -> None:
        """Add an empty note to the paper; :attr:`note_opened` tells when it is ready."""
        if self.paper_id is None:
            return
        self.flush()
        paper_id = self.paper_id
        change_shown(
            self.controller,
            partial(AddNote, paper_id),
            "your new note was added to",
            follow=self.follows(),
            on_done=lambda outcome: self._note_added(paper_id, outcome),
        )

    def _note_added(self, paper_id: int, outcome: Outcome[NoteView]) -> None:
        """Put the cursor in the note just added (if its paper is still shown); added to the
        paper kept by a merge made elsewhere, show that paper, and the note open in it."""
        if paper_id != self.paper_id or not shiboken6.isValid(self):
            return
        note = outcome.value
        if note.paper_id != paper_id:
            self._opening = note.id
            self.go_to(note.paper_id)
            return
        if note.id not in self.cards:  # (the paper's notes as stored: one may have gone since)
            self.show_notes(paper_id, list(self.controller.service.paper(paper_id).notes))
        self._open(self.cards[note.id])

    def _open(self, card: NoteCard) -> None:
        """Put the cursor in a note just added."""
        self.fresh = card.note_id
        card.set_editing(True)
        card.editor.setFocus(Qt.FocusReason.OtherFocusReason)
        self.note_opened.emit(card)

    def _note_kept(self, deleted: int, outcome: Outcome[NoteView]) -> None:
        """A note deleted elsewhere while written in came back as a new one: open it, say so."""
        if (gone := self.cards.pop(deleted, None)) is not None:
            gone.hide()
            gone.deleteLater()
        self._note_added(outcome.value.paper_id, outcome)
        if (card := self.cards.get(outcome.value.id)) is not None:
            card.editor.moveCursor(QTextCursor.MoveOperation.End)
        window = self.window()
        if isinstance(window, QMainWindow):
            window.statusBar().showMessage(KEPT_NOTE, 15000)

    @Slot(int)
    def on_card_delete_requested(self, note_id: int) -> None:
        """Delete a note (undoable)."""
        self.pending.let_go.add(note_id)
        self.controller.delete_note(note_id)

    @Slot(int)
    def on_card_left(self, note_id: int) -> None:
        """The note just added goes when the cursor leaves it with nothing in it."""
        card = self.cards.get(note_id)
        if note_id == self.fresh and card is not None:
            self.fresh = None
            if not card.text() and not card.is_dirty():
                self.pending.take_back(note_id)
