"""The library as a file: whether it is whole, and waiting while another program writes."""

from __future__ import annotations

from collections.abc import Callable

from refman.store.database import Database


class LibraryFile:
    """What concerns the library's file rather than its papers."""

    def __init__(self, database: Database) -> None:
        self.db = database

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

    @property
    def damaged(self) -> str | None:
        """What the last check found wrong with the library file, or None."""
        return self.db.damaged

    @property
    def read_only(self) -> str | None:
        """Why the library can only be read (its file or folder is read-only), or None."""
        return self.db.read_only
