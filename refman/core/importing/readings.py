"""The reading status and stars an import's records bring (a bibliography's marks: JabRef's
``readstatus`` and ``ranking``), and what undoing or reverting the import does with them.

A paper takes them by :func:`~refman.core.reading_status.imported_reading`: a new paper as the
record says, a paper of the library only where the reader has set none. The import records on
its first batch (``created["readings"]``) each paper whose marks it set, as ``[paper id,
status, rating, status before, rating before]`` (a new paper's before: unread, no stars), so
that its undo puts them back and neither its undo nor its revert takes them for the reader's.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from refman.core.reading_status import (
    UNMARKED,
    Reading,
    imported_reading,
    put_readings,
    reading_words,
    readings,
)
from refman.importers.records import ParsedRecord

__all__ = [
    "Given",
    "ImportReadings",
    "changed_since",
    "give_again",
    "marks_given",
    "reading_adds",
]

#: Per paper an import marked: (what it gave, what the paper had before).
Given = dict[int, tuple[Reading, Reading]]


def reading_adds(had: Reading, record: ParsedRecord) -> list[str]:
    """What a record's marks would give a paper that has ``had``, in words ("the rating (3
    stars)")."""
    if record.status is None and record.rating is None:
        return []
    return reading_words(had, imported_reading(had, record.status, record.rating))


@dataclass
class ImportReadings:
    """The marks an import gives papers, record by record."""

    #: The library's papers records join, as they were (read before the records).
    found: dict[int, Reading] = field(default_factory=dict)
    #: Each paper's marks after the records so far, where a record gave some.
    now: dict[int, Reading] = field(default_factory=dict)

    def read(self, session: Session, paper_ids: Collection[int]) -> None:
        """Read the marks of the library's papers records join."""
        missing = [pid for pid in paper_ids if pid not in self.found]
        if missing:
            self.found.update(readings(session, missing))

    def take(self, session: Session, paper_id: int, record: ParsedRecord, *, new: bool) -> bool:
        """Give a paper (``new``: made by this import) a record's marks; True when that
        changed them."""
        if record.status is None and record.rating is None:
            return False
        if not new:
            self.read(session, [paper_id])
        had = self.now.get(paper_id) or self.found.get(paper_id, UNMARKED)
        after = imported_reading(had, record.status, record.rating)
        if after == had:
            return False
        self.now[paper_id] = after
        return True

    def changed(self) -> dict[int, Reading]:
        """The papers whose marks the records changed, and their marks now."""
        return {pid: r for pid, r in self.now.items() if r != self.found.get(pid, UNMARKED)}

    def write(self, session: Session, new_ids: Collection[int]) -> list[list[Any]]:
        """Write the marks (after the papers); what the import records of them."""
        changed = self.changed()
        made = {pid: r for pid, r in changed.items() if pid in new_ids}
        put_readings(session, made, versioned=False)
        put_readings(session, {p: r for p, r in changed.items() if p not in made}, versioned=True)
        return [[pid, *r, *self.found.get(pid, UNMARKED)] for pid, r in changed.items()]


def marks_given(created: Mapping[str, list[Any]]) -> Given:
    """The marks an import gave papers, by paper (see the module), from what it recorded
    (an import from before refman read marks gave none)."""
    given: Given = {}
    for pid, status, rating, status_before, rating_before in created.get("readings", []):
        given[int(pid)] = ((str(status), int(rating)), (str(status_before), int(rating_before)))
    return given


def changed_since(session: Session, given: Given) -> dict[int, Reading]:
    """The papers (still in the library) whose marks are no longer those the import gave
    them: marked or rated since, and their marks now."""
    found = readings(session, list(given))
    return {pid: now for pid, now in found.items() if now != given[pid][0]}


def give_again(session: Session, rows: list[list[Any]]) -> None:
    """Give papers back the marks an import gave them (``[paper id, status, rating]``: an
    undone revert's, the papers written again in the same change)."""
    marks = {int(pid): (str(status), int(rating)) for pid, status, rating in rows}
    put_readings(session, marks, versioned=False)
