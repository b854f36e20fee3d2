"""The status bar's "12 of 1,234 papers": the list's count and the library's, both counted
off the GUI thread."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import Slot
from PySide6.QtWidgets import QLabel, QWidget

from refman.core.values import PaperQuery, Section

from refman.ui.list_worker import SOON, ListWorker
from refman.ui.paper_model import PaperTableModel


class PaperCount(QLabel):
    """Says how many papers the list shows out of the section's whole (All or the Trash)."""

    def __init__(self, model: PaperTableModel, worker: ListWorker, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("paperCount")
        self.model = model
        self._totals = worker.channel(self, rank=SOON)  # the list's own count first
        self._total: tuple[Section, int] | None = None
        model.count_changed.connect(self.update_text)

    def count_library(self, section: Section, *, again: bool = False) -> None:
        """Count the papers of the section the list is in (the Trash, else All papers):
        ``again`` after a change, else only when the list moved to the other whole (a new
        search or filter leaves the library's size as it was)."""
        whole = Section.TRASH if section is Section.TRASH else Section.ALL
        if not again and self._total is not None and self._total[0] is whole:
            self.update_text()
            return
        query = PaperQuery(section=whole)

        def counted(total: int) -> None:
            if not shiboken6.isValid(self):
                return  # the window closed while the library was counted
            self._total = (whole, total)
            self.update_text()

        self._totals.new_generation()
        self._totals.ask(lambda reader: reader.count(query), counted)

    @Slot()
    def update_text(self) -> None:
        """ "12 of 1,234 papers", once both are counted."""
        if self._total is None or not self.model.counted:
            return
        section, total = self._total
        where = " in the Trash" if section is Section.TRASH else ""
        noun = "paper" if total == 1 else "papers"  # the count itself has a thousands comma
        self.setText(f"{self.model.total():,} of {total:,} {noun}{where}")
