"""Where the files attached to papers are on disk, and moving them there safely.

A library file keeps the files it stores in a folder beside it (``library.sqlite`` keeps them
in ``library-files/``), one folder per paper named by its id, each file under its own name, so
the library and its files move together. A file is copied in under a temporary name, written
to the disk and only then given its name, so a file refman shows is always whole. Removing a
stored file sets it aside (in ``.removed/``) so that Undo can put it back; emptying the Trash
deletes what was set aside, and opening the library what was set aside more than 30 days ago.

A *linked* file stays where it is: its path is kept relative to the base folder the user set
(a synced folder that has another place on every machine) when it lies inside it, else
absolute.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from refman.common.errors import NotFoundError, RefmanError
from refman.common.text import plural

#: The folder under the storage folder where removed files wait for Empty Trash.
SET_ASIDE = ".removed"
#: How long a removed file waits in :data:`SET_ASIDE` when no Empty Trash deletes it.
SET_ASIDE_DAYS = 30
#: The ending of a file being copied in (never shown; left only by a crash mid-copy).
PARTIAL = ".part"


def storage_beside(library: Path) -> Path:
    """The storage folder of a library file: ``<name>-files`` beside it."""
    return library.with_name(f"{library.stem}-files")


#: The longest file name most disks hold, in bytes (ext4, NTFS, APFS: 255).
NAME_MAX = 255
#: An ending up to this long is kept whole when a name is shortened ("paper.pdf" → "pa….pdf").
_ENDING_MAX = 16


def _name_max(folder: Path) -> int:
    """The longest name the disk of ``folder`` (or of its nearest existing parent) holds."""
    for place in (folder, *folder.parents):
        try:
            return min(NAME_MAX, os.pathconf(place, "PC_NAME_MAX"))
        except (OSError, ValueError, AttributeError):
            continue
    return NAME_MAX


def _fitted(stem: str, ext: str, limit: int) -> str:
    """``stem + ext`` cut at the end of the stem to ``limit`` bytes of UTF-8, whole letters
    kept (a name too long for the disk: a long title, or the " (2)" a second copy takes)."""
    room = limit - len(ext.encode())
    cut = stem.encode()[: max(room, 1)].decode(errors="ignore").rstrip()
    return f"{cut or '_'}{ext}"


def _parts(name: str) -> tuple[str, str]:
    """A name's stem and ending (".pdf"; none when it is longer than an ending would be)."""
    stem, dot, ext = name.rpartition(".")
    if not stem or len(ext) + 1 > _ENDING_MAX:
        return name, ""
    return stem, dot + ext


def _unique(folder: Path, name: str) -> str:
    """``name``, or "name (2).pdf", "name (3).pdf"… when the folder holds it already; cut
    short, its ending kept, when the disk holds no name that long."""
    limit = _name_max(folder)
    stem, ext = _parts(name)
    candidate, n = _fitted(stem, ext, limit), 2
    while (folder / candidate).exists():
        candidate = _fitted(stem, f" ({n}){ext}", limit)
        n += 1
    return candidate


def _disk_error(error: OSError, what: str, doing: str) -> RefmanError:
    """A failure to write in the storage folder, in plain words (``doing``: "copied",
    "renamed"…); the folder that cannot be written to is the one that holds the file the
    system names."""
    if error.errno in (errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return RefmanError(
            f"The disk is full: {what} could not be {doing}.",
            "Free some space on the disk, then try again; nothing was changed.",
        )
    if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        named = Path(os.fsdecode(error.filename)).parent if error.filename else None
        where = f"the folder “{named}”" if named is not None else "its folder"
        return RefmanError(
            f"{what} could not be {doing}: {where} cannot be written to (it is read-only, "
            "or you may not change it).",
            "Make the folder writable (or its disk mounted for writing), then try again; "
            "nothing was changed.",
        )
    return RefmanError(f"{what} could not be {doing}: {error.strerror or error}.")


def _named(paths: Sequence[str]) -> str:
    """ "“a.pdf”", "“a.pdf” and 2 other files" (the start of a message)."""
    first = f"“{Path(paths[0]).name}”" if paths else "A file"
    return first if len(paths) < 2 else f"{first} and {plural(len(paths) - 1, 'other file')}"


def check_source(path: Path) -> int:
    """The size of a file about to be attached.

    Raises:
        RefmanError: It does not exist, is a folder, or cannot be read.
    """
    if not path.exists():
        raise RefmanError(f"There is no file “{path}”.", "Check the name and the folder.")
    if path.is_dir():
        raise RefmanError(f"“{path}” is a folder, not a file.", "Attach the files inside it.")
    if not path.is_file():  # a device or a pipe: its reading would never end
        raise RefmanError(
            f"“{path}” is not a file one can attach (a device, a pipe or a socket).",
            "Attach a document saved on the disk.",
        )
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

    def missing(self, path: str, linked: bool) -> bool:
        """Whether the file is not where it should be on this machine (moved or deleted
        outside refman, or stored in a library with no storage folder here)."""
        where = self.where(path, linked)
        return where is None or not where.is_file()

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
        """Copy a file in, whole or not at all; its path relative to the storage folder
        (its name cut short when the disk holds no name that long).

        Raises:
            RefmanError: The disk is full, the storage folder cannot be written to, or the
                file could not be read or written.
        """
        target = self._root() / folder
        partial = target / f".{secrets.token_hex(6)}{PARTIAL}"
        try:
            reading = source.open("rb")
        except OSError as error:
            raise RefmanError(f"“{source}” cannot be read ({error.strerror or error}).") from error
        try:
            target.mkdir(parents=True, exist_ok=True)
            with reading, partial.open("wb") as writing:
                shutil.copyfileobj(reading, writing, 1024 * 1024)
                writing.flush()
                os.fsync(writing.fileno())
            final = _unique(target, name)
            os.replace(partial, target / final)
        except OSError as error:
            reading.close()
            with contextlib.suppress(OSError):  # (a folder that cannot be written holds none)
                partial.unlink(missing_ok=True)
            self._prune(partial)
            raise _disk_error(error, f"“{source.name}”", "copied") from error
        return f"{folder}/{final}"

    def set_aside(self, path: str) -> str | None:
        """Move a stored file out of its paper's folder (for Undo); where it went, or None
        when it was not there.

        Raises:
            RefmanError: The storage folder cannot be written to.
        """
        root = self._root()
        aside = f"{SET_ASIDE}/{secrets.token_hex(6)}/{Path(path).name}"
        try:
            (root / aside).parent.mkdir(parents=True, exist_ok=True)
            os.replace(root / path, root / aside)
        except FileNotFoundError:
            self._prune(root / aside)
            return None
        except OSError as error:
            self._prune(root / aside)
            raise _disk_error(error, f"“{Path(path).name}”", "removed") from error
        self._prune(root / path)
        return aside

    def set_aside_all(self, paths: list[str]) -> None:
        """Set several stored files aside (see :meth:`set_aside`)."""
        for path in paths:
            self.set_aside(path)

    def move(self, path: str, to: str) -> None:
        """Move a stored file (a set-aside one back to its place, say).

        Raises:
            NotFoundError: The file is not there (a set-aside file deleted for good since).
            RefmanError: The storage folder cannot be written to.
        """
        root = self._root()
        name = f"“{Path(to).name}”"
        try:
            (root / to).parent.mkdir(parents=True, exist_ok=True)
            os.replace(root / path, root / to)
        except FileNotFoundError as error:
            self._prune(root / to)
            raise NotFoundError(
                f"{name} is no longer in the library's folder: it was deleted for good (the "
                "Trash was emptied since).",
                "Attach the file again if you still have it.",
            ) from error
        except OSError as error:
            self._prune(root / to)
            raise _disk_error(error, name, "put back") from error
        self._prune(root / path)

    def rename(self, path: str, name: str) -> str:
        """Give a stored file another name (made unique in its folder, cut short when the
        disk holds no name that long); its new path.

        Raises:
            RefmanError: The file is not there, or the storage folder cannot be written to.
        """
        old = self._root() / path
        new = _unique(old.parent, name)
        try:
            os.replace(old, old.parent / new)
        except OSError as error:
            raise _disk_error(error, f"“{old.name}”", "renamed") from error
        return f"{Path(path).parent.as_posix()}/{new}"

    def delete(self, path: str) -> None:
        """Delete a stored file for good (and its folder when that is left empty).

        Raises:
            RefmanError: The storage folder cannot be written to.
        """
        target = self._root() / path
        try:
            target.unlink(missing_ok=True)
        except OSError as error:
            raise _disk_error(error, f"“{target.name}”", "deleted") from error
        self._prune(target)

    def writable(self, paths: Sequence[str], doing: str = "removed") -> None:
        """Check, before a change that deletes or sets aside stored files, that their
        folders can be written to (so that the change is refused while nothing changed,
        instead of leaving the files behind).

        Raises:
            RefmanError: One of the folders holding these files (or the storage folder,
                where removed files wait) cannot be written to.
        """
        if self.root is None:
            return
        folders = {(self.root / path).parent for path in paths if (self.root / path).exists()}
        for folder in sorted(folders | ({self.root} if folders else set())):
            if not os.access(folder, os.W_OK | os.X_OK):
                error = OSError(errno.EACCES, os.strerror(errno.EACCES), str(folder / "-"))
                raise _disk_error(error, _named(paths), doing)

    def delete_set_aside(self) -> None:
        """Delete every removed file waiting for Empty Trash."""
        if self.root is not None:
            shutil.rmtree(self.root / SET_ASIDE, ignore_errors=True)

    def expire_set_aside(self, days: int = SET_ASIDE_DAYS) -> int:
        """Delete the removed files set aside more than ``days`` ago (their Undo was in a
        session long closed); how many. Never fails: what stays waits for the next time."""
        oldest, deleted = time.time() - days * 86400, 0
        with contextlib.suppress(OSError):  # (no folder of files set aside: nothing to do)
            folders = (self.root / SET_ASIDE).iterdir() if self.root is not None else ()
            for folder in folders:
                if folder.is_dir() and folder.stat().st_mtime < oldest:
                    deleted += sum(1 for found in folder.rglob("*") if found.is_file())
                    shutil.rmtree(folder, ignore_errors=True)
        return deleted

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


@contextlib.contextmanager
def files_restored(snapshot: Path, storage: Path) -> Iterator[int]:
    """Bring back from a backup's files folder the stored files the library lacks (files
    added since are kept), each whole or not at all, before the library itself is restored
    inside the ``with`` block: when that fails, they are deleted again. Yields how many came
    back.

    Raises:
        RefmanError: One could not be written (a full disk, a storage folder that cannot be
            written to); those brought back before it were deleted again.
    """
    brought: list[str] = []
    store = FileStore(storage)
    try:
        for found in sorted(snapshot.rglob("*")) if snapshot.is_dir() else ():
            place = found.relative_to(snapshot)
            if found.is_file() and not (storage / place).exists():
                try:
                    brought.append(store.store(found, place.parent.as_posix(), place.name))
                except RefmanError as error:
                    raise RefmanError(
                        f"The backup was not restored: {error.message}", error.hint
                    ) from error
        yield len(brought)
    except BaseException:
        for path in brought:
            with contextlib.suppress(RefmanError):
                store.delete(path)
        raise
