"""The first page of a paper's PDF, drawn in the detail pane: rendered by pdfium in a worker
process (a hostile PDF cannot hang or crash the window), on a thread of its own, the newest
request first; the few last pages drawn are kept for a paper shown again. A click opens the
PDF.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QImage, QMouseEvent, QPixmap
from PySide6.QtWidgets import QLabel, QWidget

from refman.core.extraction import Extractor

from refman.ui.controller import LibraryController

log = logging.getLogger("refman.ui")

#: The width the page is drawn at (pixels), and how many drawn pages are kept.
PREVIEW_WIDTH = 200
KEPT = 24

#: A drawn page: what it is of (the path, size and change time of the file).
Key = tuple[str, int, float]


class PreviewRenderer(QObject):
    """Draws first pages off the GUI thread (see the module).

    Signals:
        rendered(tuple, object): The key asked for, and its QImage (None: none could be
            drawn).
    """

    rendered = Signal(tuple, object)

    def __init__(self, controller: LibraryController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._extractor = Extractor(time_limit=20.0)
        self._wanted: Key | None = None
        self._done: OrderedDict[Key, QImage | None] = OrderedDict()
        self._lock = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._serve, name="refman-preview", daemon=True)
        self._started = False
        self._warming = False
        controller.on_shutdown.append(self.shutdown)

    def warm(self) -> None:
        """Start the drawing worker ahead of the first drawing (off the GUI thread)."""
        with self._lock:
            if self._started or self._stopping:
                return
            self._started = True
            self._warming = True
            self._thread.start()

    def ask(self, path: Path) -> Key | None:
        """Draw a PDF's first page (its answer comes by :attr:`rendered`); the key, or None
        when the file is not there."""
        try:
            stat = path.stat()
        except OSError:
            return None
        key = (str(path), stat.st_size, stat.st_mtime)
        with self._lock:
            if key in self._done:  # drawn before: told once the caller has the key
                image = self._done[key]
                QTimer.singleShot(0, self, lambda: self.rendered.emit(key, image))
                return key
            self._wanted = key
            if not self._started:
                self._started = True
                self._thread.start()
            self._lock.notify()
        return key

    def _serve(self) -> None:
        if self._warming:
            self._extractor.start()
        while True:
            with self._lock:
                while self._wanted is None and not self._stopping:
                    self._lock.wait()
                if self._stopping:
                    return
                key, self._wanted = self._wanted, None
            assert key is not None
            try:
                drawn = self._extractor.preview(Path(key[0]), PREVIEW_WIDTH)
            except Exception:  # the worker could not even be started: no preview
                log.exception("the first page of %s could not be drawn", key[0])
                if not self._tell(key, None):
                    return
                continue
            image = None
            if drawn.error is None:
                image = QImage(
                    drawn.pixels,
                    drawn.width,
                    drawn.height,
                    drawn.stride,
                    QImage.Format.Format_BGR888,
                ).copy()  # its own pixels, not the answer's bytes
            with self._lock:
                self._done[key] = image
                while len(self._done) > KEPT:
                    self._done.popitem(last=False)
            if not self._tell(key, image):
                return

    def _tell(self, key: Key, image: QImage | None) -> bool:
        """Hand a drawing to the window; False once the window (and this object with it)
        is gone, when there is nobody left to draw for."""
        try:
            self.rendered.emit(key, image)
        except RuntimeError:  # "Signal source has been deleted"
            return False
        return True

    def shutdown(self) -> None:
        """Stop drawing (the worker process too)."""
        with self._lock:
            self._stopping = True
            self._lock.notify()
        self._extractor.close()
        if self._started:
            self._thread.join(5)


class PagePreview(QLabel):
    """The drawn first page; a click opens the file (see :attr:`opened`).

    Signals:
        opened(): The preview was clicked.
    """

    opened = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("filePreview")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Open the PDF")
        self.setStyleSheet("QLabel#filePreview { border: 1px solid palette(mid); }")
        self.hide()

    def show_image(self, image: QImage | None) -> None:
        """Show a drawn page (None hides the preview)."""
        if image is None or image.isNull():
            self.clear()
            self.hide()
            return
        self.setPixmap(QPixmap.fromImage(image))
        self.setFixedSize(image.width() + 2, image.height() + 2)
        self.show()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Open the PDF."""
        if event.button() == Qt.MouseButton.LeftButton:
            self.opened.emit()
        super().mousePressEvent(event)
