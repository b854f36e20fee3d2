"""The cover a window shows while something is dragged over it: what a drop would do."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QWidget


class DropOverlay(QWidget):
    """A translucent cover with a dashed rounded border and a large message.

    It covers its parent while something is dragged over it, and follows the parent's size.
    While shown it receives the drag itself, so the whole window is one drop zone; a click
    hides it should a drag end without telling.
    """

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("dropOverlay")
        self.setAcceptDrops(True)
        self.message = ""
        self.detail = ""
        self.refused = False
        parent.installEventFilter(self)
        self.hide()

    def show_message(self, message: str, detail: str = "", *, refused: bool = False) -> None:
        """Cover the parent and show a message.

        Args:
            message: The large line.
            detail: A smaller line below it.
            refused: True to draw it as a refusal (warning colour).
        """
        self.message, self.detail, self.refused = message, detail, refused
        covered = self.parentWidget()
        if covered is not None:
            self.setGeometry(covered.rect())
        self.raise_()
        self.show()
        self.update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Follow the parent's size."""
        # While Qt tears the widgets down, events can arrive after Python's attributes are gone.
        covered = self.parentWidget()
        if covered is not None and watched is covered and event.type() == QEvent.Type.Resize:
            self.setGeometry(covered.rect())
        return False

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Get out of the way."""
        self.hide()
        event.ignore()

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the cover, the dashed border and the message."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        fill = QColor(pal.color(QPalette.ColorRole.Window))
        fill.setAlpha(240)
        painter.fillRect(self.rect(), fill)
        accent = QColor("#c0392b") if self.refused else pal.color(QPalette.ColorRole.Highlight)
        pen = QPen(accent, 3, Qt.PenStyle.DashLine)
        pen.setDashPattern([4.0, 3.0])
        painter.setPen(pen)
        frame = QRectF(self.rect()).adjusted(16, 16, -16, -16)
        painter.drawRoundedRect(frame, 18, 18)
        text_box = frame.adjusted(40, 0, -40, 0)
        big = self.font()
        big.setPointSizeF(max(self.font().pointSizeF(), 9.0) * 2.0)
        big.setBold(True)
        painter.setFont(big)
        painter.setPen(accent if self.refused else pal.color(QPalette.ColorRole.WindowText))
        flags = Qt.AlignmentFlag.AlignHCenter | Qt.TextFlag.TextWordWrap
        metrics_big = painter.fontMetrics()
        big_rect = metrics_big.boundingRect(text_box.toRect(), flags, self.message)
        small = self.font()
        painter.setFont(small)
        small_rect = painter.fontMetrics().boundingRect(text_box.toRect(), flags, self.detail)
        gap = 12 if self.detail else 0
        height = big_rect.height() + gap + small_rect.height()
        top = frame.center().y() - height / 2
        width = max(big_rect.width(), small_rect.width())
        backdrop = QRectF(frame.center().x() - width / 2, top, width, height)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(pal.color(QPalette.ColorRole.Window))
        painter.drawRoundedRect(backdrop.adjusted(-24, -16, 24, 16), 12, 12)
        painter.setPen(accent if self.refused else pal.color(QPalette.ColorRole.WindowText))
        painter.setFont(big)
        painter.drawText(
            QRectF(text_box.left(), top, text_box.width(), big_rect.height()), flags, self.message
        )
        if self.detail:
            painter.setFont(small)
            painter.setPen(pal.color(QPalette.ColorRole.WindowText))
            painter.drawText(
                QRectF(text_box.left(), top + big_rect.height() + gap, text_box.width(), 1000),
                flags,
                self.detail,
            )
        painter.end()
