"""The paper list view: a fast, sortable, multi-select table over :class:`PaperTableModel`."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from PySide6.QtCore import (
    QByteArray,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QSignalBlocker,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from refman.core.values import Section

from refman.ui.author_cells import AuthorCells
from refman.ui.column_widths import set_up_columns
from refman.ui.controller import LibraryController
from refman.ui.paper_columns import AUTHOR, TITLE, column_of, merged_runs, runs
from refman.ui.paper_drag import start_drag
from refman.ui.paper_model import PaperTableModel
from refman.ui.read_only import LOCKED
from refman.ui.type_ahead import TypeAhead

log = logging.getLogger("refman.ui")

#: A selection of up to this many papers follows its papers through a re-query of the list
#: (by id); a larger one keeps its rows.
FOLLOWED_BY_ID = 1000

_TRASH_KEYS = (Qt.Key.Key_Delete, Qt.Key.Key_Backspace)
#: The keys that select the paper with the focus frame when none is selected.
_FIRST_KEYS = (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_Home)

#: The keys that go to the first or last paper.
_ENDS = (QAbstractItemView.CursorAction.MoveHome, QAbstractItemView.CursorAction.MoveEnd)


class PaperTable(QTableView):
    """The list of papers of the current query.

    Sorting happens in SQL when a header is clicked; only the rows on screen are built.
    Delete or Backspace moves the selected papers to the Trash (not in the Trash, nor in a
    library that can only be read: ``LOCKED``). The selection follows the same papers when
    the list is re-queried.

    Signals:
        current_paper_changed(object): The current paper's id, or None when there is none.
        selection_changed(): The selection changed (:meth:`selected_ids` reads it: a
            selection of every paper of a large library is not turned into ids until an
            action needs them).
        trashed(int): That many papers were moved to the Trash.
        in_trash_already(): Delete was pressed on papers of the Trash.
    """

    current_paper_changed = Signal(object)
    selection_changed = Signal()
    trashed = Signal(int)
    in_trash_already = Signal()

    def __init__(self, controller: LibraryController, parent: QWidget | None = None) -> None:
        """Create the table and its model (empty until the model's query is set).

        Args:
            controller: Reads through its service; moves papers to the Trash through it.
            parent: The parent widget.
        """
        super().__init__(parent)
        self.controller = controller
        self.paper_model = PaperTableModel(controller.service, controller.lists, self)
        self._current: int | None = None
        #: The current paper a re-query left out: selected again when a list shows it again.
        self._lost: int | None = None
        #: The first paper an undo brought back: current once the list is read again.
        self._brought: int | None = None
        #: Whether a current paper a re-query left out stays shown beside the list (the
        #: detail pane keeps a paper being written in); the list then selects none.
        self.keeps_left_out: Callable[[int], bool] = lambda _paper_id: False
        # The selection as row runs, and as ids when it is small enough to follow by id
        # through a re-query (a larger one keeps its rows).
        self._runs: tuple[tuple[int, int], ...] = ()
        self._selected: Sequence[int] | None = []
        self._restoring = False
        self._select_after_reset: int | None = None
        self._before: tuple[object, int] = (None, -1)  # the query shown, the current row
        self.setObjectName("paperList")
        self.setAccessibleName("Papers")
        self._set_up_view()
        self.setModel(self.paper_model)
        # The header asks its selection model whether each column is wholly selected, row by
        # row, at every paint (even with highlighting off): with every paper of a large
        # library selected that took seconds. The header gets a selection of its own.
        self.horizontalHeader().setSelectionModel(QItemSelectionModel(self.paper_model, self))
        self._set_up_header()
        self._connect_signals()
        self.type_ahead = TypeAhead(self)

    def _set_up_view(self) -> None:
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setCornerButtonEnabled(False)
        self.setTabKeyNavigation(False)  # Tab leaves the list (to the detail pane)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setItemDelegateForColumn(AUTHOR, AuthorCells(self))  # (editors keep "(eds.)")
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.setDefaultDropAction(Qt.DropAction.CopyAction)
        rows = self.verticalHeader()
        rows.setVisible(False)
        # Every row has the same height: the view never measures rows it does not show.
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.fontMetrics().height() + 10)
        rows.setMinimumSectionSize(1)

    def _set_up_header(self) -> None:
        char = self.fontMetrics().averageCharWidth()
        self.widths = set_up_columns(self.horizontalHeader(), char)
        self._show_sort_of_query()
        self.setSortingEnabled(True)

    def _connect_signals(self) -> None:
        model = self.paper_model
        model.modelAboutToBeReset.connect(self.on_model_about_to_be_reset)
        model.modelReset.connect(self.on_model_reset)
        model.layoutChanged.connect(self.on_model_layout_changed)
        model.rows_loaded.connect(self.on_model_rows_loaded)
        selection = self.selectionModel()
        selection.currentRowChanged.connect(self.on_selection_current_row_changed)
        selection.selectionChanged.connect(self.on_selection_selection_changed)

    def _show_sort_of_query(self) -> None:
        """Put the header's sort arrow on the column the model's query sorts by."""
        query = self.paper_model.query
        order = Qt.SortOrder.DescendingOrder if query.descending else Qt.SortOrder.AscendingOrder
        header = self.horizontalHeader()
        with QSignalBlocker(header):
            header.setSortIndicator(column_of(query.sort), order)
        header.viewport().update()

    def selected_runs(self) -> tuple[tuple[int, int], ...]:
        """The selected rows as (first, last) runs, in list order."""
        selection = self.selectionModel().selection()
        return merged_runs(
            (selection.at(i).top(), selection.at(i).bottom()) for i in range(selection.count())
        )

    def has_selection(self) -> bool:
        """True when some paper is selected."""
        return self.selectionModel().hasSelection()

    def selected_ids(self) -> list[int]:
        """The ids of the selected papers, in list order, read on this thread if need be
        (actions and drags never wait for them: :meth:`with_selected_ids`, :meth:`startDrag`)."""
        return list(self.paper_model.run_ids(self.selected_runs()))

    def with_selected_ids(self, act: Callable[[Sequence[int]], None]) -> None:
        """Call ``act`` with the ids of the selected papers, in list order, unless nothing is
        selected: at once when their rows were read, else once the list worker read them
        (a selection of a whole library is not read on the GUI thread)."""
        if not self.has_selection():
            return

        def given(ids: Sequence[int]) -> None:
            if ids:
                act(ids)

        self.paper_model.ask_run_ids(self.selected_runs(), given)

    def current_id(self) -> int | None:
        """The id of the current paper (the one the detail pane shows), or None."""
        index = self.currentIndex()
        return self.paper_model.paper_id(index.row()) if index.isValid() else None

    def select_paper(self, paper_id: int, on_missing: Callable[[], None] | None = None) -> bool:
        """Select one paper, make it current and scroll it into view; True when done at once
        (a row not read yet is looked up, then selected; ``on_missing`` if the list lacks it)."""
        row = self.paper_model.row_of(paper_id)
        if row is not None:
            self._select_row(row)
            return True

        def found(row: int | None) -> None:
            if row is not None:
                self._select_row(row)
            elif on_missing is not None:
                on_missing()

        self.paper_model.locate(paper_id, found)
        return False

    def _select_row(self, row: int | None) -> None:
        if row is None or row < 0:
            return
        self._select_rows([row], row)
        self.scrollTo(self.paper_model.index(row, TITLE))

    def select_papers(self, paper_ids: list[int]) -> int:
        """Select the papers of the list among ``paper_ids`` (the first one current).

        Returns:
            How many of them the list shows.
        """
        found = self.paper_model.rows_of(paper_ids)
        rows = [found[i] for i in paper_ids if i in found]
        self._select_rows(sorted(rows), rows[0] if rows else None)
        return len(rows)

    def select_when_shown(self, paper_ids: Sequence[int]) -> None:
        """Select these papers when the list is read again (what an undo brought back)."""
        if paper_ids and len(paper_ids) <= FOLLOWED_BY_ID:
            # (the paper current until then stays known: a list without them says it went)
            self._selected, self._brought = list(paper_ids), paper_ids[0]

    def header_state(self) -> QByteArray:
        """The columns' order and the widths the person chose, to remember between sessions
        (never the narrower widths a small window shows: :mod:`refman.ui.column_widths`)."""
        return self.widths.state()

    def restore_header_state(self, state: QByteArray) -> None:
        """Put back column order and widths saved by :meth:`header_state`; the sort arrow
        keeps following the model's query (sorting is part of the query)."""
        if not self.widths.restore(state):
            log.info("ignored an unreadable paper list header state")
        self._show_sort_of_query()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Delete or Backspace moves the selection to the Trash (not inside the Trash); with
        nothing selected, Down or Up selects the paper with the focus frame (the first when
        the list just got the keyboard: Qt's own Down skipped it), Home the first paper."""
        plain = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if plain != Qt.KeyboardModifier.NoModifier:
            super().keyPressEvent(event)
        elif event.key() in _TRASH_KEYS:
            event.accept()
            self.trash_selected()
        elif event.key() in _FIRST_KEYS and not self.has_selection() and self.model().rowCount():
            event.accept()
            home = event.key() == Qt.Key.Key_Home
            self._select_row(0 if home else max(self.currentIndex().row(), 0))
        else:
            super().keyPressEvent(event)

    def moveCursor(
        self, cursorAction: QAbstractItemView.CursorAction, modifiers: Qt.KeyboardModifier
    ) -> QModelIndex:
        """Home and End go to the first and last paper (a table's own go to the first and
        last column of the row, which a list of rows does not show)."""
        if cursorAction in _ENDS:
            modifiers |= Qt.KeyboardModifier.ControlModifier
        return super().moveCursor(cursorAction, modifiers)

    def trash_selected(self) -> bool:
        """Move the selected papers to the Trash, then select the paper below them.

        Returns:
            True when there were papers to move.
        """
        in_trash = self.paper_model.query.section is Section.TRASH
        if not self.has_selection() or in_trash or self.property(LOCKED):  # (read only)
            if in_trash and self.has_selection():
                self.in_trash_already.emit()  # (the window says what moves them on)
            return False

        def trash(ids: Sequence[int]) -> None:
            # Once the list is read again, the paper in the first one's place is selected.
            self._select_after_reset = self.paper_model.row_of(ids[0])
            self.controller.trash(ids, lambda outcome: self.trashed.emit(len(outcome.value)))

        self.with_selected_ids(trash)
        return True

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A narrow list keeps room for the titles (:class:`ColumnWidths`)."""
        super().resizeEvent(event)
        self.widths.fit(self.viewport().width())

    def startDrag(self, supported_actions: Qt.DropAction) -> None:
        """Drag the selected papers (their ids read while the person drags if need be:
        :func:`~refman.ui.paper_drag.start_drag`)."""
        start_drag(self, supported_actions)

    def keyboardSearch(self, search: str) -> None:
        """Letters typed in the list go to the first paper whose title starts with them,
        looked up off the GUI thread (Qt's own read every row of the list for each letter:
        the whole library, page by page): :class:`~refman.ui.type_ahead.TypeAhead`."""
        self.type_ahead.typed(search)

    # -- selection --------------------------------------------------------------------------

    def _select_rows(self, rows: list[int], current: int | None) -> None:
        self._select_runs(runs(sorted(set(rows))), current)

    def _select_runs(self, row_runs: Sequence[tuple[int, int]], current: int | None) -> None:
        selection = QItemSelection()
        last = self.paper_model.columnCount() - 1
        for top, bottom in row_runs:
            selection.select(self.paper_model.index(top, 0), self.paper_model.index(bottom, last))
        flags = QItemSelectionModel.SelectionFlag
        model = self.selectionModel()
        model.select(selection, flags.ClearAndSelect | flags.Rows)
        if current is not None:
            model.setCurrentIndex(self.paper_model.index(current, TITLE), flags.NoUpdate)

    def _announce(self) -> None:
        """Emit the signals if the current paper or the selected papers differ."""
        current, runs = self.current_id(), self.selected_runs()
        followed = sum(b - a + 1 for a, b in runs) <= FOLLOWED_BY_ID
        selected = self.paper_model.run_ids(runs, read=False) if followed else None
        if runs != self._runs or selected != self._selected:
            self._runs, self._selected = runs, selected
            self.selection_changed.emit()
        if current != self._current:
            self._current = current
            self.current_paper_changed.emit(current)
        if current is not None:
            self._lost = None

    @Slot()
    def on_model_about_to_be_reset(self) -> None:
        """Hold the signals back while the list is re-queried (the ids are remembered)."""
        self._restoring = True
        self._before = (self.paper_model.query, self.currentIndex().row())

    @Slot()
    def on_model_reset(self) -> None:
        """Select the same papers again when the new list still shows them."""
        model = self.paper_model
        if self._selected is None:  # a large selection keeps its rows
            end = model.total() - 1
            kept = [(a, min(b, end)) for a, b in self._runs if a <= end]
        else:
            kept = runs(sorted(model.rows_of(self._selected).values()))
        known = (self._brought, self._current, self._lost)
        wanted = next((paper_id for paper_id in known if paper_id is not None), None)
        self._brought = None
        current = model.row_of(wanted) if wanted is not None else None
        if current is None and kept:
            current = kept[0][0]
        after_trash, self._select_after_reset = self._select_after_reset, None
        if kept:
            self._select_runs(kept, current)
        elif after_trash is not None and model.total():
            self._select_row(min(after_trash, model.total() - 1))
        elif wanted is not None:
            # The current paper is further down the new list, or not in it: find it, keep
            # it current (or remember it for a list that shows it again); gone from the same
            # list (marked read in Unread, say), it gives its place to the next paper.
            self._lost = wanted
            query, row = self._before
            near = min(row, model.total() - 1) if query == model.query else -1
            model.locate(wanted, lambda found: self._place(wanted, near, found))
        self._restoring = False
        self._show_sort_of_query()
        self._announce()

    def _place(self, wanted: int, near: int, found: int | None) -> None:
        """Select the current paper where the new list shows it; left out, it gives its place
        to the paper after it, unless it stays shown beside the list (:attr:`keeps_left_out`)."""
        if found is not None or not self.keeps_left_out(wanted):
            self._select_row(near if found is None else found)

    @Slot()
    def on_model_rows_loaded(self) -> None:
        """Rows arrived: the current paper or the selection may now be known."""
        if not self._restoring:
            self._announce()

    @Slot()
    def on_model_layout_changed(self) -> None:
        """After a sort the selection is kept; keep the arrow in step with the query."""
        self._show_sort_of_query()
        self._announce()

    @Slot(QModelIndex, QModelIndex)
    def on_selection_current_row_changed(self, _current: QModelIndex, _old: QModelIndex) -> None:
        """Tell the detail pane which paper is current."""
        if not self._restoring:
            self._announce()

    @Slot(QItemSelection, QItemSelection)
    def on_selection_selection_changed(self, _new: QItemSelection, _old: QItemSelection) -> None:
        """Tell the window which papers are selected."""
        if not self._restoring:
            self._announce()
