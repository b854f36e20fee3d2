"""File ▸ Import History…: every import, newest first, and reverting any of them.

Picking an import shows what reverting it would do — the papers that would go, those put
back as they were before it, and those that stay and why — worked out off the GUI thread
without changing anything. *Revert This Import* then does it as one step that Edit ▸ Undo
takes back.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QSignalBlocker, Qt, QTimer, Slot
from PySide6.QtGui import QAction, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from refman.core.importing.history import ImportView
from refman.core.importing.revert import RevertPlan
from refman.core.importing.revert_ops import RevertImport
from refman.core.importing.revert_wording import revert_lines
from refman.core.importing.wording import day_text
from refman.core.operations import Outcome
from refman.core.values import Changes

from refman.ui.controller import LibraryController
from refman.ui.look import heading_label, plain_label, set_muted, table_cell
from refman.ui.outage import DialogOutage
from refman.ui.read_only import mark_changing

#: The table's columns.
COLUMNS = ("When", "Pages", "Records", "New", "Merged")
#: How long changes to the library may pause before a revert is worked out again (ms).
REPLAN_DELAY_MS = 250


def _pages_text(view: ImportView) -> str:
    return ", ".join(f"{p.source} ({p.owner})" if p.owner else p.source for p in view.pages)


class HistoryDialog(QDialog):
    """The imports of the library, and what reverting one would do."""

    def __init__(self, controller: LibraryController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("importHistory")
        self.setWindowTitle("Import History")
        self.controller = controller
        self.plan: RevertPlan | None = None
        #: The papers the revert shown names (gone, put back or kept).
        self._named: frozenset[int] = frozenset()
        #: What the last revert did, shown until another import is picked.
        self.report = ""
        self.imports: list[ImportView] = []
        #: How many dry runs were asked for: only the last one's answer is shown.
        self._asked = 0
        #: The library changed while the window was closed: work the revert out again.
        self._outdated = False
        self._replan = QTimer(self)
        self._replan.setSingleShot(True)
        self._replan.setInterval(REPLAN_DELAY_MS)
        self._replan.timeout.connect(self.on_replan_timeout)
        self._reads = controller.lists.channel(self)
        self._build()
        controller.changed.connect(self.on_changed)
        self.resize(820, 620)
        self.refresh()

    def _build(self) -> None:
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("historyTable")
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for column in (0, 2, 3, 4):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemSelectionChanged.connect(self.on_selection_changed)
        self.empty = plain_label("No imports yet: import an author page or a bibliography.")
        set_muted(self.empty)
        self.preview = QPlainTextEdit(self)
        self.preview.setObjectName("revertPreview")
        self.preview.setReadOnly(True)
        self.preview.setPlaceholderText("Pick an import to see what reverting it would do.")
        self.revert_button = QPushButton("Revert This Import", self)
        self.revert_button.setObjectName("revertImport")
        self.revert_button.setToolTip("Revert the import as shown (Edit ▸ Undo takes it back)")
        self.revert_button.setAutoDefault(False)  # (Enter in the list never reverts)
        mark_changing(self.revert_button)
        self.revert_button.clicked.connect(self.revert_selected)
        close = QPushButton("Close", self)
        close.setDefault(True)
        close.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.revert_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 3)
        layout.addWidget(self.empty)
        layout.addWidget(heading_label("Reverting it", self))
        layout.addWidget(self.preview, 2)
        layout.addLayout(buttons)
        self.outage = DialogOutage(self, layout)
        self.revert_button.setEnabled(False)

    # -- reading ----------------------------------------------------------------------------

    def refresh(self) -> None:
        """Read the history again (off the GUI thread)."""
        self._reads.new_generation()
        self._reads.ask(lambda reader: reader.history(), self._show_history)

    def _show_history(self, imports: list[ImportView]) -> None:
        keep = self.selected_import()
        self.imports = imports
        with QSignalBlocker(self.table):  # (the import picked stays picked, or none is)
            self.table.clearSelection()
            self.table.setRowCount(len(imports))
            for row, view in enumerate(imports):
                when = f"{day_text(view.imported_at)} {view.imported_at:%H:%M}" + self._by(view)
                counts = (f"{view.records:,}", f"{view.new:,}", f"{view.merged:,}")
                cells = (when, _pages_text(view), *counts)
                for column, text in enumerate(cells):
                    self.table.setItem(
                        row, column, table_cell(text, view.import_id, number=column >= 2)
                    )
                if view.import_id == keep:
                    self.table.selectRow(row)
        self.empty.setVisible(not imports)
        if keep is None or all(v.import_id != keep for v in imports):
            self._asked += 1  # (no answer about an import gone is shown)
            self._show_plan(None)
        else:  # (papers came or went: reverting it may do otherwise now)
            self._plan_again()

    def _by(self, view: ImportView) -> str:
        """ " by alice": who made the import, on a shared library (a library file's login
        name is always the same person's)."""
        shared = self.controller.service.db.shared
        return f" by {view.imported_by}" if shared and view.imported_by else ""

    def selected_import(self) -> int | None:
        """The id of the import picked, or None."""
        rows = self.table.selectionModel().selectedRows()
        item = self.table.item(rows[0].row(), 0) if rows else None
        value = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return int(value) if value is not None else None

    @Slot()
    def on_selection_changed(self) -> None:
        """Work out what reverting the picked import would do, once the keyboard stops on
        it (a dry run of a large import takes seconds: one for each import passed on the
        way would hold up the person's changes)."""
        self.report = ""
        if self.selected_import() is None:
            self._work_out()
        else:
            self._plan_again()

    @Slot()
    def on_replan_timeout(self) -> None:
        """Changes paused: work out again what reverting the picked import would do."""
        self._work_out()

    def _work_out(self) -> None:
        """Work out what reverting the picked import would do (a dry run, off the GUI
        thread); an answer asked for before is not shown."""
        self._replan.stop()
        self._outdated = False
        self._asked += 1
        asked, import_id = self._asked, self.selected_import()
        self._show_plan(None)
        if import_id is None:
            return
        self.preview.setPlainText("Working out what reverting it would do…")
        c = self.controller
        c.runner.submit(
            lambda _p, _c: c.service.apply(RevertImport(import_id, dry_run=True)).value,
            lambda plan: self._answered(asked, plan),
            on_error=lambda error: self._answered(asked, None, error.message),
            label="Reading the import…",
        )

    def _plan_again(self) -> None:
        """Another import picked, or the library changed: what the preview says may be wrong
        now. It is withdrawn (and Revert with it) and worked out once the picking or the
        changes pause, or when the window shows again."""
        if self.selected_import() is None:
            return
        self._asked += 1  # (an answer on its way is out of date)
        self._show_plan(None)
        self.preview.setPlainText("Working out what reverting it would do…")
        if self.isVisible():
            self._replan.start()
        else:
            self._outdated = True

    def _answered(self, asked: int, plan: RevertPlan | None, error: str = "") -> None:
        if asked != self._asked:
            return  # an answer for an import no longer picked, or for an older library
        self._show_plan(plan)
        if error:
            self.preview.setPlainText(error)

    def showEvent(self, event: QShowEvent) -> None:
        """Shown again: what changed while it was closed is taken into account."""
        super().showEvent(event)
        if self._outdated:
            self._work_out()

    def _show_plan(self, plan: RevertPlan | None) -> None:
        """Show what reverting the picked import would do (None: no import picked, or not
        worked out yet; the last revert's report stays until another import is picked)."""
        self.plan = plan
        self._named = (
            frozenset(
                [i for i, _ in plan.removed]
                + [i for i, _ in plan.restored]
                + [k.paper_id for k in plan.kept]
            )
            if plan is not None
            else frozenset()
        )
        self.preview.setPlainText(
            "\n".join(revert_lines(plan)) if plan is not None else self.report
        )
        self.revert_button.setEnabled(plan is not None)

    # -- acting -----------------------------------------------------------------------------

    @Slot()
    def revert_selected(self) -> None:
        """Revert the import shown (one undo step)."""
        if self.plan is None:
            return
        self.revert_button.setEnabled(False)
        self.controller.apply(
            RevertImport(self.plan.import_id),
            self._reverted,
            on_error=lambda _error: self._work_out(),  # (refused: shown, Revert offered again)
            label="Reverting the import…",
        )

    def _reverted(self, outcome: Outcome[RevertPlan]) -> None:
        """Say what the revert did (as ``refman revert`` does); the import leaves the list."""
        self.report = "\n".join(revert_lines(outcome.value))
        self._show_plan(None)

    @Slot(object)
    def on_changed(self, changes: Changes) -> None:
        """Read the history again after a change that may have added or removed imports
        (then work out the picked import's revert again); after a change to papers the
        revert names, work out its revert again: a paper tagged, read or edited since stays."""
        if changes.structure:
            self.refresh()
        elif self.plan is None or not self._named.isdisjoint(changes.papers | changes.added):
            self._plan_again()


class HistoryActions(QObject):
    """Opens the Import History window from File ▸ Import History…."""

    def __init__(self, controller: LibraryController, action: QAction, window: QWidget) -> None:
        super().__init__(window)
        self.controller = controller
        self.window = window
        self.dialog: HistoryDialog | None = None
        action.triggered.connect(self.open_history)

    @Slot()
    def open_history(self) -> HistoryDialog:
        """Open (or bring forward) the Import History window."""
        if self.dialog is None:
            self.dialog = HistoryDialog(self.controller, self.window)
        self.dialog.show()
        self.dialog.raise_()
        self.dialog.activateWindow()
        return self.dialog
