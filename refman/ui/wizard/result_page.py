"""The wizard's last page: runs the import off the GUI thread, then shows what it did."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from PySide6.QtCore import Qt, Signal, Slot
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

from refman.common.errors import RefmanError
from refman.core.importing.values import ImportChoices, ImportResult, SourcedPage
from refman.core.importing.wording import renamed_text, result_headline, result_page_line
from refman.core.operations import ImportPages, Outcome

from refman.ui.controller import LibraryController
from refman.ui.look import plain_label, scaled_font, set_muted
from refman.ui.messages import in_words
from refman.ui.runner import Job

#: Shown when an import ended without importing anything.
RETRY_HINT = (
    "Your choices are kept: click Back to look at them again and import, "
    "or Close to leave the library as it is."
)


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
        self.job: Job[Outcome[ImportResult]] | None = None
        self.result: ImportResult | None = None
        self._build()

    def _build(self) -> None:
        self.status = plain_label()
        self.status.setObjectName("importStatus")
        self.progress = QProgressBar()
        self.progress.setObjectName("importProgress")
        self.progress.setFormat("%v of %m records")
        self.cancel_button = QPushButton("Cancel import")
        self.cancel_button.setObjectName("cancelImportButton")
        self.cancel_button.setAutoDefault(False)  # (Enter, pressed again after Import, goes on)
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

    def start(self, pages: Sequence[SourcedPage], choices: ImportChoices) -> None:
        """Run the import off the GUI thread (the window stays usable, Cancel works).

        Args:
            pages: The pages to import.
            choices: The user's decisions.
        """
        self.setButtonText(QWizard.WizardButton.FinishButton, "Finish")
        self.result = None
        total = sum(len(p.page.records) for p in pages)
        self.status.setText(f"Importing {total} records…")
        self.progress.setRange(0, 0)
        self._set_done(False)
        op = ImportPages(tuple(pages), choices, datetime.now().replace(microsecond=0))
        service = self.controller.service
        self.job = self.controller.runner.submit(
            lambda progress, cancelled: service.apply(op, progress=progress, cancelled=cancelled),
            self._imported,
            on_error=self._refused,
            on_end=self._ended,
            label="Importing…",
            on_progress=self.on_job_progressed,
        )
        self.completeChanged.emit()

    @property
    def running(self) -> bool:
        """True while the import runs."""
        return self.job is not None

    def cancel_and_wait(self) -> None:
        """Cancel a running import and wait until its transaction has rolled back."""
        if self.job is not None:
            self.job.cancel()
            self.controller.runner.wait()

    # -- QWizardPage ----------------------------------------------------------------------------

    def isComplete(self) -> bool:
        """Finish is possible once the import ended."""
        return not self.running

    # -- slots ----------------------------------------------------------------------------------

    @Slot(int, int)
    def on_job_progressed(self, done: int, total: int) -> None:
        """Move the progress bar."""
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    @Slot()
    def on_cancel_button_clicked(self) -> None:
        """Stop the import; the library stays as it was."""
        if self.job is not None:
            self.job.cancel()
            self.cancel_button.setEnabled(False)
            self.status.setText("Cancelling…")

    @Slot()
    def on_show_button_clicked(self) -> None:
        """Ask for the imported papers to be shown."""
        if self.result is not None:
            self.show_papers_requested.emit(list(self.result.paper_ids))

    # -- helpers --------------------------------------------------------------------------------

    def _ended(self) -> None:
        """The import ended, however: the page is done."""
        job, self.job = self.job, None
        late = job is not None and job.cancel_requested
        self.status.setText(
            "The import is done (it had finished before Cancel)." if late else "The import is done."
        )
        if job is not None and job.error is not None and not isinstance(job.error, RefmanError):
            self.status.setText("The import failed because of an error in refman.")
            self.summary.setText("Nothing was imported.")
            self._set_done(True)
            self.ended.emit(False)
            self.completeChanged.emit()

    def _imported(self, outcome: Outcome[ImportResult]) -> None:
        """Record the import as one undo step and say what it did."""
        self.controller.record(outcome)
        self.result = outcome.value
        self.summary.setText(result_headline(self.result))
        self.details.setText(
            "\n".join(
                [
                    *(result_page_line(self.result, i) for i in range(len(self.result.pages))),
                    *filter(None, [renamed_text(self.result)]),
                ]
            )
        )
        self.progress.setValue(self.progress.maximum())
        self._finished()

    def _refused(self, error: RefmanError) -> None:
        """Cancelled (or refused): nothing was imported, and the choices are kept."""
        self.status.setText(in_words(error))
        self.summary.setText("Nothing was imported.")
        self.setButtonText(QWizard.WizardButton.FinishButton, "Close")
        self._finished()

    def _finished(self) -> None:
        self._set_done(True)
        self.ended.emit(self.result is not None)
        self.completeChanged.emit()
        self._focus_next_step()

    def _focus_next_step(self) -> None:
        """The keyboard goes on to what comes next (it was on Cancel import, now hidden):
        Show these papers (Enter presses it), or else Finish or Close."""
        wizard = self.wizard()
        if not self.show_button.isHidden() and self.show_button.isEnabled():
            self.show_button.setFocus(Qt.FocusReason.OtherFocusReason)
        elif wizard is not None:
            wizard.button(QWizard.WizardButton.FinishButton).setFocus(
                Qt.FocusReason.OtherFocusReason
            )

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
