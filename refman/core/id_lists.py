"""Fast paper lists for search as you type and tag filters on a large library.

The ordered id list of a section (in the list's sort order) is read once and kept; a search
or a tag filter then only asks the database for the *sets* of matching ids (the search index
or the tag links answer that in a few milliseconds, through the same pieces that
:func:`refman.core.queries.conditions` filters with) and keeps the cached order. A cached list
is dropped as soon as the library changes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from sqlalchemy import select
from sqlalchemy.orm import Session

from refman.core import queries
from refman.core.search_syntax import with_syntax
from refman.core.values import PaperQuery, SortKey
from refman.store.bulk import first_column
from refman.store.models import Paper
from refman.store.search import SearchIndex

_KEEP = 4


class OrderedIds:
    """A small cache of ordered id lists, keyed by everything but the text and tags."""

    def __init__(self, search: SearchIndex) -> None:
        self._search = search
        self._lists: OrderedDict[tuple[object, ...], list[int]] = OrderedDict()
        self._generation = -1
        self._lock = threading.Lock()

    def ids(self, session: Session, query: PaperQuery, generation: int) -> list[int]:
        """The ids a query shows, in order.

        A search sorted by relevance needs the rank and goes straight to SQL; everything else
        is answered from the cached order of its section.
        """
        query = with_syntax(query)
        if (query.text.strip() and query.sort is SortKey.RELEVANCE) or query.filters:
            return queries.paper_ids(session, query, self._search)
        base = self._base(session, query, generation)
        sets = queries.member_sets(session, query, self._search)
        if sets is None:
            return []
        if not sets:
            return list(base)
        listed = select(Paper.id).where(*(Paper.id.in_(ids) for ids in sets))
        allowed = set(first_column(session, listed))
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
        ids = queries.paper_ids(session, base_query, self._search)
        with self._lock:
            if generation == self._generation:
                self._lists[key] = ids
                while len(self._lists) > _KEEP:
                    self._lists.popitem(last=False)
        return ids
