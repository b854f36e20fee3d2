"""The detail pane's page without a paper: "Select a paper to see its details", or, while the
paper just picked has not been read after a moment, that it is being read.

A paper is read off the GUI thread and the pane goes on showing the paper before until it
comes: a few milliseconds, unnoticed. When the library does not answer (a shared library's
server that stopped answering), the list would show the new paper selected beside the details
of the old one; after :data:`WAIT_MS` the pane says instead that it is reading the new one.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QStackedWidget, QWidget

from refman.ui.look import plain_label, scaled_font, set_muted

#: How long a paper may take to be read before the pane says it is waiting for it (ms).
WAIT_MS = 1000
#: What the page says.
EMPTY = "Select a paper to see its details"
READING = "Reading the paper…\nThe library has not answered yet."


class EmptyPage:
    """The page (its ``label``) and when it says what."""

    def __init__(self, parent: QWidget) -> None:
        self.label = plain_label(EMPTY, parent)
        self.label.setObjectName("detailEmpty")
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setFont(scaled_font(self.label.font(), 1.1))
        set_muted(self.label)
        self._stack: QStackedWidget | None = None
        self._timer = QTimer(self.label)
        self._timer.setSingleShot(True)
        self._timer.setInterval(WAIT_MS)
        self._timer.timeout.connect(self._waited)

    def asked(self, stack: QStackedWidget) -> None:
        """A paper was asked for: the page of ``stack`` says it waits, if it has to."""
        self._stack = stack
        self._timer.start()

    def answered(self) -> None:
        """The paper asked for came (or none is asked for)."""
        self._timer.stop()
        self.label.setText(EMPTY)

    def _waited(self) -> None:
        self.label.setText(READING)
        if self._stack is not None:
            self._stack.setCurrentWidget(self.label)
