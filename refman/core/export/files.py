"""Writing an export to a file safely: the text goes to a temporary file beside the target,
which then replaces it in one step. If anything fails, a file already there is untouched.
A target that is no file (``/dev/stdout``, a pipe such as bash's ``>(…)``, a device) is
written to as it is: replacing it would put a file where the device or pipe was."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from refman.common.errors import RefmanError

__all__ = ["ExportWriteError", "write_export"]


class ExportWriteError(RefmanError):
    """An export could not be written to its file."""


def _new_file_mode() -> int:
    """The permissions a new file gets (0666 less the umask), read without changing it."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("Umask:"):
                return 0o666 & ~int(line.split()[1], 8)
    return 0o644


def _reason(error: OSError) -> str:
    return error.strerror or str(error) or type(error).__name__


def _is_stream(path: str | Path) -> bool:
    """Whether path names something that is neither a file nor a folder (a device, a pipe),
    its links followed as opening it would (``/dev/fd/63`` of ``>(…)`` included)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _write_stream(path: str | Path, data: bytes) -> None:
    """Write to a device or a pipe, which cannot be replaced."""
    try:
        with open(path, "wb") as stream:
            stream.write(data)
    except OSError as error:
        raise ExportWriteError(
            f"Could not write ‘{path}’: {_reason(error)}.",
            "What was written there is incomplete.",
        ) from error


def write_export(path: str | Path, text: str) -> Path:
    """Write text (UTF-8, line ends as given) to a file, replacing it in one step. A ``.csv``
    file starts with a byte order mark: without one, Excel reads it as the Windows code page
    and garbles every accent (LibreOffice, Numbers and Python's ``utf-8-sig`` take it).

    Args:
        path: The file. A symbolic link is followed: the file it points to is replaced. A
            device or a pipe (``/dev/stdout``) is written to, not replaced.
        text: The export.

    Returns:
        The file written.

    Raises:
        ExportWriteError: The folder is missing or not writable, the path is a folder, the
            disk is full, ... Any file already at ``path`` is left as it was.
    """
    if _is_stream(path):
        _write_stream(path, text.encode("utf-8"))
        return Path(path)
    target = Path(os.path.realpath(path))
    if target.is_dir():
        raise ExportWriteError(f"‘{path}’ is a folder.", "Give the name of a file to write.")
    try:
        mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else _new_file_mode()
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as error:
        raise ExportWriteError(
            f"Could not write ‘{path}’: {_reason(error)}.",
            "Check that the folder exists and that you may write to it.",
        ) from error
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(text.encode("utf-8-sig" if target.suffix.lower() == ".csv" else "utf-8"))
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temp, mode)
        os.replace(temp, target)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise ExportWriteError(
            f"Could not write ‘{path}’: {_reason(error)}.",
            "Nothing was changed; check the free space and your permissions.",
        ) from error
    return target
