"""Paper ▸ Merge Two Papers: two papers the person selected are one paper.

The one added first is kept (as Zotero keeps the oldest of the versions it merges); the
other is merged into it and goes to the Trash (see :mod:`refman.core.paper_merge`). The
kept paper is selected afterwards; Undo takes the merge back.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction

from refman.core.operations import Outcome
from refman.core.paper_merge import MergePapers, MergeResult
from refman.core.values import Section

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.paper_table import PaperTable
from refman.ui.read_only import enable_action


class MergeSelected(QObject):
    """Connects Merge Two Papers to the list's selection: enabled for two papers outside the
    Trash."""

    def __init__(
        self, controller: LibraryController, actions: dict[ActionId, QAction], table: PaperTable
    ) -> None:
        super().__init__(table)
        self.controller = controller
        self.action = actions[ActionId.MERGE_PAPERS]
        self.table = table
        self.action.triggered.connect(self.merge)
        table.selection_changed.connect(self.enable)
        self.enable()

    @Slot()
    def enable(self) -> None:
        """Two selected papers, not in the Trash."""
        runs = self.table.selected_runs()
        two = sum(last - first + 1 for first, last in runs) == 2
        in_trash = self.table.paper_model.query.section is Section.TRASH
        enable_action(self.action, two and not in_trash)

    @Slot()
    def merge(self) -> None:
        """Merge the later-added of the two selected papers into the other."""
        self.table.with_selected_ids(self._merge)

    def _merge(self, ids: Sequence[int]) -> None:
        if len(ids) != 2:
            return
        keep, other = sorted(ids)  # ids grow as papers are added: the first is the older
        self.controller.apply(MergePapers(keep, other), self._merged, label="Merging…")

    def _merged(self, outcome: Outcome[MergeResult]) -> None:
        self.controller.select_wanted.emit((outcome.value.kept,))
