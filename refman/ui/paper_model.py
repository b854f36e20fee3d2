"""The paper list's model: one SQL/FTS query's ordered ids, display rows built on demand.

The model never loads the library. It keeps the ordered id list of one query (ints only, cheap
even for 100,000 papers) and asks the library service for the rows the view actually paints,
a block at a time, into a small least-recently-used cache. Sorting re-runs the query with
another ORDER BY; changes drop the cached rows they touch.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QFont

from refman.core.library import LibraryService
from refman.core.values import Changes, PaperQuery, PaperRow, SortKey

log = logging.getLogger("refman.ui")

#: The drag format of papers: a JSON list of paper ids.
PAPER_IDS_MIME = "application/x-refman-paper-ids"

#: Custom role: the paper id of a row (any column).
PaperIdRole = Qt.ItemDataRole.UserRole + 1

#: The list's first query: the whole library (outside the Trash), newest first.
DEFAULT_QUERY = PaperQuery(sort=SortKey.ADDED, descending=True)

#: Marks a title that refman suggested from the abstract.
PROVISIONAL_MARK = "◇ "
PROVISIONAL_TIP = "Title suggested from the abstract — edit it in the detail pane"

BLOCK = 100  # rows fetched together when the view asks for an uncached row
CACHE_LIMIT = 1000  # rows kept; the least recently painted go first

TITLE, AUTHOR, YEAR, VENUE, ADDED = range(5)
HEADERS = ("Title", "First author", "Year", "Venue", "Added")
SORT_KEYS = (SortKey.TITLE, SortKey.AUTHOR, SortKey.YEAR, SortKey.VENUE, SortKey.ADDED)
# Clicking a new column sorts A→Z for text and newest first for dates.
_FIRST_ORDER = (
    Qt.SortOrder.AscendingOrder,
    Qt.SortOrder.AscendingOrder,
    Qt.SortOrder.DescendingOrder,
    Qt.SortOrder.AscendingOrder,
    Qt.SortOrder.DescendingOrder,
)

AnyIndex = QModelIndex | QPersistentModelIndex
_ROW_FLAGS = (
    Qt.ItemFlag.ItemIsEnabled
    | Qt.ItemFlag.ItemIsSelectable
    | Qt.ItemFlag.ItemIsDragEnabled
    | Qt.ItemFlag.ItemNeverHasChildren
)
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_LAYOUT_SIGNATURE = ("QList<QPersistentModelIndex>", "QAbstractItemModel::LayoutChangeHint")
_ROOT = QModelIndex()


def column_of(sort: SortKey) -> int:
    """The column that shows a sort key, or -1 for relevance (no column).

    Args:
        sort: A sort key.

    Returns:
        The column index, or -1.
    """
    return SORT_KEYS.index(sort) if sort in SORT_KEYS else -1


def _display(row: PaperRow, column: int) -> str:
    if column == TITLE:
        return PROVISIONAL_MARK + row.title if row.title_provisional else row.title
    if column == AUTHOR:
        return row.first_author
    if column == YEAR:
        return "" if row.year is None else str(row.year)
    if column == VENUE:
        return row.venue or ""
    return row.added.date().isoformat()


class PaperTableModel(QAbstractTableModel):
    """The rows of one paper query, fetched from the library service as they are painted.

    Attributes:
        rows_fetched: How many rows have been fetched from the service so far (tests use it
            to check that the model never loads the whole library).
    """

    def __init__(self, service: LibraryService, parent: QObject | None = None) -> None:
        """Create an empty model; call :meth:`set_query` to fill it.

        Args:
            service: The library to read.
            parent: The owning QObject.
        """
        super().__init__(parent)
        self.service = service
        self.rows_fetched = 0
        self._query = DEFAULT_QUERY
        self._ids: list[int] = []
        self._rows_by_id: dict[int, int] | None = None
        self._cache: OrderedDict[int, PaperRow] = OrderedDict()
        self._italic = QFont()
        self._italic.setItalic(True)

    # -- the query --------------------------------------------------------------------------

    @property
    def query(self) -> PaperQuery:
        """The query whose papers the model shows."""
        return self._query

    def set_query(self, query: PaperQuery) -> None:
        """Show another query's papers (re-runs it even when it is the same query).

        Args:
            query: What to show.
        """
        self.beginResetModel()
        self._query = query
        self._set_ids(self.service.paper_ids(query))
        self.endResetModel()
        log.debug("paper list: %d papers for %s", len(self._ids), query)

    def _set_ids(self, ids: list[int]) -> None:
        self._ids = ids
        self._rows_by_id = None

    def total(self) -> int:
        """How many papers the query shows."""
        return len(self._ids)

    def paper_id(self, row: int) -> int:
        """The id of the paper on a row.

        Args:
            row: A row of the model.

        Returns:
            The paper id.

        Raises:
            IndexError: There is no such row.
        """
        if not 0 <= row < len(self._ids):
            raise IndexError(f"no row {row} in a list of {len(self._ids)}")
        return self._ids[row]

    def paper_ids(self, rows: Iterable[int]) -> list[int]:
        """The ids of the papers on several rows, in the order given.

        Args:
            rows: Rows of the model (rows out of range are left out).

        Returns:
            The paper ids.
        """
        count = len(self._ids)
        return [self._ids[r] for r in rows if 0 <= r < count]

    def row_of(self, paper_id: int) -> int | None:
        """The row that shows a paper, or None when the query does not show it.

        Args:
            paper_id: A paper id.

        Returns:
            The row, or None.
        """
        if self._rows_by_id is None:
            self._rows_by_id = {pid: row for row, pid in enumerate(self._ids)}
        return self._rows_by_id.get(paper_id)

    def refresh(self, changes: Changes) -> None:
        """Bring the list up to date after a change to the library.

        Rows of changed papers are dropped from the cache and repainted. When papers appeared
        or disappeared the query runs again; the model is reset only if its ids changed.

        Args:
            changes: What the change touched.
        """
        touched = changes.papers | changes.added
        for pid in touched:
            self._cache.pop(pid, None)
        if changes.structure:
            ids = self.service.paper_ids(self._query)
            if ids != self._ids:
                self.beginResetModel()
                self._set_ids(ids)
                self.endResetModel()
                return
        rows = [r for r in (self.row_of(pid) for pid in touched) if r is not None]
        if rows:
            last = self.columnCount() - 1
            self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), last))

    # -- rows, fetched on demand ------------------------------------------------------------

    def paper_row(self, row: int) -> PaperRow | None:
        """The display row of a model row, fetching its block when it is not cached.

        Args:
            row: A row of the model.

        Returns:
            The paper's row, or None when the row is out of range or the paper is gone.
        """
        if not 0 <= row < len(self._ids):
            return None
        pid = self._ids[row]
        cached = self._cache.get(pid)
        if cached is not None:
            self._cache.move_to_end(pid)
            return cached
        self._fetch_block(row)
        return self._cache.get(pid)

    def _fetch_block(self, row: int) -> None:
        start = row - row % BLOCK
        wanted = [pid for pid in self._ids[start : start + BLOCK] if pid not in self._cache]
        fetched = self.service.rows(wanted)
        self.rows_fetched += len(fetched)
        for paper in fetched:
            self._cache[paper.id] = paper
        while len(self._cache) > CACHE_LIMIT:
            self._cache.popitem(last=False)

    # -- Qt model interface -----------------------------------------------------------------

    def rowCount(self, parent: AnyIndex = _ROOT) -> int:
        """Number of papers (a table has no children)."""
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: AnyIndex = _ROOT) -> int:
        """Number of columns."""
        return 0 if parent.isValid() else len(HEADERS)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        """A cell's text, font, tooltip or paper id."""
        if not index.isValid():
            return None
        if role == PaperIdRole:
            return self.paper_id(index.row())
        if role not in (
            Qt.ItemDataRole.DisplayRole,
            Qt.ItemDataRole.FontRole,
            Qt.ItemDataRole.ToolTipRole,
        ):
            return None
        paper = self.paper_row(index.row())
        if paper is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return _display(paper, column)
        if column == TITLE and paper.title_provisional:
            if role == Qt.ItemDataRole.FontRole:
                return self._italic
            return PROVISIONAL_TIP
        return None

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
        """Sort in SQL: re-run the query with the column's sort key.

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
        query = replace(self._query, sort=sort, descending=descending)
        ids = self.service.paper_ids(query)
        if len(ids) != len(self._ids) or set(ids) != set(self._ids):
            self.set_query(query)  # the library changed meanwhile: start afresh
            return
        # Same papers, new order. The hint lets the selection keep one persistent index per
        # row instead of one per cell.
        hint = QAbstractItemModel.LayoutChangeHint.VerticalSortHint
        self.layoutAboutToBeChanged[_LAYOUT_SIGNATURE].emit([], hint)  # type: ignore[index]
        old = self.persistentIndexList()
        old_ids = [self._ids[i.row()] for i in old]
        self._query = query
        self._set_ids(ids)
        new = []
        for index, pid in zip(old, old_ids, strict=True):
            row = self.row_of(pid)
            new.append(QModelIndex() if row is None else self.index(row, index.column()))
        self.changePersistentIndexList(old, new)
        self.layoutChanged[_LAYOUT_SIGNATURE].emit([], hint)  # type: ignore[index]

    def supportedDragActions(self) -> Qt.DropAction:
        """Dragging papers onto a tag copies them there; the list keeps them."""
        return Qt.DropAction.CopyAction

    def mimeTypes(self) -> list[str]:
        """The one drag format: paper ids."""
        return [PAPER_IDS_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        """The ids of the dragged rows as JSON, in list order.

        Args:
            indexes: Dragged cells (several per row).

        Returns:
            The drag data.
        """
        rows = sorted({i.row() for i in indexes if i.isValid()})
        data = QMimeData()
        data.setData(PAPER_IDS_MIME, json.dumps(self.paper_ids(rows)).encode("utf-8"))
        return data
