"""Saved searches in the window: Edit ▸ Save Search… keeps what the list shows (the search
line, the saved search picked, the tags picked and All / Any) under a name; the sidebar's
context menu on a saved search edits, renames or deletes it, and Delete on it deletes it too.
Every change is undoable.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QObject, QPoint, Qt, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QMenu,
    QWidget,
)

from refman.common.errors import RefmanError
from refman.core.saved_searches import DeleteSavedSearch, SaveSearch, within_saved
from refman.core.values import PaperQuery, SavedSearchView

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.messages import show_error
from refman.ui.sidebar import KEY_ROLE, KIND_ROLE, SidebarList
from refman.ui.tag_pane import TagPane


class SavedSearchDialog(QDialog):
    """Name a saved search and see (and change) what it finds."""

    def __init__(self, view: SavedSearchView, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("savedSearchDialog")
        self.setWindowTitle(title)
        self.view = view
        self.name = QLineEdit(view.name, self)
        self.name.setObjectName("savedSearchName")
        self.name.setPlaceholderText("A name for the sidebar")
        self.search = QLineEdit(view.text, self)
        self.search.setObjectName("savedSearchText")
        self.search.setPlaceholderText('author:jiang year:2024.. -survey "a phrase"')
        self.tags = QLineEdit(", ".join(view.tags), self)
        self.tags.setObjectName("savedSearchTags")
        self.tags.setPlaceholderText("tags, separated by commas")
        self.any_tag = QCheckBox("&Any of these tags (not all of them)", self)
        self.any_tag.setChecked(view.any_tags)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("&Name:", self.name)
        form.addRow("Sea&rch:", self.search)  # (S: Save)
        form.addRow("&Tags:", self.tags)
        form.addRow("", self.any_tag)
        form.addRow(buttons)
        self.resize(520, self.sizeHint().height())

    def operation(self, replace_id: int | None) -> SaveSearch:
        """The save the dialog describes (``InvalidValueError`` for an empty name)."""
        tags = tuple(t.strip() for t in self.tags.text().split(",") if t.strip())
        return SaveSearch(
            self.name.text(), self.search.text(), tags, self.any_tag.isChecked(), replace_id
        )


class SavedSearchActions(QObject):
    """Save Search…, and the sidebar's menu of a saved search."""

    def __init__(
        self,
        controller: LibraryController,
        tag_pane: TagPane,
        search_box: QLineEdit,
        actions: dict[ActionId, QAction],
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.tag_pane = tag_pane
        self.search_box = search_box
        self.window = parent
        self.dialog: SavedSearchDialog | None = None
        actions[ActionId.SAVE_SEARCH].triggered.connect(self.save_current)
        nav: SidebarList = tag_pane.nav_list
        nav.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        nav.customContextMenuRequested.connect(self.on_nav_context_menu)
        nav.deletable = ("saved",)
        nav.delete_requested.connect(self.on_nav_delete_requested)

    def _ask(self, view: SavedSearchView, title: str, replace_id: int | None) -> None:
        """Open the dialog (not modal); Save applies it. A value refused (no name, a name
        taken, a tag the library does not hold) says why, and the dialog comes back with
        what was typed."""
        dialog = SavedSearchDialog(view, title, self.window)
        self.dialog = dialog

        def again(_error: object = None) -> None:
            if shiboken6.isValid(dialog) and dialog is self.dialog:
                dialog.open()

        def save() -> None:
            try:
                op = dialog.operation(replace_id)
            except RefmanError as error:
                show_error(dialog, error)
                again()
                return
            self.controller.apply(op, on_error=again)

        dialog.accepted.connect(save)
        dialog.open()

    @Slot()
    def save_current(self) -> None:
        """Keep what the list shows under a name the user types."""
        typed, nav = self.search_box.text(), self.tag_pane.current_filter()
        shown = PaperQuery(text=typed, tags=nav.tags, any_tags=nav.any_tags)
        query = within_saved(nav.saved, shown) if nav.saved is not None else shown
        view = SavedSearchView(0, "", query.text, query.tags, query.any_tags)
        if query.filters and nav.saved is not None:  # (any tags on one side, all on the
            # other: the saved search's as tag: terms of the line)
            line = f"{nav.saved.search_line()} {typed}".strip()
            view = SavedSearchView(0, "", line, nav.tags, nav.any_tags)
        self._ask(view, "Save Search", None)

    def show(self, search_id: int) -> bool:
        """Show a saved search's papers, as a click on it does.

        Returns:
            False when the sidebar lists no saved search of that id (it was deleted).
        """
        item = self.tag_pane.nav_list.find_row("saved", search_id)
        if item is not None:
            self.tag_pane.nav_list.setCurrentItem(item)
        return item is not None

    def edit(self, view: SavedSearchView) -> None:
        """Change a saved search's name, search or tags."""
        self._ask(view, "Edit Saved Search", view.id)

    def delete(self, view: SavedSearchView) -> None:
        """Delete a saved search (Undo brings it back)."""
        self.controller.apply(DeleteSavedSearch(view.id))

    def menu_for(self, view: SavedSearchView) -> QMenu:
        """The menu of a saved search: edit (and rename), delete."""
        menu = QMenu(self.tag_pane)
        menu.addAction("&Edit Saved Search…", lambda: self.edit(view))
        menu.addAction("&Delete Saved Search", lambda: self.delete(view))
        return menu

    def _view(self, key: object) -> SavedSearchView | None:
        """The saved search a sidebar row stands for (its key), if it is still listed."""
        return next((v for v in self.tag_pane.saved_searches() if v.id == key), None)

    @Slot(QPoint)
    def on_nav_context_menu(self, pos: QPoint) -> None:
        """A saved search's menu, under the cursor."""
        nav = self.tag_pane.nav_list
        item = nav.itemAt(pos)
        if item is None or item.data(KIND_ROLE) != "saved":
            return
        view = self._view(item.data(KEY_ROLE))
        if view is not None:
            menu = self.menu_for(view)
            menu.exec(nav.viewport().mapToGlobal(pos))
            menu.deleteLater()

    @Slot(object)
    def on_nav_delete_requested(self, key: object) -> None:
        """Delete (the key) on a saved search: its menu's Delete Saved Search (undoable)."""
        view = self._view(key)
        if view is not None:
            self.delete(view)
