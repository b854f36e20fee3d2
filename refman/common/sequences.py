"""Long sequences of ids handled so that the window stays responsive.

One C-level call over a million ids (``dict.fromkeys``, ``sorted``) holds Python's global
lock for a tenth of a second or more on this kind of machine, and the window's thread cannot
paint meanwhile. The same work done a slice at a time lets the threads take turns.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from itertools import chain
from typing import Any, TypeVar

T = TypeVar("T", bound=Hashable)
R = TypeVar("R")

#: How many items one C-level call handles at most.
SLICE = 20_000

#: From how many ids on :func:`ids_of` keeps them in parts (:class:`PartedIds`).
PARTED_FROM = 50_000

#: How many parts a :class:`PartedIds` keeps (a power of two: a part is picked by low bits).
PARTS = 64


class Distinct(tuple[T, ...]):
    """Items known to be each once: what :func:`unique` returns, and hands back as it is.

    A change to a million papers passes its ids from the operation to the checks and the
    statements; each pass over them holds up the window a little, so they are made
    distinct once, and what is worked out from them (the JSON text a statement binds) is
    kept with them (:meth:`derived`).
    """

    def derived(self, key: str, make: Callable[[Distinct[T]], R]) -> R:
        """``make(self)``, worked out the first time ``key`` is asked for and kept."""
        kept: dict[str, Any] = self.__dict__
        if key not in kept:
            kept[key] = make(self)
        found: R = kept[key]
        return found


def unique(items: Iterable[T]) -> Distinct[T]:
    """The items in their order, each once (a slice at a time for long sequences)."""
    if isinstance(items, Distinct):
        return items
    if not isinstance(items, Sequence):
        items = list(items)
    seen: dict[T, None] = {}
    for start in range(0, len(items), SLICE):
        seen.update(dict.fromkeys(items[start : start + SLICE]))
    return Distinct(seen)


def frozen(items: Sequence[T]) -> tuple[T, ...]:
    """The items as a tuple: the same one when they are a tuple already (what the list
    knows to be :class:`Distinct` stays so)."""
    return items if isinstance(items, tuple) else tuple(items)


def as_set(items: Iterable[T]) -> set[T]:
    """The items as a set, built a slice at a time for long sequences."""
    if not isinstance(items, Sequence):
        items = list(items)
    out: set[T] = set()
    for start in range(0, len(items), SLICE):
        out.update(items[start : start + SLICE])
    return out


class PartedIds(AbstractSet[int]):
    """A set of many ids kept as :data:`PARTS` smaller tables, each picked by the id's low bits.

    One set of a million ids grows its table in one step that holds Python's lock for up to
    a tenth of a second (the window's thread stands still meanwhile); the parts grow a
    sixty-fourth as much at a time. The parts are dicts of ids: Python's garbage collector
    leaves a dict of numbers alone, where it walks every entry of a young set (70 ms for a
    million ids in the window's process). Tests, iteration and length are a set's.
    """

    __slots__ = ("_length", "_parts")

    def __init__(self, groups: Iterable[Iterable[int]] = ()) -> None:
        parts: tuple[dict[int, None], ...] = tuple({} for _ in range(PARTS))
        for ids in groups:
            for i in ids:
                parts[i & (PARTS - 1)][i] = None
        self._parts = parts
        self._length = sum(len(part) for part in parts)

    @classmethod
    def _from_iterable(cls, items: Iterable[Any]) -> AbstractSet[Any]:
        """What a union, intersection or difference gives: parted again when many ids."""
        listed = list(items)
        if len(listed) >= PARTED_FROM and all(isinstance(i, int) for i in listed):
            return cls((listed,))
        return frozenset(listed)

    def __contains__(self, item: object) -> bool:
        return isinstance(item, int) and item in self._parts[item & (PARTS - 1)]

    def __iter__(self) -> Iterator[int]:
        return chain.from_iterable(self._parts)

    def __len__(self) -> int:
        return self._length

    def __hash__(self) -> int:
        return self._hash()

    def __repr__(self) -> str:
        return f"PartedIds(<{self._length} ids>)"


def ids_of(*groups: Iterable[int]) -> AbstractSet[int]:
    """The ids of all the groups as one set: a frozenset of a few, :class:`PartedIds` of
    many (from :data:`PARTED_FROM`)."""
    sized = [g if isinstance(g, Sequence | AbstractSet) else list(g) for g in groups]
    if sum(len(g) for g in sized) < PARTED_FROM:
        return frozenset(chain.from_iterable(sized))
    return PartedIds(sized)
