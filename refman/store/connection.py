"""Connections to a library file: SQLite's settings, and how a change takes the write lock."""

from __future__ import annotations

import sqlite3
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from refman.store.failures import sqlite_error
from refman.store.search_terms import register_functions

#: How long a statement waits for a lock before refman says it is waiting.
BUSY_TIMEOUT_MS = 1000
#: How long a change then goes on waiting for another writer to finish.
LONG_WAIT_MS = 60_000
#: Where a change's connection keeps the revision the library had when it took the lock.
_AT_LOCK = "refman_revision_at_lock"


def _on_connect(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
    # Let SQLAlchemy, not the sqlite3 module, decide where transactions begin.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = NORMAL")
    # 16 MiB of pages per connection (the window holds three or four connections; the
    # operating system caches the file besides): enough for the list's indexes.
    cursor.execute("PRAGMA cache_size = -16384")
    cursor.close()
    register_functions(dbapi_connection)


def _on_read_only_connect(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
    # A library that can only be read: no journal mode change (that is a write).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA cache_size = -16384")
    cursor.close()
    register_functions(dbapi_connection)


def _on_begin(conn: Any) -> None:
    # A write transaction takes the write lock at once, so that it waits (busy timeout) for
    # another writer instead of failing when it upgrades from reading to writing. When the
    # lock is not free within a second, the person is told, and the wait goes on for up to
    # a minute.
    options = conn.get_execution_options()
    if options.get("refman_upkeep", False):
        _begin_upkeep(conn)
        return
    if not options.get("refman_write", False):
        conn.exec_driver_sql("BEGIN")
        return
    try:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    except OperationalError as exc:
        error = sqlite_error(exc)
        if getattr(error, "sqlite_errorname", "") != "SQLITE_BUSY":
            raise
        waiting = options.get("refman_waiting")
        if waiting is not None:
            waiting()
        _begin_immediate(conn, LONG_WAIT_MS)
    # Every change moves the library's revision on (SQLite's user version, in the file's
    # header): work prepared before the lock is checked against it (see ``revision``).
    version = conn.exec_driver_sql("PRAGMA user_version").scalar() or 0
    conn.info[_AT_LOCK] = version
    conn.exec_driver_sql(f"PRAGMA user_version = {(version + 1) % (1 << 31)}")


def _begin_upkeep(conn: Any) -> None:
    # Upkeep (a snapshot of derived data) writes only when the lock is free at once, and
    # does not move the revision: the library's papers do not change.
    _begin_immediate(conn, 0)


def _begin_immediate(conn: Any, wait_ms: int) -> None:
    """Take the write lock, waiting for it up to ``wait_ms`` (then the usual wait again)."""
    raw = conn.connection.driver_connection
    raw.execute(f"PRAGMA busy_timeout = {wait_ms}")
    try:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    finally:
        raw.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


def revision(session: Session) -> int:
    """The library's revision: it moves on with every committed change (of any process).
    Work prepared in a read (an import's plan) is still valid when the revision is the same
    once the write lock is held."""
    return int(session.connection().exec_driver_sql("PRAGMA user_version").scalar() or 0)


def revision_at_lock(session: Session) -> int | None:
    """The revision the library had when this session's change took the write lock (before
    the change moved it on): work prepared at that revision is still valid. None outside a
    change."""
    found = session.connection().info.get(_AT_LOCK)
    return None if found is None else int(found)


def make_engine(url: str, *, read_only: bool = False) -> Engine:
    engine = create_engine(url, connect_args={"check_same_thread": False})
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _on_read_only_connect if read_only else _on_connect)
        event.listen(engine, "begin", _on_begin)
    return engine
