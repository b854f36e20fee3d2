"""The import wizard: author pages in, reviewed, tagged and merged into the library.

Each page does one thing and hands over one value (Picard's setup wizard is the model):
:class:`SourcePage` gives the parsed pages, :class:`ReviewPage` the record choices,
:class:`TagsPage` the tags, and :class:`ResultPage` runs the import. The wizard only wires them
together; parsing is the importers' job and planning and merging the library service's.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QMessageBox, QWidget, QWizard

from refman.core.importing.values import ImportChoices, ImportResult, SourcedPage
from refman.importers.records import PageLink

from refman.ui.controller import LibraryController
from refman.ui.wizard.result_page import ResultPage
from refman.ui.wizard.review_page import ReviewPage
from refman.ui.wizard.source_page import PASTED, SourcePage
from refman.ui.wizard.tags_page import TagsPage


class PageId(enum.IntEnum):
    """The wizard's pages, in order."""

    SOURCE = 0
    REVIEW = 1
    TAGS = 2
    RESULT = 3


class ImportWizard(QWizard):
    """Imports author pages: sources, review, tags, result.

    Attributes:
        result: What the import did, once it ran (None before, or when it was cancelled).

    Signals:
        show_papers_requested(list): After an import, the user asked to see its papers (ids).
    """

    show_papers_requested = Signal(list)

    def __init__(self, controller: LibraryController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("importWizard")
        self.setWindowTitle("Import papers")  # (author pages, bibliographies, PDFs)
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnLastPage, True)
        self.resize(1000, 700)
        self.controller = controller
        self.source_page = SourcePage(controller.runner, self)
        self.review_page = ReviewPage(controller, self.source_page.sourced_pages, self)
        self.tags_page = TagsPage(controller, self.source_page.sourced_pages, self)
        self.result_page = ResultPage(controller, self)
        self.setPage(PageId.SOURCE, self.source_page)
        self.setPage(PageId.REVIEW, self.review_page)
        self.setPage(PageId.TAGS, self.tags_page)
        self.setPage(PageId.RESULT, self.result_page)
        self.result_page.show_papers_requested.connect(self.on_result_page_show_papers_requested)
        self.result_page.ended.connect(self.on_result_page_ended)

    @property
    def result(self) -> ImportResult | None:  # type: ignore[override]
        """What the import did, once it ran.

        This shadows ``QDialog.result()`` for Python callers; the dialog's exit code is what
        ``exec()`` returns (or ``QDialog.result(wizard)``).
        """
        return self.result_page.result

    def add_files(self, paths: Iterable[str | Path]) -> None:
        """Add page files as sources, read off the GUI thread (unreadable ones are then
        reported and left out; :meth:`SourcePage.wait_until_read` waits for them)."""
        self.source_page.add_files(paths)

    def add_text(self, text: str, source: str = PASTED, links: Sequence[PageLink] = ()) -> None:
        """Add a page's text (and the links of its HTML) as a source."""
        self.source_page.add_text(text, source, links)

    def import_request(self) -> tuple[Sequence[SourcedPage], ImportChoices]:
        """The pages to import, and every choice made on the way."""
        choices = self.tags_page.tag_choices(self.review_page.record_choices())
        return self.source_page.sourced_pages(), choices

    def initializePage(self, id: int) -> None:
        """Entering the result page starts the import: no Back while it runs or after it."""
        super().initializePage(id)
        if id == PageId.RESULT:
            self._allow_back_from_result(False)
            self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage, False)
            self.result_page.start(*self.import_request())

    def cleanupPage(self, id: int) -> None:
        """Leaving the result page with Back (after a cancelled import): Import is back."""
        super().cleanupPage(id)
        if id == PageId.RESULT:
            self._allow_back_from_result(False)

    def _allow_back_from_result(self, allow: bool) -> None:
        """Let Back leave the result page, or not.

        The tags page is the commit page (its button is Import), and Qt offers no Back past a
        commit page; so while Back is allowed the tags page stops being one.
        """
        self.tags_page.setCommitPage(not allow)
        self.setOption(QWizard.WizardOption.NoBackButtonOnLastPage, not allow)

    def reject(self) -> None:
        """Close; a running import is cancelled first (the library stays as it was). Text
        pasted or dropped and not imported is only let go once the person says so."""
        unsaved = self.result is None and self.source_page.holds_text()
        if unsaved and not self.result_page.running and not confirm_discard(self):
            return
        self.discard()

    def discard(self) -> None:
        """Close without asking (what was pasted is let go); a running import is cancelled
        first."""
        self.result_page.cancel_and_wait()
        self.review_page.wait_for_work()  # (and the files being read)
        super().reject()

    @Slot(bool)
    def on_result_page_ended(self, imported: bool) -> None:
        """After an import, only Finish; after a cancel (nothing changed), Back or Close."""
        self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage, True)
        self._allow_back_from_result(not imported)

    @Slot(list)
    def on_result_page_show_papers_requested(self, ids: list[int]) -> None:
        """Pass the imported papers on and close."""
        self.show_papers_requested.emit(ids)
        self.accept()


def confirm_discard(parent: QWidget) -> bool:
    """Ask before closing the wizard with text pasted or dropped that was not imported."""
    answer = QMessageBox.question(
        parent,
        "Close Import",
        "Close without importing? The text you pasted or dropped is not kept anywhere.",
        QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel,
    )
    return answer == QMessageBox.StandardButton.Discard
