"""Connections to a library: SQLite's settings and how a change takes the write lock on a
library file; the revision of a library, on a file or on a database server."""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from refman.common.words import first_sentence
from refman.store.backend import on_server
from refman.store.changes import CHANNEL
from refman.store.failures import sqlite_error
from refman.store.search_terms import register_functions
from refman.store.shared import connect as connect_shared
from refman.store.shared import password_for

log = logging.getLogger("refman.store")

#: How long a statement waits for a lock before refman says it is waiting.
BUSY_TIMEOUT_MS = 1000
#: How long a change then goes on waiting for another writer to finish.
LONG_WAIT_MS = 60_000
#: The pages a connection keeps (KiB, negative as SQLite takes it), and a large change's.
CACHE_SIZE = -16384
LARGE_CACHE_SIZE = -262144
_LARGE = "refman_large_change"
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
    cursor.execute(f"PRAGMA cache_size = {CACHE_SIZE}")
    # Checkpoints run in the background, never inside a commit; a log grown by a large
    # change shrinks back to 64 MiB when it starts over (see refman.store.checkpoints).
    cursor.execute("PRAGMA wal_autocheckpoint = 0")
    cursor.execute("PRAGMA journal_size_limit = 67108864")
    cursor.close()
    register_functions(dbapi_connection)


def _large(conn: Any) -> None:
    # A large change (an import, an undo: a hundred thousand papers' rows and index entries
    # spread over a large file) gets room for its pages, and keeps its statement journals
    # (the pages a statement changed, kept until it ends) in memory: on disk they were
    # written page by page, a sixth of an import's time. Set before the transaction begins
    # (SQLite refuses the second inside one); both go back to the usual when the connection
    # is handed back to the pool.
    conn.exec_driver_sql(f"PRAGMA cache_size = {LARGE_CACHE_SIZE}")
    conn.exec_driver_sql("PRAGMA temp_store = MEMORY")
    conn.connection.info[_LARGE] = True


def _on_checkin(dbapi_connection: sqlite3.Connection | None, record: Any) -> None:
    # (None: the connection was given up on, as after Ctrl+C in the middle of a statement)
    if record.info.pop(_LARGE, False) and dbapi_connection is not None:
        dbapi_connection.execute(f"PRAGMA cache_size = {CACHE_SIZE}")
        dbapi_connection.execute("PRAGMA temp_store = DEFAULT")


def _on_read_only_connect(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
    # A library that can only be read: no journal mode change (that is a write).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute(f"PRAGMA cache_size = {CACHE_SIZE}")
    cursor.close()
    register_functions(dbapi_connection)


def _on_begin(conn: Any) -> None:
    # A write transaction takes the write lock at once, so that it waits (busy timeout) for
    # another writer instead of failing when it upgrades from reading to writing. When the
    # lock is not free within a second, the person is told, and the wait goes on for up to
    # a minute.
    raw = conn.connection.driver_connection
    if raw.in_transaction:  # a ROLLBACK an interrupt (a newer keystroke's) stopped: end it
        raw.rollback()
    options = conn.get_execution_options()
    if options.get("refman_upkeep", False):
        _begin_upkeep(conn)
        return
    if not options.get("refman_write", False):
        conn.exec_driver_sql("BEGIN")
        return
    if options.get("refman_large", False):
        _large(conn)
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


#: Where a change's session keeps the name of the person making it (see :func:`writer`).
WRITER = "refman_writer"


def writer(session: Session) -> str | None:
    """Who makes the change this session carries (recorded with the papers and notes it
    writes): a shared library's database user, or the login name; None when unknown."""
    found = session.info.get(WRITER)
    return None if found is None else str(found)


#: The key of the lock that imports into a shared library take in turn (any 64-bit number
#: refman alone uses: "refman" in ASCII).
_IMPORT_LOCK = 0x7265666D616E


def lock_imports(session: Session) -> int | None:
    """Let this change import alone: on a shared library, two imports of overlapping pages
    at the same time would each plan the same papers as new. The lock is the server's
    (``pg_advisory_xact_lock``), held until the change commits or rolls back; edits wait for
    it only to change a citation key (an import gives keys too). A library file needs none: a
    change there holds the file's write lock.

    Returns:
        The library's revision when this import's turn came, as the others left it (this
        change's own move not counted): a plan made at that revision is still valid.
    """
    conn = session.connection()
    if not on_server(conn):
        return revision_at_lock(session)
    conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_IMPORT_LOCK})")
    return revision(session) - 1


def changing(session: Session) -> bool:
    """True inside a change (a write transaction): what it reads to change is locked on a
    shared library (``SELECT … FOR UPDATE``), so that nobody changes it in between."""
    return WRITER in session.info


def revision(session: Session) -> int:
    """The library's revision: it moves on with every committed change (of any process).
    Work prepared in a read (an import's plan) is still valid when the revision is the same
    once the write lock is held."""
    conn = session.connection()
    if on_server(conn):
        return int(conn.exec_driver_sql(_SHARED_REVISION).scalar() or 0)
    return int(conn.exec_driver_sql("PRAGMA user_version").scalar() or 0)


def revision_at_lock(session: Session) -> int | None:
    """The revision the library had when this session's change took the write lock (before
    the change moved it on): work prepared at that revision is still valid. None outside a
    change."""
    found = session.connection().info.get(_AT_LOCK)
    return None if found is None else int(found)


_MOVE_OWN_COUNTER = "UPDATE library_counters SET n = n + 1 WHERE slot = mod(pg_backend_pid(), 16)"
_MOVE_FREE_COUNTER = (
    "WITH free AS (SELECT slot FROM library_counters"
    " ORDER BY slot = mod(pg_backend_pid(), 16) DESC, slot LIMIT 1 FOR UPDATE SKIP LOCKED),"
    " moved AS (UPDATE library_counters SET n = n + 1 FROM free"
    " WHERE library_counters.slot = free.slot RETURNING 1)"
)


def _shared_begin(token: str) -> Callable[[Any], None]:
    def on_begin(conn: Any) -> None:
        # A shared library has no write lock to wait for: a change moves the revision on (one
        # of sixteen counters: its server process's own, else the first one no other change
        # holds, so a change waits for another only when sixteen are under way) and notifies
        # the other programs on the library when it commits, with this program's token (see
        # :mod:`refman.store.changes`).
        if conn.get_execution_options().get("refman_write", False):
            notify = f"pg_notify('{CHANNEL}', 'changed {token}')"
            moved = conn.exec_driver_sql(
                f"{_MOVE_FREE_COUNTER} SELECT (SELECT count(*) FROM moved), {notify}"
            ).scalar()
            if not moved:
                conn.exec_driver_sql(_MOVE_OWN_COUNTER)

    return on_begin


#: The revision of a shared library: the sum of its counters, which every change moves on in
#: its own transaction (so a read sees the revision of exactly the changes it sees).
_SHARED_REVISION = "SELECT sum(n) FROM library_counters"


def make_engine(url: str, *, read_only: bool = False, token: str = "") -> Engine:
    """The engine of a library: an SQLite file with refman's settings, or a shared library
    on a database server (see :mod:`refman.store.shared`), whose changes are notified with
    ``token``."""
    if on_server(url):
        arguments = shared_arguments(url, password=False)
        engine = create_engine(url, pool_pre_ping=True, connect_args=arguments)
        address = make_url(url)
        event.listen(engine, "do_connect", lambda d, _r, ca, cp: connect_shared(d, address, ca, cp))
        event.listen(engine, "begin", _shared_begin(token))
        return engine
    engine = create_engine(url, connect_args={"check_same_thread": False})
    event.listen(engine, "connect", _on_read_only_connect if read_only else _on_connect)
    event.listen(engine, "begin", _on_begin)
    event.listen(engine, "checkin", _on_checkin)
    return engine


#: TCP keepalives of a shared library's connections (seconds): a connection idle this long
#: is probed, every interval, and given up (an error, exit 2 on the command line) when this
#: many probes in a row go unanswered — a server whose machine or network went away is
#: noticed within a minute, however long a statement (an import) runs. A server whose
#: processes stop answering while its machine does (stopped, swapping) is not: a long import
#: may be that slow too; the window asks such a server a question of its own (see
#: :func:`answers`), and the command line waits.
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 15, "keepalives_interval": 5}
KEEPALIVE_COUNT = 6
#: How long a connection's sent data may go unacknowledged before it is given up (ms).
TCP_USER_TIMEOUT_MS = 45_000


def shared_arguments(url: str, *, password: bool = True) -> dict[str, Any]:
    """How refman connects to a shared library: named to the server (it shows in
    ``pg_stat_activity``), giving up on a server silent for ten seconds instead of hanging
    the window, and on a connection whose server went away (:data:`KEEPALIVES`), with the
    password typed this session or kept in the keyring, if any (``password``; an engine's
    connections are given theirs by :func:`refman.store.shared.connect`).

    The server's just-in-time compiler is off for refman's sessions (unless the address sets
    ``options`` itself): it spends 60-70 ms compiling each query that counts many papers,
    more than it saves on queries that take a few hundred milliseconds at most.
    """
    arguments: dict[str, Any] = {
        "application_name": "refman",
        "connect_timeout": 10,
        **KEEPALIVES,
        "keepalives_count": KEEPALIVE_COUNT,
        "tcp_user_timeout": TCP_USER_TIMEOUT_MS,
    }
    if "options" not in make_url(url).query:
        arguments["options"] = "-c jit=off"
    known = password_for(make_url(url)) if password else None
    if known is not None:
        arguments["password"] = known
    return arguments


def answers(url: str, within: float) -> bool:
    """True when the server of a shared library answers a trivial question on a new
    connection within ``within`` seconds: a change that takes long is then waiting for
    something else (another change's lock, its own size), not for a server that stopped
    answering. The question is asked on a thread of its own (a server that stopped answering
    may hold it long after ``within``)."""
    import psycopg

    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    arguments = {**shared_arguments(url), "connect_timeout": max(2, int(within))}
    answered: list[bool] = []
    ended = threading.Event()

    def ask() -> None:
        try:
            with psycopg.connect(dsn, autocommit=True, **arguments) as conn:
                conn.execute("SELECT 1")
            answered.append(True)
        except psycopg.Error as exc:
            log.info("the library server did not answer: %s", first_sentence(str(exc)))
        finally:
            ended.set()

    threading.Thread(target=ask, name="refman-ask-server", daemon=True).start()
    ended.wait(within)
    return bool(answered)
