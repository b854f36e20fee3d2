"""The paper list's model: one query's rows, read a page at a time off the GUI thread.

The model never loads the library, nor even its ids: it knows the query, how many papers it
shows, and the pages of rows the view painted lately (a small least-recently-used cache). The
:class:`~refman.ui.list_worker.ListWorker` reads them; sorting and searching are new queries.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace

from PySide6.QtCore import QAbstractTableModel, QMimeData, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QFont

from refman.common.errors import RefmanError
from refman.core.library import LibraryService
from refman.core.listing import ListReader
from refman.core.values import Changes, PaperQuery, PaperRow, SortKey

from refman.ui.list_worker import ListWorker
from refman.ui.paper_columns import (
    _FIRST_ORDER,
    _NO_FLAGS,
    _ROOT,
    _ROW_FLAGS,
    CACHE_PAGES,
    CELL_ROLES,
    DEFAULT_QUERY,
    HEADERS,
    PAGE,
    SORT_KEYS,
    STATUS,
    STYLED_COLUMNS,
    STYLED_ROLES,
    AnyIndex,
    PaperIdRole,
    cell_look,
    display,
    filled,
    runs,
    runs_known,
    status_look,
)
from refman.ui.paper_drag import PAPER_IDS_MIME, ids_mime

log = logging.getLogger("refman.ui")


class PaperTableModel(QAbstractTableModel):
    """The rows of one paper query, read page by page off the GUI thread as they are painted.

    The model holds the query, how many papers it shows, and the pages of rows the view has
    painted lately — never the whole list, not even its ids. A new query (a keystroke in the
    search field, a tag clicked, a sort) is read by the :class:`ListWorker`: the first page
    arrives first and replaces the list, the count follows, and a page the view scrolls to is
    read when it is first painted (its rows are blank for the few milliseconds that takes).

    Signals:
        count_changed(int): How many papers the list shows (once counted).
        rows_loaded(): Rows arrived; a row's paper id may now be known.

    Attributes:
        rows_fetched: How many rows have been read so far (tests use it to check that the
            model never loads the whole library).
    """

    count_changed = Signal(int)
    rows_loaded = Signal()

    def __init__(
        self, service: LibraryService, worker: ListWorker, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.service = service
        self.reads = worker.channel(self)
        self.rows_fetched = 0
        self._query = DEFAULT_QUERY
        self._count = 0
        self._counted = True
        self._pages: OrderedDict[int, list[PaperRow]] = OrderedDict()
        self._asked: set[int] = set()
        #: Why the query set last could not be read (the list then shows no paper), or None.
        self.unread: RefmanError | None = None
        self._italic = QFont()
        self._italic.setItalic(True)

    # -- the query --------------------------------------------------------------------------

    @property
    def query(self) -> PaperQuery:
        """The query whose papers the model shows."""
        return self._query

    def set_query(self, query: PaperQuery, keep: Sequence[int] = (), *, now: bool = False) -> None:
        """Show another query's papers (re-reads it even when it is the same query). The
        current list stays until the new one's first rows arrive.

        Args:
            query: What to show.
            keep: Pages to read again at once besides the first (a refresh keeps the
                scrolled-to rows filled).
            now: Read the first page and the count on this thread (the window's first
                list, so that it is painted at once).
        """
        self.reads.new_generation()
        if now:
            try:  # a damaged library fails here: the worker then reads, and reports
                rows, count = self.service.papers(query, 0, PAGE), self.service.count(query)
                self._show(query, {0: rows})
                return self._set_count(count)
            except RefmanError as error:
                log.warning("first list read failed: %s", error)
        pages = sorted({0, *keep})

        def first(reader: ListReader) -> tuple[dict[int, list[PaperRow]], int | None]:
            reader.require_tags(query)  # a tag: term naming no tag says so
            found = {page: reader.window(query, page * PAGE, PAGE) for page in pages}
            more = len(found[0]) == PAGE  # counted at once when that is quick (a tag, a word)
            return found, reader.quick_count(query) if more else None

        def shown(answer: tuple[dict[int, list[PaperRow]], int | None]) -> None:
            self._show(query, answer[0])
            if answer[1] is not None:  # rows and count: one reset, one paint
                self._set_count(answer[1])
            elif not self._counted:  # counted once the rows are painted, not competing with them
                self.reads.ask(lambda reader: reader.count(query), self._set_count)

        self.reads.ask(first, shown, lambda error: self._unread(query, error))

    def _unread(self, query: PaperQuery, error: RefmanError) -> None:
        """A new query that could not be read shows no paper (not the papers of the one
        before it, under a search they do not match) and says why (the empty list's note,
        the count); the query runs again with the next refresh (once a server that could not
        be reached is back). A refresh of the query shown keeps its rows."""
        if query == self._query:
            return
        self.beginResetModel()
        self._query, self.unread = query, error
        self._pages.clear()
        self._asked.clear()
        self._count, self._counted = 0, True
        self.endResetModel()

    def when_read(self, call: Callable[[], None]) -> None:
        """Call ``call`` once the list shows the query set last (not if a newer one came)."""
        self.reads.ask(lambda _reader: None, lambda _none: call())

    def sort_first(self, sort: SortKey, descending: bool) -> None:
        """Sort so the first list the window reads (the sort it remembers from last time)."""
        self._query = replace(self._query, sort=sort, descending=descending)

    def _show(self, query: PaperQuery, pages: dict[int, list[PaperRow]]) -> None:
        self.beginResetModel()
        self._query, self.unread = query, None
        self._pages = OrderedDict(sorted(pages.items()))
        self._asked.clear()
        self.rows_fetched += sum(len(rows) for rows in pages.values())
        first = pages.get(0, [])
        self._counted = len(first) < PAGE
        self._count = (
            len(first)
            if self._counted
            else max(page * PAGE + len(rows) for page, rows in pages.items())
        )
        self.endResetModel()
        log.debug("paper list: first rows of %s", query)
        if self._counted:
            self.count_changed.emit(self._count)
        self.rows_loaded.emit()

    def _set_count(self, count: int) -> None:
        if count > self._count:
            self.beginInsertRows(_ROOT, self._count, count - 1)
            self._count = count
            self.endInsertRows()
        elif count < self._count:
            self.beginRemoveRows(_ROOT, count, self._count - 1)
            self._count = count
            for page in [p for p in self._pages if p * PAGE >= count]:
                del self._pages[page]
            self.endRemoveRows()
        self._counted = True
        self.count_changed.emit(count)

    def total(self) -> int:
        """How many papers the query shows (so far as counted)."""
        return self._count

    @property
    def counted(self) -> bool:
        """True once the list's papers were counted (the total is final)."""
        return self._counted

    def paper_id(self, row: int) -> int | None:
        """The id of the paper on a row, or None while its page is being read."""
        paper = self._loaded(row)
        return None if paper is None else paper.id

    def paper_ids(self, rows: Iterable[int]) -> list[int]:
        """The ids of the papers on several rows, in the order given; rows not read yet are
        read now (a big selection), rows out of range are left out."""
        wanted = [r for r in rows if 0 <= r < self._count]
        ids = dict(zip(sorted(set(wanted)), self.run_ids(runs(sorted(set(wanted)))), strict=False))
        return [ids[r] for r in wanted if r in ids]

    def run_ids(self, row_runs: Sequence[tuple[int, int]], *, read: bool = True) -> Sequence[int]:
        """The ids of the papers on runs of rows (first, last), in order. A run whose rows
        are not all read yet is read in one go on this thread (``read``), or left out."""
        query = self._query
        return filled(
            runs_known(row_runs, self._count, self._loaded),
            lambda first, n: self.service.list_ids(query, first, n) if read else [],
        )

    def ask_run_ids(
        self, row_runs: Sequence[tuple[int, int]], on_ids: Callable[[Sequence[int]], None]
    ) -> None:
        """Give ``on_ids`` the ids of the papers on runs of rows, in order: at once when every
        row was read, else when the list worker has read the rest (the GUI thread never waits
        for the ids of a whole library). When the list is re-queried meanwhile, the rows
        show other papers and ``on_ids`` is not called."""
        parts, query = runs_known(row_runs, self._count, self._loaded), self._query
        if all(known is not None for _, _, known in parts):
            on_ids(filled(parts, lambda _first, _n: []))
        else:
            fill = lambda r: filled(parts, lambda first, n: r.ids(query, first, n))  # noqa: E731
            self.reads.ask(fill, on_ids)

    def row_of(self, paper_id: int) -> int | None:
        """The row that shows a paper, when its page has been read; else None."""
        return self.rows_of([paper_id]).get(paper_id)

    def rows_of(self, paper_ids: Iterable[int]) -> dict[int, int]:
        """The rows of those of these papers whose pages have been read."""
        wanted = set(paper_ids)
        found: dict[int, int] = {}
        for page, rows in self._pages.items():
            for offset, paper in enumerate(rows):
                if paper.id in wanted:
                    found[paper.id] = page * PAGE + offset
        return found

    def locate(self, paper_id: int, found: Callable[[int | None], None]) -> None:
        """Find a paper's row (reading its place in the list when its page is not read)."""
        row = self.row_of(paper_id)
        if row is not None:
            found(row)
            return
        query = self._query
        self.reads.ask(lambda reader: reader.position(query, paper_id), found)

    def refresh(self, changes: Changes) -> None:
        """Bring the list up to date after a change to the library.

        Rows of changed papers are read again; when papers may have appeared or disappeared
        the query runs again, keeping the pages the view shows.

        Args:
            changes: What the change touched.
        """
        if changes.structure:
            self.set_query(self._query, keep=list(self._pages))
            return
        papers, added = changes.papers, changes.added
        stale = {p for p, rows in self._pages.items() if _touches(rows, papers, added)}
        for page in stale:
            self._ask_page(page, replace=True)

    # -- rows, read on demand ---------------------------------------------------------------

    def _loaded(self, row: int) -> PaperRow | None:
        rows = self._pages.get(row // PAGE)
        if rows is None or row % PAGE >= len(rows):
            return None
        return rows[row % PAGE]

    def paper_row(self, row: int) -> PaperRow | None:
        """A model row's paper; None while its page is read (asked for) or out of range."""
        if not 0 <= row < self._count:
            return None
        page = row // PAGE
        rows = self._pages.get(page)
        if rows is None:
            self._ask_page(page)
            return None
        self._pages.move_to_end(page)
        return rows[row % PAGE] if row % PAGE < len(rows) else None

    def _ask_page(self, page: int, *, replace: bool = False) -> None:
        if page in self._asked:
            return
        self._asked.add(page)
        query = self._query
        self.reads.ask(
            lambda reader: reader.window(query, page * PAGE, PAGE),
            lambda rows: self._page_read(page, rows, replace),
        )

    def _page_read(self, page: int, rows: list[PaperRow], replace: bool) -> None:
        self._asked.discard(page)
        old = self._pages.get(page)
        if replace and old is None:
            return
        self._pages[page] = rows
        self.rows_fetched += len(rows)
        while len(self._pages) > CACHE_PAGES:
            self._pages.popitem(last=False)
        changed = [i for i, row in enumerate(rows) if old is None or i >= len(old) or old[i] != row]
        first = page * PAGE
        if changed and first + changed[0] < self._count:
            top, bottom = first + changed[0], min(first + changed[-1], self._count - 1)
            self.dataChanged.emit(self.index(top, 0), self.index(bottom, len(HEADERS) - 1))
        self.rows_loaded.emit()

    # -- Qt model interface -----------------------------------------------------------------

    def rowCount(self, parent: AnyIndex = _ROOT) -> int:
        """Number of papers (a table has no children)."""
        return 0 if parent.isValid() else self._count

    def columnCount(self, parent: AnyIndex = _ROOT) -> int:
        """Number of columns."""
        return 0 if parent.isValid() else len(HEADERS)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        """A cell's text, font, tooltip or paper id."""
        if not index.isValid():
            return None
        if role == PaperIdRole:
            return self.paper_id(index.row())
        column = index.column()
        if role not in CELL_ROLES or (role in STYLED_ROLES and column not in STYLED_COLUMNS):
            return None  # (asked of every cell painted: answered before a row is looked up)
        paper = self.paper_row(index.row())
        if paper is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return display(paper, column)
        if column == STATUS:
            return status_look(paper.status, role)
        return cell_look(paper, column, role, self._italic)

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> object:
        """Column names, and the order a first click on a column sorts in."""
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(HEADERS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        if role == Qt.ItemDataRole.InitialSortOrderRole:
            return _FIRST_ORDER[section].value
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        """Rows are selectable and can be dragged (onto a tag)."""
        # Called for every selected cell when a big selection changes: keep it cheap.
        return _ROW_FLAGS if index.isValid() else _NO_FLAGS

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort in SQL: read the query again with the column's sort key.

        Args:
            column: The column, or -1 for the natural order (relevance, or newest first).
            order: Ascending or descending.
        """
        if 0 <= column < len(SORT_KEYS):
            sort, descending = SORT_KEYS[column], order == Qt.SortOrder.DescendingOrder
        else:
            sort, descending = SortKey.RELEVANCE, False
        if (sort, descending) == (self._query.sort, self._query.descending):
            return
        self.set_query(replace(self._query, sort=sort, descending=descending))

    def supportedDragActions(self) -> Qt.DropAction:
        """Dragging papers onto a tag copies them there; the list keeps them."""
        return Qt.DropAction.CopyAction

    def mimeTypes(self) -> list[str]:
        """The one drag format: paper ids."""
        return [PAPER_IDS_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        """The ids of the dragged rows (``indexes``: their cells) as JSON, in list order."""
        rows = sorted({i.row() for i in indexes if i.isValid()})
        return ids_mime(self.paper_ids(rows))


def _touches(rows: list[PaperRow], papers: AbstractSet[int], added: AbstractSet[int]) -> bool:
    return any(r.id in papers or r.id in added for r in rows)
