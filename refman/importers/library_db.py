"""What the readers of another program's library database share (Zotero's ``zotero.sqlite``,
Mendeley Desktop's ``…@www.mendeley.com.sqlite``): the file read as it is on disk, never
written and without waiting for the program's lock; its tables; folders named by their path
("Parent/Child"); a passage of a PDF quoted in a note with its page.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from pathlib import Path
from urllib.parse import quote

__all__ = ["SQLITE_HEADER", "annotation", "folder_paths", "opened", "table_names"]

#: The first bytes of every SQLite database.
SQLITE_HEADER = b"SQLite format 3\x00"


@contextmanager
def opened(path: Path) -> Iterator[sqlite3.Connection]:
    """The database read as it is on disk, without its lock (the program may hold it), and
    never written to."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro&immutable=1"
    with closing(sqlite3.connect(uri, uri=True)) as db:
        yield db


def table_names(path: Path) -> set[str]:
    """The tables of an SQLite database; none when ``path`` is no SQLite database or cannot
    be read."""
    try:
        with path.open("rb") as handle:
            if handle.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                return set()
        with opened(path) as db:
            return {str(row[0]) for row in db.execute("SELECT name FROM sqlite_master")}
    except (OSError, sqlite3.Error):
        return set()


def folder_paths(named: Mapping[int, tuple[str, object]]) -> dict[int, str]:
    """Every folder's path, "Parent/Child", from each folder's (name, parent id): a parent
    that is no folder (none, 0, -1) starts the path; a loop is cut where it closes."""

    def path(folder: int, seen: frozenset[int]) -> str:
        name, parent = named[folder]
        if isinstance(parent, int) and parent in named and parent not in seen:
            return f"{path(parent, seen | {folder})}/{name}"
        return name

    return {folder: path(folder, frozenset({folder})) for folder in named}


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
