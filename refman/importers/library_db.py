"""What the readers of another program's library database share (Zotero's ``zotero.sqlite``,
Mendeley Desktop's ``…@www.mendeley.com.sqlite``): the file read as it is on disk, never
written and without waiting for the program's lock (with the changes a program in WAL mode
keeps in its write-ahead log, read from a copy); its tables; folders named by their path
("Parent/Child"); a passage of a PDF quoted in a note with its page.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from pathlib import Path
from urllib.parse import quote

__all__ = ["SQLITE_HEADER", "annotation", "folder_paths", "opened", "table_names"]

#: The first bytes of every SQLite database.
SQLITE_HEADER = b"SQLite format 3\x00"


def _write_ahead_log(path: Path) -> Path | None:
    """The database's write-ahead log when it holds changes not yet in the database file
    (a program that keeps its database in WAL mode, running), else None."""
    log = path.with_name(path.name + "-wal")
    try:
        return log if log.stat().st_size > 0 else None
    except OSError:
        return None


@contextmanager
def opened(path: Path, whole: bool = True) -> Iterator[sqlite3.Connection]:
    """The database read as it is on disk, without its lock (the program may hold it), and
    never written to.

    Args:
        path: The database.
        whole: Read the changes its write-ahead log holds too (a program in WAL mode keeps
            its latest changes there until it writes them into the file): the file and its
            log are read from a copy. False reads the file alone (quick: its tables).
    """
    log = _write_ahead_log(path) if whole else None
    if log is None:
        uri = f"file:{quote(str(path.resolve()))}?mode=ro&immutable=1"
        with closing(sqlite3.connect(uri, uri=True)) as db:
            yield db
        return
    with tempfile.TemporaryDirectory(prefix="refman-") as folder:
        copy = Path(folder) / "library.sqlite"
        # The log first: should the program write it into the file meanwhile, the file
        # copied next holds what the log held.
        shutil.copyfile(log, copy.with_name(copy.name + "-wal"))
        shutil.copyfile(path, copy)
        with closing(sqlite3.connect(copy)) as db:
            yield db


def table_names(path: Path) -> set[str]:
    """The tables of an SQLite database; none when ``path`` is no SQLite database or cannot
    be read."""
    try:
        with path.open("rb") as handle:
            if handle.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                return set()
        with opened(path, whole=False) as db:
            names = {str(row[0]) for row in db.execute("SELECT name FROM sqlite_master")}
        if not names and _write_ahead_log(path) is not None:  # (a new one: all in its log)
            with opened(path) as db:
                names = {str(row[0]) for row in db.execute("SELECT name FROM sqlite_master")}
    except (OSError, sqlite3.Error):
        return set()
    return names


def folder_paths(
    named: Mapping[int, tuple[str, object]], gone: frozenset[int] = frozenset()
) -> dict[int, str]:
    """Every folder's path, "Parent/Child", from each folder's (name, parent id): a parent
    that is no folder (none, 0, -1) starts the path; a loop is cut where it closes. A folder
    in ``gone`` (the program's trash), or inside one, has none."""

    def path(folder: int, seen: frozenset[int]) -> str | None:
        name, parent = named[folder]
        if folder in gone:
            return None
        if isinstance(parent, int) and parent in named and parent not in seen:
            above = path(parent, seen | {folder})
            return None if above is None else f"{above}/{name}"
        return name

    found = {folder: path(folder, frozenset({folder})) for folder in named}
    return {folder: text for folder, text in found.items() if text is not None}


def annotation(text: str, comment: str, page: str) -> str:
    """One annotation in Markdown: the passage quoted, with its page, then the comment."""
    where = f" (p. {page.strip()})" if page.strip() else ""
    parts = []
    if text.strip():
        quoted = "\n".join(f"> {line}".rstrip() for line in text.strip().splitlines())
        parts.append(quoted + where)
        where = ""
    if comment.strip():
        parts.append(comment.strip() + where)
    return "\n\n".join(parts)
