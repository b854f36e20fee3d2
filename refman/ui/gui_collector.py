"""Python's cycle collector, run on the GUI thread only.

Left to itself, the collector runs on whichever thread happens to allocate when a threshold
is passed: the list's reader thread, the runner's. A cycle of garbage holding a Qt object
(a dialog's wrapper, a model) is then destroyed there: Qt locks its connection mutex and
calls back into Python, waiting for Python's lock, while the GUI thread holds that lock and
waits for the mutex to connect a signal. The window froze for good (seen twice in the test
suite: a job's signals, then a window's menu). So the window turns the automatic collector
off and runs it from a timer on the GUI thread, by the same thresholds (the full pass at
most every :data:`FULL_EVERY_S` seconds): Qt objects in garbage are always destroyed on the
thread that owns them. The command line keeps the automatic collector (no Qt objects).
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QObject, QTimer

#: How often the collector's counts are looked at (ms).
CHECK_MS = 100
#: The fewest seconds between two full passes (the automatic collector skips most of them
#: too, until the long-lived objects have grown by a quarter).
FULL_EVERY_S = 10.0


class GuiCollector(QObject):
    """Runs the cycle collector from a timer on the thread it lives on (the GUI thread)."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._was_enabled = gc.isenabled()
        self._full_after = time.monotonic() + FULL_EVERY_S
        self._timer = QTimer(self)
        self._timer.setInterval(CHECK_MS)
        self._timer.timeout.connect(self.collect)
        gc.disable()
        self._timer.start()

    def collect(self) -> int:
        """Collect the generations whose thresholds were passed, as the automatic collector
        would; the number of the oldest generation collected, or -1 for none."""
        threshold, count = gc.get_threshold(), gc.get_count()
        if count[0] <= threshold[0]:
            return -1
        generation = 0
        if count[1] >= threshold[1]:
            generation = 1
            if count[2] >= threshold[2] and time.monotonic() >= self._full_after:
                generation = 2
                self._full_after = time.monotonic() + FULL_EVERY_S
        gc.collect(generation)
        return generation

    def uninstall(self) -> None:
        """Give the collector back to itself (the young objects collected here first)."""
        self._timer.stop()
        gc.collect(0)
        if self._was_enabled:
            gc.enable()
        self.setParent(None)
