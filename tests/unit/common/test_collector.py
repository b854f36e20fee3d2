"""The cycle collector eased during large changes comes back when the last one ends."""

from __future__ import annotations

import gc
import threading

import pytest

from refman.common.collector import EASED, collector_eased


def test_the_usual_collector_comes_back_when_the_last_of_two_threads_ends() -> None:
    usual = gc.get_threshold()
    inside = threading.Event()
    leave = threading.Event()

    def other() -> None:
        with collector_eased():
            inside.set()
            leave.wait(5)

    thread = threading.Thread(target=other)
    with collector_eased():
        thread.start()
        assert inside.wait(5)
        assert gc.get_threshold() == EASED
    assert gc.get_threshold() == EASED  # the other thread's change still runs
    leave.set()
    thread.join(5)
    assert gc.get_threshold() == usual


def test_the_usual_collector_comes_back_after_a_failure() -> None:
    usual = gc.get_threshold()
    with pytest.raises(RuntimeError), collector_eased():
        raise RuntimeError("the change failed")
    assert gc.get_threshold() == usual


def test_cycles_made_during_a_large_change_are_still_collected() -> None:
    # Eased, not stopped: garbage cycles an import leaves are found while it runs.
    class Node:
        def __init__(self) -> None:
            self.me = self

    gone = gc.get_stats()[0]["collected"]
    with collector_eased():
        for _ in range(EASED[0] * 2):
            Node()
    assert gc.get_stats()[0]["collected"] > gone
