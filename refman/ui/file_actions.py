"""Attaching files from the window: *Paper ▸ Attach File…* (and the list's context menu) for
the current paper, and files dropped on a paper of the list or on the detail pane, attached
to that paper (dropped anywhere else they go to the import wizard)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, Slot

from refman.ui import files_view
from refman.ui.actions import ActionId
from refman.ui.drop import DropTarget

if TYPE_CHECKING:
    from refman.ui.main_window import MainWindow


class FileActions(QObject):
    """Connects Attach File… and file drops on papers to the detail pane's files."""

    def __init__(self, window: MainWindow, drops: DropTarget) -> None:
        super().__init__(window)
        self.window_ = window
        self.action = window.actions_by_id[ActionId.ATTACH_FILE]
        self.action.triggered.connect(self.on_attach)
        window.table.current_paper_changed.connect(self.enable)
        drops.attach_target = self.paper_at
        drops.on_attach = self.attach
        self.enable()

    @Slot()
    def enable(self) -> None:
        """Attach File… needs a current paper."""
        self.action.setEnabled(self.window_.table.current_id() is not None)

    @Slot()
    def on_attach(self) -> None:
        """Ask for files and attach them to the current paper."""
        paper_id = self.window_.table.current_id()
        if paper_id is not None:
            chosen = files_view.ask_files(self.window_)  # (tests replace it)
            self.attach(paper_id, tuple(Path(p) for p in chosen))

    def attach(self, paper_id: int, files: tuple[Path, ...]) -> None:
        """Attach files to a paper (copied in off the GUI thread; undoable)."""
        self.window_.detail_pane.files.attach(files, paper_id)

    def paper_at(self, point: QPoint) -> tuple[int, str] | None:
        """The paper under a point of the window: a row of the list, or the paper the detail
        pane shows (its id and title); None elsewhere."""
        window = self.window_
        viewport = window.table.viewport()
        inside = viewport.mapFrom(window, point)
        if viewport.isVisible() and viewport.rect().contains(inside):
            row = window.table.indexAt(inside).row()
            found = window.model.paper_row(row) if row >= 0 else None
            return (found.id, found.title) if found is not None else None
        pane = window.detail_pane
        shown = pane.current_paper()
        if (
            shown is not None
            and pane.isVisible()
            and pane.rect().contains(pane.mapFrom(window, point))
        ):
            return shown, pane.title_edit.shown_title()
        return None
