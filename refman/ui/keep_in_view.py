"""Keeps what the person types in a scroll area in view: the note just added, and the line
being typed as a note grows.

A widget added to a scroll area has its height only once the layouts ran: scrolling it into
view at once scrolled to where its top would be, and the note's editor stayed below the
visible part (the person typed without seeing the text). Here the scrolling is done again
whenever the scroll area's content grows (its scroll bar's range changes), and the caret of
a text editor that has the keyboard is followed as it moves — until the person scrolls
elsewhere (a note saved later, or the related papers read, never pull the view back).
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QObject, QPoint, Slot
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QScrollArea, QTextEdit, QWidget

#: Room kept below what is shown, in pixels.
MARGIN = 12

TextEditor = QPlainTextEdit | QTextEdit


class KeepInView(QObject):
    """Scrolls a scroll area to keep a widget, and the caret typed at in it, in view."""

    def __init__(self, area: QScrollArea) -> None:
        """Follow the caret of the text editors of ``area`` that get the keyboard.

        Args:
            area: The scroll area (its widget holds the editors).
        """
        super().__init__(area)
        self._area = area
        self._shown: QWidget | None = None
        self._editor: TextEditor | None = None
        self._following = False  # what is typed is followed (the person scrolled nowhere)
        self._moving = False  # scrolling, as opposed to the person's scrolling
        bar = area.verticalScrollBar()
        bar.rangeChanged.connect(self.on_range_changed)
        bar.valueChanged.connect(self.on_value_changed)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self.on_focus_changed)

    def show(self, widget: QWidget) -> None:
        """Scroll ``widget`` into view, now and as the layouts give it its size, while the
        keyboard is in it."""
        self._shown, self._following = widget, True
        self._keep()

    def _inside(self, widget: QWidget | None) -> bool:
        body = self._area.widget()
        return widget is not None and body is not None and body.isAncestorOf(widget)

    def _keep(self) -> None:
        shown = self._shown
        self._moving = True
        try:
            if shown is not None and shiboken6.isValid(shown) and shown.isVisible():
                self._area.ensureWidgetVisible(shown, 0, MARGIN)
            self._show_caret()
        finally:
            self._moving = False

    @Slot()
    def on_caret_moved(self) -> None:
        """Typing (or moving the caret) in the editor: its line is shown."""
        self._following = True
        self._keep()

    def _show_caret(self) -> None:
        editor, body = self._editor, self._area.widget()
        if editor is None or body is None or not shiboken6.isValid(editor):
            return
        if not editor.hasFocus() or not editor.isVisible():
            return
        caret = editor.cursorRect()
        middle = editor.viewport().mapTo(body, QPoint(caret.left(), caret.center().y()))
        self._area.ensureVisible(middle.x(), middle.y(), 0, caret.height() // 2 + MARGIN)

    @Slot(int, int)
    def on_range_changed(self, _low: int, _high: int) -> None:
        """The content grew or shrank: what is kept in view may have moved."""
        if self._following:
            self._keep()

    @Slot(int)
    def on_value_changed(self, _value: int) -> None:
        """The person scrolled: what they scrolled to stays."""
        if not self._moving:
            self._following = False

    @Slot(QWidget, QWidget)
    def on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        """Follow the caret of the text editor that got the keyboard (in this area)."""
        if self._editor is not None and shiboken6.isValid(self._editor):
            self._editor.cursorPositionChanged.disconnect(self.on_caret_moved)
        self._editor = None
        if self._shown is not None and (
            not shiboken6.isValid(self._shown) or new is None or not self._shown.isAncestorOf(new)
        ):
            self._shown = None
        if isinstance(new, QPlainTextEdit | QTextEdit) and self._inside(new):
            self._editor = new
            new.cursorPositionChanged.connect(self.on_caret_moved)
