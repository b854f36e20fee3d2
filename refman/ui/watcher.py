"""The window hears about changes made elsewhere to its library (another program on the same
file, a colleague on the same shared library) and refreshes what they touched.

A thread of its own asks the library's change feed (:mod:`refman.core.watching`) a few times
a second, so that neither a slow network nor a server gone away ever holds up the window;
news reaches the window as a Qt signal. When the feed fails (the server went away), the
window is told in plain words, the thread tries again every few seconds, and once back it
reports the library as changed (what happened meanwhile was not heard).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal

from refman.common.errors import ServerUnreachableError
from refman.common.words import first_sentence
from refman.core.watching import ChangeFeed

log = logging.getLogger("refman.ui")

#: How often the feed is asked (seconds): news shows within a second, at no cost.
POLL_SECONDS = 0.25
#: How long to wait before trying a lost feed again.
RETRY_SECONDS = 3.0


class LibraryWatcher(QObject):
    """Asks the library's change feed off the GUI thread.

    Signals:
        changed_elsewhere(): Someone else changed the library.
        reachable(str): The library cannot be heard from (a plain message), or "" once it
            can again.
        server(object): The shared library's server cannot be reached (the
            :class:`~refman.common.errors.ServerUnreachableError`), or None once it is back.
    """

    changed_elsewhere = Signal()
    reachable = Signal(str)
    server = Signal(object)
    # What the thread says, handed to the GUI thread (which drops it once stopped: a window
    # closed meanwhile hears nothing more).
    _heard = Signal()
    _lost = Signal(object)

    def __init__(
        self,
        make_feed: Callable[[], ChangeFeed],
        parent: QObject | None = None,
        interval: float = POLL_SECONDS,
    ) -> None:
        super().__init__(parent)
        self._make_feed = make_feed
        self._interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._heard.connect(self._on_heard, Qt.ConnectionType.QueuedConnection)
        self._lost.connect(self._on_lost, Qt.ConnectionType.QueuedConnection)

    def _on_heard(self) -> None:
        if not self._stop.is_set():
            self.changed_elsewhere.emit()

    def _on_lost(self, error: Exception | None) -> None:
        if self._stop.is_set():
            return
        if error is None:  # back
            self.reachable.emit("")
            self.server.emit(None)
        elif isinstance(error, ServerUnreachableError):
            self.server.emit(error)
        else:
            self.reachable.emit(
                "Changes made elsewhere to this library cannot be heard right now "
                f"({first_sentence(str(error))}); refman keeps trying."
            )

    def start(self) -> None:
        """Start listening (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="refman-watch", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop listening and wait for the thread (briefly)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=RETRY_SECONDS + 1)
            self._thread = None

    def _run(self) -> None:
        feed: ChangeFeed | None = None
        lost = False
        while not self._stop.is_set():
            try:
                if feed is None:
                    feed = self._make_feed()
                    if lost:  # back: what changed meanwhile was not heard
                        lost = False
                        self._lost.emit(None)
                        self._heard.emit()
                if feed.poll():
                    self._heard.emit()
            except Exception as exc:  # a lost server or file: say so, try again later
                log.warning("cannot hear changes to the library: %s", first_sentence(str(exc)))
                if not lost:
                    self._lost.emit(exc)
                lost = True
                _closed(feed)
                feed = None
                self._stop.wait(RETRY_SECONDS)
                continue
            self._stop.wait(self._interval)
        _closed(feed)


def _closed(feed: ChangeFeed | None) -> None:
    if feed is not None:
        try:
            feed.close()
        except Exception:  # closing a broken connection may fail too: nothing to keep
            log.debug("closing the change feed failed", exc_info=True)
