"""The backup a change waits for before it is committed (Empty Trash's, a large import's),
and what the change says when that backup cannot be made: the change is then not made.

A large import's backup is made on a thread of its own while the import is planned and
written (:class:`EarlyBackup`); the change settles it before its commit.
"""

from __future__ import annotations

import contextlib
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

from refman.common.errors import LibraryUnavailableError
from refman.common.parallel import core_taken
from refman.store.file_store import files_of_backup

#: What a change refused for want of its backup says first, by the backup's reason.
_NOT_DONE = {
    "import": "Nothing was imported: refman backs up the library before so large an import, "
    "and the backup failed",
    "empty-trash": "The Trash was not emptied: refman backs up the library before it deletes "
    "papers for good, and the backup failed",
}


def not_done(reason: str, error: LibraryUnavailableError) -> LibraryUnavailableError:
    """The error of a change refused because the backup it waits for could not be made (the
    backup's own error says why, and what to do)."""
    said = _NOT_DONE.get(reason, "Nothing was changed: the backup made first failed")
    return LibraryUnavailableError(f"{said}. {error.message}", error.hint, error.window_hint)


class DueBackup:
    """The backup a change waits for before it is committed: none."""

    def settle(self) -> None:
        """Wait for the backup; keep it.

        Raises:
            LibraryUnavailableError: It could not be made (the change must not be kept).
        """

    def drop(self) -> None:
        """Wait for the backup and delete it, unless it was kept (the change failed)."""


class EarlyBackup(DueBackup):
    """A backup being made on a thread of its own while the change it precedes goes on."""

    def __init__(self, target: Path, kept: Callable[[], None]) -> None:
        self.target = target
        self._kept = kept
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._settled = False
        self._made = False

    def start(self, copy: Callable[[Path, str], Path], *, long: bool = True) -> None:
        """Begin copying the library to :attr:`target` with ``copy`` (which says where the
        copy went). A ``long`` copy keeps its core to itself (no helper process of the
        import's competes with it); a short one ends before the import needs a helper."""

        def run() -> None:
            try:
                with core_taken() if long else contextlib.nullcontext():
                    self.target = copy(self.target, "import")
                self._made = True
            except BaseException as error:  # told when the change settles
                self._error = error

        self._thread = threading.Thread(target=run, name="refman-backup", daemon=True)
        self._thread.start()

    def settle(self) -> None:
        """Wait for the copy and keep it (the rotation then drops what it no longer keeps).

        Raises:
            LibraryUnavailableError: The copy could not be made.
        """
        if self._settled:
            return
        self._join()
        if isinstance(self._error, LibraryUnavailableError):
            raise not_done("import", self._error) from self._error
        if self._error is not None:
            raise self._error
        self._settled = True
        self._kept()

    def drop(self) -> None:
        """Wait for the copy and delete it, unless it was kept."""
        if self._settled:
            return
        self._join()
        if self._made:  # (else the name may be another program's backup)
            self.target.unlink(missing_ok=True)
            shutil.rmtree(files_of_backup(self.target), ignore_errors=True)

    def _join(self) -> None:
        if self._thread is not None:
            self._thread.join()
