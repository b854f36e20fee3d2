"""The middle pane: the paper list, or a welcome page while the library is empty."""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QStackedWidget, QWidget

from refman.common.errors import RefmanError
from refman.core.values import Changes

from refman.ui.controller import LibraryController
from refman.ui.empty_list import EmptyListNote
from refman.ui.paper_model import PaperTableModel
from refman.ui.paper_table import PaperTable
from refman.ui.welcome import WelcomeView


class PaperPanel(QStackedWidget):
    """Shows :class:`WelcomeView` for an empty library and :class:`PaperTable` otherwise.

    The window fans the controller's changes out to :meth:`refresh`.

    Attributes:
        table: The paper list.
        model: The paper list's model.
        welcome: The empty-library page.
    """

    def __init__(self, controller: LibraryController, parent: QWidget | None = None) -> None:
        """Build both pages and show the right one.

        Args:
            controller: The window's controller.
            parent: The parent widget.
        """
        super().__init__(parent)
        self.setObjectName("paperPanel")
        self.controller = controller
        self.welcome = WelcomeView(self)
        self.table = PaperTable(controller, self)
        self.model: PaperTableModel = self.table.paper_model
        self.empty_note = EmptyListNote(self.table, self.model)
        self.addWidget(self.welcome)
        self.addWidget(self.table)
        self.update_view()
        controller.select_wanted.connect(self.table.select_when_shown)

    def is_welcome_shown(self) -> bool:
        """True while the welcome page is shown instead of the list."""
        return self.currentWidget() is self.welcome

    @Slot()
    def focus_first(self) -> None:
        """Give the list the keyboard with its first paper selected, once it shows the query
        asked last (Down or Enter in the search field goes on to the results)."""
        if self.currentWidget() is not self.table:
            return
        self.table.setFocus(Qt.FocusReason.ShortcutFocusReason)

        def select_first() -> None:
            first = self.model.paper_id(0) if self.model.rowCount() else None
            if first is not None:
                self.table.select_paper(first)

        self.model.when_read(select_first)

    def update_view(self) -> None:
        """Show the welcome page when the library holds no paper (Trash included)."""
        try:
            empty = self.controller.service.is_empty()
        except RefmanError:  # a damaged library: the list says what it can read
            empty = False
        self.setCurrentWidget(self.welcome if empty else self.table)

    @Slot(object)
    def refresh(self, changes: Changes) -> None:
        """Bring the list up to date after a change and pick the page to show.

        Args:
            changes: What the change touched.
        """
        self.model.refresh(changes)
        if changes.structure:
            self.update_view()
