"""Write-ahead log checkpoints, off the person's wait.

A change to an SQLite library is committed to its write-ahead log (``library.sqlite-wal``);
a *checkpoint* later copies the log's pages into the library file. By default SQLite runs
the checkpoint inside the commit that takes the log past 1,000 pages: after 100,000 papers
of a million were moved to the Trash, that commit spent 2 to 4 s copying 186 MB that the
person had no reason to wait for (the change was already safe in the log).

refman's connections turn that off (``wal_autocheckpoint = 0``,
:mod:`refman.store.connection`). A :class:`Checkpointer` thread, with a connection of its
own, runs a *passive* checkpoint once the changes pause for :data:`QUIET_S`: it never waits
for a lock, never blocks a reader or a writer, and copies what nobody still reads (the rest
goes next time). Closing the library's last connection checkpoints whatever is left and
removes the log (SQLite's own rule), so a library closed normally is one file again. A
process killed before a checkpoint loses nothing: opening the library reads the log.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger("refman.store")

#: How long the changes must pause before the log is copied into the file (a burst of
#: changes, or an import's chunks, is copied once).
QUIET_S = 0.5
#: How long closing the library waits for a checkpoint it interrupted to stop.
_JOIN_S = 10.0


class Checkpointer:
    """Copies a library's write-ahead log into its file in the background (see the
    module); :meth:`nudge` after each commit, :meth:`close` before the library's
    connections are closed."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._wake = threading.Event()
        self._closing = False
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None

    def nudge(self) -> None:
        """A change was committed: checkpoint once the changes pause."""
        with self._lock:
            if self._closing:
                return
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="refman-checkpoint", daemon=True
                )
                self._thread.start()
        self._wake.set()

    def close(self) -> None:
        """Stop the thread (a checkpoint under way is interrupted: the next one, or the
        last connection's close, copies the rest)."""
        with self._lock:
            self._closing = True
            thread, conn = self._thread, self._conn
        self._wake.set()
        if conn is not None:
            conn.interrupt()
        if thread is not None:
            thread.join(_JOIN_S)

    def _run(self) -> None:
        try:
            while self._quiet_after_change():
                self._checkpoint()
        finally:
            with self._lock:
                conn, self._conn = self._conn, None
            if conn is not None:
                conn.close()

    def _quiet_after_change(self) -> bool:
        """Wait for a change, then for the changes to pause; False when closing."""
        self._wake.wait()
        while not self._closing:
            self._wake.clear()
            if not self._wake.wait(QUIET_S):
                return True
        return False

    def _checkpoint(self) -> None:
        try:
            with self._lock:
                if self._closing:
                    return
                if self._conn is None:
                    # mode=rw: a library removed while open is never made again, empty
                    self._conn = sqlite3.connect(
                        f"{self._path.resolve().as_uri()}?mode=rw",
                        uri=True,
                        isolation_level=None,
                        check_same_thread=False,
                    )
                conn = self._conn
            row = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as exc:  # interrupted, a full disk, a lock: the log keeps all
            log.info("checkpoint of %s not finished: %s", self._path, exc)
            return
        log.debug("checkpoint of %s: %s", self._path, row)
