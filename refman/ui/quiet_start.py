"""Work the window starts once the person leaves it alone for a moment.

Starting a worker process (the reader of PDFs' text, the drawer of first pages, the counter of
pages) takes both cores of a small machine for half a second while Python and its libraries
load. Started at a fixed moment after the window opens, that lands in the middle of the first
search someone types and makes each keystroke wait. :class:`QuietStart` waits instead until
the window has been open a moment, nobody has typed, clicked a tag or paper, or scrolled the
list for a moment, and no change or read is under way (tagging a million papers leaves the
person waiting, not the window idle); then it runs the work, once.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Slot

#: The least time after opening (ms), and the pause in the person's work it waits for (s).
START_DELAY_MS = 1500
QUIET_S = 1.0
#: How often it looks again while the person works (ms).
LOOK_AGAIN_MS = 250


class QuietStart(QObject):
    """Runs ``work`` once the window is quiet (see the module).

    Call :meth:`busy` (or connect a signal to it) whenever the person does something the
    window must answer at once.
    """

    def __init__(
        self,
        work: list[Callable[[], None]],
        idle: Callable[[], bool],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._work = work
        self._idle = idle  # True when no change or read is under way
        self._last = time.monotonic()  # opening the window counts as work
        #: True once the work ran.
        self.started = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._look)
        self._timer.start(START_DELAY_MS)

    @Slot()
    def busy(self, *_: object) -> None:
        """The person just did something (typed, clicked, scrolled)."""
        self._last = time.monotonic()

    @Slot()
    def _look(self) -> None:
        if time.monotonic() - self._last < QUIET_S or not self._idle():
            self._timer.start(LOOK_AGAIN_MS)
            return
        self.started = True
        for work in self._work:
            work()
