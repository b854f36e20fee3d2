"""The navigation pane's contents: the sections' counts, the people and the tags.

Counting them scans the library (about two seconds at a million papers), so the answer is
kept as a snapshot in the library (:mod:`refman.store.snapshots`) and read back while the
library has not changed: the window of a library refman left as it is shows its counts at
once when it starts.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace

from sqlalchemy.orm import Session

from refman.core import queries
from refman.core.people import followed
from refman.core.reading import load_tags
from refman.core.saved_searches import saved_searches
from refman.core.values import (
    Navigation,
    PaperQuery,
    PersonView,
    SavedSearchView,
    Section,
    SectionCounts,
    TagView,
)
from refman.store import snapshots
from refman.store.database import Database

#: The snapshot's name; a new layout of the body takes a new name.
SNAPSHOT = "navigation-3"


def counted(session: Session, database: Database) -> Navigation:
    """The navigation pane's contents, counted now."""
    return Navigation(
        queries.section_counts(session, database.search),
        followed(session),
        load_tags(session),
        saved=saved_searches(session, database.search),
    )


def retagged(session: Session, database: Database, before: Navigation) -> Navigation:
    """The navigation pane's contents after a change to tags alone: the tags, the Untagged
    section and the saved searches counted again, the people and the other sections as
    ``before`` (at a million papers the people's counts take a second)."""
    untagged = queries.count(session, PaperQuery(section=Section.UNTAGGED), database.search)
    return Navigation(
        replace(before.counts, untagged=untagged),
        before.people,
        load_tags(session),
        saved=saved_searches(session, database.search),
    )


def read(
    session: Session, database: Database, tags_since: Navigation | None = None
) -> tuple[Navigation, tuple[int, str] | None]:
    """The navigation pane's contents: from the library's snapshot when it is current, else
    counted (only what tags change, given what the pane showed before a change to tags
    alone: ``tags_since``), with the snapshot to keep (its revision and body; None when it
    was current)."""
    revision, body = snapshots.current(database, session, SNAPSHOT)
    if body is not None:
        found = _decoded(body)
        if found is not None:
            return found, None
    if tags_since is not None:
        navigation = retagged(session, database, tags_since)
    else:
        navigation = counted(session, database)
    return navigation, (revision, _encoded(navigation))


def keep(database: Database, fresh: tuple[int, str] | None) -> None:
    """Keep a newly counted navigation as the library's snapshot (see :func:`read`)."""
    if fresh is not None:
        snapshots.keep(database, SNAPSHOT, *fresh)


def _encoded(navigation: Navigation) -> str:
    return json.dumps(
        {
            "counts": asdict(navigation.counts),
            "people": [[p.id, p.name, p.count, p.new, p.pages] for p in navigation.people],
            "tags": [[t.id, t.name, t.colour, t.count] for t in navigation.tags],
            "saved": [
                [v.id, v.name, v.text, list(v.tags), v.any_tags, v.count, list(v.gone)]
                for v in navigation.saved
            ],
        },
        ensure_ascii=False,
    )


def _decoded(body: str) -> Navigation | None:
    """The navigation a snapshot holds; None when it cannot be read (it is counted again)."""
    try:
        data = json.loads(body)
        return Navigation(
            SectionCounts(**data["counts"]),
            [PersonView(*person) for person in data["people"]],
            [TagView(id=i, name=n, colour=c, count=k) for i, n, c, k in data["tags"]],
            saved=[
                SavedSearchView(i, n, x, tuple(t), a, k, tuple(gone[0]) if gone else ())
                for i, n, x, t, a, k, *gone in data["saved"]  # (an older snapshot: none)
            ],
        )
    except (ValueError, KeyError, TypeError):
        return None
