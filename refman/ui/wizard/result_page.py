"""The wizard's last page: runs the import off the GUI thread, then shows what it did."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from refman.core.import_values import ImportChoices, ImportResult, PageReport, SourcedPage

from refman.ui.controller import LibraryController
from refman.ui.look import plain_label, scaled_font, set_muted
from refman.ui.wizard.import_worker import ImportWorker

#: What the import needs: the pages and the user's choices.
ImportRequest = Callable[[], tuple[Sequence[SourcedPage], ImportChoices]]


def result_summary(result: ImportResult) -> str:
    """Return "N new, M merged, K skipped" (and ", U unchanged" when some were)."""
    text = f"{len(result.new_ids)} new, {len(result.merged_ids)} merged, {result.skipped} skipped"
    return f"{text}, {len(result.unchanged_ids)} unchanged" if result.unchanged_ids else text


def report_line(report: PageReport) -> str:
    """One line about one page of a finished import."""
    owner = report.owner or "Unknown owner"
    line = f"{owner} — {report.source}: {report.new} new, {report.merged} merged"
    line += f", {report.skipped} skipped"
    if report.unchanged:
        line += f", {report.unchanged} unchanged (nothing new)"
    if report.possible_duplicates:
        line += f", {report.possible_duplicates} possible duplicate"
        line += "" if report.possible_duplicates == 1 else "s"
    return line


class ResultPage(QWizardPage):
    """Runs the import with progress and Cancel, then reports and offers to show the papers.

    Cancelling at any point leaves the library as it was: the service's transaction rolls
    back. A finished import is pushed on the undo stack as one step.

    Signals:
        show_papers_requested(list): The user wants to see the imported papers (their ids).
    """

    show_papers_requested = Signal(list)

    def __init__(
        self, controller: LibraryController, request: ImportRequest, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("resultPage")
        self.setTitle("Import")
        self.setSubTitle("The records are merged into the library in one step.")
        self.controller = controller
        self._request = request
        self.worker: ImportWorker | None = None
        self.result: ImportResult | None = None
        self._pages: Sequence[SourcedPage] = ()
        self._choices = ImportChoices()
        self._at = datetime.now()
        self._build()

    def _build(self) -> None:
        self.status = plain_label()
        self.status.setObjectName("importStatus")
        self.progress = QProgressBar()
        self.progress.setObjectName("importProgress")
        self.progress.setFormat("%v of %m records")
        self.cancel_button = QPushButton("Cancel import")
        self.cancel_button.setObjectName("cancelImportButton")
        self.summary = plain_label()
        self.summary.setObjectName("resultSummary")
        self.summary.setFont(scaled_font(self.summary.font(), 1.5, QFont.Weight.DemiBold))
        self.details = plain_label()
        self.details.setObjectName("resultDetails")
        self.undo_hint = plain_label(
            "Edit ▸ Undo (Ctrl+Z) takes the whole import back; Redo (Ctrl+Shift+Z) repeats it."
        )
        set_muted(self.undo_hint)
        self.show_button = QPushButton("Show these papers")
        self.show_button.setObjectName("showPapersButton")
        self.show_button.setDefault(True)

        running = QHBoxLayout()
        running.addWidget(self.progress, 1)
        running.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addLayout(running)
        layout.addSpacing(8)
        layout.addWidget(self.summary)
        layout.addWidget(self.details)
        layout.addSpacing(8)
        layout.addWidget(self.undo_hint)
        buttons = QHBoxLayout()
        buttons.addWidget(self.show_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addStretch(1)
        self.cancel_button.clicked.connect(self.on_cancel_button_clicked)
        self.show_button.clicked.connect(self.on_show_button_clicked)
        self._set_done(False)

    # -- the page's one action ----------------------------------------------------------------

    def start(self, pages: Sequence[SourcedPage], choices: ImportChoices) -> None:
        """Run the import on a worker thread.

        Args:
            pages: The pages to import.
            choices: The user's decisions.
        """
        self._pages, self._choices = pages, choices
        self._at = datetime.now().replace(microsecond=0)
        self.result = None
        total = sum(len(p.page.records) for p in pages)
        self.status.setText(f"Importing {total} records…")
        self.progress.setRange(0, 0)
        self._set_done(False)
        self.worker = ImportWorker(self.controller.service, pages, choices, self._at, self)
        self.worker.progressed.connect(self.on_worker_progressed)
        self.worker.finished.connect(self.on_worker_finished)
        self.worker.start()
        self.completeChanged.emit()

    @property
    def running(self) -> bool:
        """True while the import runs."""
        return self.worker is not None

    def cancel_and_wait(self) -> None:
        """Cancel a running import and wait until its transaction has rolled back."""
        worker = self.worker
        if worker is None:
            return
        worker.cancel()
        worker.wait()
        self._finish(worker)

    # -- QWizardPage ----------------------------------------------------------------------------

    def initializePage(self) -> None:
        """Start the import as soon as the page shows."""
        self.start(*self._request())

    def isComplete(self) -> bool:
        """Finish is possible once the import ended."""
        return not self.running

    # -- slots ----------------------------------------------------------------------------------

    @Slot(int, int)
    def on_worker_progressed(self, done: int, total: int) -> None:
        """Move the progress bar."""
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    @Slot()
    def on_worker_finished(self) -> None:
        """Report the import (unless :meth:`cancel_and_wait` already did)."""
        if self.worker is not None and self.sender() is self.worker:
            self._finish(self.worker)

    @Slot()
    def on_cancel_button_clicked(self) -> None:
        """Stop the import; the library stays as it was."""
        if self.worker is not None:
            self.worker.cancel()
            self.cancel_button.setEnabled(False)
            self.status.setText("Cancelling…")

    @Slot()
    def on_show_button_clicked(self) -> None:
        """Ask for the imported papers to be shown."""
        if self.result is not None:
            self.show_papers_requested.emit(list(self.result.paper_ids))

    # -- helpers --------------------------------------------------------------------------------

    def _finish(self, worker: ImportWorker) -> None:
        self.worker = None
        worker.deleteLater()
        if worker.bug is not None:
            self.status.setText("The import failed because of an error in refman.")
            self._set_done(True)
            raise worker.bug
        if worker.result is not None:
            self.result = worker.result
            self.controller.record_import(self._pages, self._choices, self.result, self._at)
            late = " (it had finished before Cancel)" if worker.cancel_requested else ""
            self.status.setText(f"The import is done{late}.")
            self.summary.setText(result_summary(self.result))
            self.details.setText("\n".join(report_line(r) for r in self.result.pages))
            self.progress.setValue(self.progress.maximum())
        else:
            error = worker.error
            text = error.message if error is not None else "The import stopped."
            if error is not None and error.hint:
                text = f"{text} {error.hint}"
            self.status.setText(text)
            self.summary.setText("Nothing was imported.")
        self._set_done(True)
        wizard = self.wizard()
        if wizard is not None:
            wizard.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage, True)
        self.completeChanged.emit()

    def _set_done(self, done: bool) -> None:
        imported = done and self.result is not None
        self.progress.setVisible(not done)
        self.cancel_button.setVisible(not done)
        self.cancel_button.setEnabled(not done)
        self.summary.setVisible(done)
        self.details.setVisible(imported)
        self.undo_hint.setVisible(imported and bool(self.result and self.result.batch_ids))
        self.show_button.setVisible(imported)
        self.show_button.setEnabled(imported and bool(self.result and self.result.paper_ids))
