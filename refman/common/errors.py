"""The error family of refman.

A :class:`RefmanError` is a failure a person can understand and act on: its message says what
happened in plain words and its ``hint`` says what to do. Anything else is a bug and belongs in
the log file with its traceback.
"""

from __future__ import annotations


class RefmanError(Exception):
    """A user-fixable failure with a plain-words message and an optional hint.

    Attributes:
        window_hint: What to do, said with the window's menus and buttons where ``hint``
            names commands of the command line (else ``hint``): the window shows it.
    """

    def __init__(self, message: str, hint: str = "", window_hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.window_hint = hint if window_hint is None else window_hint

    def __str__(self) -> str:
        return f"{self.message} {self.hint}".strip() if self.hint else self.message


class NotFoundError(RefmanError):
    """A paper, tag or note named by the caller does not exist."""


class MergedAwayError(NotFoundError):
    """A tag or person named by the caller is no more: merged into another one, which the
    message names (the window says so, not that it was deleted)."""


class InvalidValueError(RefmanError):
    """A value given by the user cannot be stored (an empty title, a year of 20000, ...)."""


class LibraryOpenError(RefmanError):
    """The library file cannot be opened, created or upgraded."""


#: What to do with a damaged library (said wherever refman finds one)...
DAMAGED_HINT = (
    "Nothing was changed. Restore a backup (refman backups, then refman restore-backup "
    "BACKUP), or copy what can still be read into a new library (refman recover NEW-FILE)."
)
#: ...and in the window, whose red strip above the list offers both.
DAMAGED_WINDOW_HINT = (
    "Nothing was changed. Restore a backup (File ▸ Restore from Backup…), or copy what can "
    "still be read into a new library (Recover…, above the list)."
)


class LibraryUnavailableError(RefmanError):
    """The library cannot do this now, for a reason outside refman: it is read-only, damaged,
    locked by another program, or the disk is full. Nothing was changed."""


class DamagedLibraryError(LibraryUnavailableError):
    """The library file is damaged: it is never written to. The message says what was
    found; the hints say what to do (on the command line, in the window)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, DAMAGED_HINT, DAMAGED_WINDOW_HINT)


class ServerUnreachableError(LibraryUnavailableError):
    """A shared library's database server cannot be reached (stopped, the network down) or
    stopped answering. Nothing is wrong with the library: it can be used again, as it was,
    once the server answers."""


class ConflictError(RefmanError):
    """A change (often an undo) found its paper, note or tag changed since: it was refused."""


class EditConflictError(ConflictError):
    """An edit based on a value someone else has changed since: refused, with both versions
    of each field in conflict so that the person can choose.

    Attributes:
        fields: (field name, the value the edit was based on, the edit's value, the value
            now in the library) for each field in conflict.
    """

    def __init__(
        self, message: str, hint: str, fields: tuple[tuple[str, object, object, object], ...]
    ) -> None:
        super().__init__(message, hint)
        self.fields = fields


class StaleWriteError(ConflictError):
    """A row changed between this change's read and its write (another person's change on a
    shared library landed in between): the change is tried again from the start."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"{what} was changed by someone else while this change was being saved.",
            "Nothing was changed; look at it again and repeat the change.",
        )


class CancelledError(RefmanError):
    """The person cancelled a long operation; its transaction rolled back."""

    def __init__(self, message: str = "Cancelled; the library is unchanged.") -> None:
        super().__init__(message)
