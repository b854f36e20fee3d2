"""The wizard's last page: runs the import off the GUI thread, then shows what it did."""

from __future__ import annotations

from collections.abc import Sequence
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

from refman.core.import_values import ImportChoices, ImportPlan, ImportResult, SourcedPage

from refman.ui.controller import LibraryController
from refman.ui.look import plain_label, scaled_font, set_muted
from refman.ui.wizard.import_worker import ImportWorker
from refman.ui.wizard.outcome import fallback_headline, fallback_page_line, import_outcome

#: Shown when an import ended without importing anything.
RETRY_HINT = (
    "Your choices are kept: click Back to look at them again and import, "
    "or Close to leave the library as it is."
)


def result_texts(
    result: ImportResult, plan: ImportPlan | None, choices: ImportChoices
) -> tuple[str, list[str]]:
    """The headline and the per-page lines of a finished import.

    Both count papers the same way: a paper two pages of the import list is new on the first
    page and "also on" that page on the second, and counts once in the headline.
    """
    outcome = import_outcome(plan, choices, result) if plan is not None else None
    if outcome is None:
        return fallback_headline(result), [fallback_page_line(r) for r in result.pages]
    return outcome.headline(), [outcome.page_line(i) for i in range(len(result.pages))]


class ResultPage(QWizardPage):
    """Runs the import with progress and Cancel, then reports and offers to show the papers.

    The wizard calls :meth:`start` when the page shows.

    Cancelling at any point leaves the library as it was: the service's transaction rolls
    back, and the user may go back to the earlier pages (every choice kept) and import again.
    A finished import is pushed on the undo stack as one step.

    Signals:
        show_papers_requested(list): The user wants to see the imported papers (their ids).
        ended(bool): The import ended; True when it imported, False when it was cancelled or
            failed (nothing changed).
    """

    show_papers_requested = Signal(list)
    ended = Signal(bool)

    def __init__(self, controller: LibraryController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("resultPage")
        self.setTitle("Import")
        self.setSubTitle("The records are merged into the library in one step.")
        self.controller = controller
        self.worker: ImportWorker | None = None
        self.result: ImportResult | None = None
        self._pages: Sequence[SourcedPage] = ()
        self._choices = ImportChoices()
        self._plan: ImportPlan | None = None
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
        self.retry_hint = plain_label(RETRY_HINT)
        self.retry_hint.setObjectName("retryHint")
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
        layout.addWidget(self.retry_hint)
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

    def start(
        self,
        pages: Sequence[SourcedPage],
        choices: ImportChoices,
        plan: ImportPlan | None = None,
    ) -> None:
        """Run the import on a worker thread.

        Args:
            pages: The pages to import.
            choices: The user's decisions.
            plan: The plan the user reviewed; the report counts papers page by page from it.
        """
        self._pages, self._choices, self._plan = pages, choices, plan
        self.setButtonText(QWizard.WizardButton.FinishButton, "Finish")
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
            headline, lines = result_texts(self.result, self._plan, self._choices)
            self.summary.setText(headline)
            self.details.setText("\n".join(lines))
            self.progress.setValue(self.progress.maximum())
        else:
            error = worker.error
            text = error.message if error is not None else "The import stopped."
            if error is not None and error.hint:
                text = f"{text} {error.hint}"
            self.status.setText(text)
            self.summary.setText("Nothing was imported.")
            self.setButtonText(QWizard.WizardButton.FinishButton, "Close")
        self._set_done(True)
        self.ended.emit(self.result is not None)
        self.completeChanged.emit()

    def _set_done(self, done: bool) -> None:
        imported = done and self.result is not None
        self.progress.setVisible(not done)
        self.cancel_button.setVisible(not done)
        self.cancel_button.setEnabled(not done)
        self.summary.setVisible(done)
        self.details.setVisible(imported)
        self.retry_hint.setVisible(done and self.result is None)
        self.undo_hint.setVisible(imported and bool(self.result and self.result.batch_ids))
        self.show_button.setVisible(imported)
        self.show_button.setEnabled(imported and bool(self.result and self.result.paper_ids))
