"""Python's cycle collector held back while a large change runs.

An import or its undo makes millions of small objects that live until it ends (records,
keys, rows); the collector, triggered by their number, walks them again and again (about a
tenth of an import's time, more as the heap grows). Held back, it resumes at the end. The
pause counts: threads may pause it together, and it resumes when the last one ends (unless
it was off before the first).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_pausing = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold the cycle collector back for the duration of the block (nesting, any thread)."""
    global _pausing, _was_enabled
    with _lock:
        if _pausing == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pausing += 1
    try:
        yield
    finally:
        with _lock:
            _pausing -= 1
            if _pausing == 0 and _was_enabled:
                # (Not frozen and unfrozen to spare the first collection after the walk of
                # everything made meanwhile: another thread may be inside a collection,
                # running a finalizer without Python's lock, and the collector's lists
                # moved under it crashed the window's tests.)
                gc.enable()
