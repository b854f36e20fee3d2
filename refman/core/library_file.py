"""The library as a file: whether it is whole, waiting while another program writes, and
its backups.

Backups are made, when refman was given a backup folder (the command line and the window
give the data folder's ``backups``): when the library is closed after changes (at most one an
hour), before an upgrade of its schema, before Empty Trash and before an import that changes
more than :data:`BIG_IMPORT` papers, and on demand. Each is a verified copy; a rotation keeps
them within bounds (see :mod:`refman.store.backup`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from refman.common.errors import InvalidValueError, LibraryUnavailableError, NotFoundError
from refman.core.change_backups import DueBackup, EarlyBackup, not_done
from refman.core.importing.plan import PreparedPlan
from refman.core.operations import EmptyTrash, ImportPages, Operation
from refman.core.upkeep import bring_up_to_date
from refman.store.backup import (
    BackupFile,
    backup_path,
    copy_verified,
    folder_for,
    listed,
    papers_in,
    restorable,
    restore_into,
    stale_parts,
    to_prune,
    writable_over,
)
from refman.store.database import Database
from refman.store.file_store import (
    files_of_backup,
    files_restored,
    snapshot_files,
    storage_beside,
)
from refman.store.identity import identify
from refman.store.schema import bring_up

log = logging.getLogger("refman.core")

#: An import that adds or changes more papers than this is preceded by a backup.
BIG_IMPORT = 1_000
#: A library file this large takes its backup's copy a core for a good while (a quarter of a
#: second and more: 1.7 GB took 3 s): no helper process of the import competes with it.
LONG_COPY_BYTES = 128 * 1024 * 1024
#: A library closed after changes is backed up unless a backup is this recent.
CLOSE_INTERVAL = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class BackupView:
    """A backup as a person sees it in a list."""

    path: Path
    made: datetime
    reason: str
    size: int
    papers: int | None
    #: The attached files it holds (in its ``-files`` folder beside it).
    files: int = 0


class LibraryFile:
    """What concerns the library's file rather than its papers."""

    def __init__(self, database: Database, backups: Path | None = None) -> None:
        self.db = database
        self.backup_root = backups

    # -- checks and locks --------------------------------------------------------------------

    def when_waiting(self, tell: Callable[[], None] | None) -> None:
        """Have ``tell`` called when a change waits (over a second) for another program's
        write to finish; it then waits up to a minute."""
        self.db.on_wait = tell

    def check(self, *, full: bool = False) -> list[str]:
        """Check the library file (SQLite's quick check, or with ``full`` its integrity
        check). A library found damaged is refused every change from then on.

        Returns:
            What is wrong; empty when the library is whole.
        """
        return self.db.verify(full=full)

    def ensure_checked(self) -> str | None:
        """Check the library now unless refman knows it whole (the window does this in the
        background as it opens, so that its first change need not wait).

        Returns:
            What is wrong with it, or None when it is whole.
        """
        with contextlib.suppress(LibraryUnavailableError):
            self.db.require_whole()
        return self.db.damaged

    @property
    def damaged(self) -> str | None:
        """What the last check found wrong with the library file, or None."""
        return self.db.damaged

    @property
    def read_only(self) -> str | None:
        """Why the library can only be read (its file or folder is read-only), or None."""
        return self.db.read_only

    # -- backups ------------------------------------------------------------------------------

    @property
    def backup_folder(self) -> Path | None:
        """The folder of this library's backups, or None when refman keeps none."""
        path = self.db.path
        if self.backup_root is None or path is None:
            return None
        return folder_for(self.backup_root, path)

    def backup(self, reason: str = "manual", to: Path | None = None) -> BackupView:
        """Make a verified copy of the library now: to ``to``, or into its backup folder
        (then the rotation drops the backups it no longer keeps).

        Raises:
            InvalidValueError: There is no library file, no backup folder and no ``to``, or
                ``to`` is the library or a file other than a library's copy.
            LibraryUnavailableError: The copy could not be written or is not whole.
        """
        self._library()  # (a shared library: its server's job)
        folder = self.backup_folder
        if to is None and folder is None:
            raise InvalidValueError("refman keeps no backups here.", "Give a file: --to FILE.")
        if to is not None and to.is_dir():  # a folder: the backup goes in it, as cp does
            target = self._copy(backup_path(to, datetime.now(), reason), reason)
        elif to is not None:
            writable_over(to, self._library())
            target = self._copy(to, reason, keep_others=False)
        else:
            target = self._copy(backup_path(_folder(folder), datetime.now(), reason), reason)
        if to is None:
            self._rotate()
        return _view(BackupFile(target, datetime.now(), reason, target.stat().st_size))

    def _copy(self, target: Path, reason: str, *, keep_others: bool = True) -> Path:
        """Copy the library and its files to ``target`` (verified), without rotating: at
        the next second's name when another backup took that one (``keep_others``).

        Returns:
            Where the copy is.
        """
        library = self._library()
        target = copy_verified(library, target, keep_others=keep_others)
        storage = storage_beside(library)
        if storage.is_dir():
            try:
                snapshot_files(storage, files_of_backup(target))
            except OSError as error:
                raise LibraryUnavailableError(
                    f"The backup “{target}” holds the library but not all its files: {error}.",
                    "Free some space on the disk, then back up again.",
                ) from error
        log.info("backup of %s (%s) at %s", library, reason, target)
        return target

    def backups(self) -> list[BackupView]:
        """The library's backups, newest first, with how many papers each holds.

        Raises:
            InvalidValueError: The library is a shared one (its server keeps its backups).
        """
        if self.db.shared:
            self._library()  # says whose job they are
        folder = self.backup_folder
        return [_view(b) for b in listed(folder)] if folder is not None else []

    def restore(self, backup: Path | str) -> BackupView:
        """Put a backup's content in place of the library's, after backing up the library as
        it is now (reason ``restore``: the restore can itself be undone by restoring that).

        Args:
            backup: A backup's file, or its file name in the library's backup folder.

        Returns:
            The backup of the library as it was before.

        Raises:
            NotFoundError: There is no such backup.
            LibraryUnavailableError: The library can only be read, the backup is not whole,
                or the library could not be written (it is then unchanged).
        """
        self.db.require_writable()
        source = self._find(backup)
        restorable(source)
        before = self.backup("restore")
        self.db.engine.dispose()  # no pooled connection keeps pages of the old content
        library = self._library()
        with files_restored(files_of_backup(source), storage_beside(library)):
            restore_into(source, library)  # (the files first: all, or nothing)
        self.db.changed = True
        # A backup an older refman made (before an upgrade, say) is upgraded as the library
        # it now is would be when opened: a copy of it kept first, then the upkeep.
        bring_up(self.db.engine, identify(library), library, self.backup_root, None)
        bring_up_to_date(self.db)
        self.db.verify()
        self.db.generation += 1
        return before

    def before_change(
        self, op: Operation[Any], prepare: Callable[[], Any], in_trash: Callable[[], int]
    ) -> tuple[Any, DueBackup]:
        """Prepare a change with ``prepare`` and make the backup it calls for: before Empty
        Trash (when the Trash holds papers) and before an import planned to change more than
        :data:`BIG_IMPORT` papers, when refman keeps backups.

        The backup of a large import is made on a thread of its own while the import is
        planned and written (SQLite copies with Python's lock released, from a snapshot of
        the library taken before the import began); the change settles it before it is
        committed (:meth:`DueBackup.settle`), and drops it when it fails.

        Returns:
            What ``prepare`` returned, and the backup still being made (or none).
        """
        early = self._early_backup(op)
        try:
            prepared = prepare()
            if early is not None and not _big(prepared):
                early.drop()  # the plan changes few papers: no backup is due
                early = None
        except BaseException:
            if early is not None:
                early.drop()
            raise
        if early is not None:
            return prepared, early
        reason = "empty-trash" if isinstance(op, EmptyTrash) else "import"
        if not self._no_backups() and (in_trash() if reason == "empty-trash" else _big(prepared)):
            try:
                self.backup(reason)
            except LibraryUnavailableError as error:
                raise not_done(reason, error) from error
        return prepared, DueBackup()

    def _early_backup(self, op: Operation[Any]) -> EarlyBackup | None:
        """The backup an import of more than :data:`BIG_IMPORT` records will likely need,
        begun now; None when none is due."""
        if not isinstance(op, ImportPages) or not op.writes or self._no_backups():
            return None
        if sum(len(sp.page.records) for sp in op.pages) <= BIG_IMPORT:
            return None
        early = EarlyBackup(
            backup_path(_folder(self.backup_folder), datetime.now(), "import"), self._rotate
        )
        early.start(self._copy, long=_size(self.db.path) >= LONG_COPY_BYTES)
        return early

    def _no_backups(self) -> bool:
        return self.backup_folder is None or self.db.read_only is not None

    def backup_on_close(self) -> None:
        """Back up a library closed after changes, unless a backup is under an hour old."""
        folder = self.backup_folder
        if folder is None or not self.db.changed or self.db.damaged is not None:
            return
        latest = listed(folder)
        if latest and datetime.now() - latest[0].made < CLOSE_INTERVAL:
            return
        try:
            self.backup("close")
        except LibraryUnavailableError as error:  # closing must not fail for it
            log.warning("no backup at close: %s", error)

    def _rotate(self) -> None:
        folder = self.backup_folder
        if folder is None:
            return
        size = self._library().stat().st_size
        for old in to_prune(listed(folder), datetime.now(), size):
            old.path.unlink(missing_ok=True)
            shutil.rmtree(files_of_backup(old.path), ignore_errors=True)
            log.info("backup %s dropped by the rotation", old.path)
        for part in stale_parts(folder, datetime.now()):
            part.unlink(missing_ok=True)
            log.info("unfinished copy %s dropped (its program stopped)", part)

    def _find(self, backup: Path | str) -> Path:
        """The backup of that name in the library's backup folder; a path only when it is
        clearly one (it names a folder too) or no backup has that name (a file of the name in
        the current folder never hides the backup)."""
        candidate = Path(backup)
        folder = self.backup_folder
        bare = not any(sep in str(backup) for sep in {"/", os.sep})
        if bare and folder is not None and (folder / candidate.name).is_file():
            candidate = folder / candidate.name
        if not candidate.is_file():
            raise NotFoundError(
                f"There is no backup “{backup}”." if bare else f"There is no file “{backup}”.",
                "Use “refman backups” to see the backups.",
            )
        return candidate

    def _library(self) -> Path:
        path = self.db.path
        if path is None and self.db.shared:
            raise InvalidValueError(
                "A shared library is backed up by its database server, not by refman.",
                "Ask the server's administrator: pg_dump keeps a copy of the whole database.",
            )
        if path is None:
            raise InvalidValueError("This library is not a file; it has no backups.")
        return path


def _big(prepared: Any) -> bool:
    """True for the plan of an import that changes more than :data:`BIG_IMPORT` papers."""
    return isinstance(prepared, PreparedPlan) and prepared.plan.papers_changed() > BIG_IMPORT


def _size(path: Path | None) -> int:
    try:
        return path.stat().st_size if path is not None else 0
    except OSError:
        return 0


def _folder(folder: Path | None) -> Path:
    assert folder is not None
    return folder


def _view(backup: BackupFile) -> BackupView:
    files = files_of_backup(backup.path)
    held = sum(1 for f in files.rglob("*") if f.is_file()) if files.is_dir() else 0
    return BackupView(
        backup.path, backup.made, backup.reason, backup.size, papers_in(backup.path), held
    )
