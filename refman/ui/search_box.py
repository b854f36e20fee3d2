"""The search field: filters the paper list as the user types, without a query per keystroke."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QIcon, QKeyEvent, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QLineEdit, QWidget

from refman.ui.look import muted

PLACEHOLDER = "Search titles, authors, abstracts, tags, notes…"
DEBOUNCE_MS = 150


def magnifier_icon(widget: QWidget, size: int = 16) -> QIcon:
    """A search icon drawn in the widget's muted text colour (no icon theme needed).

    Args:
        widget: Supplies the palette and the screen's pixel ratio.
        size: The icon's size in device-independent pixels.

    Returns:
        The icon.
    """
    ratio = max(widget.devicePixelRatioF(), 1.0)
    pixmap = QPixmap(round(size * ratio), round(size * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(muted(widget.palette()), size / 9)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    radius = size * 0.3
    centre = QPointF(size * 0.42, size * 0.42)
    painter.drawEllipse(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius))
    reach = radius * 0.72
    painter.drawLine(
        QPointF(centre.x() + reach, centre.y() + reach), QPointF(size * 0.86, size * 0.86)
    )
    painter.end()
    return QIcon(pixmap)


class SearchBox(QLineEdit):
    """A search field that reports its text once typing pauses.

    Each keystroke restarts a short timer; when it runs out, :attr:`search_changed` carries
    the text. Esc clears the field and reports at once.

    Signals:
        search_changed(str): The text to search for ("" shows everything).
    """

    search_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        """Create the field.

        Args:
            parent: The parent widget.
        """
        super().__init__(parent)
        self.setObjectName("searchBox")
        self.setPlaceholderText(PLACEHOLDER)
        self.setClearButtonEnabled(True)
        self.setAccessibleName("Search")
        self.search_action = self.addAction(
            magnifier_icon(self), QLineEdit.ActionPosition.LeadingPosition
        )
        self.search_action.setToolTip("Search the library")
        self._emitted: str | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.on_timer_timeout)
        self.textEdited.connect(self.on_text_edited)
        self.textChanged.connect(self.on_text_changed)

    def set_text_now(self, text: str) -> None:
        """Put text in the field and report it at once.

        Args:
            text: The new search text.
        """
        self._timer.stop()
        self._emitted = text  # so that the change below does not report it a second time
        if text != self.text():
            self.setText(text)
        self._emit(text)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Esc clears the field (and the search) at once."""
        if event.key() == Qt.Key.Key_Escape and self.text():
            event.accept()
            self.set_text_now("")
            return
        super().keyPressEvent(event)

    def _emit(self, text: str) -> None:
        self._emitted = text
        self.search_changed.emit(text)

    @Slot(str)
    def on_text_edited(self, _text: str) -> None:
        """The user typed: wait for a pause before searching."""
        self._timer.start()

    @Slot(str)
    def on_text_changed(self, text: str) -> None:
        """The clear button empties the field: show everything at once."""
        if not text and self._emitted:
            self._timer.stop()
            self._emit("")

    @Slot()
    def on_timer_timeout(self) -> None:
        """Typing paused: search for what is in the field."""
        text = self.text()
        if text != self._emitted:
            self._emit(text)
