"""The runner that makes changes off the GUI thread lets go of each change once delivered."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer, Signal
from pytestqt.qtbot import QtBot

from refman.ui.runner import OperationRunner, _Signals, wait_until_idle


class _Result:
    """Stands for what a change returns (an outcome holding a hundred thousand ids)."""


def _work_holding(
    held: _Result,
) -> Callable[[Callable[[int, int], None], Callable[[], bool]], _Result]:
    def work(report: Callable[[int, int], None], _cancelled: Callable[[], bool]) -> _Result:
        report(1, 1)
        assert isinstance(held, _Result)  # the work holds what it was given
        return _Result()

    return work


def test_a_delivered_job_keeps_neither_its_value_nor_its_work(qtbot: QtBot) -> None:
    runner = OperationRunner()
    delivered: list[weakref.ref[_Result]] = []
    progress: list[tuple[int, int]] = []
    held = _Result()
    held_ref = weakref.ref(held)
    runner.submit(
        _work_holding(held),
        lambda value: delivered.append(weakref.ref(value)),
        on_progress=lambda done, total: progress.append((done, total)),
    )
    runner.submit(lambda _p, _c: _Result(), lambda value: delivered.append(weakref.ref(value)))
    del held
    assert runner.wait(5000)
    qtbot.waitUntil(lambda: progress == [(1, 1)])
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()

    assert len(delivered) == 2
    assert [ref() for ref in delivered] == [None, None]  # both values freed
    assert held_ref() is None  # and what the first job's work held
    assert not runner.findChildren(_Signals)  # the jobs' signals deleted, on this thread
    runner.shutdown()


def test_the_job_handed_to_its_caller_holds_nothing_once_delivered(qtbot: QtBot) -> None:
    runner = OperationRunner()
    results: list[int] = []
    job = runner.submit(lambda _p, _c: 41 + 1, results.append)
    assert runner.wait(5000)
    assert results == [42]
    assert job.value is None and job.on_done is None  # the caller's job holds nothing more
    runner.shutdown()


class _Worker(QObject):
    """A worker that is idle for a moment, then given work again by what it delivered."""

    idle_changed = Signal(bool)

    def __init__(self) -> None:
        super().__init__()
        self.idle = False
        self.steps = 0

    def step(self) -> None:
        self.steps += 1
        self.idle = self.steps in (1, 3)  # idle after its first job and after its second
        self.idle_changed.emit(self.idle)
        if self.steps == 1:  # what the first job delivered queues the second one at once
            self.step()
        elif self.steps == 2:
            QTimer.singleShot(20, self.step)


def test_waiting_for_a_worker_waits_past_a_moment_of_idleness(qtbot: QtBot) -> None:
    worker = _Worker()
    QTimer.singleShot(10, worker.step)
    assert wait_until_idle(worker, 5_000)
    assert worker.steps == 3
