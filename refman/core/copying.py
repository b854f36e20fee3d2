"""Copying a whole library to another place, of either kind: a library file into a shared
library to start sharing it, a shared library into a file to take it home.

Everything a library holds goes along — papers, people, subjects, tags, notes, the imports
and their history (so an import can still be undone), match keys, versions and who did what —
read at one moment of the source (one read transaction) and written in one transaction of
the destination, which must be a new or empty library: the copy is all there or not there at
all. The search index is built in the destination from the copied rows. The copy counts as
done only when every table holds as many rows as in the source and the same content (a digest
of every row, read back from both).
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Table, func, select, tuple_, update
from sqlalchemy.orm import Session

from refman.common.errors import InvalidValueError, LibraryUnavailableError
from refman.core.attachments import view_of
from refman.core.importing.purge import out_of_sight
from refman.core.library import LibraryService
from refman.core.values import FileView
from refman.store.backend import on_server
from refman.store.bulk import bulk_insert, chunks
from refman.store.file_store import FileStore, storage_beside
from refman.store.id_marks import marks, raise_marks
from refman.store.models import Base, Paper
from refman.store.models_files import PaperFile
from refman.store.models_upkeep import PurgingPaper

log = logging.getLogger("refman.core")

#: The tables copied, parents before children. Snapshots are derived data, worked out again.
TABLES = (
    "persons",
    "subjects",
    "tags",
    "saved_searches",
    "papers",
    "paper_files",
    "file_texts",
    "authorships",
    "attributions",
    "distinct_people",
    "person_aliases",
    "paper_subjects",
    "paper_tags",
    "notes",
    "import_batches",
    "batch_papers",
    "match_blocks",
    "library_tasks",
    "purging",
    "purges",
    "merged_keys",
    "merged_children",
    "citekey_aliases",
    "merged_people",
    "merged_tags",
)
#: Rows read and written at a time.
_BATCH = 5000

Progress = Callable[[str, int], None]


@dataclass(frozen=True)
class CopyReport:
    """What a copy copied, checked against the source.

    Attributes:
        source: The library copied (file or address without a password).
        dest: The library it was copied into.
        rows: Rows per table (the same in both).
        digest: The content digest of both libraries (SHA-256 over every row).
        files: Stored files copied into the destination's storage folder, each checked.
        files_left: Stored files not copied: the destination is a shared library with no
            storage folder (they stay in the source's, and show as missing there).
        files_missing: Stored files the source's folder did not hold (moved or deleted
            outside refman): not copied, and missing in the copy too, their rows kept (each
            names its paper).
    """

    source: str
    dest: str
    rows: dict[str, int]
    digest: str
    files: int = 0
    files_left: int = 0
    files_missing: tuple[FileView, ...] = ()


def _copy_files(source: LibraryService, dest: LibraryService) -> tuple[int, int, list[FileView]]:
    """Copy the stored files the library's rows name into the destination's storage folder;
    (copied, left behind, missing in the source): see :func:`copy_stored`."""
    with source.db.reading() as read:
        files = stored_files(read, source.files)
    return copy_stored(files, dest.files)


def stored_files(session: Session, store: FileStore) -> list[tuple[str, FileView]]:
    """The stored (not linked) files a library's rows name: each one's path in the storage
    folder and its view (missing or not, in ``store``)."""
    if store.root is None:
        return []
    stored = select(PaperFile).where(PaperFile.linked.is_(False)).order_by(PaperFile.id)
    return [(row.path, view_of(store, row)) for row in session.scalars(stored)]


def copy_stored(
    files: list[tuple[str, FileView]], dest: FileStore
) -> tuple[int, int, list[FileView]]:
    """Copy stored files (:func:`stored_files`) into ``dest``'s storage folder, at the same
    paths, each checked by its size; (copied, left behind: ``dest`` has no storage folder,
    missing where they were: their rows say so in both).

    Raises:
        LibraryUnavailableError: A copy is incomplete (a full disk).
    """
    missing = [view for _, view in files if view.missing]
    there = [(path, Path(view.path)) for path, view in files if not view.missing]
    if dest.root is None:
        return 0, len(there), missing
    for path, found in there:
        place = Path(path)  # (copied in whole or not at all; a new folder: the same name)
        stored_as = dest.store(found, place.parent.as_posix(), place.name)
        target = dest.root / stored_as
        if stored_as != path or target.stat().st_size != found.stat().st_size:
            raise LibraryUnavailableError(
                f"The copy of the file “{found}” is incomplete.",
                "Free some space on the disk, then copy the library again into a new file.",
            )
    return len(there), 0, missing


def _table(name: str) -> Table:
    return Base.metadata.tables[name]


def _rows(session: Session, table: Table) -> Iterator[list[dict[str, Any]]]:
    """A table's rows in key order, a batch at a time, as Python values (each batch starts
    after the last key of the one before: a million rows cost a million, not a scan each)."""
    key = list(table.primary_key.columns)
    query = select(table).order_by(*key).limit(_BATCH)
    after: tuple[Any, ...] | None = None
    while True:
        page = query if after is None else query.where(tuple_(*key) > tuple_(*after))
        batch = [dict(r._mapping) for r in session.execute(page)]
        if not batch:
            return
        yield batch
        after = tuple(batch[-1][c.name] for c in key)


def _canonical(value: Any) -> Any:
    if isinstance(value, frozenset | set):
        return sorted(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.hex()
    return value


def digest(session: Session) -> tuple[dict[str, int], str]:
    """Rows per table and one SHA-256 over every row of every copied table, in key order."""
    total = hashlib.sha256()
    counts: dict[str, int] = {}
    for name in TABLES:
        table = _table(name)
        counts[name] = 0
        for batch in _rows(session, table):
            counts[name] += len(batch)
            for row in batch:
                line = json.dumps(
                    [name, *(_canonical(row[c.name]) for c in table.columns)],
                    ensure_ascii=False,
                    default=str,
                )
                total.update(line.encode())
    return counts, total.hexdigest()


def _require_empty(session: Session, where: str) -> None:
    held = session.scalar(select(func.count()).select_from(Paper)) or 0
    others = any(
        session.execute(select(_table(n)).limit(1)).first() is not None
        for n in TABLES
        if n != "library_tasks"
    )
    if held or others:
        raise InvalidValueError(
            f"“{where}” already holds a library ({held:,} papers): a copy goes into a new "
            "library only.",
            "Name a new file, or an empty database on the server.",
        )


@dataclass(frozen=True)
class _SourceRows:
    """The source's rows, a failure reading them named as the source's (a server gone
    mid-copy is the source's failure, not the library being written)."""

    service: LibraryService
    session: Session

    def __call__(self, table: Table) -> Iterator[list[dict[str, Any]]]:
        with self.service.db.plain_errors():
            yield from _rows(self.session, table)


def _write(source: _SourceRows, dest: Session, progress: Progress | None) -> None:
    """Every row of the source into the destination (a paper's look-alike link after all
    papers are in: it may point to a later paper)."""
    duplicates: list[tuple[int, int]] = []
    for name in TABLES:
        table = _table(name)
        done = 0
        for batch in source(table):
            if name == "papers":
                duplicates += [
                    (r["id"], r["possible_duplicate_of"])
                    for r in batch
                    if r["possible_duplicate_of"] is not None
                ]
                batch = [{**r, "possible_duplicate_of": None} for r in batch]
            bulk_insert(dest, _model(name), batch)
            done += len(batch)
            if progress is not None:
                progress(name, done)
    for paper_id, other in duplicates:
        dest.execute(update(Paper).where(Paper.id == paper_id).values(possible_duplicate_of=other))


def _model(name: str) -> Any:
    for mapper in Base.registry.mappers:
        if mapper.local_table is _table(name):
            return mapper.class_
    raise KeyError(name)


def _after_rows(dest: Session, search: Any, given: Mapping[str, int]) -> None:
    """The destination's search words, its papers an undone import withdrew out of sight as
    in the source (the Trash's table is filled by the triggers from the papers' rows, and
    those papers are not in the Trash), and its id marks where the source's are (``given``:
    an id the source gave and forgot is never given by the copy either)."""
    out_of_sight(dest, select(PurgingPaper.paper_id))
    ids = [int(i) for i in dest.execute(select(Paper.id).order_by(Paper.id)).scalars()]
    for part in chunks(ids, _BATCH):
        search.remember(dest, part)
    raise_marks(dest.connection(), given)


def copy_library(
    source: LibraryService, dest: LibraryService, progress: Progress | None = None
) -> CopyReport:
    """Copy every row of ``source`` into the empty library ``dest`` and verify the copy.

    Raises:
        InvalidValueError: ``dest`` is not empty (nothing was written).
        LibraryUnavailableError: The copy differs from the source (it was rolled back or,
            if the difference shows only once written, the message says so).
    """
    with source.db.reading() as read:
        if on_server(read):
            read.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        given = marks(read)
        with dest.db.transaction() as write:
            _require_empty(write, dest.location)
            _write(_SourceRows(source, read), write, progress)
            _after_rows(write, dest.db.search, given)
        rows, source_digest = digest(read)
    if dest.db.shared:  # the server's planner needs to know the tables it now holds
        with dest.db.engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE")
    with dest.db.reading() as check:
        dest_rows, dest_digest = digest(check)
    if (dest_rows, dest_digest) != (rows, source_digest):
        differ = [n for n in TABLES if rows.get(n) != dest_rows.get(n)] or ["content"]
        raise LibraryUnavailableError(
            f"The copy in “{dest.location}” does not match “{source.location}” "
            f"({', '.join(differ)}).",
            "Do not use the copy; the source library is unchanged. Try again, and report "
            "this if it happens twice.",
        )
    files, left, missing = _copy_files(source, dest)
    log.info(
        "copied %s to %s: %s, %d files (%d missing in the source)",
        source.location,
        dest.location,
        rows,
        files,
        len(missing),
    )
    return CopyReport(
        source.location, dest.location, rows, source_digest, files, left, tuple(missing)
    )


def copy_library_to(
    source: LibraryService, location: str, progress: Progress | None = None
) -> CopyReport:
    """Copy ``source`` into the library at ``location``: a new file (made here) or an empty
    library. When the copy fails, what it made is removed again — the file, its journal and
    its storage folder, never anything that was there before — so no empty or partial
    library is left looking like a copy.

    Raises:
        The errors of :func:`copy_library`, or of opening the destination.
    """
    made = _new_file(location)
    try:
        dest = LibraryService.open(location)
        try:
            return copy_library(source, dest, progress)
        finally:
            dest.close()
    except BaseException:
        if made is not None:
            _remove(made)
        raise


def _new_file(location: str) -> list[Path] | None:
    """The paths a library file at ``location`` would make that do not exist yet (None
    for a shared library's address, or a file that exists)."""
    if "://" in location:
        return None
    path = Path(location).expanduser()
    if path.exists():
        return None
    beside = [path.with_name(path.name + end) for end in ("-wal", "-shm", "-journal")]
    return [p for p in (path, *beside, storage_beside(path)) if not p.exists()]


def _remove(paths: list[Path]) -> None:
    for path in paths:
        try:
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink(missing_ok=True)
        except OSError:
            log.warning("could not remove %s after a failed copy", path, exc_info=True)
