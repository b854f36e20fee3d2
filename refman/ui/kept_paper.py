"""The paper the detail pane keeps while the person writes in it, though the list has left it.

A change made elsewhere (a colleague on a shared library, another window or program on the
same file) may take the paper being written in out of the list: moved to the Trash, it is
no longer among All papers. The list would give its place to the paper after it, and the pane
would follow — the note being typed gone from view, saved to a paper in the Trash that Empty
Trash would delete. Instead, while the person writes in it (the keyboard in one of its text
fields or notes, or a note's text not saved yet), the paper stays in the pane, the list selects
nothing, and a notice pinned above the paper says what happened, with Restore Paper and Copy
Note. Selecting a paper in the list shows that one.

The paper may go for good instead (the Trash emptied, its import undone elsewhere): then the
pane keeps it as it was last shown, its notes as written and not saved anywhere, and the
notice offers Keep Paper, which brings it back with them (:mod:`refman.core.kept_papers`).
Leaving it with unsaved writing — another paper selected, the window closed — keeps it too
(one undo step: Ctrl+Z lets it go), so nothing written is lost.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
)

from refman.core.importing.values import ImportChoices, ImportResult
from refman.core.kept_papers import kept_page
from refman.core.operations import ImportPages, Outcome
from refman.core.values import PaperDetail

from refman.ui.citing import put_on_clipboard
from refman.ui.detail_fields import TitleEdit
from refman.ui.look import ATTENTION, plain_label, subtle_fill
from refman.ui.read_only import mark_changing

if TYPE_CHECKING:
    from refman.ui.detail_pane import DetailPane

#: What the notice says of a paper moved to the Trash elsewhere while the person wrote in it.
KEPT_IN_TRASH = (
    "This paper was moved to the Trash elsewhere while you were writing in it. What you "
    "wrote is kept with it, and Empty Trash would delete it: restore the paper, or copy your "
    "note."
)
#: What it says of a paper deleted for good elsewhere while the person wrote in it.
KEPT_DELETED = (
    "This paper was deleted for good elsewhere while you were writing in it. What you wrote "
    "is only here now: keep the paper, with your notes, or copy your note."
)


class KeptPaper:
    """Whether the detail pane keeps its paper when the list no longer shows it, and the
    notice that says so.

    Attributes:
        paper_id: The paper kept, once the list left it out; None otherwise.
        notice: The notice above the paper (shown while the paper kept is in the Trash).
    """

    def __init__(self, pane: DetailPane) -> None:
        self.pane = pane
        self.paper_id: int | None = None
        #: The paper kept as last shown, once it was deleted for good; None otherwise.
        self.deleted: PaperDetail | None = None
        #: Shows a paper in the list (the window sets it): where a paper kept goes.
        self.go_to: Callable[[int], None] = lambda _paper_id: None
        self._build()

    def _build(self) -> None:
        notice = self.notice = QFrame(self.pane)
        notice.setObjectName("keptNotice")
        notice.setStyleSheet(
            f"QFrame#keptNotice {{ background: {subtle_fill(notice.palette()).name()};"
            f" border: 1px solid {ATTENTION}; border-radius: 5px; margin: 4px 4px 2px 4px; }}"
        )
        text = self.text = plain_label(KEPT_IN_TRASH, notice)
        text.setObjectName("keptNoticeText")
        self.restore_button = QPushButton("Restore Paper", notice)
        self.restore_button.setObjectName("restoreKeptButton")
        self.restore_button.setToolTip("Bring the paper back from the Trash, with your note")
        self.copy_note_button = QPushButton("Copy Note", notice)
        self.copy_note_button.setObjectName("copyNoteButton")
        self.copy_note_button.setToolTip("Copy the text of the note you were writing")
        mark_changing(self.restore_button)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.restore_button, self.copy_note_button):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # a click leaves the keyboard be
            buttons.addWidget(button)
        inner = QVBoxLayout(notice)
        inner.setContentsMargins(10, 7, 8, 7)
        inner.addWidget(text)
        inner.addLayout(buttons)
        self.keep_button = QPushButton("Keep Paper", notice)
        self.keep_button.setObjectName("keepDeletedButton")
        self.keep_button.setToolTip("Bring the paper back, with the notes you wrote in it")
        mark_changing(self.keep_button)
        self.keep_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        buttons.insertWidget(1, self.keep_button)
        self.restore_button.clicked.connect(self.restore)
        self.keep_button.clicked.connect(self.keep)
        self.copy_note_button.clicked.connect(self.copy_note)
        notice.hide()

    def writing(self) -> bool:
        """True while the person writes in the paper shown: the keyboard is in one of its
        text fields or notes, or a note holds text not saved yet."""
        focused = self.pane.window().focusWidget()
        in_field = isinstance(focused, QLineEdit | QTextEdit | QPlainTextEdit) and (
            not focused.isReadOnly() and self.pane.scroll_area.isAncestorOf(focused)
        )
        return in_field or bool(self.pane.notes.pending.texts)

    def holds(self) -> bool:
        """True when the pane keeps its paper though the list selects none."""
        return self.paper_id is not None or self.writing()

    def keeps(self, paper_id: int) -> bool:
        """Whether ``paper_id``, which the list no longer shows, stays in the pane (it does
        while the person writes in it); the pane then shows it again, with what happened."""
        if paper_id != self.pane.current_paper() or not self.holds():
            return False
        self.paper_id = paper_id
        self.pane.reload()
        return True

    def show_for(self, paper: PaperDetail | None) -> None:
        """Show the notice while the paper shown is the one kept, in the Trash (not merged
        into another: its notes went with the merge, and its banner says where)."""
        self.deleted = None
        self.pane.notes.pending.gone.clear()
        if paper is None or paper.id != self.paper_id or paper.trashed is None:
            self.notice.hide()
            return
        self._tell(paper, deleted=False)
        self.notice.setVisible(paper.merged_into is None)

    def _tell(self, paper: PaperDetail, *, deleted: bool) -> None:
        self.text.setText(KEPT_DELETED if deleted else KEPT_IN_TRASH)
        self.restore_button.setVisible(not deleted)
        self.keep_button.setVisible(deleted)
        self.copy_note_button.setVisible(bool(self.pane.notes.cards) or bool(paper.notes))
        self.copy_note_button.setText("Copy Note")

    def gone(self, paper_id: int) -> bool:
        """Whether ``paper_id``, found deleted for good, stays in the pane as last shown (it
        does while the person writes in it), its notes' text kept back from the library."""
        shown = self.pane.shown_paper()
        if shown is None or shown.id != paper_id:
            return False
        if self.deleted is None:
            if not self.holds():
                return False
            self.deleted, self.paper_id = shown, paper_id
            self.pane.notes.pending.gone.add(paper_id)
            self._tell(shown, deleted=True)
            self.notice.show()
        return True

    def leave(self) -> None:
        """The person leaves the paper deleted for good (another paper, the window closed):
        keep it if they wrote in it what the library never had."""
        detail = self.deleted
        if detail is None:
            return
        stored = {note.id: note.text for note in detail.notes}
        cards = self.pane.notes.cards
        if self._typed() or any(stored.get(n) != card.text() for n, card in cards.items()):
            self.keep()
        else:
            self.deleted = None
            self.pane.notes.pending.forget(detail.id)

    def keep(self) -> None:
        """Bring the paper deleted for good back, with its notes as written (one undo step),
        and show it."""
        detail = self.deleted
        if detail is None:
            return
        texts = [card.text() for card in self.pane.notes.cards.values()]
        page = kept_page(detail, texts, self._typed())
        self.deleted = None
        self.pane.notes.pending.forget(detail.id)
        self.keep_button.setEnabled(False)
        at = datetime.now().replace(microsecond=0)
        self.pane.controller.apply(
            ImportPages((page,), ImportChoices(), at),
            self._kept,
            on_error=lambda _error: self._not_kept(detail),
            label="Keeping the paper…",
        )

    def _not_kept(self, detail: PaperDetail) -> None:
        """The import refused (the person was shown why): still kept here, to try again."""
        if shiboken6.isValid(self.keep_button) and self.paper_id == detail.id:
            self.deleted = detail
            self.pane.notes.pending.gone.add(detail.id)
            self.keep_button.setEnabled(True)

    def _typed(self) -> dict[str, str]:
        """What the fields hold that differs from the paper as last shown (typed, never
        saved: :mod:`refman.ui.detail_saving` holds it for a paper deleted)."""
        typed: dict[str, str] = {}
        for name, field in self.pane.editable_fields().items():
            if isinstance(field, TitleEdit):
                now, shown = field.toPlainText(), field.shown_title()
            else:
                now, shown = field.text(), field.shown_value()
            if now.strip() != shown.strip():
                typed[name] = now.strip()
        return typed

    def _kept(self, outcome: Outcome[ImportResult]) -> None:
        if not shiboken6.isValid(self.keep_button):
            return  # (kept as the window closed)
        self.keep_button.setEnabled(True)
        self.paper_id = None
        kept = next((r.paper_id for r in outcome.value.records if r.paper_id is not None), None)
        if kept is not None:
            self.go_to(kept)

    def restore(self) -> None:
        """Bring the paper kept back from the Trash (undoable), the keyboard back in the note
        written; the list, which kept its place, selects the paper when it shows it again."""
        if self.paper_id is None:
            return
        card = self.pane.notes.card_written()
        if card is not None:
            card.editor.setFocus(Qt.FocusReason.OtherFocusReason)
        self.pane.controller.restore([self.paper_id])

    def copy_note(self) -> None:
        """Put the text of the note written on the clipboard; the button says it was."""
        put_on_clipboard(self.pane.notes.text_written())
        self.copy_note_button.setText("Copied")
