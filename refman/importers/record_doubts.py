"""Venue lines inside an abstract that may start a record of their own, and which ones do.

After a record without a subject line, a venue line and a title followed by a subject line
(or the page's end) read two ways: the record's last paragraphs ("Accepted at ICML 2024",
"Oral presentation", then the subjects) or a record of only a title ("NeurIPS2023",
"Calibrated Abstention", "cs.CL"). A venue line right before a subject line reads as the
record's last paragraph or as a record of only a venue and subjects. The parser reads the page
once taking each such line as abstract, notes it (:class:`Doubt`), and :func:`choose` decides
with what the page says: its record count, the venues of its records, and whether the line
reads as a note ("Accepted at …").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from refman.importers.records import ParsedRecord

__all__ = ["Choice", "Doubt", "choose"]


@dataclass(frozen=True, slots=True)
class Doubt:
    """A venue line inside an abstract that may start a record.

    Attributes:
        index: Index of the venue line.
        venue: Its venue.
        titled: True when a title-like line follows it, False when a subject line does.
    """

    index: int
    venue: str
    titled: bool


@dataclass(frozen=True, slots=True)
class Choice:
    """Which venue lines start a record (``split``) and which get a warning (``doubtful``)."""

    split: frozenset[int] = frozenset()
    doubtful: frozenset[int] = frozenset()


#: A note of an abstract that reads as a venue line: "Accepted at ICML 2024", "To appear in".
_NOTE = re.compile(r"(?:\w+ed|to appear|appears?)\s+(?:at|in|to|by|for|on|with)\b", re.IGNORECASE)


def _rank(doubt: Doubt, venues: set[str]) -> int:
    """How likely ``doubt`` starts a record: 0 (most) to 3 (least).

    0: the venue of another record of the page; 1: a venue line and a title; 2: a note
    ("Accepted at ICML 2024") and a line; 3: a venue line before the subjects.
    """
    if doubt.venue.casefold() in venues:
        return 0
    if not doubt.titled:
        return 3
    return 2 if _NOTE.match(doubt.venue) else 1


def choose(doubts: list[Doubt], records: list[ParsedRecord], claimed: int | None) -> Choice:
    """Choose the venue lines that start a record.

    When the page's count matches the records found with none of them taken as a record, or
    with the most likely ones (see :func:`_rank`), that reading is certain. When the page
    already has as many records as it says, none is taken. Otherwise a venue line of the page's
    records and one before a title are taken (a paper lost is worse than a note split off), a
    note is not, and the choice is warned about.

    Args:
        doubts: The doubtful venue lines, in page order.
        records: The records found with every one of them read as abstract.
        claimed: The page's stated record count, or None.
    """
    venues = {record.venue.casefold() for record in records if record.venue}
    ranks = [_rank(doubt, venues) for doubt in doubts]

    def upto(rank: int) -> frozenset[int]:
        return frozenset(d.index for d, r in zip(doubts, ranks, strict=True) if r <= rank)

    found = len(records)
    if claimed is not None:
        for rank in range(-1, 4):
            if found + len(chosen := upto(rank)) == claimed:
                return Choice(split=chosen)
        if found >= claimed:
            return Choice(doubtful=upto(2))
    return Choice(split=upto(1), doubtful=upto(2))
