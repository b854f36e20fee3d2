"""Fast paper lists for search as you type and tag filters on a large library.

The ordered id list of a section (in the list's sort order) is read once and kept; a search
or a tag filter then only asks SQLite for the *set* of matching ids (the FTS index or the
tag links answer that in a few milliseconds) and keeps the cached order. A cached list is
dropped as soon as the library changes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from sqlalchemy.orm import Session

from refman.core import queries
from refman.core.values import PaperQuery, SortKey
from refman.store import fts
from refman.store.bulk import first_column

_KEEP = 4


class OrderedIds:
    """A small cache of ordered id lists, keyed by everything but the text and tags."""

    def __init__(self) -> None:
        self._lists: OrderedDict[tuple[object, ...], list[int]] = OrderedDict()
        self._generation = -1
        self._lock = threading.Lock()

    def ids(self, session: Session, query: PaperQuery, generation: int) -> list[int]:
        """The ids a query shows, in order.

        A search sorted by relevance needs bm25 and goes straight to SQL; everything else is
        answered from the cached order of its section.
        """
        if query.text.strip() and query.sort is SortKey.RELEVANCE:
            return queries.paper_ids(session, query)
        base = self._base(session, query, generation)
        allowed: set[int] | None = None
        for name in dict.fromkeys(" ".join(t.split()).casefold() for t in query.tags):
            tagged = set(
                first_column(
                    session,
                    "SELECT pt.paper_id FROM paper_tags pt JOIN tags t ON t.id = pt.tag_id "
                    "WHERE t.key = ?",
                    [name],
                )
            )
            allowed = tagged if allowed is None else allowed & tagged
        if query.text.strip():
            expression = fts.match_expression(query.text)
            matched: set[int] = (
                set(
                    first_column(
                        session,
                        "SELECT rowid FROM papers_fts WHERE papers_fts MATCH ?",
                        [expression],
                    )
                )
                if expression
                else set()
            )
            allowed = matched if allowed is None else allowed & matched
        if allowed is None:
            return list(base)
        return [i for i in base if i in allowed]

    def _base(self, session: Session, query: PaperQuery, generation: int) -> list[int]:
        sort, descending = query.sort, query.descending
        if sort is SortKey.RELEVANCE:  # no search text: relevance means newest first
            sort, descending = SortKey.ADDED, not descending
        key = (query.section, query.person_id, sort, descending)
        with self._lock:
            if generation != self._generation:
                self._lists.clear()
                self._generation = generation
            if key in self._lists:
                self._lists.move_to_end(key)
                return self._lists[key]
        base_query = PaperQuery(
            section=query.section, person_id=query.person_id, sort=sort, descending=descending
        )
        ids = queries.paper_ids(session, base_query)
        with self._lock:
            if generation == self._generation:
                self._lists[key] = ids
                while len(self._lists) > _KEEP:
                    self._lists.popitem(last=False)
        return ids
