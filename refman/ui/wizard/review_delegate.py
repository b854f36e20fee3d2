"""The review table's delegate: a merge / keep separate combo in a possible duplicate's row."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QComboBox, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from refman.core.importing.wording import duplicate_text

from refman.ui.wizard.review_model import KEEP_SEPARATE_ROLE, PLAN_ROLE, Column

Index = QModelIndex | QPersistentModelIndex


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
