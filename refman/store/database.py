"""Opening a library: the engine, SQLite settings, and Alembic migrations at open time."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DatabaseError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from refman.common.errors import LibraryOpenError
from refman.store.search import Fts5Index, SearchIndex
from refman.store.search_terms import register_functions

log = logging.getLogger("refman.store")

BUSY_TIMEOUT_MS = 5000


def to_url(location: str | Path) -> str:
    """Turn a file path or an SQLAlchemy URL into an SQLAlchemy URL."""
    text = str(location)
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser().resolve()}"


#: The schema revision this version of refman writes: the newest migration (a test checks
#: that it is Alembic's head). Opening a library of this revision loads no Alembic at all.
SCHEMA_HEAD = "0003"


def _alembic_config() -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("refman.store") / "migrations"))
    return cfg


def head_revision() -> str:
    """The newest revision of the migrations (Alembic's head)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    assert head is not None
    return str(head)


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


def _on_begin(conn: Any) -> None:
    # A write transaction takes the write lock at once, so that it waits (busy timeout) for
    # another writer instead of failing when it upgrades from reading to writing.
    immediate = conn.get_execution_options().get("refman_write", False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


@dataclass
class Database:
    """An open library: its engine and a factory of short-lived sessions."""

    engine: Engine
    sessions: sessionmaker[Session]
    url: str
    #: Goes up with every committed change, so caches of query results know they are stale.
    generation: int = 0
    #: The library's full-text index.
    search: SearchIndex = field(default_factory=Fts5Index)

    @property
    def path(self) -> Path | None:
        """The library file, or None for an in-memory database."""
        database = make_url(self.url).database
        return Path(database) if database and database != ":memory:" else None

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session whose work is committed on success and rolled back on any error."""
        try:
            with self.sessions.begin() as session:
                session.connection(execution_options={"refman_write": True})
                yield session
        finally:
            self.generation += 1

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session for reads only."""
        with self.sessions() as session:
            yield session

    def close(self) -> None:
        """Release every connection to the file."""
        self.engine.dispose()


def _make_engine(url: str) -> Engine:
    engine = create_engine(url, connect_args={"check_same_thread": False})
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _on_connect)
        event.listen(engine, "begin", _on_begin)
    return engine


def _current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        if "alembic_version" not in inspect(conn).get_table_names():
            return None
        found = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        return None if found is None else str(found)


def _backup(path: Path, revision: str | None) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.before-upgrade-{revision or 'none'}-{stamp}")
    copy_library(path, target)
    return target


def open_database(location: str | Path) -> Database:
    """Open (creating or upgrading as needed) the library at ``location``.

    A new library is created at the newest schema. An older one is upgraded after a copy of
    the file has been kept beside it.

    Args:
        location: A file path or an SQLAlchemy URL.

    Returns:
        The open database.

    Raises:
        LibraryOpenError: The file is not a refman library, was written by a newer refman,
            or its folder cannot be created.
    """
    url = to_url(location)
    parsed = make_url(url)
    file_path = Path(parsed.database) if parsed.database and parsed.database != ":memory:" else None
    if file_path is not None:
        if file_path.is_dir():
            raise LibraryOpenError(
                f"“{file_path}” is a folder, not a library file.",
                "Name a file such as library.sqlite.",
            )
        try:
            file_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LibraryOpenError(
                f"Cannot create the folder for the library “{file_path}”: {exc.strerror}.",
                "Choose a location you can write to.",
            ) from exc
    if file_path is not None:
        _check_file(file_path)
    engine = _make_engine(url)
    try:
        _migrate(engine, file_path)
    except (DatabaseError, OperationalError) as exc:
        engine.dispose()
        log.exception("cannot open library %s", url)
        raise LibraryOpenError(
            f"“{file_path or url}” cannot be opened as a refman library "
            f"({getattr(exc.orig, 'args', [exc])[0]}).",
            "Check that it is a refman library file and that it is not damaged.",
        ) from exc
    except LibraryOpenError:
        engine.dispose()
        raise
    return Database(engine=engine, sessions=sessionmaker(engine, expire_on_commit=False), url=url)


_SQLITE_HEADER = b"SQLite format 3\x00"


def _check_file(path: Path) -> None:
    """Refuse, without changing a byte, a file that is not a refman library.

    Raises:
        LibraryOpenError: The file is not SQLite, is another program's SQLite database, or
            cannot be read.
    """
    try:
        if not path.exists() or path.stat().st_size == 0:
            return
        with path.open("rb") as handle:
            header = handle.read(len(_SQLITE_HEADER))
    except OSError as exc:
        raise LibraryOpenError(
            f"Cannot read the library “{path}”: {exc.strerror}.",
            "Check that the file exists and that you may read it.",
        ) from exc
    if header != _SQLITE_HEADER:
        raise LibraryOpenError(
            f"“{path}” is not a refman library (it is not an SQLite database).",
            "Open a refman library, or name a new file to create one.",
        )
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise LibraryOpenError(
            f"“{path}” cannot be opened as a refman library ({exc}).",
            "Check that it is a refman library file and that it is not damaged.",
        ) from exc
    if tables and "alembic_version" not in tables:
        raise LibraryOpenError(
            f"“{path}” is an SQLite database, but not a refman library.",
            "Open a refman library, or name a new file to create one.",
        )


def _migrate(engine: Engine, file_path: Path | None) -> None:
    current = _current_revision(engine)
    if current == SCHEMA_HEAD:
        return
    from alembic import command
    from alembic.script import ScriptDirectory

    head = head_revision()
    script = ScriptDirectory.from_config(_alembic_config())
    if current is not None and current not in {rev.revision for rev in script.walk_revisions()}:
        raise LibraryOpenError(
            f"The library “{file_path}” was written by a newer version of refman "
            f"(schema {current}).",
            "Update refman to open it.",
        )
    if current is None and inspect(engine).get_table_names():
        raise LibraryOpenError(
            f"“{file_path}” is an SQLite database, but not a refman library.",
            "Open a refman library, or name a new file to create one.",
        )
    if current is not None and file_path is not None:
        backup = _backup(file_path, current)
        log.info("library %s upgraded from %s; copy kept at %s", file_path, current, backup)
    cfg = _alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    log.info("library %s at schema %s", file_path, head)


def copy_library(source: Path, target: Path) -> None:
    """Copy a library file consistently to ``target``.

    The SQLite backup API copies a consistent picture even while a WAL file exists.
    """
    if target.exists():
        target.unlink()
    src = sqlite3.connect(source)
    try:
        dest = sqlite3.connect(target)
        with dest:
            src.backup(dest)
        dest.close()
    finally:
        src.close()


__all__ = [
    "SCHEMA_HEAD",
    "Database",
    "copy_library",
    "head_revision",
    "open_database",
    "to_url",
]
