"""A long list's work split over two processes: the machine's other core computes half.

Python runs one thread at a time, so work that is Python through and through (working out
the match keys of 50,000 records: normalised titles and abstracts, their word pairs and
hashes) uses one core however many threads ask. :func:`split_map` forks a copy of this
process that computes the second half of the list while this process computes the first;
the copy sends its results back pickled through a pipe.

The copy only computes: it touches no database, no file and no Qt object, its collector is
off (no finalizer of this process's objects runs there) and it leaves with ``os._exit`` (no
exit handlers, no flushing of this process's buffers). Whatever goes wrong with it — no
fork on this system, an error, a crash, a kill, an unreadable answer — this process computes
the second half itself: the answer is always the one computing everything here gives.
Only Linux forks here (macOS's system libraries refuse a forked copy of a threaded program,
and Windows cannot fork), and only when a core is free: a thread that keeps one busy outside
Python (the backup SQLite copies before a large import) says so with :func:`core_taken`.
"""

from __future__ import annotations

import gc
import logging
import os
import pickle
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import NoReturn, TypeVar

T = TypeVar("T")
R = TypeVar("R")

log = logging.getLogger("refman.parallel")

#: Shorter lists are computed here alone (a fork, the pickling and the pipe cost more than
#: half the work saves).
MIN_ITEMS = 5_000
#: The share of the list this process keeps (the copy also pickles its results, and this
#: process reads them: about even).
KEPT = 0.5


_lock = threading.Lock()
_taken = 0


def can_fork() -> bool:
    """True where :func:`split_map` may use a forked copy of this process."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@contextmanager
def core_taken() -> Iterator[None]:
    """Say that this thread keeps a core busy outside Python's lock while the block runs (the
    backup before a large import, copied by SQLite): :func:`split_map` forks no helper then
    unless yet another core is free (at a million papers a helper beside the backup's copy
    made the import slower, not faster)."""
    global _taken
    with _lock:
        _taken += 1
    try:
        yield
    finally:
        with _lock:
            _taken -= 1


def spare_core() -> bool:
    """True when a core is free for a helper: this process's own thread has one, threads
    that said so (:func:`core_taken`) have theirs."""
    with _lock:
        return cores() - 1 - _taken >= 1


def split_map(func: Callable[[T], R], items: Sequence[T], *, min_items: int = MIN_ITEMS) -> list[R]:
    """``[func(item) for item in items]``, the tail of the list computed by a forked copy of
    this process on another core when the list is long enough.

    ``func`` must be pure computation (see the module): its results must pickle, and it must
    not write anything this process would need to see.
    """
    if len(items) < max(min_items, 2) or not can_fork() or not spare_core():
        return [func(item) for item in items]
    kept = max(1, int(len(items) * KEPT))
    read_fd, write_fd = os.pipe()
    enabled = gc.isenabled()
    gc.disable()  # off in the copy from its first instruction
    try:
        with warnings.catch_warnings():  # (Python 3.12 warns of any fork beside threads)
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError as exc:
        pid = -1
        log.info("could not fork a helper (%s); computing alone", exc)
    if pid == 0:
        _child(func, items[kept:], read_fd, write_fd)
    if enabled:
        gc.enable()
    if pid < 0:
        os.close(read_fd)
        os.close(write_fd)
        return [func(item) for item in items]
    os.close(write_fd)
    try:
        first = [func(item) for item in items[:kept]]
    except BaseException:
        os.close(read_fd)
        _stop(pid)
        raise
    rest: list[R] | None = _receive(read_fd, pid, len(items) - kept)
    if rest is None:
        rest = [func(item) for item in items[kept:]]
    return [*first, *rest]


def _child(func: Callable[[T], R], items: Sequence[T], read_fd: int, write_fd: int) -> NoReturn:
    """The forked copy: compute, send, leave (never returns, never raises)."""
    status = 1
    try:
        os.close(read_fd)
        with suppress(ValueError, OSError):
            signal.set_wakeup_fd(-1)  # a signal here must not wake the other process's loop
        data = pickle.dumps([func(item) for item in items], protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write_fd, "wb") as pipe:
            pipe.write(data)
        status = 0
    except BaseException:  # the parent computes this half itself
        status = 1
    finally:
        os._exit(status)


def _receive(read_fd: int, pid: int, expected: int) -> list[R] | None:
    """The copy's results, or None when it failed (it is reaped either way)."""
    with os.fdopen(read_fd, "rb") as pipe:
        data = pipe.read()
    status = _reap(pid)
    if status != 0 or not data:
        code = os.waitstatus_to_exitcode(status)
        log.warning("the helper process failed (exit %d); computing its half here", code)
        return None
    try:
        found = pickle.loads(data)
    except Exception:
        found = None
    if not isinstance(found, list) or len(found) != expected:
        log.warning("the helper process's answer was unreadable; computing its half here")
        return None
    return found


def _stop(pid: int) -> None:
    """End and reap the copy (this process failed: its half is not wanted)."""
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    _reap(pid)


def _reap(pid: int) -> int:
    """Wait for the copy to end; its wait status (0 when something else reaped it first, as
    a toolkit's child handler may: its answer is then judged by itself)."""
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return 0
