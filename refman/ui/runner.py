"""The one way the window runs library work: off the GUI thread, one job after another.

:class:`OperationRunner` (Anki's ``CollectionOp`` is the model) queues each job on a single
worker thread, so changes reach the library in the order the user made them, one whole
transaction after another, while the window keeps painting and answering: a change asked for
while another runs simply waits its turn. A job that takes longer than
:data:`SHOW_PROGRESS_AFTER_MS` is announced through :attr:`OperationRunner.busy` (the window
shows it in its status bar). When a job ends, its result is handed to the caller on the GUI
thread; a :class:`~refman.common.errors.RefmanError` goes to
:func:`refman.ui.messages.show_error` (or the caller's own handler) and anything else is a
bug, raised on the GUI thread so that it reaches the crash dialog and the log.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from PySide6.QtCore import (
    QCoreApplication,
    QEventLoop,
    QObject,
    Qt,
    QTimer,
    Signal,
    SignalInstance,
)
from PySide6.QtWidgets import QWidget

from refman.common.errors import RefmanError

from refman.ui.messages import show_error

log = logging.getLogger("refman.ui")

T = TypeVar("T")

#: How long a job may run before a progress window appears (ms).
SHOW_PROGRESS_AFTER_MS = 400

#: How long the window waits, as it closes, for the changes still being saved before it asks
#: whether the library answers (ms).
CLOSING_WAIT_MS = 2000

#: A job: given a progress callback and a "cancelled?" callback, returns a value.
Work = Callable[[Callable[[int, int], None], Callable[[], bool]], T]


class _Signals(QObject):
    """Carries a job's progress and end from the worker thread to the GUI thread."""

    progressed = Signal(int, int)
    ended = Signal()


@dataclass(eq=False)
class Job(Generic[T]):
    """One piece of work and what becomes of it.

    Attributes:
        label: What the job does, for the busy indicator and the log.
    """

    work: Work[T]
    on_done: Callable[[T], None] | None
    on_error: Callable[[RefmanError], None] | None
    label: str
    on_end: Callable[[], None] | None = None
    signals: _Signals = field(default_factory=_Signals)
    value: Any = None
    error: BaseException | None = None
    finished: bool = False
    #: True when someone is told of the job's progress.
    followed: bool = False
    _cancel: threading.Event = field(default_factory=threading.Event)

    def cancel(self) -> None:
        """Ask the job to stop at its next check (safe from any thread)."""
        self._cancel.set()

    @property
    def cancel_requested(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._cancel.is_set()

    def run(self) -> None:
        """Do the work (on the worker thread), keeping its value or its exception."""
        try:
            self.value = self.work(self.signals.progressed.emit, self._cancel.is_set)
        except BaseException as exc:  # handed to the GUI thread
            self.error = exc
        self.finished = True


class Idling(Protocol):
    """A worker that says when it is idle."""

    @property
    def idle(self) -> bool:
        """True when it has nothing left to do or deliver."""

    @property
    def idle_changed(self) -> SignalInstance:
        """Emitted with True when it becomes idle."""


def wait_until_idle(worker: Idling, timeout_ms: int) -> bool:
    """Process events (but not the user's input) until a worker is idle or the time is up
    (idle for a moment, and given work again by what it delivered, it is waited for again).

    Returns:
        True when the worker is idle.
    """
    if worker.idle:
        return True
    loop = QEventLoop()
    time_up = QTimer(loop)  # (its own state says when the time is up: it may fire early)
    time_up.setSingleShot(True)
    time_up.timeout.connect(loop.quit)

    def quit_when_idle(idle: bool) -> None:
        if idle:
            loop.quit()

    worker.idle_changed.connect(quit_when_idle)
    time_up.start(timeout_ms)
    while not worker.idle and time_up.isActive():
        loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
    worker.idle_changed.disconnect(quit_when_idle)
    return worker.idle


def _done_work(_progress: Callable[[int, int], None], _cancelled: Callable[[], bool]) -> None:
    """What a delivered job holds instead of its work (let go with its value)."""


def _work_through(jobs: queue.Queue[Job[Any] | None]) -> None:
    """The worker thread: run jobs in the order they were queued, until a None."""
    while (job := jobs.get()) is not None:
        job.run()
        job.signals.ended.emit()
        jobs.task_done()
    jobs.task_done()


class OperationRunner(QObject):
    """Runs jobs off the GUI thread, one at a time, and hands their results back.

    Signals:
        idle_changed(bool): True when the last queued job has been delivered.
        busy(str): A job has been running for a while: what it does; "" when all are done.
        refused(RefmanError): A job ended with a reason outside refman (told before its
            caller is).
    """

    idle_changed = Signal(bool)
    busy = Signal(str)
    refused = Signal(object)

    def __init__(self, parent: QObject | None = None, window: QWidget | None = None) -> None:
        super().__init__(parent)
        self.window = window
        self._jobs: queue.Queue[Job[Any] | None] = queue.Queue()
        self._pending: list[Job[Any]] = []
        self._worker: threading.Thread | None = None
        self._announced = False
        self._left = False  # jobs left running by finish()
        self._closed = False  # shut down, leaving them
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SHOW_PROGRESS_AFTER_MS)
        self._timer.timeout.connect(self._announce)

    # -- queueing ---------------------------------------------------------------------------

    def submit(
        self,
        work: Work[T],
        on_done: Callable[[T], None] | None = None,
        *,
        on_error: Callable[[RefmanError], None] | None = None,
        label: str = "Saving your change…",
        on_end: Callable[[], None] | None = None,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> Job[T]:
        """Queue a job; ``on_done`` gets its value on the GUI thread when it ends.

        Args:
            work: The job, called on the worker thread with (progress, cancelled).
            on_done: Called with the job's value.
            on_error: Called with a refused change instead of showing it to the user.
            label: What the job does, for the busy indicator.
            on_end: Called first when the job ended, however it ended (a bug included).
            on_progress: Told (done, in all) as the job reports its progress.

        Returns:
            The job (to cancel it, or to follow its progress).
        """
        job: Job[T] = Job(work, on_done, on_error, label, on_end)
        # The job's signals belong to the runner, which deletes them on the GUI thread once
        # the job is delivered: the last reference to a job may go on any thread, and a
        # QObject deleted there (or by a garbage collection there) locks Qt's connection
        # mutex and waits for Python's lock while the GUI thread holds one and waits for
        # the other.
        job.signals.setParent(self)
        job.signals.ended.connect(lambda: self._deliver(job), Qt.ConnectionType.QueuedConnection)
        if on_progress is not None:
            job.signals.progressed.connect(on_progress, Qt.ConnectionType.QueuedConnection)
            job.followed = True
        was_idle = self.idle
        self._pending.append(job)
        if was_idle:
            self._timer.start()
            self.idle_changed.emit(False)
        if QCoreApplication.instance() is None:
            job.run()
            self._deliver(job)
            return job
        self._ensure_worker()
        self._jobs.put(job)
        return job

    def run_now(self, work: Work[T]) -> T:
        """Run a job on the calling thread once the queued ones are done, and return its
        value (for closing, when no event loop delivers results any more).

        Raises:
            BaseException: Whatever the job raised.
        """
        self._jobs.join()
        return work(lambda _done, _total: None, lambda: False)

    @property
    def idle(self) -> bool:
        """True when no job is queued, running, or waiting to be delivered."""
        return not self._pending

    def wait(self, timeout_ms: int = 60_000) -> bool:
        """Process events (but not the user's input) until every job is delivered.

        For closing the window and opening a library before any window exists; tests use it
        to wait for a change to land.

        Returns:
            True when the runner is idle.
        """
        return wait_until_idle(self, timeout_ms)

    def finish(
        self, answers: Callable[[], bool] = lambda: True, timeout_ms: int = CLOSING_WAIT_MS
    ) -> bool:
        """Wait for the queued changes, as the window closes. One still running after a few
        seconds is waited for while the library ``answers`` (it is large, or waits for
        another change); one whose library stopped answering is left to its server, which
        commits its transaction or rolls it back once it can, and the log says which.

        Returns:
            True when every change ended.
        """
        while not self.wait(timeout_ms):
            if answers():
                continue
            self._left = True
            log.warning(
                "closing while %s still being saved (%s): the library did not answer. Its "
                "server commits it, or rolls it back, once it can: look at the library again "
                "to see whether it was saved.",
                "a change was" if len(self._pending) == 1 else f"{len(self._pending)} changes were",
                "; ".join(job.label for job in self._pending),
            )
            return False
        return True

    def shutdown(self) -> None:
        """Finish the queued jobs and stop the worker thread (not waiting for jobs
        :meth:`finish` left behind, which are not handed over when they end)."""
        self._closed = self._left
        if self._worker is not None:
            self._jobs.put(None)
            self._worker.join(timeout=0.5 if self._left else None)
            self._worker = None

    # -- delivering -------------------------------------------------------------------------

    def _ensure_worker(self) -> None:
        if self._worker is None:
            # A daemon thread: nothing is left running when refman exits (the window waits
            # for every queued change before it closes).
            self._worker = threading.Thread(
                target=_work_through, args=(self._jobs,), name="refman-runner", daemon=True
            )
            self._worker.start()

    def _deliver(self, job: Job[Any]) -> None:
        if job not in self._pending or self._closed:  # (one left behind ended after closing)
            return
        self._pending.remove(job)
        # The connection to this method holds the job, and Qt's side of it is out of sight
        # of Python's collector: cut it, or every job — its work, its callbacks and its
        # value (an operation's outcome, a hundred thousand ids) — lived as long as the window.
        job.signals.ended.disconnect()
        if job.followed:
            job.signals.progressed.disconnect()
        job.signals.deleteLater()
        try:
            self._hand_over(job)
        finally:
            job.work = _done_work
            job.on_done = job.on_error = job.on_end = None
            job.value = None

    def _hand_over(self, job: Job[Any]) -> None:
        if not self._pending:
            self._timer.stop()
            if self._announced:
                self._announced = False
                self.busy.emit("")
            self.idle_changed.emit(True)
        if job.on_end is not None:
            job.on_end()
        error = job.error
        if isinstance(error, RefmanError):
            log.info("%s refused: %s", job.label, error)
            self.refused.emit(error)
            if job.on_error is not None:
                job.on_error(error)
            else:
                show_error(self.window, error)
            return
        if error is not None:
            raise error
        if job.on_done is not None:
            job.on_done(job.value)

    def when_idle(self, call: Callable[[], None]) -> None:
        """Call ``call`` once every job queued so far has been delivered (now, when idle)."""
        if self.idle:
            call()
            return

        def once(idle: bool) -> None:
            if idle:
                self.idle_changed.disconnect(once)
                call()

        self.idle_changed.connect(once)

    def _announce(self) -> None:
        if self._pending:
            self._announced = True
            self.busy.emit(self._pending[0].label)
