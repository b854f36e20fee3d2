"""Reading PDFs in a worker process, each file bounded in time and memory: a hostile or
broken PDF can make pypdf loop or swallow memory, and then only the worker goes (it is
started again for the next file); refman never hangs or crashes on it. The worker reads
attached PDFs' text, draws first pages, and reads the paper a PDF dropped in to be imported
holds.

The worker is one process, started on first use (spawned: it shares nothing with the
program, threads included) and kept for the files after; the text comes back over a pipe.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from refman.importers.errors import NotAnAuthorPageError
from refman.importers.pdf_file import is_pdf
from refman.importers.records import ParsedPage

log = logging.getLogger("refman.files")

#: How much lower the worker's priority is than the program's (Unix niceness).
WORKER_NICENESS = 10

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


@dataclass(frozen=True, slots=True)
class Preview:
    """A PDF's first page as pixels (8-bit BGR rows), or why there is none."""

    pixels: bytes
    width: int
    height: int
    stride: int
    error: str | None = None


def _answer(kind: str, path: Path, width: int) -> tuple[object, ...]:  # pragma: no cover
    """One question to the worker: a file's text, its first page's pixels, its pages, or its
    paper."""
    from refman.importers.pdf_file import first_page_image, pdf_pages, pdf_text

    if kind == "paper":
        return _paper(path)
    if kind == "pages":
        return (pdf_pages(path), None)
    try:
        if kind == "preview":
            return (*first_page_image(path, width), None)
        return (*pdf_text(path), None)
    except ValueError as error:
        return (None, None, str(error))
    except MemoryError:
        return (None, None, "it needs more memory than refman allows one file")


def _paper(path: Path) -> tuple[object, ...]:  # pragma: no cover (runs in the worker)
    """(the page of the paper a PDF holds, None, None), or (None, hint, why not)."""
    from refman.importers.pdf_paper import pdf_page

    try:
        return (pdf_page(path), None, None)
    except NotAnAuthorPageError as error:
        return (None, error.hint, error.message)
    except MemoryError:
        return (None, None, f"“{path.name}” needs more memory than refman allows one file.")


def _serve(conn: Connection, memory: int) -> None:  # pragma: no cover (runs in the worker)
    """The worker: answer (kind, path, width) questions, until told to stop. It runs at a
    lower priority than the window: reading a PDF never takes the CPU from someone typing."""
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ImportError, ValueError, OSError):
        pass  # not on this system: the time limit still holds
    while True:
        try:
            question = conn.recv()
        except (EOFError, OSError):  # refman ended (or was killed): so does the worker
            return
        if question is None:
            return
        kind, path, width = question
        try:
            conn.send(_answer(kind, Path(path), width))
        except OSError:  # refman stopped waiting (it ended, or gave this file up)
            return


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
        self._closed = False

    def start(self) -> None:
        """Start the worker now (its first answer then comes without the start's wait)."""
        self._start()

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

    def _ask(
        self, kind: str, path: Path, width: int = 0, limit: float | None = None
    ) -> tuple[Any, ...]:
        """Ask the worker (``limit``: seconds, when less than its time limit); (..., error)
        with the reason when it is too slow or breaks (the worker is started again next
        time), or when the extractor was closed."""
        if self._closed:
            return (None, None, "refman is closing")
        seconds = self.time_limit if limit is None else min(limit, self.time_limit)
        conn = self._start()
        try:
            conn.send((kind, str(path), width))
            if not conn.poll(seconds):
                self._stop(kill=True)
                return (None, None, f"reading it took over {seconds:.0f} s")
            answer: tuple[Any, ...] = conn.recv()
        except (EOFError, OSError):
            self._stop(kill=True)
            return (None, None, "reading it stopped the reader (a broken or hostile file)")
        return answer

    def extract(self, path: Path) -> Extracted:
        """The text of one PDF, or why there is none."""
        answer = self._ask("text", path)
        if answer[-1] is not None:
            return Extracted("", None, answer[-1])
        text, pages, _ = answer
        return Extracted(text, pages)

    def paper(self, path: Path) -> ParsedPage:
        """The paper a PDF holds, as a page of one record to import (see
        :func:`refman.importers.pdf_paper.pdf_page`), read in the worker.

        Raises:
            NotAnAuthorPageError: The file is no PDF, is encrypted, damaged or too large, or
                its reading broke the time or memory bound.
        """
        answer = self._ask("paper", path)
        page, hint, why = answer
        if isinstance(page, ParsedPage):
            return page
        if hint is None:  # the bounds, or a worker that broke
            why = f"“{path.name}” cannot be read: {why}."
            hint = "Attach it to a paper instead, or open it in a PDF viewer to check it."
        raise NotAnAuthorPageError(str(why), str(hint))

    def pages(self, path: Path) -> int | None:
        """How many pages a PDF has; None for another file, or one that cannot be read."""
        answer = self._ask("pages", path, limit=PAGES_TIME_LIMIT)
        return answer[0] if answer[-1] is None and isinstance(answer[0], int) else None

    def preview(self, path: Path, width: int) -> Preview:
        """A PDF's first page ``width`` pixels wide, or why there is none."""
        answer = self._ask("preview", path, width)
        if answer[-1] is not None:
            return Preview(b"", 0, 0, 0, answer[-1])
        pixels, width, height, stride, _ = answer
        return Preview(pixels, width, height, stride)

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
        """Stop the worker (for good: later questions are answered "refman is closing")."""
        self._closed = True
        self._stop(kill=False)

    def __enter__(self) -> Extractor:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


#: How long counting one file's pages may take (seconds): it reads only the file's index.
PAGES_TIME_LIMIT = 15.0

_counter_lock = threading.Lock()
_counter: Extractor | None = None


def count_pages(path: Path) -> int | None:
    """How many pages a file has, when it is a PDF (None for any other file, or a PDF that
    cannot be read), counted in a worker process of this program's own, bounded in time and
    memory like the text's reading: attaching a hostile PDF never hangs refman. The worker
    starts with the first PDF counted and serves every later one."""
    if not is_pdf(path):
        return None
    with _counter_lock:  # one question at a time (the worker answers on one pipe)
        return _the_counter().pages(path)


def start_counter() -> None:
    """Start the worker that counts pages ahead of the first PDF attached (the window does,
    a moment after it opens, so that attaching answers without the worker's start)."""
    with _counter_lock:
        _the_counter().start()


@contextmanager
def shared_extractor() -> Iterator[Extractor]:
    """The worker that counts pages, for reading texts too (a command that attaches PDFs
    and reads them starts one worker process, not two)."""
    with _counter_lock:
        yield _the_counter()


def _the_counter() -> Extractor:
    global _counter
    if _counter is None:
        _counter = Extractor()
    return _counter
