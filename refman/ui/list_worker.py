"""Reading the paper list off the GUI thread, newest question first.

The list asks many small questions — the first page of a new search, a page the view scrolled
to, how many papers a query shows, where one paper is — and only the answers about the query
it shows now are worth anything. :class:`ListWorker` answers them on a thread of its own, with
a :class:`~refman.core.listing.ListReader` (its own database connection), so the window keeps
painting and typing while they run. Each question carries the *generation* of the query it is
about; starting a new generation drops every older question still waiting and interrupts the
one being read, so a keystroke never waits for the answer to the keystroke before it. A
channel's *rank* orders the questions waiting: the list's own first, the status bar's total
next, the navigation pane's counts and related papers last; one being read gives way to a
question of a lower rank, so after a change the list is read first.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import shiboken6
from PySide6.QtCore import QObject, Qt, Signal

from refman.common.errors import CancelledError, NotFoundError, RefmanError
from refman.core.listing import ListReader

from refman.ui.runner import wait_until_idle

log = logging.getLogger("refman.ui")

T = TypeVar("T")

#: A channel's rank (lower is read sooner): the list's own questions, the status bar's
#: total of the library, then the navigation pane's counts and related papers.
FIRST, SOON, LATER = 0, 1, 2
#: How long the worker is waited for when it stops (seconds).
STOP_SECONDS = 1.0


class _Delivery(QObject):
    """Carries an answer from the worker thread to the GUI thread."""

    answered = Signal(object)


class Channel:
    """The questions of one list (one model): a newer generation makes the older stale.

    Different lists share the worker but never drop each other's questions.
    """

    def __init__(
        self, worker: ListWorker, owner: QObject | None = None, *, rank: int = FIRST
    ) -> None:
        self.worker = worker
        self.generation = 0
        self.closed = False
        self.owner = owner
        self.rank = rank
        if owner is not None:
            owner.destroyed.connect(self.close)

    @property
    def gone(self) -> bool:
        """True once the channel was closed or its owner deleted (a widget whose layout an
        answer would fill: it may be deleted before its ``destroyed`` reached us)."""
        return self.closed or (self.owner is not None and not shiboken6.isValid(self.owner))

    def new_generation(self) -> int:
        """Start a new generation: this list's older questions are dropped, and a running
        one interrupted."""
        return self.worker.renew(self)

    def ask(
        self,
        work: Callable[[ListReader], T],
        on_answer: Callable[[T], None],
        on_error: Callable[[RefmanError], None] | None = None,
    ) -> None:
        """Answer ``work``; ``on_answer`` gets the value on the GUI thread unless a newer
        generation started (or the channel closed) meanwhile; so does ``on_error``, when
        given, the failure of a read that could not be made (see :attr:`ListWorker.failed`)."""
        self.worker.put(_Question(self, self.generation, work, on_answer, on_error))

    def close(self) -> None:
        """Drop every question of this list (its model is going away)."""
        self.closed = True
        self.worker.renew(self)


@dataclass(eq=False)
class _Question:
    channel: Channel
    generation: int
    work: Callable[[ListReader], Any]
    on_answer: Callable[[Any], None]
    on_error: Callable[[RefmanError], None] | None = None
    value: Any = None
    error: BaseException | None = None

    @property
    def stale(self) -> bool:
        return self.channel.closed or self.generation < self.channel.generation


class ListWorker(QObject):
    """Answers the paper lists' reads on one thread, dropping the stale ones.

    Signals:
        idle_changed(bool): True when no question is waiting, running or undelivered.
        failed(RefmanError): A read failed for a reason outside refman (a damaged or locked
            library, a server that cannot be reached); the question goes unanswered (but for its
            own ``on_error``, see :meth:`Channel.ask`).
        recovered(): A read succeeded after reads had failed.
    """

    idle_changed = Signal(bool)
    failed = Signal(object)
    recovered = Signal()

    def __init__(self, make_reader: Callable[[], ListReader], parent: QObject | None = None):
        super().__init__(parent)
        self._make_reader = make_reader
        self._reader: ListReader | None = None
        self._questions: deque[_Question] = deque()
        self._running: _Question | None = None
        self._yielding: _Question | None = None  # a later question interrupted for another
        self._undelivered = 0
        self._failing = False
        self._lock = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._delivery = _Delivery()
        self._delivery.answered.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    # -- asking ------------------------------------------------------------------------------

    def channel(self, owner: QObject | None = None, *, rank: int = FIRST) -> Channel:
        """A channel for one more list; closed when ``owner`` (the widget or model whose
        answers it carries) is deleted, and never answering once it is. Questions of a
        higher ``rank`` (:data:`SOON`, :data:`LATER`) wait while those of a lower one do:
        after a change the list the person looks at is read first (at a million papers the
        navigation pane's counts take seconds)."""
        return Channel(self, owner, rank=rank)

    def renew(self, channel: Channel) -> int:
        """Start a new generation of a channel (see :meth:`Channel.new_generation`)."""
        with self._lock:
            channel.generation += 1
            dropped = [q for q in self._questions if q.stale]
            for question in dropped:
                self._questions.remove(question)
            self._undelivered -= len(dropped)
            running = self._running
            if running is not None and running.stale and self._reader is not None:
                self._reader.interrupt()
        if dropped:
            self._maybe_idle()
        return channel.generation

    def put(self, question: _Question) -> None:
        """Queue a question."""
        with self._lock:
            was_idle = self._undelivered == 0
            self._questions.append(question)
            self._undelivered += 1
            self._ensure_thread()
            self._lock.notify()
            running = self._running
            if running and running.channel.rank > question.channel.rank:
                self._yielding = running  # read again once the others were answered
                if self._reader is not None:
                    self._reader.interrupt()
        if was_idle:
            self.idle_changed.emit(False)

    @property
    def idle(self) -> bool:
        """True when every question was answered (or dropped) and delivered."""
        return self._undelivered == 0

    def wait(self, timeout_ms: int = 20_000) -> bool:
        """Process events until idle (tests, screenshots). Returns True when idle."""
        return wait_until_idle(self, timeout_ms)

    def shutdown(self) -> None:
        """Stop the thread and close its connection (not waiting more than a few seconds
        for a read that does not stop: its server stopped answering)."""
        with self._lock:
            self._stopping = True
            self._questions.clear()
            if self._running is not None and self._reader is not None:
                self._reader.interrupt()
            self._lock.notify()
        if self._thread is not None:
            self._thread.join(timeout=STOP_SECONDS)
            if self._thread.is_alive():
                log.warning("a read of the list did not stop: the library is not answering")
            self._thread = None

    # -- the worker thread ---------------------------------------------------------------------

    def _ensure_thread(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="refman-list", daemon=True)
            self._thread.start()

    def _next(self) -> _Question | None:
        with self._lock:
            while not self._questions and not self._stopping:
                self._lock.wait()
            if self._stopping:
                return None
            first = min(self._questions, key=lambda q: q.channel.rank)  # the first of the rank
            self._questions.remove(first)
            self._running = first
            return first

    def _serve(self) -> None:
        reader: ListReader | None = None
        warm = False
        try:
            while (question := self._next()) is not None:
                if reader is None:
                    try:  # (a shared library's server may not answer yet: the next question
                        reader = self._reader = self._make_reader()  # connects again)
                    except RefmanError as exc:
                        question.error = exc
                again = reader is not None and self._answer(reader, question)
                with self._lock:
                    self._running = self._yielding = None
                    if again:
                        self._questions.append(question)
                    idle = not self._questions
                if not again:
                    self._delivery.answered.emit(question)
                if idle and not warm and reader is not None:  # the first pause: while the
                    reader.warm_up()  # person looks at the list
                    warm = True
        finally:
            self._reader = None
            if reader is not None:
                reader.close()

    def _answer(self, reader: ListReader, question: _Question) -> bool:
        """Run one question; one interrupted although still current (an interrupt meant for
        the question before it) runs again. True when it gave way to a question of a channel
        that comes first: it is asked again after those."""
        for _attempt in range(3):
            try:
                question.value = question.work(reader)
                return False
            except CancelledError:
                with self._lock:
                    stale = question.stale or self._stopping
                    gave_way = self._yielding is question
                if stale:
                    question.error = CancelledError("dropped")
                    return False
                if gave_way:
                    return True
            except BaseException as exc:  # handed to the GUI thread
                question.error = exc
                return False
        question.error = CancelledError("dropped")
        return False

    # -- delivering ----------------------------------------------------------------------------

    def _deliver(self, question: _Question) -> None:
        self._undelivered -= 1
        try:
            if isinstance(question.error, CancelledError):
                return
            if isinstance(question.error, NotFoundError):  # (asked for: a tag: of no tag)
                log.info("list not read: %s", question.error)
            elif isinstance(question.error, RefmanError):
                log.warning("list read failed: %s", question.error)
                self._failing = True
                self.failed.emit(question.error)
            if isinstance(question.error, RefmanError):
                answer = question.on_error
                if answer is not None and not question.stale and not question.channel.gone:
                    answer(question.error)
                return
            if question.error is not None:
                raise question.error
            if self._failing:
                self._failing = False
                self.recovered.emit()
            if not question.stale and not question.channel.gone:
                question.on_answer(question.value)
        finally:
            self._maybe_idle()

    def _maybe_idle(self) -> None:
        if self._undelivered == 0:
            self.idle_changed.emit(True)
