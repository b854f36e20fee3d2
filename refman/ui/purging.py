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
        self._stopped = False
        # Owned by the runner: gone with it, never firing into a closed window.
        self._timer = QTimer(runner)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PURGE_PAUSE_MS)
        self._timer.timeout.connect(self.step)

    def later(self) -> None:
        """Take the next step after the pause."""
        if not self._stopped:
            self._timer.start()

    def stop(self) -> None:
        """Take no more steps (the window is closing: the rest is done next time)."""
        self._stopped = True
        self._timer.stop()

    def step(self) -> None:
        """Delete the next few thousand withdrawn papers, if any wait (and none are being
        deleted already); whether any wait is asked on the worker, not the GUI thread."""
        if self._running or self._stopped or self._service.db.read_only:
            return
        self._running = True

        def work() -> Outcome[int] | None:
            return self._service.apply(PurgeStep()) if self._service.purge_pending() else None

        def done(outcome: Outcome[int] | None) -> None:
            self._running = False
            if outcome is not None:
                self._tell(outcome.changes)  # asks for the next step while papers are left

        def failed(error: RefmanError) -> None:
            self._running = False
            log.warning("withdrawn papers not deleted yet: %s", error)

        self._runner.submit(
            lambda _progress, _cancelled: work(),
            done,
            on_error=failed,
            label="Finishing the undo…",
        )
