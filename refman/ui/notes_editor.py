"""A note of a paper: Markdown source with a rendered preview, saved as the user types.

Typing is saved through the controller ~600 ms after the last key, when the note loses focus,
and on :meth:`~refman.ui.paper_notes.NotesEditor.flush` (the window calls it before closing
and before showing another paper; :mod:`refman.ui.paper_notes` holds a paper's cards). As a
last resort, text still waiting when the editor is destroyed is saved too: nothing typed is
lost.

A save runs off the GUI thread like every change, while the user goes on typing. Until it has
landed, the text on its way stands in for the stored one, so a note shown again in the
meantime never shows (and never re-saves) an older text.
"""

from __future__ import annotations

import logging

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextDocument, QTextFormat
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QPlainTextEdit,
    QSizePolicy,
    QStackedWidget,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from refman.core.values import NoteView

from refman.ui.links import open_note_link
from refman.ui.look import plain_label, scaled_font, set_muted, subtle_fill
from refman.ui.note_saving import PendingNotes
from refman.ui.read_only import mark_changing

log = logging.getLogger("refman.ui")

SAVE_DELAY_MS = 600
#: A note card's status after its text was saved (until the note changes again).
SAVED = "Saved"
#: A note card's status while the library could not take its text (kept, saved next time).
NOT_SAVED = "Not saved: kept here, and saved when you type on or leave the note"
_MARKDOWN = QTextDocument.MarkdownFeature(
    QTextDocument.MarkdownFeature.MarkdownDialectGitHub.value
    | QTextDocument.MarkdownFeature.MarkdownNoHTML.value
)
_MIN_LINES, _MAX_LINES = 4, 24
_HEADING_SIZE = {1: 2, 2: 1}  # Qt's size steps: 2 is 1.5×, 1 is 1.2×, 0 is the body size
#: Focus going to another window or a menu: the cursor has not left the note.
_AWAY = (Qt.FocusReason.ActiveWindowFocusReason, Qt.FocusReason.PopupFocusReason)


class NoteCard(QFrame):
    """One note: its Markdown source or its rendering, with Edit/Preview and Delete.

    Signals:
        delete_requested(int): The Delete button was clicked; the argument is the note id.
        left(int): The cursor left the note for another place of the window (the note id).
    """

    delete_requested = Signal(int)
    left = Signal(int)

    def __init__(
        self, note: NoteView, pending: PendingNotes, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("noteCard")
        self.note_id = note.id
        self._pending = pending
        pending.papers[note.id] = note.paper_id
        self._saved_text = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SAVE_DELAY_MS)
        self._timer.timeout.connect(self.save)
        self._build()
        self.set_note(note)
        self.set_editing(not note.text)

    def _build(self) -> None:
        fill = subtle_fill(self.palette()).name()
        self.setStyleSheet(
            f"QFrame#noteCard {{ background: {fill}; border: 1px solid palette(midlight);"
            " border-radius: 6px; }"
        )
        self.status = plain_label("", self, wrap=False)
        self.status.setFont(scaled_font(self.status.font(), 0.85))
        set_muted(self.status)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.mode_button = QToolButton(self)
        self.mode_button.setObjectName("noteModeToggle")
        self.mode_button.setAutoRaise(True)
        self.mode_button.clicked.connect(self.on_mode_button_clicked)
        self.delete_button = QToolButton(self)
        self.delete_button.setObjectName("deleteNote")
        self.delete_button.setText("Delete")
        self.delete_button.setAutoRaise(True)
        self.delete_button.setToolTip("Delete this note (Undo brings it back)")
        self.delete_button.clicked.connect(self.on_delete_button_clicked)
        mark_changing(self.delete_button)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.status, 1)
        header.addWidget(self.mode_button)
        header.addWidget(self.delete_button)

        self.editor = QPlainTextEdit(self)
        self.editor.setObjectName("noteEdit")
        self.editor.setPlaceholderText(
            "Write a note… Markdown works: **bold**, - lists, # headings"
        )
        self.editor.setTabChangesFocus(True)
        self.editor.textChanged.connect(self.on_editor_text_changed)
        self.editor.installEventFilter(self)
        self.preview = QTextBrowser(self)
        self.preview.setObjectName("notePreview")
        # A click never navigates the preview: the link is opened after asking (links.py).
        self.preview.setOpenLinks(False)
        self.preview.anchorClicked.connect(lambda url: open_note_link(self, url.toString()))
        self.preview.setFrameShape(QFrame.Shape.NoFrame)
        self.preview.viewport().setAutoFillBackground(False)
        self.preview.setStyleSheet("QTextBrowser { background: transparent; }")
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.editor)
        self.stack.addWidget(self.preview)
        self.stack.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 8, 10)
        layout.setSpacing(4)
        layout.addLayout(header)
        layout.addWidget(self.stack)

    # -- state ------------------------------------------------------------------------------

    def text(self) -> str:
        """The text in the editor."""
        return self.editor.toPlainText()

    def is_dirty(self) -> bool:
        """True when the editor holds text not yet saved."""
        return self.text() != self._saved_text

    def is_editing(self) -> bool:
        """True when the Markdown source is shown."""
        return self.stack.currentWidget() is self.editor

    def set_note(self, note: NoteView) -> None:
        """Show a note as stored (or as a save on its way leaves it), unless the user is
        typing something newer."""
        stored = self._pending.stored_text(note)
        typing = self.is_dirty()
        just_saved = self.status.text() == SAVED and stored == self._saved_text
        if not typing and stored != self.text():
            self.editor.blockSignals(True)
            self.editor.setPlainText(stored)
            self.editor.blockSignals(False)
        if not typing:  # typing keeps the text it started from (what its save is based on)
            self._saved_text = stored
        if not self.is_dirty():
            self._pending.texts.pop(self.note_id, None)
        by = f" by {note.modified_by}" if self._pending.shared and note.modified_by else ""
        if not just_saved and not (typing and self.status.text() == NOT_SAVED):
            # ("Saved" stays until the note changes again; "Not saved" until it is)
            self.status.setText(f"Edited {note.modified:%Y-%m-%d %H:%M}{by}")
        if not self.is_editing():
            self._render()
        self._fit_height()

    def set_editing(self, editing: bool) -> None:
        """Show the Markdown source (True) or the rendering (False)."""
        if not editing:
            self._render()
        self.stack.setCurrentWidget(self.editor if editing else self.preview)
        self.mode_button.setText("Preview" if editing else "Edit")
        self.mode_button.setToolTip("Show the note rendered" if editing else "Edit the note")
        self._fit_height()

    def _render(self) -> None:
        text = self.text()
        if not text.strip():
            self.preview.setPlainText("(empty note)")
            return
        doc = self.preview.document()
        doc.setMarkdown(text, _MARKDOWN)
        block = doc.begin()
        while block.isValid():  # headings a little calmer than Qt's defaults
            level = block.blockFormat().headingLevel()
            if level:
                cursor = QTextCursor(block)
                cursor.movePosition(
                    QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor
                )
                size = QTextCharFormat()
                size.setProperty(
                    QTextFormat.Property.FontSizeAdjustment, _HEADING_SIZE.get(level, 0)
                )
                cursor.mergeCharFormat(size)
            block = block.next()

    def _fit_height(self) -> None:
        if self.is_editing():
            lines = self.editor.document().lineCount()
            lines = min(max(lines, _MIN_LINES), _MAX_LINES)
            height = lines * self.editor.fontMetrics().lineSpacing() + 14
        else:
            doc = self.preview.document()
            doc.setTextWidth(max(self.preview.viewport().width(), 100))
            height = min(int(doc.size().height()) + 6, 600)
        self.stack.setFixedHeight(height)

    def _torn_down(self) -> bool:
        """True while Qt tears the card down (or builds it).

        Qt may deliver resize and focus events while the card's Python attributes or its
        child widgets are already gone: those events must not touch them.
        """
        parts = self.__dict__
        return not all(
            name in parts and shiboken6.isValid(parts[name]) for name in ("editor", "stack")
        )

    def resizeEvent(self, event: QEvent) -> None:
        """Re-fit the height to the new width."""
        super().resizeEvent(event)  # type: ignore[arg-type]
        if not self._torn_down():
            self._fit_height()

    # -- saving -----------------------------------------------------------------------------

    @Slot()
    def save(self) -> None:
        """Save what was typed now (stops the pending timer)."""
        self._timer.stop()
        if not self.is_dirty():
            self._pending.texts.pop(self.note_id, None)
            return
        text, base = self.text(), self._saved_text
        self._pending.texts[self.note_id] = text
        self._saved_text = text
        self._pending.save(self.note_id, self._show_saved, lambda: self._not_saved(text, base))

    def _not_saved(self, text: str, base: str) -> None:
        """The library could not take the text: it stays here as typing, saved next time."""
        if self._torn_down() or not shiboken6.isValid(self.status):
            return
        if self._saved_text == text:
            self._saved_text = base
        self.status.setText(NOT_SAVED)

    def _show_saved(self) -> None:
        if not self._torn_down() and shiboken6.isValid(self.status):
            self.status.setText(SAVED)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Save when the editor loses focus."""
        if (
            event.type() == QEvent.Type.FocusOut
            and not self._torn_down()
            and watched is self.editor
        ):
            self.save()
            if event.reason() not in _AWAY:  # type: ignore[attr-defined]
                self.left.emit(self.note_id)
        return super().eventFilter(watched, event)

    # -- slots ------------------------------------------------------------------------------

    @Slot()
    def on_editor_text_changed(self) -> None:
        """Remember the text and save it once typing pauses."""
        self._pending.bases.setdefault(self.note_id, self._saved_text)
        self._pending.texts[self.note_id] = self.text()
        self._pending.last = self.note_id
        self.status.setText("Editing…")
        self._timer.start()
        self._fit_height()

    @Slot()
    def on_mode_button_clicked(self) -> None:
        """Switch between the source and the rendering."""
        editing = not self.is_editing()
        if not editing:
            self.save()
        self.set_editing(editing)
        if editing:
            self.editor.setFocus(Qt.FocusReason.OtherFocusReason)

    @Slot()
    def on_delete_button_clicked(self) -> None:
        """Save first (so Undo brings back every word), then ask for deletion."""
        self.save()
        self.delete_requested.emit(self.note_id)
