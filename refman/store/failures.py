"""What an SQLite (or database server) failure means to the person using refman.

SQLite reports conditions outside refman's control — a damaged file, a full disk, a read-only
file, another program holding the lock — as exceptions with an error code. :func:`described`
turns each into a :class:`~refman.common.errors.RefmanError` whose message says what happened
and what to do (exit status 2 on the command line, a message box in the window); anything it
does not know stays an exception, which is a bug.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from refman.common.errors import (
    DamagedLibraryError,
    LibraryUnavailableError,
    RefmanError,
    ServerUnreachableError,
)
from refman.common.words import first_sentence

_DAMAGED = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}
_FULL = {"SQLITE_FULL"}
_READ_ONLY = {"SQLITE_READONLY"}
_BUSY = {"SQLITE_BUSY", "SQLITE_LOCKED"}
_CANT_OPEN = {"SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH"}


def sqlite_error(exc: BaseException) -> sqlite3.Error | None:
    """The sqlite3 error behind an exception (SQLAlchemy wraps it as ``orig``), if any."""
    seen: BaseException | None = exc
    for _ in range(5):
        if seen is None:
            return None
        if isinstance(seen, sqlite3.Error):
            return seen
        seen = getattr(seen, "orig", None) or seen.__cause__
    return None


def _code(error: sqlite3.Error) -> str:
    name = getattr(error, "sqlite_errorname", "") or ""
    return name.split("_")[0] + "_" + name.split("_")[1] if name.count("_") >= 2 else name


def described(exc: BaseException, where: Path | str | None = None) -> RefmanError | None:
    """A plain-words error for an SQLite failure with a cause outside refman (or a shared
    library's server failure, see :func:`server_described`), or None when the failure is not
    one of those (a bug: let it propagate).

    Args:
        exc: The exception (SQLAlchemy's, or sqlite3's).
        where: The library file, named in the message.
    """
    error = sqlite_error(exc)
    if error is None:
        return server_described(exc, where)
    code, detail = _code(error), str(error)
    library = f"“{where}”" if where is not None else "the library"
    if code in _DAMAGED:
        return DamagedLibraryError(f"The library {library} is damaged ({detail}).")
    if code in _FULL:
        return LibraryUnavailableError(
            f"The change could not be saved: the disk holding {library} is full, or the file "
            "reached the largest size allowed.",
            "Free some space (or raise the limit) and try again; the library is as it was.",
        )
    if code in _READ_ONLY:
        return LibraryUnavailableError(
            f"The library {library} cannot be changed: it is read-only ({detail}).",
            "Make the file and its folder writable, or copy the library somewhere you may "
            "write; nothing was changed.",
        )
    if code in _BUSY:
        return LibraryUnavailableError(
            f"The library {library} is locked by another program ({detail}).",
            "Close the other program (or the other refman) and try again; nothing was changed.",
        )
    if code in _CANT_OPEN:
        return LibraryUnavailableError(
            f"Cannot open the library {library} ({detail}).",
            "Check that the file and its folder exist and that you may read and write them.",
        )
    if code == "SQLITE_IOERR":
        return LibraryUnavailableError(
            f"Reading or writing the library {library} failed ({detail}).",
            "Check the disk (is it full, removed, or failing?) and try again; the last saved "
            "state of the library is kept.",
        )
    return None


def _server_error(exc: BaseException) -> BaseException | None:
    """The database server's driver error behind an exception (psycopg's), if any."""
    seen: BaseException | None = exc
    for _ in range(5):
        if seen is None:
            return None
        if type(seen).__module__.startswith("psycopg"):
            return seen
        seen = getattr(seen, "orig", None) or seen.__cause__
    return None


#: SQLSTATE classes and codes of a server's failures with a cause outside refman.
_SERVER_UNREACHABLE = ("08", "57P")
_SERVER_FULL = ("53",)
_SERVER_REFUSED = ("28", "42501", "3D000", "25006")


def unreachable(where: Path | str | None, detail: str) -> ServerUnreachableError:
    """The error of a shared library (``where``: its address without a password) whose
    server cannot be reached, ``detail`` saying how that showed."""
    named = f" “{where}”" if where is not None else ""
    return ServerUnreachableError(
        f"The shared library{named} cannot be reached ({first_sentence(detail)}).",
        "Check the network and that the database server is running, then try again; "
        "what was not saved is not in the library.",
    )


#: libpq's words for a password the server refused, and for none given.
_PASSWORD_REFUSED = re.compile(r"password authentication failed for user")
_NO_PASSWORD = re.compile(r"no password supplied")


def password_refused(exc: BaseException) -> bool:
    """True when a connection failed because the server did not accept its password."""
    error = _server_error(exc)
    return error is not None and bool(_PASSWORD_REFUSED.search(str(error)))


def no_password(exc: BaseException) -> bool:
    """True when a connection failed because the server asks for a password, none given."""
    error = _server_error(exc)
    return error is not None and bool(_NO_PASSWORD.search(str(error)))


#: What libpq says when the server turns a connection away (an address or a password to
#: mend, not an outage): its words, why the library cannot be opened, what to do on the
#: command line, and what to do in the window (None: the same).
_TURNED_AWAY: tuple[tuple[re.Pattern[str], str, str, str | None], ...] = (
    (
        re.compile(r"no password supplied"),
        "the server asks for a password, and none was given.",
        "Put it in ~/.pgpass (HOST:PORT:DATABASE:USER:PASSWORD, mode 0600, or a file "
        "PGPASSFILE names), or keep it in the system keyring from the window, then try again.",
        "Type it in File ▸ Open Library… (Shared library tab), or put it in ~/.pgpass "
        "(HOST:PORT:DATABASE:USER:PASSWORD, mode 0600), then try again.",
    ),
    (
        re.compile(r'password authentication failed for user "([^"]*)"'),
        "the server did not accept the password of user “{0}”.",
        "Check the password (in ~/.pgpass, or the one the window keeps in the system "
        "keyring) and the user name; the server's administrator can set a new password.",
        "Check the password (typed in File ▸ Open Library…, or in ~/.pgpass) and the user "
        "name; the server's administrator can set a new password.",
    ),
    (
        re.compile(r'role "([^"]*)" does not exist'),
        "the server has no user “{0}”.",
        "Check the user name in the address; the server's administrator adds each person "
        "of the group (packaging/shared-library.sql).",
        None,
    ),
    (
        re.compile(r'database "([^"]*)" does not exist'),
        "the server has no database “{0}”.",
        "Check the database name in the address; the server's administrator knows it.",
        None,
    ),
    (
        re.compile(r"no pg_hba\.conf entry"),
        "the server does not let this user connect from this machine.",
        "Ask the server's administrator to allow it (pg_hba.conf), or check the user and "
        "database names and whether TLS is asked for.",
        None,
    ),
    (
        re.compile(r"server does not support SSL"),
        "the server offers no encrypted (TLS) connection, and the address insists on one "
        "(sslmode=require).",
        "Ask the server's administrator to turn on TLS, or, on a network you trust, drop "
        "?sslmode=require from the address.",
        "Ask the server's administrator to turn on TLS, or, on a network you trust, untick "
        "“Use TLS” in File ▸ Open Library… (drop ?sslmode=require from the address).",
    ),
)


def _turned_away(detail: str, where: Path | str | None) -> LibraryUnavailableError | None:
    """The plain words for a connection the server turned away, or None."""
    named = f" “{where}”" if where is not None else ""
    for pattern, why, hint, window_hint in _TURNED_AWAY:
        if found := pattern.search(detail):
            return LibraryUnavailableError(
                f"The shared library{named} cannot be opened: {why.format(*found.groups())}",
                hint,
                window_hint,
            )
    return None


def server_described(exc: BaseException, where: Path | str | None = None) -> RefmanError | None:
    """A plain-words error for a shared library's server failure: the server cannot be
    reached or went away, refuses the user, or is out of space; None for anything else."""
    error = _server_error(exc)
    if error is None:
        return None
    state = str(getattr(error, "sqlstate", "") or "")
    detail = first_sentence(str(error)) or type(error).__name__
    library = f"“{where}”" if where is not None else "the shared library"
    if not state and (turned_away := _turned_away(detail, where)) is not None:
        return turned_away
    if not state and ("authentication" in detail or "role" in detail):
        state = "28"  # refused while connecting: the driver has no SQLSTATE then
    if not state or state.startswith(_SERVER_UNREACHABLE):
        return unreachable(where, detail)
    if state.startswith(_SERVER_FULL):
        return LibraryUnavailableError(
            f"The database server of {library} has no room for the change ({detail}).",
            "Ask the server's administrator to free space; nothing was changed.",
        )
    if state.startswith(_SERVER_REFUSED):
        return LibraryUnavailableError(
            f"The database server refused this for {library} ({detail}).",
            "Check the user name, password and the user's rights on that database "
            "(a read-only user may only browse, search and export).",
        )
    return None
