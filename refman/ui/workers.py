"""Running slow work off the GUI thread while the window stays responsive."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Generic, TypeVar

from PySide6.QtCore import QEventLoop, QObject, QThread, QTimer, Signal
from PySide6.QtWidgets import QApplication, QProgressDialog, QWidget

log = logging.getLogger("refman.ui")

T = TypeVar("T")

#: How long work may run before a progress indicator appears (ms).
SHOW_PROGRESS_AFTER_MS = 400


class _Thread(QThread, Generic[T]):
    """A thread that runs one function and keeps its result or its exception."""

    finished_work = Signal()

    def __init__(self, work: Callable[[], T], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.work = work
        self.result: T | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.work()
        except BaseException as exc:  # handed to the GUI thread, which re-raises it
            self.error = exc
        self.finished_work.emit()


def run_with_progress(work: Callable[[], T], label: str, parent: QWidget | None = None) -> T:
    """Run ``work`` on another thread; show a busy indicator if it takes a while.

    The GUI thread keeps processing events (the window repaints) until the work is done.

    Returns:
        What ``work`` returned.

    Raises:
        Whatever ``work`` raised.
    """
    if QApplication.instance() is None:
        return work()
    thread: _Thread[T] = _Thread(work)
    loop = QEventLoop()
    dialog: list[QProgressDialog] = []

    def show_busy() -> None:
        if thread.isRunning():
            box = QProgressDialog(label, "", 0, 0, parent)
            box.setCancelButton(None)  # type: ignore[arg-type]
            box.setWindowTitle("refman")
            box.setMinimumDuration(0)
            box.show()
            dialog.append(box)

    thread.finished_work.connect(loop.quit)
    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(show_busy)
    timer.start(SHOW_PROGRESS_AFTER_MS)
    try:
        thread.start()
        # The window repaints, but the user's clicks and keys wait until the work is done,
        # so no second change can start in the middle of this one.
        loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        thread.wait()
    finally:
        timer.stop()
    for box in dialog:
        box.close()
        box.deleteLater()
    if thread.error is not None:
        raise thread.error
    return thread.result  # type: ignore[return-value]
