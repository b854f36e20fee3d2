"""The deleting for good, in the background, of the papers undone imports withdrew (see
:mod:`refman.core.importing.purge`): a few thousand at a time on the change worker, with a
pause between steps so that a change the person asks for meanwhile goes first (an undo
waits for the queue to be idle)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QTimer

from refman.common.errors import RefmanError
from refman.core.importing.purge import PurgeStep
from refman.core.library import LibraryService
from refman.core.operations import Outcome
from refman.core.values import Changes

from refman.ui.runner import OperationRunner

log = logging.getLogger("refman.ui")

#: The pause between two steps (ms).
PURGE_PAUSE_MS = 100


class Purger:
    """Runs the steps one after another until no withdrawn paper is left."""

    def __init__(
        self, service: LibraryService, runner: OperationRunner, tell: Callable[[Changes], None]
    ) -> None:
        self._service = service
        self._runner = runner
        self._tell = tell
        self._running = False

    def later(self) -> None:
        """Take the next step after the pause."""
        QTimer.singleShot(PURGE_PAUSE_MS, self.step)

    def step(self) -> None:
        """Delete the next few thousand withdrawn papers, if any wait (and none are being
        deleted already)."""
        if self._running or self._service.db.read_only or not self._service.purge_pending():
            return
        self._running = True

        def done(outcome: Outcome[int]) -> None:
            self._running = False
            self._tell(outcome.changes)  # asks for the next step while papers are left

        def failed(error: RefmanError) -> None:
            self._running = False
            log.warning("withdrawn papers not deleted yet: %s", error)

        self._runner.submit(
            lambda _progress, _cancelled: self._service.apply(PurgeStep()),
            done,
            on_error=failed,
            label="Finishing the undo…",
        )
