"""Where a merged paper went: its exact keys, kept for the paper it was merged into
(``merged_keys``), so that an import finds that paper by them — also once the merged paper
is deleted for good — and never the merged paper itself (:mod:`refman.core.paper_merge`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import ColumnElement, Select, delete, insert, select, update
from sqlalchemy.orm import Session

from refman.core.matching import MatchKeys
from refman.store.bulk import chunks
from refman.store.models import Paper
from refman.store.models_upkeep import MergedKey, out_of_library

#: A merged paper's key as stored: (kind, hashed key, its text, the paper it went into).
KeyRow = tuple[str, int, str, int]
#: The kind of the row that keeps a merged paper's authors (their person keys, one a line),
#: when its list was complete: an import compares a record's authors with them too.
AUTHORS = "authors"


def keys_of_merged(session: Session, merged_id: int) -> tuple[KeyRow, ...]:
    """The keys stored for a merged paper (empty when it was never merged)."""
    rows = session.execute(
        select(MergedKey.kind, MergedKey.key, MergedKey.value, MergedKey.paper_id).where(
            MergedKey.merged_id == merged_id
        )
    )
    return tuple((str(k), int(h), str(v), int(p)) for k, h, v, p in rows)


def put_keys(session: Session, merged_id: int, rows: Iterable[KeyRow]) -> None:
    """Make these the keys of a merged paper (none: it is merged no more)."""
    session.execute(delete(MergedKey).where(MergedKey.merged_id == merged_id))
    values = [
        {"merged_id": merged_id, "kind": k, "key": h, "value": v, "paper_id": p}
        for k, h, v, p in rows
    ]
    if values:
        session.execute(insert(MergedKey), values)


def remember_merge(
    session: Session, merged_id: int, into: int, keys: MatchKeys, authors: Sequence[str] | None
) -> None:
    """Keep a merged paper's exact keys for the paper it went into, and its authors (person
    keys) when its list is complete (None: not known complete)."""
    rows = [(kind, key, keys.value(kind) or "", into) for kind, key in keys.exact]
    if authors:
        rows.append((AUTHORS, 0, "\n".join(authors), into))
    put_keys(session, merged_id, rows)


def hand_over(
    session: Session, source: int, into: int, merged: Iterable[int] | None = None
) -> tuple[int, ...]:
    """The papers merged into ``source`` (or just ``merged``) are merged into ``into`` from
    now on; returns which."""
    wanted = select(MergedKey.merged_id).where(MergedKey.paper_id == source)
    ids = sorted(set(session.scalars(wanted)) if merged is None else set(merged))
    for part in chunks(ids):
        session.execute(
            update(MergedKey).where(MergedKey.merged_id.in_(part)).values(paper_id=into)
        )
    return tuple(ids)


def still_merged() -> ColumnElement[bool]:
    """Whether a row of ``merged_keys`` holds: its merged paper is in the Trash or deleted
    for good. A merged paper restored from the Trash is a paper of its own again: found by
    its own keys, and the kept paper no longer by them."""
    back = select(Paper.id).where(
        Paper.id == MergedKey.merged_id, Paper.id.not_in(out_of_library())
    )
    return ~back.exists()


def merged_ids() -> Select[Any]:
    """The ids of the papers merged into others, and not back (never found by an import)."""
    return select(MergedKey.merged_id).where(still_merged())


def merged_authors(session: Session, paper_ids: list[int]) -> dict[int, list[tuple[str, ...]]]:
    """The authors (person keys) of the papers merged into each of these papers (and not
    back) whose author lists were complete, for the papers others were merged into."""
    found: dict[int, list[tuple[str, ...]]] = {}
    if session.scalar(select(MergedKey.key).limit(1)) is None:
        return found  # (no merges at all: most libraries)
    for part in chunks(sorted(set(paper_ids))):
        rows = session.execute(
            select(MergedKey.paper_id, MergedKey.value).where(
                MergedKey.paper_id.in_(part), MergedKey.kind == AUTHORS, still_merged()
            )
        )
        for paper_id, value in rows:
            found.setdefault(paper_id, []).append(tuple(value.split("\n")))
    return found


def merged_into(session: Session, paper_ids: list[int]) -> set[int]:
    """Which of these papers others were merged into."""
    found: set[int] = set()
    for part in chunks(sorted(set(paper_ids))):
        found.update(
            session.scalars(select(MergedKey.paper_id).where(MergedKey.paper_id.in_(part)))
        )
    return found


def where_merged(session: Session, paper_ids: list[int]) -> dict[int, int]:
    """The paper each of these papers was merged into (those merged only)."""
    found: dict[int, int] = {}
    for part in chunks(sorted(set(paper_ids))):
        rows = session.execute(
            select(MergedKey.merged_id, MergedKey.paper_id).where(MergedKey.merged_id.in_(part))
        )
        found.update((int(m), int(p)) for m, p in rows)
    return found
