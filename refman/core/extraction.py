"""Reading the text of attached PDFs in a worker process, each file bounded in time and
memory: a hostile or broken PDF can make pypdf loop or swallow memory, and then only the
worker goes (it is started again for the next file); refman never hangs or crashes on it.

The worker is one process, started on first use (spawned: it shares nothing with the
program, threads included) and kept for the files after; the text comes back over a pipe.
"""

from __future__ import annotations

import logging
import multiprocessing
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

log = logging.getLogger("refman.files")

#: How long one file may take (seconds), and how much memory the worker may hold (bytes).
TIME_LIMIT = 60.0
MEMORY_LIMIT = 1024 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Extracted:
    """What reading one file gave.

    Attributes:
        text: Its text ("" when none could be read).
        pages: Its pages (None when not known).
        error: Why no text could be read, for a person to read, or None.
    """

    text: str
    pages: int | None
    error: str | None = None


def _serve(conn: Connection, memory: int) -> None:  # pragma: no cover (runs in the worker)
    """The worker: read a path, send back (text, pages, error), until told to stop."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ImportError, ValueError, OSError):
        pass  # not on this system: the time limit still holds
    from refman.importers.pdf_file import pdf_text

    while True:
        try:
            path = conn.recv()
        except EOFError:
            return
        if path is None:
            return
        try:
            text, pages = pdf_text(Path(path))
            conn.send((text, pages, None))
        except ValueError as error:
            conn.send(("", None, str(error)))
        except MemoryError:
            conn.send(("", None, "it needs more memory than refman allows one file"))


class Extractor:
    """Reads PDFs' text in a worker process (see the module).

    Args:
        time_limit: Seconds one file may take.
        memory_limit: Bytes the worker may hold.
    """

    def __init__(self, time_limit: float = TIME_LIMIT, memory_limit: int = MEMORY_LIMIT) -> None:
        self.time_limit = time_limit
        self.memory_limit = memory_limit
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None

    def _start(self) -> Connection:
        if self._conn is None or self._process is None or not self._process.is_alive():
            context = multiprocessing.get_context("spawn")
            ours, theirs = context.Pipe()
            process = context.Process(
                target=_serve, args=(theirs, self.memory_limit), name="refman-text", daemon=True
            )
            process.start()
            theirs.close()
            self._process, self._conn = process, ours
        return self._conn

    def extract(self, path: Path) -> Extracted:
        """The text of one PDF; a file that is too slow, too big or breaks the worker gives
        an :class:`Extracted` with the reason (the worker is started again next time)."""
        conn = self._start()
        try:
            conn.send(str(path))
            if not conn.poll(self.time_limit):
                self._stop(kill=True)
                return Extracted("", None, f"reading it took over {self.time_limit:.0f} s")
            text, pages, error = conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            self._stop(kill=True)
            return Extracted("", None, "reading it stopped the reader (a broken or hostile file)")
        return Extracted(text, pages, error)

    def _stop(self, *, kill: bool) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if conn is not None:
            try:
                if not kill:
                    conn.send(None)
            except OSError:
                pass
            conn.close()
        if process is not None:
            if kill:
                process.kill()
            process.join(5)

    def close(self) -> None:
        """Stop the worker."""
        self._stop(kill=False)

    def __enter__(self) -> Extractor:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
