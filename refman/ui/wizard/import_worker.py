"""Running the import (and planning a very large one) off the GUI thread.

The worker only calls the library service; it adds no logic of its own. Progress reaches the
GUI thread through a queued signal, and cancelling sets a flag the service polls between
records: the service then raises
:class:`~refman.core.importing.ImportCancelledError` and its transaction rolls back.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from datetime import datetime

from PySide6.QtCore import QObject, QThread, Signal

from refman.common.errors import RefmanError
from refman.core.import_values import ImportChoices, ImportPlan, ImportResult, SourcedPage
from refman.core.library import LibraryService

log = logging.getLogger("refman.ui")

#: A service call: given a progress callback and a "cancelled?" callback, returns a value.
Job = Callable[[Callable[[int, int], None], Callable[[], bool]], object]


class ServiceWorker(QThread):
    """Runs one library-service call on its own thread.

    After the thread finishes (:attr:`finished`), exactly one of :attr:`value`,
    :attr:`error` (a user-facing failure, e.g. cancelled) or :attr:`bug` is set.

    Signals:
        progressed(int, int): Records done and records in all, now and then.
    """

    progressed = Signal(int, int)

    def __init__(self, job: Job, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._job = job
        self._cancel = threading.Event()
        self.value: object = None
        self.error: RefmanError | None = None
        self.bug: Exception | None = None

    def run(self) -> None:
        """Call the service (on the worker thread)."""
        try:
            self.value = self._job(self.progressed.emit, self._cancel.is_set)
        except RefmanError as exc:
            log.info("background work stopped: %s", exc)
            self.error = exc
        except Exception as exc:  # a bug: re-raised on the GUI thread by the owner
            log.exception("background work failed")
            self.bug = exc

    def cancel(self) -> None:
        """Ask the service to stop at its next check; safe from any thread."""
        self._cancel.set()

    @property
    def cancel_requested(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._cancel.is_set()


class ImportWorker(ServiceWorker):
    """Runs :meth:`LibraryService.import_pages` with progress and cancel."""

    def __init__(
        self,
        service: LibraryService,
        pages: Sequence[SourcedPage],
        choices: ImportChoices,
        at: datetime,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(
            lambda progress, cancelled: service.import_pages(
                pages, choices, at=at, progress=progress, cancelled=cancelled
            ),
            parent,
        )

    @property
    def result(self) -> ImportResult | None:
        """The import's result, once it finished without error."""
        return self.value if isinstance(self.value, ImportResult) else None


class PlanWorker(ServiceWorker):
    """Runs :meth:`LibraryService.plan_import` (for pages too large for the GUI thread)."""

    def __init__(
        self,
        service: LibraryService,
        pages: Sequence[SourcedPage],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(lambda _progress, _cancelled: service.plan_import(pages), parent)

    @property
    def plan(self) -> ImportPlan | None:
        """The plan, once it is ready."""
        return self.value if isinstance(self.value, ImportPlan) else None
