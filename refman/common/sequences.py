"""Long sequences of ids handled so that the window stays responsive.

One C-level call over a million ids (``dict.fromkeys``, ``sorted``) holds Python's global
lock for a tenth of a second or more on this kind of machine, and the window's thread cannot
paint meanwhile. The same work done a slice at a time lets the threads take turns.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T", bound=Hashable)

#: How many items one C-level call handles at most.
SLICE = 20_000


def unique(items: Iterable[T]) -> tuple[T, ...]:
    """The items in their order, each once (a slice at a time for long sequences)."""
    if not isinstance(items, Sequence):
        items = list(items)
    seen: dict[T, None] = {}
    for start in range(0, len(items), SLICE):
        seen.update(dict.fromkeys(items[start : start + SLICE]))
    return tuple(seen)


def as_set(items: Iterable[T]) -> set[T]:
    """The items as a set, built a slice at a time for long sequences."""
    if not isinstance(items, Sequence):
        items = list(items)
    out: set[T] = set()
    for start in range(0, len(items), SLICE):
        out.update(items[start : start + SLICE])
    return out
