"""A reader's marks in a BibTeX file: how far they read a paper and how they rated it.

JabRef keeps them in fields of their own ("special fields"): ``readstatus = {read}`` or
``{skimmed}`` and ``ranking = {rank1}`` to ``{rank5}``. refman reads them as a reading status
("read"; "skimmed" is "reading") and 1 to 5 stars, and its BibTeX and BibLaTeX exports write
them the same way, which JabRef reads back. Zotero (Better BibTeX) and Mendeley write neither:
Mendeley's export has no field for what was read or starred.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["RANKING_FIELD", "READ_STATUS", "READ_STATUS_FIELD", "marks_fields", "read_marks"]

#: The fields JabRef writes them in.
READ_STATUS_FIELD = "readstatus"
RANKING_FIELD = "ranking"
#: JabRef's read status -> refman's reading status.
READ_STATUS = {"read": "read", "skimmed": "reading"}
_WRITTEN = {status: value for value, status in READ_STATUS.items()}
_RANK = re.compile(r"^rank([1-5])$")


def read_marks(fields: Mapping[str, str]) -> tuple[str | None, int | None, list[str]]:
    """The reading status and stars an entry's fields give (None: it gives none), and what
    it gives that reads as neither, in words ("the read status “maybe”").

    Args:
        fields: The entry's resolved values by lower-case field name.
    """
    status = rating = None
    unread: list[str] = []
    given = fields.get(READ_STATUS_FIELD, "").strip().strip("{}").strip()
    if given:
        status = READ_STATUS.get(given.casefold())
        if status is None:
            unread.append(f"the read status “{given}”")
    ranked = fields.get(RANKING_FIELD, "").strip().strip("{}").strip()
    if ranked:
        found = _RANK.match(ranked.casefold())
        rating = int(found.group(1)) if found else None
        if found is None:
            unread.append(f"the ranking “{ranked}”")
    return status, rating, unread


def marks_fields(status: str, rating: int) -> list[tuple[str, str]]:
    """The fields that say a paper's reading status and stars, as JabRef writes them
    (nothing for an unread paper without stars)."""
    fields = [(READ_STATUS_FIELD, _WRITTEN[status])] if status in _WRITTEN else []
    return fields + ([(RANKING_FIELD, f"rank{rating}")] if 1 <= rating <= 5 else [])
