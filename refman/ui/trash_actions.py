"""Deleting papers for good, from the Trash: *Edit ▸ Empty Trash…* (every paper there) and
*Delete Permanently…* (Shift+Delete in the list: the papers selected in the Trash). Both ask
first, as one change that cannot be undone: the library is backed up before it, and the Undo
history is cleared (:class:`~refman.core.operations.EmptyTrash`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QAction

from refman.common.text import plural
from refman.core.operations import EmptyTrash, Outcome
from refman.core.tags_left import tags_gone_text
from refman.core.values import Emptied, PaperQuery, Section

from refman.ui import window_chrome
from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.paper_table import PaperTable
from refman.ui.read_only import enable_action


class TrashActions(QObject):
    """Empty Trash…, and Delete Permanently… enabled for papers selected in the Trash."""

    def __init__(
        self,
        controller: LibraryController,
        actions: dict[ActionId, QAction],
        table: PaperTable,
        say: Callable[[str], None],
    ) -> None:
        super().__init__(table)
        self.controller, self.table, self.say = controller, table, say
        self.action = actions[ActionId.DELETE_PERMANENTLY]
        self.action.triggered.connect(self.delete_selected)
        # Shift+Delete deletes papers only where the list has the keyboard (a field's: cut)
        self.action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        table.addAction(self.action)
        actions[ActionId.EMPTY_TRASH].triggered.connect(self.empty_trash)
        table.selection_changed.connect(self.enable)
        table.paper_model.modelReset.connect(self.enable)  # (another section shown)
        self.enable()

    @Slot()
    def enable(self) -> None:
        """Papers selected in the Trash."""
        in_trash = self.table.paper_model.query.section is Section.TRASH
        enable_action(self.action, in_trash and self.table.has_selection())

    @Slot()
    def empty_trash(self) -> None:
        """Delete the papers in the Trash for good, after asking."""
        n = self.controller.service.count(PaperQuery(section=Section.TRASH))
        if n and window_chrome.confirm_empty_trash(self.table, n):
            self.controller.apply(EmptyTrash(), self._deleted, label="Emptying the Trash…")

    @Slot()
    def delete_selected(self) -> None:
        """Delete the papers selected in the Trash for good, after asking."""
        if self.action.isEnabled():
            self.table.with_selected_ids(self._delete)

    def _delete(self, ids: Sequence[int]) -> None:
        if not window_chrome.confirm_empty_trash(self.table, len(ids), selected=True):
            return
        self.controller.apply(EmptyTrash(tuple(ids)), self._deleted, label="Deleting…")

    def _deleted(self, outcome: Outcome[Emptied]) -> None:
        """Say how many papers went (and the tags that went with them)."""
        gone = tags_gone_text(outcome.value.tags)
        self.say(f"Deleted {plural(len(outcome.value.papers), 'paper')} for good. {gone}".strip())
