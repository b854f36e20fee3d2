"""The context menu of a tag in the tag pane (rename or merge, colour, export, delete) and the
actions it offers, which act on the tag whose menu was built last (Delete on a tag too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, Slot
from PySide6.QtWidgets import QListWidgetItem, QMenu

from refman.ui.actions import ActionId
from refman.ui.sidebar import KEY_ROLE

if TYPE_CHECKING:
    from refman.ui.tag_pane import TagPane


class TagMenu(QObject):
    """Builds a tag's menu and carries out its actions through the pane.

    Attributes:
        tag: The tag whose menu was built last (its actions act on it), or None.
    """

    def __init__(self, pane: TagPane) -> None:
        super().__init__(pane)
        self.pane = pane
        self.tag: str | None = None
        a = pane.actions_by_id
        a[ActionId.RENAME_TAG].triggered.connect(self.on_rename_tag_triggered)
        a[ActionId.SET_TAG_COLOUR].triggered.connect(self.on_set_tag_colour_triggered)
        a[ActionId.CLEAR_TAG_COLOUR].triggered.connect(self.on_clear_tag_colour_triggered)
        a[ActionId.DELETE_TAG].triggered.connect(self.on_delete_tag_triggered)
        pane.tag_list.customContextMenuRequested.connect(self.on_tag_list_context_menu)
        pane.tag_list.delete_requested.connect(self.on_tag_list_delete_requested)

    def build(self, name: str) -> QMenu:
        """The context menu of a tag: rename (or merge), colour, delete; its actions act on
        ``name`` until another tag's menu is built."""
        a = self.pane.actions_by_id
        self.tag = name
        a[ActionId.CLEAR_TAG_COLOUR].setEnabled(self.pane.tag_colour(name) is not None)
        a[ActionId.DELETE_TAG].setText(f"&Delete Tag “{name}”")
        menu = QMenu(self.pane)
        menu.setObjectName("tagMenu")
        menu.addAction(a[ActionId.RENAME_TAG])
        menu.addAction(a[ActionId.SET_TAG_COLOUR])
        menu.addAction(a[ActionId.CLEAR_TAG_COLOUR])
        menu.addAction(a[ActionId.EXPORT_TAG])
        menu.addSeparator()
        menu.addAction(a[ActionId.DELETE_TAG])
        return menu

    @Slot()
    def on_rename_tag_triggered(self) -> None:
        """Rename the tag whose menu is open."""
        if self.tag is not None:
            self.pane.rename_tag(self.tag)

    @Slot()
    def on_set_tag_colour_triggered(self) -> None:
        """Colour the tag whose menu is open."""
        if self.tag is not None:
            self.pane.choose_colour(self.tag)

    @Slot()
    def on_clear_tag_colour_triggered(self) -> None:
        """Take the colour off the tag whose menu is open."""
        if self.tag is not None:
            self.pane.controller.set_tag_colour(self.tag, None)

    @Slot()
    def on_delete_tag_triggered(self) -> None:
        """Delete the tag whose menu is open (Undo brings it back)."""
        if self.tag is not None:
            self.pane.controller.delete_tag(self.tag)

    @Slot(object)
    def on_tag_list_delete_requested(self, name: object) -> None:
        """Delete (the key) on a tag: its menu's Delete Tag (Undo brings the tag back)."""
        self.tag = str(name)
        self.pane.actions_by_id[ActionId.DELETE_TAG].trigger()

    @Slot(QPoint)
    def on_tag_list_context_menu(self, pos: QPoint) -> None:
        """Offer rename, colour and delete for the tag under the cursor."""
        tag_list = self.pane.tag_list
        item: QListWidgetItem | None = tag_list.itemAt(pos)
        if item is None:
            return
        menu = self.build(str(item.data(KEY_ROLE)))
        menu.exec(tag_list.viewport().mapToGlobal(pos))
        menu.deleteLater()
