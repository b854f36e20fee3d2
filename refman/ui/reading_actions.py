"""Marking papers unread, reading or read and rating them from the menus and the keyboard:
Ctrl+Shift+U and Ctrl+Shift+R, and the keys 0 to 5 in the paper list (as photo and music
libraries rate)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.paper_table import PaperTable
from refman.ui.read_only import enable_action

#: The status each marking action sets.
MARKS = {
    ActionId.MARK_UNREAD: "unread",
    ActionId.MARK_READING: "reading",
    ActionId.MARK_READ: "read",
}
#: The rating each rating action sets.
RATES = {getattr(ActionId, f"RATE_{n}"): n for n in range(6)}


class ReadingActions(QObject):
    """Connects the marking and rating actions to the selected papers of the list."""

    def __init__(
        self, controller: LibraryController, actions: dict[ActionId, QAction], table: PaperTable
    ) -> None:
        super().__init__(table)
        self.controller = controller
        self.actions_by_id = actions
        self.table = table
        for action_id, status in MARKS.items():
            actions[action_id].triggered.connect(lambda _=False, s=status: self.mark(status=s))
        for action_id, stars in RATES.items():
            action = actions[action_id]
            action.triggered.connect(lambda _=False, n=stars: self.mark(rating=n))
            # The digit alone rates, only where a digit is not typed into a field.
            action.setShortcut(str(stars))
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
            table.addAction(action)
        table.selection_changed.connect(self.enable)
        self.enable()

    def mark(self, status: str | None = None, rating: int | None = None) -> None:
        """Set the selected papers' status or rating (one undo step)."""
        self.table.with_selected_ids(lambda ids: self.controller.mark(ids, status, rating))

    def enable(self) -> None:
        """The actions need selected papers."""
        selected = self.table.has_selection()
        for action_id in (*MARKS, *RATES):
            enable_action(self.actions_by_id[action_id], selected)
