"""Garbage holding a Qt object is destroyed on the GUI thread, never on a worker's."""

from __future__ import annotations

import threading
import weakref

from PySide6.QtCore import QObject
from pytestqt.qtbot import QtBot


class _Holder(QObject):
    """A Qt object in a cycle of its own: only the cycle collector frees it."""

    def __init__(self) -> None:
        super().__init__()
        self.me = self


def test_a_qt_object_in_garbage_is_destroyed_on_the_gui_thread(qtbot: QtBot) -> None:
    destroyed_on: list[str] = []
    holder = _Holder()
    weakref.finalize(holder, lambda: destroyed_on.append(threading.current_thread().name))
    del holder
    kept: list[object] = []

    def busy() -> None:  # allocates far past the collector's threshold on its own thread
        kept.append([[] for _ in range(50_000)])

    worker = threading.Thread(target=busy, name="refman-list")
    worker.start()
    worker.join()
    assert destroyed_on == []  # the worker never collected
    qtbot.waitUntil(lambda: bool(destroyed_on), timeout=5000)
    assert destroyed_on == [threading.main_thread().name]
