"""Snapshots: derived data kept in the library itself, each valid at one revision.

Some answers cost a scan of the whole library — the navigation pane's counts of sections,
people and tags take about two seconds at a million papers — and yet rarely change between
two starts. A snapshot keeps such an answer in the library file with the revision it was
worked out at (:func:`refman.store.connection.revision`, moved on by every change). Stored in
the same file as the papers, it travels with the library, its backups and copies, and it can
never describe other papers than the ones beside it: a change moves the revision on and the
snapshot is stale from then on. It is only trusted when nothing but refman wrote to the file
since refman last left it (another program does not move the revision).

Keeping one is upkeep, not a change: it does not move the revision, it never waits for
another writer's lock (it is skipped instead), and it is skipped for a library that is
read-only, damaged or not yet known to be whole.
"""

from __future__ import annotations

import logging

from sqlalchemy import delete, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from refman.store.connection import revision
from refman.store.database import Database
from refman.store.models_upkeep import Snapshot

log = logging.getLogger("refman.store")


def current(database: Database, session: Session, name: str) -> tuple[int, str | None]:
    """The library's revision as ``session`` reads it, and the snapshot ``name`` made at
    that revision (None when there is none, it is stale, or the file was changed by another
    program since refman left it)."""
    now = revision(session)
    if not database.trusted_at_open:
        return now, None
    row = session.execute(
        select(Snapshot.revision, Snapshot.body).where(Snapshot.name == name)
    ).first()
    return now, (row[1] if row is not None and row[0] == now else None)


def keep(database: Database, name: str, made_at: int, body: str) -> bool:
    """Keep ``body`` as the snapshot ``name`` of revision ``made_at``, unless the library
    moved on since, or cannot take upkeep now (see the module's notes).

    Returns:
        True when the snapshot was written.
    """
    if database.read_only or database.damaged or (database.path is None and not database.shared):
        return False
    if not (database.verified or database.trusted_at_open):
        return False
    try:
        with database.sessions.begin() as session:
            session.connection(execution_options={"refman_upkeep": True})
            if revision(session) != made_at:
                return False
            session.execute(delete(Snapshot).where(Snapshot.name == name))
            session.add(Snapshot(name=name, revision=made_at, body=body))
    except DBAPIError as exc:  # busy, full disk: the answer is worked out again next time
        log.info("snapshot %s of %s not kept: %s", name, database.path, exc)
        return False
    return True
