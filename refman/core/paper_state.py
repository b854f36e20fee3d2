"""A paper's whole state in memory: what an import reads, merges into and writes back, and
what an undo of an import puts back (as JSON)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from operator import attrgetter
from typing import Any

from refman.common.text import folded_key

#: The bibliographic fields a paper holds as plain text (None when unknown).
BIB_FIELDS = ("doi", "arxiv_id", "url", "volume", "issue", "pages", "publisher")
_TIMES = ("added_at", "modified_at", "trashed_at")
_SETS = ("user_edited",)


@dataclass(slots=True)
class PaperState:
    """Everything an import may read or change about one paper.

    Authors and attributions are held as person keys; :attr:`names` maps each key to the
    display name to use when the person is new.
    """

    id: int
    title: str
    title_provisional: bool
    abstract: str
    year: int | None
    venue: str | None
    authors: list[str]
    authors_complete: bool
    attributions: list[str]
    subjects: list[str]
    tags: list[str]
    user_edited: set[str]
    possible_duplicate_of: int | None = None
    added_at: datetime | None = None
    modified_at: datetime | None = None
    trashed_at: datetime | None = None
    names: dict[str, str] = field(default_factory=dict)
    type: str = "article"
    citekey: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    url: str | None = None
    volume: str | None = None
    issue: str | None = None
    pages: str | None = None
    publisher: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: Its other citation keys (:mod:`refman.core.citekey_aliases`).
    aliases: list[str] = field(default_factory=list)
    #: The version of the paper's row this state was read at (None: not read from the
    #: library, as a snapshot put back by an undo). Not part of a snapshot.
    version: int | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready snapshot (for undoing an import exactly)."""
        data: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "version":
                continue
            value = getattr(self, f.name)
            if f.name in _TIMES:
                value = value.isoformat() if value else None
            elif f.name in _SETS:
                value = sorted(value)
            elif isinstance(value, list | dict):
                value = type(value)(value)
            data[f.name] = value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PaperState:
        """Rebuild a snapshot made by :meth:`to_json` (by any earlier version of refman: a
        field it did not know yet takes its default)."""
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data or f.name == "version":
                continue
            value = data[f.name]
            if f.name in _TIMES:
                value = datetime.fromisoformat(value) if value else None
            elif f.name in _SETS:
                value = set(value)
            elif isinstance(value, list | dict):
                value = type(value)(value)
            values[f.name] = value
        return _keys_folded(cls(**values))

    def copy(self) -> PaperState:
        """An independent copy (of the same version): its lists, sets and dicts are new, as
        a snapshot's are (:meth:`to_json` then :meth:`from_json`, at a twentieth of the
        cost)."""
        values = dict(zip(_NAMES, _every(self), strict=True))
        for name in _CONTAINERS:
            value = values[name]
            values[name] = type(value)(value)
        return PaperState(**values)

    def same_as(self, other: PaperState) -> bool:
        """True when the two states hold the same paper alike (their snapshots are equal;
        the version read is not compared)."""
        return bool(_compared(self) == _compared(other))


def _keys_folded(state: PaperState) -> PaperState:
    """A snapshot's person keys as :func:`~refman.common.text.person_key` makes them now: a
    refman before schema revision 0019 kept ø, ł... in keys, before 0034 apostrophes and
    hyphens, which the upgrades folded (:func:`~refman.common.text.folded_key`)."""
    state.authors = [folded_key(k) for k in state.authors]
    state.attributions = [folded_key(k) for k in state.attributions]
    state.names = {folded_key(k): name for k, name in state.names.items()}
    return state


#: The fields of a state, in order; those holding lists, sets and dicts.
_NAMES = tuple(f.name for f in fields(PaperState))
_CONTAINERS = tuple(
    f.name for f in fields(PaperState) if str(f.type).startswith(("list[", "set[", "dict["))
)
_every = attrgetter(*_NAMES)
_compared = attrgetter(*(n for n in _NAMES if n != "version"))
