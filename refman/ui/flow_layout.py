"""A layout that places widgets left to right and wraps them onto new lines (chips, authors)."""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    """Lays out items in rows, wrapping when the width runs out.

    Each row's items are centred vertically, so chips and a line edit line up.
    """

    def __init__(self, parent: QWidget | None = None, h_gap: int = 6, v_gap: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._h_gap = h_gap
        self._v_gap = v_gap
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:
        """Append an item (called by ``addWidget``)."""
        self._items.append(item)

    def count(self) -> int:
        """The number of items."""
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        """The item at an index, or None."""
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        """Remove and return the item at an index."""
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        """A flow does not grow beyond its rows."""
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        """The height depends on the width."""
        return True

    def heightForWidth(self, width: int) -> int:
        """The height the rows need at a width."""
        return self._arrange(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:
        """Place the items inside ``rect``."""
        super().setGeometry(rect)
        self._arrange(rect, apply=True)

    def sizeHint(self) -> QSize:
        """The size of one long row."""
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        """The widest item, plus the margins."""
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        m: QMargins = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def clear(self) -> None:
        """Remove and delete every widget."""
        while self._items:
            item = self._items.pop()
            widget = item.widget()
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self.invalidate()

    def _arrange(self, rect: QRect, *, apply: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        rows: list[list[tuple[QLayoutItem, QSize]]] = [[]]
        x = area.x()
        for item in self._items:
            widget = item.widget()
            if widget is not None and widget.isHidden():
                continue
            hint = item.sizeHint()
            hint.setWidth(min(hint.width(), max(area.width(), 1)))
            if rows[-1] and x + hint.width() > area.right() + 1:
                rows.append([])
                x = area.x()
            rows[-1].append((item, hint))
            x += hint.width() + self._h_gap
        y = area.y()
        for row in rows:
            if not row:
                continue
            height = max(h.height() for _, h in row)
            x = area.x()
            for item, hint in row:
                if apply:
                    top = y + (height - hint.height()) // 2
                    item.setGeometry(QRect(QPoint(x, top), hint))
                x += hint.width() + self._h_gap
            y += height + self._v_gap
        used = y - self._v_gap - area.y() if any(rows) else 0
        return used + m.top() + m.bottom()
