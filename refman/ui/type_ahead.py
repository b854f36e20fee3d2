"""Letters typed in the paper list: the first paper whose title starts with them.

Qt's own type-ahead asks the model for every row's text, one after another, until one
matches: in a list that reads its rows a page at a time, each letter asked for every page
of the library (thousands of reads for one key at a million papers) and found only among
the rows read so far. Here the letters typed within the system's typing interval are one
text, and the list worker looks for the paper in SQL, in the list's own order and filter
(:meth:`refman.core.listing.ListReader.first_titled`: accents and case not counted, as the
search's ``title:`` compares them); the list then selects it, as a click would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QElapsedTimer, QObject
from PySide6.QtWidgets import QApplication

from refman.core.values import PaperQuery

if TYPE_CHECKING:  # (the list makes its type-ahead)
    from refman.ui.paper_table import PaperTable


class TypeAhead(QObject):
    """Finds the paper whose title starts with the letters typed in the list."""

    def __init__(self, table: PaperTable) -> None:
        super().__init__(table)
        self._table = table
        self._text = ""
        self._clock = QElapsedTimer()
        self._reads = table.controller.lists.channel(self)

    @property
    def text(self) -> str:
        """The letters typed so far (one text while typed within the typing interval)."""
        return self._text

    def typed(self, letters: str) -> None:
        """Letters typed in the list: look for the first paper whose title starts with them
        and what was typed just before (an older question is dropped)."""
        quick = self._clock.isValid() and (
            self._clock.elapsed() <= QApplication.keyboardInputInterval()
        )
        self._text = self._text + letters if quick else letters
        self._clock.start()
        wanted = self._text
        if not wanted.strip():
            return
        query = self._table.paper_model.query
        self._reads.new_generation()
        self._reads.ask(
            lambda reader: reader.first_titled(query, wanted),
            lambda found: self._found(query, found),
        )

    def _found(self, query: PaperQuery, paper_id: int | None) -> None:
        """Select the paper found, unless the list shows another query by now."""
        if paper_id is not None and self._table.paper_model.query == query:
            self._table.select_paper(paper_id)
