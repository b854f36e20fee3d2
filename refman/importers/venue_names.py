"""Where a reference's journal starts and ends, when commas are all that set it apart: a
journal whose name lists fields ("Estuarine, Coastal and Shelf Science"), and Harvard's
title written without its quotes ("Title of the paper, Journal of Things, 12(3), pp. 4–9"),
for :mod:`~refman.importers.references`.
"""

from __future__ import annotations

import re

__all__ = ["LISTED_VENUE", "venue_after_comma"]

#: A venue whose name lists fields ("Estuarine, Coastal and Shelf Science", "Water, Air, and
#: Soil Pollution"): its commas end it not.
LISTED_VENUE = re.compile(
    r"[A-Z][\w-]*(?:, [A-Z][\w-]*)+,? (?:and|&) [A-Z][\w-]*(?: [A-Z][\w-]*)*"
    r"(?=\s*(?:[,;(]|\d|$))"
)
#: A journal's numbers after a comma: its volume (", 12(3)", ", 421,", ", 421: 1–9"; a
#: year is none), ", vol. 3", ", no. 2", ", pp. 4–9".
_NUMBERS = re.compile(
    r",\s*(?:(?:vol|no|pp?)\.\s*\d|(?!(?:1[89]|20)\d\d\b)\d{1,4}\s*(?:\(\w{1,6}\)|[,:]|$))"
)
#: A journal's name before its numbers: after the title's last comma, capitalised.
_JOURNAL = re.compile(r",\s+(?P<journal>[A-Z][^,]*)$")


def venue_after_comma(title: str, rest: str) -> tuple[str, str]:
    """The title a reference's first sentence holds, and what follows it, when the sentence
    runs on into the journal and its numbers (Harvard without quotes: "Title of the paper,
    Journal of Things, 12(3), pp. 4–9"): the title ends at the comma before the journal's
    name. Any other ``title`` and ``rest`` are returned as they are.

    Args:
        title: The first sentence after the year.
        rest: What follows it.

    Returns:
        The title and the rest, the journal and its numbers at the rest's start.
    """
    numbers = _NUMBERS.search(title)
    if numbers is None:
        return title, rest
    head = title[: numbers.start()]
    listed = [m for m in LISTED_VENUE.finditer(head) if m.end() == len(head) and m.start() > 2]
    start = listed[0].start() if listed else None
    if start is None or head[start - 2 : start] != ", ":
        journal = _JOURNAL.search(head)
        if journal is None:
            return title, rest
        start = journal.start("journal")
    cut = head[: start - 2].rstrip()
    if not cut:
        return title, rest
    after = title[start:]
    return cut, f"{after}. {rest}" if rest else after
