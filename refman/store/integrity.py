"""Checking a library before writing to it, and remembering which libraries were checked.

SQLite's ``PRAGMA quick_check`` reads every page of the file (about a second for 100,000
papers): a damaged library must never be written to, but checking before every command
would make each one that slow. So refman remembers, in a small JSON file of its cache folder,
the size and modification time of each library's files as refman itself left them after
checking or changing it. A library whose files are exactly as remembered is trusted; one
changed by anything else (another program, a disk fault, a copy from a backup tool) or never
seen is checked before its first write.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine

from refman.store.backend import on_server

log = logging.getLogger("refman.store")

#: The most problems a check reports.
MAX_PROBLEMS = 20


def fingerprint(library: Path) -> list[int]:
    """Size and modification time (ns) of the library file and of its write-ahead log."""
    out: list[int] = []
    for path in (library, Path(f"{library}-wal")):
        try:
            info = path.stat()
        except OSError:
            out += [-1, -1]
            continue
        out += [info.st_size, info.st_mtime_ns]
    return out


@dataclass(frozen=True)
class CheckRecord:
    """The file where refman remembers the libraries it checked or changed last.

    Losing the file costs one check per library; it is rewritten whole through a temporary
    file, so a crash never leaves it half written.
    """

    path: Path

    def trusted(self, library: Path) -> bool:
        """True when the library's files are as refman left them after a check or a change."""
        return self._read().get(str(library.resolve())) == fingerprint(library)

    def remember(self, library: Path) -> None:
        """Remember the library's files as they are now (checked, or changed by refman)."""
        known = self._read()
        known[str(library.resolve())] = fingerprint(library)
        self._write(known, library)

    def forget(self, library: Path) -> None:
        """Check the library again before its next write."""
        known = self._read()
        if known.pop(str(library.resolve()), None) is not None:
            self._write(known, library)

    def _write(self, known: dict[str, list[int]], library: Path) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=self.path.parent, prefix=".checked-")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(known, handle)
            os.replace(temp, self.path)
        except OSError as exc:  # the record is a cache: at worst a library is checked again
            log.info("cannot record the check of %s in %s: %s", library, self.path, exc)

    def _read(self) -> dict[str, list[int]]:
        try:
            found = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return found if isinstance(found, dict) else {}


def check(engine: Engine, *, full: bool = False) -> list[str]:
    """Run SQLite's quick check (or, with ``full``, its integrity check, which also compares
    every index with its table) on a connection of its own.

    Returns:
        The problems found (at most :data:`MAX_PROBLEMS`); empty when the library is whole.
    """
    if on_server(engine):
        return _shared_check(engine)
    pragma = "integrity_check" if full else "quick_check"
    with engine.connect() as conn:
        rows = conn.exec_driver_sql(f"PRAGMA {pragma}({MAX_PROBLEMS})").fetchall()
        conn.rollback()
    problems = [str(row[0]) for row in rows]
    return [] if problems == ["ok"] else problems


def _shared_check(engine: Engine) -> list[str]:
    """What refman can check of a shared library: every paper has its search words and no
    words are left of a paper that is gone (the server guards its own files)."""
    from refman.store.search_pg import MISSING_WORDS, STRAY_WORDS  # (a shared library's)

    with engine.connect() as conn:
        missing, stray = conn.exec_driver_sql(
            f"SELECT (SELECT count(*) FROM ({MISSING_WORDS}) m),"
            f" (SELECT count(*) FROM ({STRAY_WORDS}) s)"
        ).one()
        conn.rollback()
    problems = []
    if missing:
        problems.append(f"{missing} papers are missing from the search index")
    if stray:
        problems.append(f"the search index holds {stray} papers that are gone")
    return problems
