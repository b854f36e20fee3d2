"""The status bar's "12 of 1,234 papers · 3 selected": the list's count and the library's,
both counted off the GUI thread, and the papers selected."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import Slot
from PySide6.QtWidgets import QLabel, QWidget

from refman.core.queries import SEARCH_CUT, search_is_cut
from refman.core.values import PaperQuery, Section

from refman.ui.list_worker import SOON, ListWorker
from refman.ui.paper_columns import papers_in
from refman.ui.paper_table import PaperTable


def whole_section(query: PaperQuery) -> Section | None:
    """The section a query shows the whole of (All papers or the Trash: no search, tag or
    person narrows it), else None."""
    if query.text.strip() or query.tags or query.filters or query.person_id is not None:
        return None
    return query.section if query.section in (Section.ALL, Section.TRASH) else None


class PaperCount(QLabel):
    """Says how many papers the list shows out of the section's whole (All or the Trash),
    and how many of them are selected when several are."""

    def __init__(self, table: PaperTable, worker: ListWorker, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("paperCount")
        self.model = model = table.paper_model
        self._table = table
        self._totals = worker.channel(self, rank=SOON)  # the list's own count first
        self._total: tuple[Section, int] | None = None
        #: The whole the list shows, whose count is the list's own (not counted twice), and
        #: whether the list has counted it since; the list's last count and its query.
        self._following: Section | None = None
        self._confirmed = False
        self._listed: tuple[PaperQuery, int] | None = None
        model.count_changed.connect(self._list_counted)
        model.modelReset.connect(self.update_text)  # a list that could not be read says so
        table.selection_changed.connect(self.update_text)

    def count_library(self, query: PaperQuery, *, again: bool = False) -> None:
        """Count the papers of the section the list is in (the Trash, else All papers):
        ``again`` after a change, else only when the list moved to the other whole (a new
        search or filter leaves the library's size as it was). When the list shows the whole
        section, its own count is the section's (a million papers counted once, not twice)."""
        whole = Section.TRASH if query.section is Section.TRASH else Section.ALL
        if whole_section(query) is whole:
            self._totals.new_generation()  # a count asked before is not needed
            self._following, self._confirmed = whole, False
            if again:
                self._listed = None  # counted before the change
            self._take_list_count()
            self.update_text()
            return
        if self._following is not None:
            again = again or not self._confirmed  # the list did not count the whole since
            self._following = None
        if not again and self._total is not None and self._total[0] is whole:
            self.update_text()
            return

        def counted(total: int) -> None:
            if not shiboken6.isValid(self):
                return  # the window closed while the library was counted
            self._total = (whole, total)
            self.update_text()

        self._totals.new_generation()
        self._totals.ask(lambda reader: reader.count(PaperQuery(section=whole)), counted)

    @Slot(int)
    def _list_counted(self, count: int) -> None:
        self._listed = (self.model.query, count)
        self._take_list_count()
        self.update_text()

    def _take_list_count(self) -> None:
        """While the list shows a whole section, its count is the section's."""
        if self._following is None or self._listed is None:
            return
        if whole_section(self._listed[0]) is self._following:
            self._total, self._confirmed = (self._following, self._listed[1]), True

    @Slot()
    def update_text(self) -> None:
        """ "12 of 1,234 papers", once both are counted ("No papers yet" in a new library; a
        search cut to its first words says so, as the command line does), and "· 3 selected"
        while several papers are (the detail pane hidden, nothing else says so)."""
        if self.model.unread is not None:
            self.setText("Search not run" if self.model.query.text.strip() else "List not read")
            return
        if self._total is None or not self.model.counted:
            return
        section, total = self._total
        if total == 0:  # not "0 of 0 papers"
            self.setText("The Trash is empty" if section is Section.TRASH else "No papers yet")
            return
        where = " in the Trash" if section is Section.TRASH else ""
        noun = "paper" if total == 1 else "papers"  # the count itself has a thousands comma
        cut = f" ({SEARCH_CUT})" if search_is_cut(self.model.query.text) else ""
        selected = papers_in(self._table.selected_runs())
        chosen = f" · {selected:,} selected" if selected > 1 else ""
        self.setText(f"{self.model.total():,} of {total:,} {noun}{where}{cut}{chosen}")
