"""Paper ▸ Merge Papers: the papers the person selected are one paper.

The one added first is kept (as Zotero keeps the oldest of the versions it merges); the
others are merged into it and go to the Trash, as one change (see
:mod:`refman.core.paper_merge` and :mod:`refman.core.merge_several`). More than two papers
are merged only once the person confirms. The kept paper is selected afterwards; Undo takes
the whole merge back.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox, QWidget

from refman.core.merge_several import MergeSeveral
from refman.core.operations import Outcome
from refman.core.paper_merge import MergeResult
from refman.core.values import Section

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.paper_columns import papers_in
from refman.ui.paper_table import PaperTable
from refman.ui.read_only import enable_action


class MergeSelected(QObject):
    """Connects Merge Papers to the list's selection: enabled for two papers or more outside
    the Trash."""

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
        """Two selected papers or more, not in the Trash."""
        several = papers_in(self.table.selected_runs()) >= 2
        in_trash = self.table.paper_model.query.section is Section.TRASH
        enable_action(self.action, several and not in_trash)

    @Slot()
    def merge(self) -> None:
        """Merge the selected papers into the one added first."""
        self.table.with_selected_ids(self._merge)

    def _merge(self, ids: Sequence[int]) -> None:
        if len(ids) < 2 or (len(ids) > 2 and not confirm_merge(self.table, len(ids))):
            return
        keep, *others = sorted(ids)  # ids grow as papers are added: the first is the oldest
        op = MergeSeveral(keep, tuple(others))
        self.controller.apply(op, self._merged, label="Merging…")

    def _merged(self, outcome: Outcome[MergeResult]) -> None:
        self.controller.select_wanted.emit((outcome.value.kept,))


def confirm_merge(parent: QWidget, count: int) -> bool:
    """Ask before merging ``count`` papers (more than two) into one."""
    answer = QMessageBox.question(
        parent,
        "Merge Papers",
        f"Merge the {count} selected papers into one? The one added first is kept and gains "
        f"what the others bring; the other {count - 1} go to the Trash. Edit ▸ Undo takes the "
        "merge back.",
    )
    return answer == QMessageBox.StandardButton.Yes
