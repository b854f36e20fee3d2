"""Where the files attached to papers are on disk, and moving them there safely.

A library file keeps the files it stores in a folder beside it (``library.sqlite`` keeps them
in ``library-files/``), one folder per paper named by its id, each file under its own name, so
the library and its files move together. A file is copied in under a temporary name, written
to the disk and only then given its name, so a file refman shows is always whole. Removing a
stored file sets it aside (in ``.removed/``) so that Undo can put it back; emptying the Trash
deletes what was set aside.

A *linked* file stays where it is: its path is kept relative to the base folder the user set
(a synced folder that has another place on every machine) when it lies inside it, else
absolute.
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path

from refman.common.errors import RefmanError

#: The folder under the storage folder where removed files wait for Empty Trash.
SET_ASIDE = ".removed"
#: The ending of a file being copied in (never shown; left only by a crash mid-copy).
PARTIAL = ".part"


def storage_beside(library: Path) -> Path:
    """The storage folder of a library file: ``<name>-files`` beside it."""
    return library.with_name(f"{library.stem}-files")


def _unique(folder: Path, name: str) -> str:
    """``name``, or "name (2).pdf", "name (3).pdf"… when the folder holds it already."""
    if not (folder / name).exists():
        return name
    stem, dot, ext = name.rpartition(".")
    stem, ext = (stem, dot + ext) if stem else (name, "")
    n = 2
    while (folder / f"{stem} ({n}){ext}").exists():
        n += 1
    return f"{stem} ({n}){ext}"


def _disk_error(error: OSError, what: str) -> RefmanError:
    if error.errno == errno.ENOSPC:
        return RefmanError(
            f"The disk is full: {what} could not be copied.",
            "Free some space on the disk, then attach the file again.",
        )
    return RefmanError(f"{what} could not be copied: {error.strerror or error}.")


def check_source(path: Path) -> int:
    """The size of a file about to be attached.

    Raises:
        RefmanError: It does not exist, is a folder, or cannot be read.
    """
    if not path.exists():
        raise RefmanError(f"There is no file “{path}”.", "Check the name and the folder.")
    if path.is_dir():
        raise RefmanError(f"“{path}” is a folder, not a file.", "Attach the files inside it.")
    if not os.access(path, os.R_OK):
        raise RefmanError(f"“{path}” cannot be read (no permission).")
    return path.stat().st_size


@dataclass(frozen=True, slots=True)
class FileStore:
    """The folders of one library's files.

    Attributes:
        root: The storage folder (None: this library cannot store files, only link them —
            a shared library on a server with no storage folder set).
        base: The base folder of linked files, or None.
    """

    root: Path | None
    base: Path | None = None

    def where(self, path: str, linked: bool) -> Path | None:
        """The file on this machine (None when it cannot be told: no storage folder)."""
        if linked:
            stored = Path(path)
            if stored.is_absolute() or self.base is None:
                return stored
            return self.base / stored
        return self.root / path if self.root is not None else None

    def link_path(self, source: Path) -> str:
        """How a linked file's place is kept: relative to the base folder when inside it."""
        source = source.resolve()
        if self.base is not None:
            try:
                return source.relative_to(self.base.resolve()).as_posix()
            except ValueError:
                pass
        return str(source)

    def _root(self) -> Path:
        if self.root is None:
            raise RefmanError(
                "This library has no folder to store files in.",
                "Choose a storage folder in Preferences, or link the files instead.",
            )
        return self.root

    def store(self, source: Path, folder: str, name: str) -> str:
        """Copy a file in, whole or not at all; its path relative to the storage folder.

        Raises:
            RefmanError: The disk is full, or the file could not be read or written.
        """
        target = self._root() / folder
        partial = target / f".{secrets.token_hex(6)}{PARTIAL}"
        try:
            target.mkdir(parents=True, exist_ok=True)
            with source.open("rb") as reading, partial.open("wb") as writing:
                shutil.copyfileobj(reading, writing, 1024 * 1024)
                writing.flush()
                os.fsync(writing.fileno())
            final = _unique(target, name)
            os.replace(partial, target / final)
        except OSError as error:
            partial.unlink(missing_ok=True)
            raise _disk_error(error, f"“{source.name}”") from error
        return f"{folder}/{final}"

    def set_aside(self, path: str) -> str | None:
        """Move a stored file out of its paper's folder (for Undo); where it went, or None
        when it was not there."""
        root = self._root()
        aside = f"{SET_ASIDE}/{secrets.token_hex(6)}/{Path(path).name}"
        try:
            (root / aside).parent.mkdir(parents=True, exist_ok=True)
            os.replace(root / path, root / aside)
        except FileNotFoundError:
            return None
        self._prune(root / path)
        return aside

    def set_aside_all(self, paths: list[str]) -> None:
        """Set several stored files aside (see :meth:`set_aside`)."""
        for path in paths:
            self.set_aside(path)

    def move(self, path: str, to: str) -> None:
        """Move a stored file (a set-aside one back to its place, say)."""
        root = self._root()
        (root / to).parent.mkdir(parents=True, exist_ok=True)
        os.replace(root / path, root / to)
        self._prune(root / path)

    def rename(self, path: str, name: str) -> str:
        """Give a stored file another name (made unique in its folder); its new path."""
        old = self._root() / path
        new = _unique(old.parent, name)
        os.replace(old, old.parent / new)
        return f"{Path(path).parent.as_posix()}/{new}"

    def delete(self, path: str) -> None:
        """Delete a stored file for good (and its folder when that is left empty)."""
        target = self._root() / path
        target.unlink(missing_ok=True)
        self._prune(target)

    def delete_set_aside(self) -> None:
        """Delete every removed file waiting for Empty Trash."""
        if self.root is not None:
            shutil.rmtree(self.root / SET_ASIDE, ignore_errors=True)

    def _prune(self, file: Path) -> None:
        """Remove a file's folder when it is left empty (never the storage folder)."""
        folder = file.parent
        root = self.root
        while root is not None and folder != root and folder.is_relative_to(root):
            try:
                folder.rmdir()
            except OSError:
                return
            folder = folder.parent


def files_of_backup(backup: Path) -> Path:
    """The folder of the attached files a backup holds: ``<backup name>-files`` beside it."""
    return storage_beside(backup)


def snapshot_files(storage: Path, target: Path) -> int:
    """Put the stored files (not the set-aside ones, nor half-copied ones) in a backup's
    files folder: hard links where the disk allows (no room taken: a stored file is never
    changed in place, only replaced or deleted), else copies. Returns how many.

    Raises:
        OSError: A file could not be linked or copied (a full disk).
    """
    # Over an earlier backup's folder (``backup --to`` the same file again): made anew
    # beside it, then put in its place, so no file the library has since deleted stays.
    building = target
    if target.exists():
        building = target.with_name(f"{target.name}.{os.getpid()}.part")
        shutil.rmtree(building, ignore_errors=True)
    count = 0
    for found in sorted(storage.rglob("*")):
        relative = found.relative_to(storage)
        if not found.is_file() or relative.parts[0] == SET_ASIDE or found.name.startswith("."):
            continue
        copy = building / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(found, copy)
        except OSError:
            shutil.copy2(found, copy)
        count += 1
    if building != target:
        shutil.rmtree(target)
        if building.exists():
            building.rename(target)
    return count


def restore_files(snapshot: Path, storage: Path) -> int:
    """Bring back from a backup's files folder the stored files the library lacks (files
    added since are kept). Returns how many came back."""
    count = 0
    if not snapshot.is_dir():
        return count
    for found in sorted(snapshot.rglob("*")):
        target = storage / found.relative_to(snapshot)
        if found.is_file() and not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(found, target)
            count += 1
    return count
