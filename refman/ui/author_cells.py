"""The paper list's author cells: an edited book's editors cut short by a narrow column keep
the mark saying they are editors ("Luca Rossi et… (eds.)"); Qt cut the mark off first
("Luca Rossi et al. (e…"), and the book read as by an author."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from refman.common.editor_line import editor_mark

__all__ = ["AuthorCells"]


class AuthorCells(QStyledItemDelegate):
    """The delegate of the author column: the names are cut, not the editors' mark."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        """The cell's text, an editors' line cut to the cell with its mark kept."""
        super().initStyleOption(option, index)
        text = option.text
        mark = editor_mark(text)
        if not mark:
            return
        widget = option.widget
        style = widget.style() if widget is not None else QApplication.style()
        margin = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, option) + 1)
        area = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, widget)
        room = area.width() - margin
        metrics = option.fontMetrics
        if metrics.horizontalAdvance(text) <= room:
            return
        names = text[: -len(mark)]
        left = max(0, room - metrics.horizontalAdvance(mark))
        option.text = metrics.elidedText(names, Qt.TextElideMode.ElideRight, left) + mark
