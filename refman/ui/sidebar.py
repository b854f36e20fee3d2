"""The sidebar's list widgets: rows with a right-aligned muted count and an optional colour dot.

:class:`SidebarList` holds headings and selectable rows (library sections, people, saved
searches); :class:`TagList` adds dropping papers onto a tag, highlighting the tag under the
cursor. Delete (or Backspace) on a row asks to delete what it stands for where that can be
deleted (a tag, a saved search), and does nothing on the others (a section, a person).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QDragEnterEvent,
    QDragLeaveEvent,
    QDragMoveEvent,
    QDropEvent,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QPainter,
    QPalette,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from refman.ui.look import NEW, heading_font, mix, muted
from refman.ui.paper_drag import carries_papers, when_dropped

log = logging.getLogger("refman.ui")

KIND_ROLE = Qt.ItemDataRole.UserRole + 1  # "heading", "section", "person" or "tag"
KEY_ROLE = Qt.ItemDataRole.UserRole + 2  # Section, person id or tag name
COUNT_ROLE = Qt.ItemDataRole.UserRole + 3  # int, or None for no count
COLOUR_ROLE = Qt.ItemDataRole.UserRole + 4  # "#rrggbb", or None
BADGE_ROLE = Qt.ItemDataRole.UserRole + 5  # a short word in a pill ("3 new"), or None

_PAD = 10  # left and right padding inside a row
_DOT = 8  # colour dot diameter
_RADIUS = 5


class SidebarDelegate(QStyledItemDelegate):
    """Paints sidebar rows: headings, names with counts, tag colour dots, drop highlight."""

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        """Rows are a comfortable click target; headings leave room above them."""
        height = QFontMetrics(option.font).height()
        if index.data(KIND_ROLE) == "heading":
            return QSize(100, height + (18 if index.row() else 8))
        return QSize(100, height + 10)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        """Draw one row: a heading, or a name with its count (and a tag's colour dot)."""
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if index.data(KIND_ROLE) == "heading":
            self._paint_heading(painter, option, index)
        else:
            body = option.rect.adjusted(4, 1, -4, -1)
            text_colour, count_colour = self._paint_background(painter, option, index, body)
            left = body.left() + _PAD
            if index.data(KIND_ROLE) == "tag":
                self._paint_dot(painter, index.data(COLOUR_ROLE), count_colour, left, body)
                left += _DOT + 8
            painter.setFont(option.font)
            right = self._paint_count(painter, index.data(COUNT_ROLE), count_colour, body)
            if index.data(BADGE_ROLE):
                right = self._paint_badge(painter, str(index.data(BADGE_ROLE)), option, body, right)
            name = painter.fontMetrics().elidedText(
                str(index.data()), Qt.TextElideMode.ElideRight, max(right - left, 0)
            )
            painter.setPen(text_colour)
            painter.drawText(
                QRect(left, body.top(), max(right - left, 0), body.height()),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                name,
            )
        painter.restore()

    @staticmethod
    def _paint_heading(
        painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        painter.setFont(heading_font(option.font))
        widget = option.widget
        painter.setPen(muted(widget.palette() if widget is not None else option.palette))
        text_rect = option.rect.adjusted(_PAD, 0, -_PAD, -4)
        painter.drawText(
            text_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom, index.data()
        )

    @staticmethod
    def _paint_background(
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
        body: QRect,
    ) -> tuple[QColor, QColor]:
        """The selection, hover and drop-target fill; returns the text and count colours."""
        palette: QPalette = option.palette
        view = option.widget
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        active = bool(option.state & QStyle.StateFlag.State_Active) and bool(
            view is not None and view.hasFocus()
        )
        text_colour = palette.color(QPalette.ColorRole.Text)
        count_colour = muted(palette)
        highlight = palette.color(QPalette.ColorRole.Highlight)
        base = palette.color(QPalette.ColorRole.Base)
        fill: QColor | None = None
        if selected:
            fill = highlight if active else mix(base, highlight, 0.25)
            if active:
                text_colour = palette.color(QPalette.ColorRole.HighlightedText)
                count_colour = mix(text_colour, highlight, 0.25)
        elif option.state & QStyle.StateFlag.State_MouseOver:
            fill = mix(base, text_colour, 0.06)
        framed = active and bool(option.state & QStyle.StateFlag.State_HasFocus) and not selected
        if fill is not None or framed:  # (the keyboard's row framed: Space, Enter, F2 act on it)
            painter.setPen(highlight if framed else Qt.PenStyle.NoPen)
            painter.setBrush(fill if fill is not None else Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(
                body.adjusted(0, 0, -1, -1) if framed else body, _RADIUS, _RADIUS
            )
        if getattr(view, "drop_row", -1) == index.row():
            painter.setPen(highlight)
            drop = QColor(highlight)
            drop.setAlphaF(0.18)
            painter.setBrush(drop)
            painter.drawRoundedRect(body.adjusted(1, 1, -1, -1), _RADIUS, _RADIUS)
        return text_colour, count_colour

    @staticmethod
    def _paint_dot(
        painter: QPainter, colour: str | None, outline: QColor, left: int, body: QRect
    ) -> None:
        """A tag's colour dot (an empty ring for a tag without a colour)."""
        dot = QRect(left, body.center().y() - _DOT // 2 + 1, _DOT, _DOT)
        if colour:
            painter.setPen(QColor(colour).darker(115))
            painter.setBrush(QColor(colour))
        else:
            painter.setPen(outline)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            dot.adjust(1, 1, -1, -1)
        painter.drawEllipse(dot)

    @staticmethod
    def _paint_badge(
        painter: QPainter, text: str, option: QStyleOptionViewItem, body: QRect, right: int
    ) -> int:
        """A pill in the colour of new things ("3 new") before the count; returns where the name
        must end."""
        font = QFont(option.font)
        font.setPointSizeF(max(font.pointSizeF() * 0.85, 6.0))
        font.setBold(True)
        metrics = QFontMetrics(font)
        width = metrics.horizontalAdvance(text) + 12
        height = metrics.height() + 2
        pill = QRect(right - width, body.center().y() - height // 2 + 1, width, height)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(NEW))
        painter.drawRoundedRect(pill, height / 2, height / 2)
        painter.setFont(font)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, text)
        painter.setFont(option.font)
        return pill.left() - 8

    @staticmethod
    def _paint_count(painter: QPainter, count: int | None, colour: QColor, body: QRect) -> int:
        """The right-aligned count; returns where the name must end."""
        right = body.right() - _PAD
        if count is None:
            return right
        text = f"{count:,}"
        width = painter.fontMetrics().horizontalAdvance(text)
        painter.setPen(colour)
        painter.drawText(
            QRect(right - width, body.top(), width, body.height()),
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
            text,
        )
        return right - width - 10


class SidebarList(QListWidget):
    """A frameless list of sidebar rows whose preferred height fits all its rows.

    Signals:
        delete_requested(object): Delete (or Backspace) was pressed on a row of a kind in
            :attr:`deletable`; the argument is its key (a tag's name, a saved search's id).
    """

    delete_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.drop_row = -1
        #: The kinds of row Delete asks to delete ("tag", "saved"); none by default.
        self.deletable: tuple[str, ...] = ()
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setItemDelegate(SidebarDelegate(self))
        self.setMouseTracking(True)
        self.setUniformItemSizes(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setAttribute(Qt.WidgetAttribute.WA_MacShowFocusRect, False)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Base, palette.color(QPalette.ColorRole.Window))
        self.setPalette(palette)

    def add_heading(self, text: str) -> QListWidgetItem:
        """Append a heading row (not selectable, skipped by the keyboard)."""
        item = QListWidgetItem(text, self)
        item.setData(KIND_ROLE, "heading")
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        return item

    def add_row(
        self, kind: str, key: object, text: str, count: int | None, colour: str | None = None
    ) -> QListWidgetItem:
        """Append a selectable row.

        Args:
            kind: "section", "person" or "tag".
            key: What the row stands for (a Section, a person id or a tag name).
            text: The name shown (plain text).
            count: The count shown on the right, or None.
            colour: A tag colour, or None.

        Returns:
            The new item.
        """
        item = QListWidgetItem(text, self)
        item.setData(KIND_ROLE, kind)
        item.setData(KEY_ROLE, key)
        item.setData(COUNT_ROLE, count)
        item.setData(COLOUR_ROLE, colour)
        tip = text if count is None else f"{text} — {count:,} paper{'s' if count != 1 else ''}"
        item.setToolTip(tip)
        return item

    def content_height(self) -> int:
        """The height that shows every row without scrolling."""
        rows = sum(self.sizeHintForRow(r) for r in range(self.count()))
        return rows + 2 * self.frameWidth() + 4

    def sizeHint(self) -> QSize:
        """Prefer showing every row."""
        return QSize(super().sizeHint().width(), self.content_height())

    def find_row(self, kind: str, key: object) -> QListWidgetItem | None:
        """The row of a kind and key, if any."""
        for r in range(self.count()):
            item = self.item(r)
            if item.data(KIND_ROLE) == kind and item.data(KEY_ROLE) == key:
                return item
        return None

    def _row_to_delete(self, event: QKeyEvent) -> QListWidgetItem | None:
        """The deletable row Delete or Backspace (no modifier) is pressed on, if any."""
        plain = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        item = self.currentItem()
        if event.key() not in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) or plain or item is None:
            return None
        return item if item.data(KIND_ROLE) in self.deletable else None

    def event(self, event: QEvent) -> bool:
        """Delete on a row it deletes is for that row, before any shortcut of the window."""
        overriding = event.type() == QEvent.Type.ShortcutOverride
        if overriding and isinstance(event, QKeyEvent) and self._row_to_delete(event):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Delete asks to delete the row with the keyboard's focus, if it can be deleted."""
        if (item := self._row_to_delete(event)) is not None:
            event.accept()
            self.delete_requested.emit(item.data(KEY_ROLE))
            return
        super().keyPressEvent(event)


class TagList(SidebarList):
    """The tag list: extended selection, Escape deselects, papers can be dropped onto a tag,
    Delete (or Backspace) asks to delete the tag with the keyboard's focus.

    Signals:
        papers_dropped(list, str): Paper ids were dropped onto the named tag.
        rename_requested(str): F2 was pressed on the named tag (as in a file manager).
    """

    papers_dropped = Signal(list, str)
    rename_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.deletable = ("tag",)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setAcceptDrops(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DropOnly)
        self.setDropIndicatorShown(False)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Escape deselects every tag; Delete asks to delete the tag with the focus, F2 to
        rename it."""
        if event.key() == Qt.Key.Key_Escape and self.selectedItems():
            self.clearSelection()
            return
        item = self.currentItem()
        if event.key() == Qt.Key.Key_F2 and item is not None and item.data(KIND_ROLE) == "tag":
            event.accept()
            self.rename_requested.emit(str(item.data(KEY_ROLE)))
            return
        super().keyPressEvent(event)

    def _tag_at(self, event: QDropEvent | QDragMoveEvent) -> QListWidgetItem | None:
        item = self.itemAt(event.position().toPoint())
        return item if item is not None and item.data(KIND_ROLE) == "tag" else None

    def _set_drop_row(self, row: int) -> None:
        if row != self.drop_row:
            self.drop_row = row
            self.viewport().update()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept drags of papers."""
        if carries_papers(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        """Highlight the tag under the cursor; only a tag accepts the drop."""
        item = self._tag_at(event) if carries_papers(event.mimeData()) else None
        self._set_drop_row(self.row(item) if item is not None else -1)
        if item is None:
            event.ignore()
            return
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()

    def dragLeaveEvent(self, event: QDragLeaveEvent) -> None:
        """Forget the highlight."""
        self._set_drop_row(-1)
        event.accept()

    def dropEvent(self, event: QDropEvent) -> None:
        """Tag the dropped papers with the tag under the cursor (a dragged selection of a
        whole library once the list worker has read its ids)."""
        self._set_drop_row(-1)
        item = self._tag_at(event)
        if item is None:
            event.ignore()
            return
        key = str(item.data(KEY_ROLE))
        if not when_dropped(event.mimeData(), lambda ids: self.papers_dropped.emit(ids, key)):
            event.ignore()
            return
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()


__all__ = [
    "BADGE_ROLE",
    "COLOUR_ROLE",
    "COUNT_ROLE",
    "KEY_ROLE",
    "KIND_ROLE",
    "SidebarDelegate",
    "SidebarList",
    "TagList",
]
