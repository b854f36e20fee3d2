"""Knowing what a file is before touching it.

A refman library says so in its SQLite header: ``PRAGMA application_id`` is
:data:`APPLICATION_ID`. :func:`identify` reads the first 100 bytes of the file (the SQLite
header) and, for a library written before refman stamped its files, looks at its tables
through an *immutable* read-only connection, which takes no lock and creates no ``-wal`` or
``-shm`` file. Nothing is written: a file that is not a refman library this version can open
is refused with a message that names the real cause, and its bytes stay as they were.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from refman.common.errors import LibraryOpenError

#: ``PRAGMA application_id`` of a refman library: "RfMn".
APPLICATION_ID = 0x52664D6E

#: Every schema revision this version of refman can open (and upgrade to the newest, the
#: last one). A test checks it against the Alembic migrations.
KNOWN_REVISIONS = (
    "0001",
    "0002",
    "0003",
    "0004",
    "0005",
    "0006",
    "0007",
    "0008",
    "0009",
    "0010",
    "0011",
    "0012",
    "0013",
    "0014",
    "0015",
    "0016",
    "0017",
    "0018",
    "0019",
    "0020",
    "0021",
    "0022",
    "0023",
    "0024",
    "0025",
    "0026",
    "0027",
    "0028",
    "0029",
    "0030",
    "0031",
    "0032",
    "0033",
    "0034",
    "0035",
    "0036",
    "0037",
    "0038",
)

_MAGIC = b"SQLite format 3\x00"
_HEADER = 100
_HINT_OPEN = "Open a refman library, or name a new file to create one."


class Kind(Enum):
    """What a library location holds."""

    NEW = "new"  # nothing yet (or an empty file): a new library is created there
    REFMAN = "refman"  # a refman library stamped with refman's application id
    LEGACY = "legacy"  # a refman library from before the stamp (its tables say so)


@dataclass(frozen=True, slots=True)
class Identity:
    """What :func:`identify` found.

    Attributes:
        kind: New, refman, or an older refman library not stamped yet.
        revision: The schema revision when it could be read without a lock (legacy files).
    """

    kind: Kind
    revision: str | None = None


def identify(path: Path) -> Identity:
    """Say what the file at ``path`` is, reading without writing or locking.

    Raises:
        LibraryOpenError: It is not a refman library this version can open: not a regular
            file, unreadable, not SQLite, another program's database, damaged where its
            tables are listed, or written by a newer refman. The message says which.
    """
    header = _header(path)
    if header is None:
        return Identity(Kind.NEW)
    if not header.startswith(_MAGIC):
        raise LibraryOpenError(
            f"“{path}” is not a refman library: it is not an SQLite database "
            "(its first bytes are not SQLite's).",
            _HINT_OPEN,
        )
    application_id = int.from_bytes(header[68:72], "big")
    if application_id == APPLICATION_ID:
        return Identity(Kind.REFMAN)
    if application_id != 0:
        raise LibraryOpenError(
            f"“{path}” is another program's SQLite database "
            f"(application id {application_id:#010x}), not a refman library.",
            _HINT_OPEN,
        )
    tables, revision = _probe(path)
    if not tables:
        return Identity(Kind.NEW)
    if "alembic_version" not in tables or "papers" not in tables:
        raise LibraryOpenError(
            f"“{path}” is an SQLite database, but not a refman library.", _HINT_OPEN
        )
    check_revision(path, revision)
    return Identity(Kind.LEGACY, revision)


def check_revision(path: Path | str, revision: str | None) -> None:
    """Refuse a library whose schema this version does not know.

    Raises:
        LibraryOpenError: The revision is newer than this refman (or unreadable).
    """
    if revision is None:
        raise LibraryOpenError(
            f"“{path}” looks like a refman library but has no schema version.",
            "It may be damaged: restore a backup (refman backups), or open another library.",
        )
    if revision not in KNOWN_REVISIONS:
        raise LibraryOpenError(
            f"The library “{path}” was written by a newer version of refman (schema {revision}).",
            "Update refman to open it.",
        )


def _header(path: Path) -> bytes | None:
    """The first bytes of the file; None when there is no file or it is empty."""
    try:
        info = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return None  # nothing there yet (creating the folder says what is in the way)
    except OSError as exc:
        raise _unreadable(path, exc) from exc
    if stat.S_ISDIR(info.st_mode):
        raise LibraryOpenError(
            f"“{path}” is a folder, not a library file.", "Name a file such as library.sqlite."
        )
    if not stat.S_ISREG(info.st_mode):
        raise LibraryOpenError(
            f"“{path}” is not a regular file (it is a device, pipe or socket).", _HINT_OPEN
        )
    if info.st_size == 0:
        return None
    try:
        # O_NONBLOCK: a FIFO swapped in after the check must not hang the open.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            return os.read(fd, _HEADER)
        finally:
            os.close(fd)
    except OSError as exc:
        raise _unreadable(path, exc) from exc


def _unreadable(path: Path, exc: OSError) -> LibraryOpenError:
    return LibraryOpenError(
        f"Cannot read the library “{path}”: {exc.strerror or exc}.",
        "Check that the file exists and that you may read it.",
    )


def _probe(path: Path) -> tuple[set[str], str | None]:
    """The tables of an unstamped SQLite file and its Alembic revision, read through an
    immutable connection (no lock, no side files, nothing written)."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True)
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            revision = None
            if "alembic_version" in tables:
                row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
                revision = None if row is None else str(row[0])
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise LibraryOpenError(
            f"“{path}” cannot be read as a refman library: it is damaged ({exc}).",
            "Restore a backup (refman backups, refman restore-backup), or open another library.",
        ) from exc
    return tables, revision
