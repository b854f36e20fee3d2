"""Reading the text of attached PDFs in the background, with its progress in the status bar.

When the window opens and whenever files are attached, a thread of its own reads the PDFs
whose text is not in the search yet (:meth:`LibraryService.index_files`, each file in a
worker process); the window goes on as usual. Closing the window stops it between two files
(the file being read is read again next time): indexing survives a restart half-way.
"""

from __future__ import annotations

import logging
import threading
from contextlib import suppress

from PySide6.QtCore import QObject, Signal

from refman.common.errors import RefmanError
from refman.core.extraction import Extractor
from refman.core.file_index import IndexReport

from refman.ui.controller import LibraryController

log = logging.getLogger("refman.ui")


class FileIndexer(QObject):
    """Reads PDFs' text off the GUI thread (see the module).

    Signals:
        progress(IndexProgress): Another file was read.
        finished(IndexReport): A round of reading ended: the files it read, and those with
            no text to read.
    """

    progress = Signal(object)
    finished = Signal(object)

    def __init__(self, controller: LibraryController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.service = controller.service
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._again = False
        self._busy = False
        self._stopping = False
        self._extractor = Extractor()
        controller.on_shutdown.append(self.shutdown)

    @property
    def running(self) -> bool:
        """True while files are being read."""
        return self._busy

    def start(self) -> None:
        """Read what is not read yet (once more after the current round, if one runs)."""
        with self._lock:
            if self._stopping:
                return
            if self._busy:
                self._again = True
                return
            self._busy = True
            self._thread = threading.Thread(target=self._run, name="refman-index", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        read, unreadable = 0, IndexReport().unreadable
        while True:
            with self._lock:
                self._again = False
            try:
                report = self.service.index_files(
                    self._extractor, self._tell_progress, lambda: self._stopping
                )
                read, unreadable = read + report.read, unreadable + report.unreadable
            except RefmanError as error:  # a library that can only be read, say
                log.info("the text of the files was not read: %s", error)
            except Exception:
                log.exception("reading the text of the files failed")
            with self._lock:
                if self._stopping or not self._again:
                    self._busy = False
                    break
        if not self._stopping:
            with suppress(RuntimeError):  # (the window went meanwhile: nobody to tell)
                self.finished.emit(IndexReport(read, unreadable))

    def _tell_progress(self, done: object) -> None:
        """Tell the window how far reading is; once the window (and this object with it)
        is gone, stop between two files instead."""
        try:
            self.progress.emit(done)
        except RuntimeError:  # "Signal source has been deleted"
            self._stopping = True

    def wait(self, timeout: float = 60.0) -> bool:
        """Wait until the round of reading ends (tests). True when it did."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return thread is None or not thread.is_alive()

    def shutdown(self) -> None:
        """Stop between two files (the worker process is stopped: a file being read is
        given up, and read again next time)."""
        with self._lock:
            self._stopping = True
        self._extractor.close()
        thread = self._thread
        if thread is not None:
            thread.join(10)
