"""The review table: F2 types a title wherever the row's keyboard cell is, and its delegate, a
merge / keep separate combo in a possible duplicate's row."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QEvent, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from refman.core.importing.wording import duplicate_text

from refman.ui.wizard.review_model import KEEP_SEPARATE_ROLE, PLAN_ROLE, Column

Index = QModelIndex | QPersistentModelIndex


class ReviewTable(QTableView):
    """The review's rows. The keyboard's cell stays in the first column (Space checks and
    unchecks the row), so F2 there types the row's title when it needs one."""

    def edit(  # type: ignore[override]
        self,
        index: Index,
        trigger: QAbstractItemView.EditTrigger | None = None,
        event: QEvent | None = None,
    ) -> bool:
        """Edit a cell; the edit key on a row that needs a title edits its title."""
        if trigger is None:  # (the public slot)
            super().edit(index)
            return True
        if trigger == QAbstractItemView.EditTrigger.EditKeyPressed and index.isValid():
            title = index.model().index(index.row(), Column.TITLE)
            if title.flags() & Qt.ItemFlag.ItemIsEditable and index.column() != Column.STATUS:
                index = title  # (the keyboard's cell stays where it is)
        return super().edit(index, trigger, event)  # type: ignore[arg-type]


class DuplicateDelegate(QStyledItemDelegate):
    """Edits the Status cell of a possible duplicate with a merge / keep separate combo."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        """A combo for possible duplicates; the default editor elsewhere."""
        plan = index.data(PLAN_ROLE)
        if index.column() != Column.STATUS or plan is None:
            return super().createEditor(parent, option, index)
        combo = QComboBox(parent)
        combo.setObjectName("duplicateChoice")
        combo.addItem(duplicate_text(plan, False), False)
        combo.addItem(duplicate_text(plan, True), True)
        combo.setToolTip(str(index.data(Qt.ItemDataRole.ToolTipRole) or ""))
        combo.activated.connect(lambda _i: self.commitData.emit(combo))
        return combo

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        """Show the current choice."""
        if isinstance(editor, QComboBox):
            editor.setCurrentIndex(1 if index.data(KEEP_SEPARATE_ROLE) else 0)
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: Index) -> None:
        """Store the chosen option."""
        if isinstance(editor, QComboBox):
            model.setData(index, bool(editor.currentData()), KEEP_SEPARATE_ROLE)
            editor.setToolTip(str(index.data(Qt.ItemDataRole.ToolTipRole) or ""))
        else:
            super().setModelData(editor, model, index)
