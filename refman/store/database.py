"""Opening a library: the engine, SQLite settings, and Alembic migrations at open time."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, DBAPIError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from refman.common.errors import DAMAGED_HINT, LibraryOpenError, LibraryUnavailableError
from refman.store.backup import backup_path, copy_verified, folder_for
from refman.store.connection import make_engine
from refman.store.failures import described, sqlite_error
from refman.store.identity import (
    APPLICATION_ID,
    Identity,
    Kind,
    check_revision,
    identify,
)
from refman.store.integrity import CheckRecord, check
from refman.store.search import Fts5Index, SearchIndex
from refman.store.search_schema import (
    damaged_indexes,
    rebuild_indexes,
    repair_search,
    search_is_whole,
)

log = logging.getLogger("refman.store")


def to_url(location: str | Path) -> str:
    """Turn a file path or an SQLAlchemy URL into an SQLAlchemy URL."""
    text = str(location)
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser().resolve()}"


#: The schema revision this version of refman writes: the newest migration (a test checks
#: that it is Alembic's head). Opening a library of this revision loads no Alembic at all.
SCHEMA_HEAD = "0004"


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
    #: Why the library can only be read (its file or folder is read-only), or None.
    read_only: str | None = None
    #: Where refman remembers the libraries it checked (None: check before the first write
    #: of every session).
    checks: CheckRecord | None = None
    #: What the last check found wrong (the library is then never written to), or None.
    damaged: str | None = None
    #: Called when a change has to wait for another program's write to finish.
    on_wait: Callable[[], None] | None = None
    #: True once a change was committed in this session.
    changed: bool = False
    #: True once the library is known whole (checked, or trusted) in this session.
    verified: bool = False
    #: True when the files were, at open, exactly as refman left them (nothing else wrote).
    trusted_at_open: bool = False

    def verify(self, *, full: bool = False) -> list[str]:
        """Check the library's file now (see :mod:`refman.store.integrity`).

        Returns:
            The problems found; empty when the library is whole. A damaged library is
            refused every change from then on.
        """
        try:
            problems = check(self.engine, full=full)
            if full and not problems and self.read_only is None:
                self._repair_indexes()
        except DBAPIError as exc:
            plain = described(exc, self.path or self.url)
            if plain is None or "damaged" not in plain.message:
                raise
            problems = [str(sqlite_error(exc) or exc)]
        if problems:
            self.damaged = problems[0]
            log.warning("library %s failed its check: %s", self.path, "; ".join(problems))
            if self.checks is not None and self.path is not None:
                self.checks.forget(self.path)
        else:
            self.verified = True
            if self.checks is not None and self.path is not None:
                self.checks.remember(self.path)
        return problems

    def _repair_indexes(self) -> None:
        """Fill a search index again when its contents do not match the library's rows."""
        if self.engine.dialect.name != "sqlite":
            return
        with self.engine.begin() as conn:
            damaged = damaged_indexes(conn)
            rebuild_indexes(conn, damaged)
        if damaged:
            log.warning("library %s: search indexes rebuilt (%s)", self.path, ", ".join(damaged))

    def require_whole(self) -> None:
        """Refuse to write to a damaged library; check one not known to be whole first."""
        if not self.verified and self.damaged is None and self.path is not None:
            if self.trusted_at_open:
                self.verified = True
            else:
                self.verify()
        if self.damaged is not None:
            raise LibraryUnavailableError(
                f"The library “{self.path}” is damaged ({self.damaged}).", DAMAGED_HINT
            )

    @property
    def path(self) -> Path | None:
        """The library file, or None for an in-memory database."""
        database = make_url(self.url).database
        return Path(database) if database and database != ":memory:" else None

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session whose work is committed on success and rolled back on any error.

        Raises:
            LibraryUnavailableError: The library can only be read; nothing was changed.
        """
        if self.read_only is not None:
            raise LibraryUnavailableError(
                f"The library cannot be changed: {self.read_only}.",
                "You can browse, search and export it; to change it, make it writable "
                "or copy it somewhere you may write.",
            )
        self.require_whole()
        try:
            with self.plain_errors(), self.sessions.begin() as session:
                session.connection(
                    execution_options={"refman_write": True, "refman_waiting": self.on_wait}
                )
                yield session
            self.changed = True
        finally:
            self.generation += 1

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session for reads only."""
        with self.plain_errors(), self.sessions() as session:
            yield session

    @contextmanager
    def plain_errors(self) -> Iterator[None]:
        """Turn an SQLite failure with a cause outside refman (a damaged file, a full disk,
        a lock) into a plain-words error (see :mod:`refman.store.failures`)."""
        try:
            yield
        except DBAPIError as exc:
            plain = described(exc, self.path or self.url)
            if plain is None:
                raise
            raise plain from exc

    def close(self) -> None:
        """Release every connection to the file (and remember a checked library's files as
        refman leaves them)."""
        self.engine.dispose()
        if self.verified and self.damaged is None and self.checks and self.path is not None:
            self.checks.remember(self.path)


def _current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        if "alembic_version" not in inspect(conn).get_table_names():
            return None
        found = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        return None if found is None else str(found)


def _backup(path: Path, revision: str | None, backups: Path | None) -> Path:
    """A verified copy of the library before an upgrade: in its backup folder (a backup
    like the others, ``…-upgrade.sqlite``), or beside it when refman keeps no backups."""
    now = datetime.now()
    if backups is not None:
        target = backup_path(folder_for(backups, path), now, "upgrade")
    else:
        stamp = now.strftime("%Y%m%d-%H%M%S")
        target = path.with_name(f"{path.name}.before-upgrade-{revision or 'none'}-{stamp}")
    copy_verified(path, target)
    return target


def open_database(
    location: str | Path, checks: CheckRecord | None = None, backups: Path | None = None
) -> Database:
    """Open (creating or upgrading as needed) the library at ``location``.

    The file is identified first without writing a byte (:mod:`refman.store.identity`). A new
    library is created at the newest schema; an older one is upgraded after a copy of the
    file has been kept beside it. Every library refman opens for writing is stamped with
    refman's application id. A library whose file or folder is read-only is opened for
    reading: changes are refused with a plain message.

    Args:
        location: A file path or an SQLAlchemy URL.
        checks: Where refman remembers the libraries it checked (see :class:`Database`).
        backups: The folder of refman's backups (a copy before an upgrade goes there), or
            None (the copy goes beside the library).

    Returns:
        The open database.

    Raises:
        LibraryOpenError: The file is not a refman library, is damaged where its tables are
            listed, was written by a newer refman, or its folder cannot be created.
    """
    url = to_url(location)
    file_path, identity, read_only = _locate(url)
    # Before the first connection: an open library has a write-ahead log beside it.
    trusted = bool(checks and file_path and checks.trusted(file_path))
    engine = make_engine(_engine_url(url, file_path, read_only), read_only=read_only is not None)
    try:
        if read_only is None:
            _migrate(engine, file_path, backups)
            _stamp(engine, identity)
            _repair_search(engine, file_path)
        else:
            check_revision(file_path or url, _current_revision(engine))
    except (DatabaseError, OperationalError) as exc:
        engine.dispose()
        plain = described(exc, file_path or url)
        if plain is None:
            log.exception("cannot open library %s", url)
            raise LibraryOpenError(
                f"“{file_path or url}” cannot be opened as a refman library "
                f"({getattr(exc.orig, 'args', [exc])[0]}).",
                "Check that it is a refman library file.",
            ) from exc
        log.info("cannot open library %s: %s", url, exc)
        raise plain from exc
    except LibraryOpenError:
        engine.dispose()
        raise
    return Database(
        engine=engine,
        sessions=sessionmaker(engine, expire_on_commit=False),
        url=url,
        read_only=read_only,
        checks=checks,
        trusted_at_open=trusted,
    )


def _locate(url: str) -> tuple[Path | None, Identity, str | None]:
    """The library file of a URL (None in memory), what it holds, and why it can only be
    read (None when it can be written); its folder is created when need be."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise LibraryOpenError(
            f"“{url}” is neither a library file nor an address refman understands.",
            "Give a library file (library.sqlite) or a sqlite:/// address.",
        ) from exc
    if parsed.get_backend_name() != "sqlite":
        raise LibraryOpenError(
            f"refman cannot open a library at “{parsed.render_as_string(hide_password=True)}”: "
            f"“{parsed.drivername}” is not a kind of library it knows.",
            "Give a library file (library.sqlite) or a sqlite:/// address.",
        )
    if not parsed.database or parsed.database == ":memory:":
        return None, Identity(Kind.NEW), None
    file_path = Path(parsed.database)
    identity = identify(file_path)
    read_only = _read_only_reason(file_path, identity)
    if read_only is None:
        try:
            file_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LibraryOpenError(
                f"Cannot create the folder for the library “{file_path}”: {exc.strerror}.",
                "Choose a location you can write to.",
            ) from exc
    return file_path, identity, read_only


def _engine_url(url: str, file_path: Path | None, read_only: str | None) -> str:
    """The address the engine opens: the library's, or a read-only one."""
    if read_only is None or file_path is None:
        return url
    # A read-only library with no write-ahead log beside it is open nowhere for writing
    # (nobody can write it): read it as it is, leaving no -wal or -shm file behind.
    logs = [Path(f"{file_path}{suffix}").exists() for suffix in ("-wal", "-shm")]
    mode = "mode=ro" if any(logs) else "immutable=1"
    return f"sqlite:///{file_path.resolve().as_uri()}?{mode}&uri=true"


def _read_only_reason(path: Path, identity: Identity) -> str | None:
    """Why an existing library can only be read (its file or folder is read-only), or None."""
    if identity.kind is Kind.NEW:
        return None
    folder = path.resolve().parent
    if not os.access(path, os.W_OK):
        return f"the file “{path}” is read-only"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"its folder “{folder}” is read-only"
    return None


def _repair_search(engine: Engine, file_path: Path | None) -> None:
    """Create again a search index a library lacks (read first: a whole library is not
    written to)."""
    if engine.dialect.name != "sqlite":
        return
    with engine.connect() as conn:
        whole = search_is_whole(conn)
    if not whole:
        with engine.begin() as conn:
            repaired = repair_search(conn)
        log.warning("library %s: search index rebuilt (%s)", file_path, ", ".join(repaired))


def _stamp(engine: Engine, identity: Identity) -> None:
    """Mark the file as a refman library (a new one, or one from before the stamp)."""
    if identity.kind is Kind.REFMAN:
        return
    with engine.begin() as conn:
        conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")


def _migrate(engine: Engine, file_path: Path | None, backups: Path | None) -> None:
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
        backup = _backup(file_path, current, backups)
        log.info("library %s upgraded from %s; copy kept at %s", file_path, current, backup)
    cfg = _alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    log.info("library %s at schema %s", file_path, head)


__all__ = [
    "SCHEMA_HEAD",
    "Database",
    "head_revision",
    "open_database",
    "to_url",
]
