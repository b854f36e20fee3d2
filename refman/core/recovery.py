"""Recovering a damaged library: a new library made of what the damaged one can still give.

The damaged file is only read (and never through a connection that could write it); the new
library is made by the migrations, filled with the readable rows, its links to lost papers
dropped, its search indexes and match keys made again, and checked; the attached files its
rows name are copied from the damaged library's storage folder into its own.
"""

from __future__ import annotations

import logging
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from refman.common.errors import (
    InvalidValueError,
    LibraryOpenError,
    LibraryUnavailableError,
    NotFoundError,
)
from refman.core.copying import copy_stored, stored_files
from refman.core.upkeep import bring_up_to_date
from refman.core.values import FileView
from refman.store.database import Database, open_database
from refman.store.file_store import FileStore, storage_beside
from refman.store.identity import Kind, identify
from refman.store.recover import DATA_TABLES, recover_rows

__all__ = ["RecoveryReport", "recover_library"]

log = logging.getLogger("refman.core")

_INDEXES = ("papers_fts", "tags_fts", "notes_fts")


@dataclass(frozen=True)
class RecoveryReport:
    """What a recovery copied: rows copied and rows that could not be read, per table (-1:
    the table itself could not be read); the attached files copied into the new library's
    storage folder, and those its rows name that the damaged library's folder did not hold
    (missing in both)."""

    copied: dict[str, int]
    lost: dict[str, int]
    files: int = 0
    files_missing: tuple[FileView, ...] = ()

    @property
    def complete(self) -> bool:
        """True when every row could be read."""
        return not any(self.lost.values())


def recover_library(source: Path, dest: Path) -> RecoveryReport:
    """Make ``dest`` a new library holding every row ``source`` can still give.

    Raises:
        NotFoundError: There is no file at ``source``.
        InvalidValueError: ``source`` is no refman library (another program's database, a
            text or empty file), or ``dest`` exists already, or is ``source``.
        LibraryUnavailableError: The new library is not whole after all (it is deleted).
    """
    _recoverable(source)
    if dest.exists() or dest.resolve() == source.resolve():
        raise InvalidValueError(
            f"“{dest}” exists already.", "Name a new file for the recovered library."
        )
    folder = storage_beside(dest)
    made_folder = not folder.exists()
    database = open_database(dest)
    try:
        with database.engine.begin() as conn:
            conn.exec_driver_sql("PRAGMA defer_foreign_keys = ON")
            raw = conn.connection.driver_connection
            report = recover_rows(source, raw)  # type: ignore[arg-type]
            for table in reversed(DATA_TABLES):  # links to rows that were lost go too
                bad = conn.exec_driver_sql(f'PRAGMA foreign_key_check("{table}")').all()
                for rowid in {row[1] for row in bad}:
                    conn.exec_driver_sql(f'DELETE FROM "{table}" WHERE rowid = ?', (rowid,))
            conn.exec_driver_sql("INSERT OR IGNORE INTO library_tasks (task) VALUES ('match_keys')")
            for index in _INDEXES:
                conn.exec_driver_sql(f"INSERT INTO {index}({index}) VALUES ('rebuild')")
        bring_up_to_date(database)
        problems = database.verify(full=True)
        files, missing = (0, []) if problems else _copy_files(database, source, dest)
    except BaseException:
        database.close()
        _remove(dest, folder if made_folder else None)
        raise
    database.close()
    if problems:
        _remove(dest, folder if made_folder else None)
        raise LibraryUnavailableError(
            f"The recovered library was not whole ({problems[0]}); it was not kept.",
            "Restore a backup instead (refman backups).",
            "Restore a backup instead (File ▸ Restore from Backup…).",
        )
    log.info("recovered %s into %s: %s, %d files", source, dest, report, files)
    return RecoveryReport(dict(report.copied), dict(report.lost), files, tuple(missing))


def _copy_files(database: Database, source: Path, dest: Path) -> tuple[int, list[FileView]]:
    """Copy the stored files the recovered rows name from the damaged library's storage
    folder into the new one's; (copied, missing in the damaged library's folder)."""
    with database.reading() as session:
        files = stored_files(session, FileStore(storage_beside(source)))
    copied, _, missing = copy_stored(files, FileStore(storage_beside(dest)))
    return copied, missing


def _remove(dest: Path, folder: Path | None) -> None:
    """The new library that was not kept, and the storage folder made for it."""
    dest.unlink(missing_ok=True)
    for end in ("-wal", "-shm"):
        dest.with_name(dest.name + end).unlink(missing_ok=True)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def _recoverable(source: Path) -> None:
    """Refuse a source that holds no refman library to recover (a typo'd name, another
    program's database, a text file): a library damaged past being listed is recovered."""
    hint = "Name the damaged library: refman --db LIBRARY recover NEW-FILE."
    if not source.is_file():
        raise NotFoundError(f"There is no library “{source}” to recover.", hint)
    try:
        kind = identify(source).kind
    except LibraryOpenError as error:
        if isinstance(error.__cause__, sqlite3.DatabaseError):
            return  # damaged where its tables are listed: what can be read is recovered
        raise InvalidValueError(f"{error.message} There is nothing to recover.", hint) from error
    if kind is Kind.NEW:
        raise InvalidValueError(f"“{source}” is empty: there is nothing to recover.", hint)
