"""Python's cycle collector eased while a large change runs.

An import or its undo makes millions of small objects that live until it ends (records,
keys, rows); the collector, triggered every 700 allocations and walking the older
generations every ten and hundred of its runs, walked them again and again (about a tenth of
an import's time, more as the heap grows). While a large change runs it looks at the young
objects only every :data:`EASED` allocations (the cycles they leave are still found early:
turned off instead, it let an import of 50,000 records end 48 MB larger, and the first
collection after it walk everything at once). The easing counts: threads may ease it
together, and the usual thresholds come back when the last one ends.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: The collector's thresholds during a large change (young objects; runs between walks of
#: the middle and of the oldest generation).
EASED = (100_000, 50, 100)

_lock = threading.Lock()
_easing = 0
_usual: tuple[int, int, int] = gc.get_threshold()


@contextmanager
def collector_eased() -> Iterator[None]:
    """Run the collector less often for the duration of the block (nesting, any thread)."""
    global _easing, _usual
    with _lock:
        if _easing == 0:
            _usual = gc.get_threshold()
            gc.set_threshold(*EASED)
        _easing += 1
    try:
        yield
    finally:
        with _lock:
            _easing -= 1
            if _easing == 0:
                gc.set_threshold(*_usual)
