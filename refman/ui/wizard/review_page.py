"""The wizard's review page: every parsed record, what importing it does, and the choices."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QModelIndex, QPoint, Qt, Slot
from PySide6.QtGui import QResizeEvent, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QMenu,
    QProgressBar,
    QPushButton,
    QTableView,
    QTextEdit,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from refman.common.errors import RefmanError
from refman.core.importing.values import ImportChoices, ImportPlan, RecordStatus, SourcedPage
from refman.core.importing.wording import plan_page_summary, since_last_text

from refman.ui.actions import ActionId, build_actions
from refman.ui.controller import LibraryController
from refman.ui.look import clear_layout, heading_label, plain_label, set_muted
from refman.ui.runner import Job
from refman.ui.wizard.review_choices import carried, moved_pages
from refman.ui.wizard.review_delegate import DuplicateDelegate, ReviewTable
from refman.ui.wizard.review_model import ABSTRACT_ROLE, KEEP_SEPARATE_ROLE, Column, ReviewModel

#: Above this many records the plan is computed off the GUI thread.
PLAN_IN_WORKER_ABOVE = 2000
#: Room around a status's text in its cell: the dot, the margins.
_STATUS_PADDING = 56


class ReviewPage(QWizardPage):
    """Shows the import plan record by record and collects the user's decisions.

    The page's one output is :meth:`record_choices`.
    """

    def __init__(
        self,
        controller: LibraryController,
        pages: Callable[[], Sequence[SourcedPage]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("reviewPage")
        self.setTitle("Review the records")
        self.setSubTitle(
            "Uncheck records you do not want (Space). Double-click a suggested title (in "
            "italics), or press F2 on its row, to type a real one."
        )
        self.controller = controller
        self._pages_source = pages
        self._pages: list[SourcedPage] = []
        self.plan: ImportPlan | None = None
        #: The choices made on the pages before, as the pages are numbered now.
        self._made: ImportChoices | None = None
        self.job: Job[ImportPlan] | None = None
        self._duplicate_rows: list[int] = []
        self._fit_when_laid_out = False
        self.model = ReviewModel(self)
        self.actions_by_id = build_actions(self, scope="review")
        self._build()
        self._connect_signals()

    def _build(self) -> None:
        self.summaries = QVBoxLayout()
        self.summaries.setSpacing(2)
        self.busy = QProgressBar()
        self.busy.setObjectName("planProgress")
        self.busy.setRange(0, 0)
        self.busy.setFormat("Checking the records against the library…")
        self.busy.setTextVisible(True)
        self.busy.hide()
        self.table = self._build_table()
        self.select_all_button = QPushButton("Select all")
        self.select_all_button.setObjectName("selectAllButton")
        self.select_none_button = QPushButton("Select none")
        self.select_none_button.setObjectName("selectNoneButton")
        self.selection_label = plain_label(wrap=False)
        self.selection_label.setObjectName("selectionSummary")
        set_muted(self.selection_label)
        self.record_status = plain_label()
        self.record_status.setObjectName("recordStatus")
        self.abstract = QTextEdit()
        self.abstract.setAcceptRichText(False)
        self.abstract.setObjectName("abstractView")
        self.abstract.setReadOnly(True)
        self.abstract.setPlaceholderText("Select a record to read its abstract.")
        self.abstract.setMaximumHeight(120)

        buttons = QHBoxLayout()
        buttons.addWidget(self.select_all_button)
        buttons.addWidget(self.select_none_button)
        buttons.addSpacing(12)
        buttons.addWidget(self.selection_label, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(self.summaries)
        layout.addWidget(self.busy)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.record_status)
        layout.addWidget(heading_label("Abstract"))
        layout.addWidget(self.abstract)

    def _build_table(self) -> QTableView:
        table = ReviewTable()
        table.setObjectName("reviewTable")
        table.setModel(self.model)
        table.setItemDelegate(DuplicateDelegate(table))
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setAlternatingRowColors(True)
        table.setWordWrap(False)
        table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        table.verticalHeader().hide()
        table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header = table.horizontalHeader()
        header.setHighlightSections(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(Column.TITLE, QHeaderView.ResizeMode.Stretch)
        for column, width in (
            (Column.IMPORT, 46),
            (Column.AUTHORS, 140),
            (Column.YEAR, 48),
            (Column.VENUE, 64),
            (Column.SUBJECTS, 88),
            (Column.STATUS, 240),
        ):
            table.setColumnWidth(column, width)
        return table

    def _connect_signals(self) -> None:
        self.select_all_button.clicked.connect(self.on_select_all_button_clicked)
        self.select_none_button.clicked.connect(self.on_select_none_button_clicked)
        self.model.dataChanged.connect(self.on_model_data_changed)
        self.model.modelReset.connect(self.on_model_data_changed)
        self.table.selectionModel().currentRowChanged.connect(self.on_table_current_row_changed)
        self.table.customContextMenuRequested.connect(self.on_table_context_menu_requested)
        a = self.actions_by_id
        a[ActionId.REVIEW_IMPORT].triggered.connect(self.on_review_import_triggered)
        a[ActionId.REVIEW_SKIP].triggered.connect(self.on_review_skip_triggered)
        a[ActionId.REVIEW_MERGE].triggered.connect(self.on_review_merge_triggered)
        a[ActionId.REVIEW_KEEP_SEPARATE].triggered.connect(self.on_review_keep_separate_triggered)

    # -- the page's one output ----------------------------------------------------------------

    def record_choices(self) -> ImportChoices:
        """Records to skip, duplicates to keep apart, titles typed for untitled records."""
        return self.model.record_choices()

    # -- planning -------------------------------------------------------------------------------

    def initializePage(self) -> None:
        """Plan the import of the pages given on the first page (keeping choices if unchanged)."""
        pages = list(self._pages_source())
        same = len(pages) == len(self._pages) and all(
            a.page is b.page and a.source == b.source
            for a, b in zip(pages, self._pages, strict=True)
        )
        if same and self.plan is not None:
            return
        made = self.record_choices() if self.plan is not None else self._made  # (being planned)
        self._made = carried(made or ImportChoices(), moved_pages(self._pages, pages))
        self._pages = pages
        self._show_plan(None)
        service = self.controller.service
        if sum(len(p.page.records) for p in pages) > PLAN_IN_WORKER_ABOVE:
            self.busy.show()
            job: Job[ImportPlan] = self.controller.runner.submit(
                lambda _progress, _cancelled: service.plan_import(pages),
                lambda plan: self._planned(job, plan),
                on_error=lambda error: self._plan_refused(job, error),
                label="Checking the records against the library…",
            )
            self.job = job
        else:
            self._show_plan(service.plan_import(pages))

    def wait_for_work(self) -> None:
        """Wait until a plan being computed has arrived (before the wizard closes)."""
        self.controller.runner.wait()

    def _show_plan(self, plan: ImportPlan | None) -> None:
        self.plan = plan
        self.busy.setVisible(False)
        clear_layout(self.summaries)
        summaries = [plan_page_summary(plan, i) for i in range(len(plan.pages))] if plan else []
        for index, text in enumerate(summaries):
            label = plain_label(text)
            label.setObjectName("pageSummary")
            self.summaries.addWidget(label)
            since = plan.pages[index].since_last if plan else None
            if since is not None:
                news = plain_label(f"Since the last import: {since_last_text(since)}")
                news.setObjectName("sinceLast")
                self.summaries.addWidget(news)
        self._duplicate_rows = []  # (the reset below shows no choices of the plan before)
        self.model.set_plan(plan, self._made)
        hidden = self.model.empty_columns() if plan is not None else []
        for column in Column:
            self.table.setColumnHidden(column, column in hidden)
        self._fit_status_column()
        self._fit_when_laid_out = not self.isVisible()  # (the table's width is not known yet)
        self.abstract.clear()
        self.record_status.clear()
        self._duplicate_rows = [
            row
            for row in range(self.model.rowCount())
            if self.model.plan_at(row).status is RecordStatus.POSSIBLE_DUPLICATE
        ]
        self._show_choices()
        if plan is not None and plan.records:
            self.table.selectRow(0)
        self.completeChanged.emit()

    def _fit_status_column(self) -> None:
        """Make the Status column as wide as its longest text, but never wider than what is
        left to the Title column: the title is what the user reads first. A longer status is
        cut short; its whole text is in its tooltip and under the table (:attr:`record_status`).

        Possible duplicates do not count: their combo puts the choice first and elides the
        title, so they read well in any width.
        """
        metrics = self.table.fontMetrics()
        plans = [self.model.plan_at(r) for r in range(self.model.rowCount())]
        widest = max(
            (
                metrics.horizontalAdvance(self.model.status_text(p))
                for p in plans
                if p.status is not RecordStatus.POSSIBLE_DUPLICATE
            ),
            default=0,
        )
        if any(p.status is RecordStatus.POSSIBLE_DUPLICATE for p in plans):
            widest = max(widest, metrics.horizontalAdvance("Keep separate — possible duplicate"))
        room = max(self.table.width() - 2 * self.table.frameWidth(), 600)
        fixed = (Column.IMPORT, Column.AUTHORS, Column.YEAR, Column.VENUE, Column.SUBJECTS)
        others = sum(self.table.columnWidth(c) for c in fixed if not self.table.isColumnHidden(c))
        share = max(160, (room - others) // 2)
        self.table.setColumnWidth(Column.STATUS, min(widest + _STATUS_PADDING, share))

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Fit the Status column to the table's width once the page first has its size."""
        super().resizeEvent(event)
        if self._fit_when_laid_out and self.plan is not None:
            self._fit_when_laid_out = False
            self._fit_status_column()

    def _show_choices(self) -> None:
        """A merge / keep separate combo on each checked possible duplicate (an unchecked
        one says it is left out)."""
        for row in self._duplicate_rows:
            index = self.model.index(row, Column.STATUS)
            wanted = self.model.offers_choice(self.model.plan_at(row))
            if wanted and not self.table.isPersistentEditorOpen(index):
                self.table.openPersistentEditor(index)
            elif not wanted and self.table.isPersistentEditorOpen(index):
                self.table.closePersistentEditor(index)

    def isComplete(self) -> bool:
        """True once the plan is ready and at least one record is checked."""
        return self.plan is not None and self.model.checked_count() > 0

    # -- slots ----------------------------------------------------------------------------------

    def _planned(self, job: Job[ImportPlan], plan: ImportPlan) -> None:
        """Show the plan computed off the GUI thread (unless the pages changed meanwhile)."""
        if job is self.job:
            self.job = None
            self._show_plan(plan)

    def _plan_refused(self, job: Job[ImportPlan], error: RefmanError) -> None:
        if job is self.job:
            self.job = None
            self.busy.hide()
            self.selection_label.setText(error.message)

    @Slot()
    def on_select_all_button_clicked(self) -> None:
        """Check every record."""
        self.model.set_all_checked(True)

    @Slot()
    def on_select_none_button_clicked(self) -> None:
        """Uncheck every record."""
        self.model.set_all_checked(False)

    @Slot()
    def on_model_data_changed(self) -> None:
        """Update the count of records to import."""
        total = self.model.rowCount()
        checked = self.model.checked_count()
        if self.plan is None:
            text = ""
        elif checked == 0 and total:
            text = "No record is checked: check at least one to import."
        elif all(p.status is RecordStatus.MERGE and not p.adds for p in self.plan.records):
            text = f"All {total} records are in the library already: nothing new to add."
        else:
            text = f"{checked} of {total} records will be imported."
        self.selection_label.setText(text)
        self._show_choices()
        self._show_record_status(self.table.currentIndex())
        self.completeChanged.emit()

    @Slot(QModelIndex, QModelIndex)
    def on_table_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        """Show the current record's status in full and its abstract (as plain text)."""
        text = str(current.data(ABSTRACT_ROLE) or "") if current.isValid() else ""
        self.abstract.setPlaceholderText(
            "This record has no abstract."
            if current.isValid()
            else "Select a record to read its abstract."
        )
        self.abstract.setPlainText(text)
        self.abstract.moveCursor(QTextCursor.MoveOperation.Start)
        self.abstract.verticalScrollBar().setValue(0)
        self._show_record_status(current)

    def _show_record_status(self, current: QModelIndex) -> None:
        """Say in full what importing the current record does (the column may cut it)."""
        if not current.isValid():
            self.record_status.clear()
            return
        status = self.model.index(current.row(), Column.STATUS)
        lines = str(status.data(Qt.ItemDataRole.ToolTipRole) or "").split("\n")
        sentences = [line if line.endswith((".", "?", "!")) else f"{line}." for line in lines]
        self.record_status.setText(f"Row {current.row() + 1}: {' '.join(sentences)}")

    @Slot(QPoint)
    def on_table_context_menu_requested(self, pos: QPoint) -> None:
        """Offer import / skip and merge / keep separate for the selected rows."""
        menu = self.build_context_menu()
        if menu is not None:
            menu.popup(self.table.viewport().mapToGlobal(pos))

    def build_context_menu(self) -> QMenu | None:
        """The menu of the selected rows (None when no row is selected)."""
        if not self.selected_rows():
            return None
        a = self.actions_by_id
        menu = QMenu(self.table)
        menu.addAction(a[ActionId.REVIEW_IMPORT])
        menu.addAction(a[ActionId.REVIEW_SKIP])
        if self._selected_duplicates():
            menu.addSeparator()
            menu.addAction(a[ActionId.REVIEW_MERGE])
            menu.addAction(a[ActionId.REVIEW_KEEP_SEPARATE])
        return menu

    def selected_rows(self) -> list[int]:
        """The rows selected in the table, in order."""
        return sorted({i.row() for i in self.table.selectionModel().selectedRows()})

    def _selected_duplicates(self) -> list[int]:
        return [
            r
            for r in self.selected_rows()
            if self.model.plan_at(r).status is RecordStatus.POSSIBLE_DUPLICATE
        ]

    @Slot()
    def on_review_import_triggered(self) -> None:
        """Check the selected records."""
        self.model.set_rows_checked(self.selected_rows(), True)

    @Slot()
    def on_review_skip_triggered(self) -> None:
        """Uncheck the selected records."""
        self.model.set_rows_checked(self.selected_rows(), False)

    @Slot()
    def on_review_merge_triggered(self) -> None:
        """Merge the selected possible duplicates."""
        self._set_keep(self._selected_duplicates(), False)

    @Slot()
    def on_review_keep_separate_triggered(self) -> None:
        """Keep the selected possible duplicates as papers of their own."""
        self._set_keep(self._selected_duplicates(), True)

    def _set_keep(self, rows: list[int], keep: bool) -> None:
        for row in rows:
            index = self.model.index(row, Column.STATUS)
            self.model.setData(index, keep, KEEP_SEPARATE_ROLE)
            if self.table.isPersistentEditorOpen(index):  # (the combo shows the choice)
                self.table.closePersistentEditor(index)
                self.table.openPersistentEditor(index)
