"""The cycle collector held back during large changes comes back when the last one ends."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from refman.common.collector import collector_paused


@pytest.fixture(autouse=True)
def _collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_the_collector_comes_back_when_the_last_of_two_threads_ends() -> None:
    inside = threading.Event()
    leave = threading.Event()

    def other() -> None:
        with collector_paused():
            inside.set()
            leave.wait(5)

    thread = threading.Thread(target=other)
    with collector_paused():
        thread.start()
        assert inside.wait(5)
        assert not gc.isenabled()
    assert not gc.isenabled()  # the other thread's change still runs
    leave.set()
    thread.join(5)
    assert gc.isenabled()


def test_the_collector_comes_back_after_a_failure() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        assert not gc.isenabled()
        raise RuntimeError("the change failed")
    assert gc.isenabled()


def test_a_collector_someone_turned_off_stays_off() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()
