"""Hearing that a library was changed by someone else: another program on the same file, or
another person on the same shared library. One question, :meth:`ChangeFeed.poll`, with two
sources:

* a library file: its revision (SQLite's user version, which every change of any program
  moves on, see :mod:`refman.store.connection`) read on a connection of its own, a few
  times a second (microseconds each); revisions this process wrote itself are not news;
* a shared library: the server's notifications (``LISTEN``/``NOTIFY``): every change
  notifies at its commit with the token of the program that made it; a program's own
  notifications are not news.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from sqlalchemy import Engine

from refman.common.errors import RefmanError
from refman.store.failures import server_described, unreachable

log = logging.getLogger("refman.store")

#: The channel of a shared library's change notifications.
CHANNEL = "refman_changes"


class ChangeFeed(Protocol):
    """Tells whether someone else changed the library since it was last asked."""

    def poll(self) -> bool:
        """True when another program (or person) changed the library since the last poll."""

    def close(self) -> None:
        """Stop listening."""


class FileFeed:
    """Changes to a library file by other programs (see the module)."""

    def __init__(self, engine: Engine, own: set[int]) -> None:
        self._conn = engine.raw_connection()
        self._own = own
        self._seen = self._revision()

    def _revision(self) -> int:
        cursor = self._conn.cursor()
        try:
            cursor.execute("PRAGMA user_version")
            row = cursor.fetchone()
            return int(row[0] or 0) if row else 0
        finally:
            cursor.close()

    def poll(self) -> bool:
        """True when a revision this process did not write appeared since the last poll."""
        now = self._revision()
        if now == self._seen:
            return False
        written = set(range(self._seen + 1, now + 1)) if now > self._seen else {now}
        self._seen = now
        return not written <= self._own

    def close(self) -> None:
        """Give the connection back."""
        self._conn.close()


class ServerFeed:
    """Changes to a shared library by other programs (see the module).

    Raises (making it, and :meth:`poll`):
        ServerUnreachableError: The server cannot be reached (any more): the caller makes a
            new feed when it can again, and treats the library as changed (notifications
            sent meanwhile were lost).
    """

    def __init__(self, engine: Engine, token: str, name: str, arguments: dict[str, Any]) -> None:
        import psycopg

        self._name = name
        dsn = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        try:  # (``arguments``: as every connection of refman's, see store/connection.py)
            self._conn: Any = psycopg.connect(dsn, autocommit=True, **arguments)
            self._conn.execute(f"LISTEN {CHANNEL}")
        except psycopg.Error as exc:
            raise self._lost(exc) from exc
        self._token = token

    def _lost(self, exc: BaseException) -> RefmanError:
        return server_described(exc, self._name) or unreachable(self._name, str(exc))

    def poll(self) -> bool:
        """True when another program's change was notified since the last poll."""
        import psycopg

        news = False
        try:
            for note in self._conn.notifies(timeout=0, stop_after=10_000):
                news = news or not note.payload.endswith(f" {self._token}")
        except psycopg.Error as exc:
            raise self._lost(exc) from exc
        if self._conn.closed or self._conn.broken:
            raise unreachable(self._name, "the connection to the server was lost")
        return news

    def close(self) -> None:
        """Stop listening."""
        self._conn.close()
