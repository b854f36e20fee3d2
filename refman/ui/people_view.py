"""Following people in the window: a person's page above the list while it shows their
papers, and the People window (View ▸ People…, or "All people…" in the sidebar)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QVBoxLayout, QWidget

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.paper_panel import PaperPanel
from refman.ui.people_dialog import PeopleDialog
from refman.ui.person_header import PersonHeader
from refman.ui.tag_pane import NavFilter, TagPane


class PeopleView(QObject):
    """Puts the person header above the paper list and opens the People window.

    Attributes:
        middle: The middle pane: the person header over the paper list.
        header: The person header.
        dialog: The People window, once opened.
    """

    def __init__(
        self,
        controller: LibraryController,
        tag_pane: TagPane,
        paper_panel: PaperPanel,
        actions: dict[ActionId, QAction],
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.tag_pane = tag_pane
        self.window = parent
        self.middle = QWidget(parent)
        self.middle.setObjectName("middlePane")
        self.header = PersonHeader(controller, self.middle)
        layout = QVBoxLayout(self.middle)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.header, 0)
        layout.addWidget(paper_panel, 1)
        self.dialog: PeopleDialog | None = None
        tag_pane.filter_changed.connect(self.on_filter_changed)
        tag_pane.people_requested.connect(self.open_people)
        actions[ActionId.SHOW_PEOPLE].triggered.connect(self.open_people)
        self.header.person_clicked.connect(tag_pane.select_person)
        self.header.people_merged.connect(self.on_people_merged)

    @Slot(object)
    def on_filter_changed(self, nav: NavFilter) -> None:
        """Show the page of the person whose papers the list shows (or none)."""
        if nav.person_id != self.header.person_id:
            self.header.show_person(nav.person_id)

    @Slot(int, int)
    def on_people_merged(self, kept: int, merged: int) -> None:
        """The person whose page was shown was merged into another: show the one kept (the
        list would fall back to all papers)."""
        if self.header.person_id == merged:
            self.tag_pane.select_person(kept)

    @Slot()
    def open_people(self) -> PeopleDialog:
        """Open (or bring forward) the People window."""
        if self.dialog is None:
            self.dialog = PeopleDialog(self.controller, self.window)
            self.dialog.person_chosen.connect(self.tag_pane.select_person)
            self.dialog.people_merged.connect(self.on_people_merged)
        self.dialog.show()
        self.dialog.raise_()
        self.dialog.activateWindow()
        return self.dialog
