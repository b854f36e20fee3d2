"""Opening a library: the engine, SQLite settings, and Alembic migrations at open time."""

from __future__ import annotations

import getpass
import logging
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DatabaseError, DBAPIError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from refman.common.errors import DamagedLibraryError, LibraryOpenError, LibraryUnavailableError
from refman.common.text import squash_spaces
from refman.store.backend import on_server
from refman.store.changes import ChangeFeed, FileFeed, ServerFeed
from refman.store.checkpoints import Checkpointer
from refman.store.connection import (
    WRITER,
    answers,
    make_engine,
    revision_at_lock,
    shared_arguments,
)
from refman.store.failures import described, sqlite_error
from refman.store.id_marks import ids_from_marks
from refman.store.integrity import CheckRecord, check
from refman.store.location import engine_url, locate, to_url
from refman.store.schema import SCHEMA_HEAD, bring_up, head_revision
from refman.store.search import Fts5Index, SearchIndex
from refman.store.shared import search_index

log = logging.getLogger("refman.store")


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
    #: What this program's changes to a shared library are notified with.
    token: str = ""
    #: The revisions of a library file this program's own changes wrote.
    own_revisions: set[int] = field(default_factory=set)
    #: Copies a library file's write-ahead log into it once changes pause (None for a
    #: shared library or one that can only be read).
    checkpoints: Checkpointer | None = None

    def __post_init__(self) -> None:
        ids_from_marks(self.sessions)  # (the rows a session adds take ids never given)

    def verify(self, *, full: bool = False) -> list[str]:
        """Check the library's file now (see :mod:`refman.store.integrity`).

        Returns:
            The problems found; empty when the library is whole. A damaged library is
            refused every change from then on.
        """
        try:
            problems = check(self.engine, full=full)
            # A file's search index is checked (and rebuilt) only once the file is whole; a
            # server's missing search words are the problems found, redone and checked again.
            if full and self.read_only is None and self.shared == bool(problems):
                self._repair_indexes()
                if problems:
                    problems = check(self.engine, full=full)
        except DBAPIError as exc:
            plain = described(exc, self.name)
            if plain is None or "damaged" not in plain.message:
                raise
            problems = [str(sqlite_error(exc) or exc)]
        if problems:
            self.damaged = _one_line(problems[0], len(problems) - 1)
            log.warning("library %s failed its check: %s", self.name, "; ".join(problems))
            if self.checks is not None and self.path is not None:
                self.checks.forget(self.path)
        else:
            self.verified = True
            if self.checks is not None and self.path is not None:
                self.checks.remember(self.path)
        return problems

    def _repair_indexes(self) -> None:
        """Make the search index match the library's rows again where it does not (a file:
        FTS5's own check, then a rebuild; a server: papers lacking their words, words of
        papers gone)."""
        with self.sessions.begin() as session:
            repaired = self.search.repair(session)
        if repaired:
            log.warning("library %s: search index repaired (%s)", self.name, repaired)

    def require_whole(self) -> None:
        """Refuse to write to a damaged library; check one not known to be whole first."""
        if not self.verified and self.damaged is None and self.path is not None:
            if self.trusted_at_open:
                self.verified = True
            else:
                self.verify()
        if self.damaged is not None:
            raise DamagedLibraryError(f"The library “{self.path}” is damaged ({self.damaged}).")

    @property
    def path(self) -> Path | None:
        """The library file, or None for an in-memory database or a shared library."""
        parsed = make_url(self.url)
        database = parsed.database
        if on_server(parsed):
            return None
        return Path(database) if database and database != ":memory:" else None

    def watch(self) -> ChangeFeed:
        """A feed of the changes other programs make to this library (see
        :mod:`refman.store.changes`); close it when done."""
        if self.shared:
            return ServerFeed(self.engine, self.token, self.name, shared_arguments(self.url))
        return FileFeed(self.engine, self.own_revisions)

    def answers(self, within: float) -> bool:
        """True when the library answers a question within ``within`` seconds (a file
        always does; a shared library's server, see :func:`~refman.store.connection.answers`).
        """
        return not self.shared or answers(self.url, within)

    @cached_property
    def user(self) -> str | None:
        """Who changes the library: the database user of a shared library, the login name
        of a library file (None when the system cannot tell)."""
        if self.shared:
            with self.reading() as session:
                return str(session.execute(text("SELECT current_user")).scalar_one())
        try:
            return getpass.getuser()
        except (KeyError, OSError):  # no name for this user id (a container, say)
            return None

    @property
    def shared(self) -> bool:
        """True for a library on a database server (see :mod:`refman.store.shared`)."""
        return on_server(self.engine)

    @property
    def name(self) -> str:
        """What messages call the library: its file, or its address without a password."""
        if self.path is not None:
            return str(self.path)
        return make_url(self.url).render_as_string(hide_password=True)

    def require_writable(self) -> None:
        """Raises:
        LibraryUnavailableError: The library can only be read (its file or its folder).
        """
        if self.read_only is not None:
            raise LibraryUnavailableError(
                f"The library cannot be changed: {self.read_only}.", self.read_only_hint
            )

    @property
    def read_only_hint(self) -> str:
        """What to do about a library that can only be read, by its kind."""
        if self.shared:  # a reader's database user: the owner may make it an editor's
            return (
                "You can browse, search and export it; to change it, ask the library's "
                "owner to let your database user edit it."
            )
        return (
            "You can browse, search and export it; to change it, make it writable or copy it "
            "somewhere you may write."
        )

    @contextmanager
    def transaction(self, *, large: bool = False) -> Iterator[Session]:
        """A session whose work is committed on success and rolled back on any error;
        ``large`` gives a library file's connection room for many pages (an import).

        Raises:
            LibraryUnavailableError: The library can only be read; nothing was changed.
        """
        self.require_writable()
        self.require_whole()
        mine: int | None = None
        try:
            with self.plain_errors(), self.sessions.begin() as session:
                session.info[WRITER] = self.user
                session.connection(
                    execution_options={
                        "refman_write": True,
                        "refman_waiting": self.on_wait,
                        "refman_large": large,
                    }
                )
                yield session
                at_lock = revision_at_lock(session)
                if at_lock is not None:  # known as this program's before anyone can see it
                    mine = (at_lock + 1) % (1 << 31)
                    self.own_revisions.add(mine)
            self.changed = True
            if self.checkpoints is not None:
                self.checkpoints.nudge()
        except BaseException:
            if mine is not None:  # rolled back: that revision will be someone else's
                self.own_revisions.discard(mine)
            raise
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
        a lock) into a plain-words error (see :mod:`refman.store.failures`); damage a read
        found is the library's damage, as a check's is (see :meth:`found_damaged`)."""
        try:
            yield
        except DBAPIError as exc:
            plain = described(exc, self.name)
            if plain is None:
                raise
            if isinstance(plain, DamagedLibraryError):
                self.found_damaged(str(sqlite_error(exc) or exc))
            raise plain from exc

    def found_damaged(self, problem: str) -> None:
        """Remember that the file is damaged (``problem`` says how): every change is refused
        from then on, and the next open checks it again."""
        if self.damaged is not None or self.path is None:
            return
        self.damaged = _one_line(problem, 0)
        log.warning("library %s is damaged: %s", self.name, self.damaged)
        if self.checks is not None:
            self.checks.forget(self.path)

    def close(self) -> None:
        """Release every connection to the file (and remember a checked library's files as
        refman leaves them)."""
        if self.checkpoints is not None:
            self.checkpoints.close()
        self.engine.dispose()
        if self.verified and self.damaged is None and self.checks and self.path is not None:
            self.checks.remember(self.path)


def _trusted(url: str, file_path: Path | None, checks: CheckRecord | None) -> bool:
    """True when the library is as refman left it: a file refman remembers leaving whole
    (asked before any connection: an open file has a write-ahead log beside it), or a
    shared library (no file another program may change behind refman's back)."""
    if on_server(url):
        return True
    return bool(checks and file_path and checks.trusted(file_path))


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
    file_path, identity, read_only = locate(url)
    where = file_path or make_url(url).render_as_string(hide_password=True)
    trusted = _trusted(url, file_path, checks)  # before the first connection
    token = secrets.token_hex(8)
    engine = make_engine(
        engine_url(url, file_path, read_only), read_only=read_only is not None, token=token
    )
    try:
        read_only = bring_up(engine, identity, file_path, backups, read_only)
    except (DatabaseError, OperationalError) as exc:
        engine.dispose()
        plain = described(exc, where)
        if plain is None:
            log.exception("cannot open library %s", where)
            raise LibraryOpenError(
                f"“{where}” cannot be opened as a refman library "
                f"({getattr(exc.orig, 'args', [exc])[0]}).",
                "Check that it is a refman library file.",
            ) from exc
        log.info("cannot open library %s: %s", where, exc)
        raise plain from exc
    except LibraryOpenError:
        engine.dispose()
        raise
    return Database(
        engine=engine,
        sessions=sessionmaker(engine, expire_on_commit=False),
        url=url,
        search=search_index(engine),
        read_only=read_only,
        checks=checks,
        trusted_at_open=trusted,
        token=token,
        checkpoints=Checkpointer(file_path) if file_path and read_only is None else None,
    )


__all__ = [
    "SCHEMA_HEAD",
    "Database",
    "head_revision",
    "open_database",
    "to_url",
]


def _one_line(problem: str, more: int) -> str:
    """The first problem a check found, on one line (SQLite's report spans lines: "*** in
    database main ***", then each page's), saying how many more there are."""
    line = squash_spaces(problem)
    line = line if len(line) <= 160 else line[:159].rstrip() + "…"
    return f"{line}; {more} more" if more else line
