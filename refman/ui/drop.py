"""Dropping author pages onto a window: what was dropped, an overlay, and a drop handler.

:func:`inputs_from_mime` reads dragged data (file URLs, plain text, HTML) into
:class:`DropInputs`. :func:`install_drop_target` makes any window a drop target: while
something is dragged over it, a :class:`DropOverlay` says what a drop would do (or why it
would be refused); a drop of images, binary or oversized files imports nothing and is
explained through :func:`~refman.ui.messages.show_error`.
"""

from __future__ import annotations

import inspect
import logging
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, QObject, QPoint, QRectF, Qt, QTimer
from PySide6.QtGui import (
    QColor,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import QWidget

from refman.importers import UnreadableFileError
from refman.importers.pdf_file import is_pdf
from refman.importers.sources import LoadedSource, check_file, html_page

from refman.ui import messages

log = logging.getLogger("refman.ui")

#: What the overlay says over a drop that will be imported.
DROP_MESSAGE = "Drop to import author pages or bibliographies"
#: The source name of dropped text.
DROPPED_TEXT = "dropped text"
_LINK_HINT = (
    "Open the page in your browser, select the publication list and drag or paste the text."
)


@dataclass(frozen=True, slots=True)
class DropInputs:
    """What a drag carries that refman can import.

    Attributes:
        files: Local files, in the order dragged.
        texts: Dragged texts (HTML is already its visible text, with its links).
        links: Web addresses dragged without any text.
        image: True when the drag carries only an image (e.g. from a browser).
    """

    files: tuple[Path, ...] = ()
    texts: tuple[LoadedSource, ...] = ()
    links: tuple[str, ...] = ()
    image: bool = False

    @property
    def is_empty(self) -> bool:
        """True when nothing at all was recognised."""
        return not (self.files or self.texts or self.links or self.image)

    def problems(self) -> list[UnreadableFileError]:
        """Why this drop cannot be imported (empty when it can).

        Files are checked quickly (name, size and first bytes), never read in full.
        """
        found: list[UnreadableFileError] = []
        for path in self.files:
            try:
                check_file(path)
            except UnreadableFileError as error:
                found.append(error)
        if not found and not self.files and not self.texts:
            if self.links:
                found.append(
                    UnreadableFileError(
                        f"‘{self.links[0]}’ is a web address; refman cannot download pages.",
                        _LINK_HINT,
                    )
                )
            elif self.image:
                found.append(UnreadableFileError("The dragged item is an image, not text."))
            else:
                found.append(UnreadableFileError("What was dragged holds no text to import."))
        return found


def inputs_from_mime(mime: QMimeData) -> DropInputs:
    """Read dragged data.

    Local file URLs win over any text the drag also carries (file managers add the paths as
    text); otherwise plain text is taken, or the visible text of HTML when there is no plain
    text.

    Args:
        mime: The drag's data.

    Returns:
        The files, texts, bare links and whether it is only an image.
    """
    urls = mime.urls() if mime.hasUrls() else []
    files = tuple(Path(u.toLocalFile()) for u in urls if u.isLocalFile())
    if files:
        return DropInputs(files=files)
    links = tuple(u.toString() for u in urls if not u.isLocalFile())
    text = mime.text() if mime.hasText() else ""
    html_text, page_links = html_page(mime.html()) if mime.hasHtml() else ("", ())
    if not text.strip():
        text = html_text
    if text.strip() in links:
        text = ""  # a dragged link carries its own address as text
    texts = (LoadedSource(DROPPED_TEXT, text, links=page_links),) if text.strip() else ()
    return DropInputs(
        texts=texts, links=links if not texts else (), image=mime.hasImage() and not texts
    )


def combined_error(problems: list[UnreadableFileError]) -> UnreadableFileError:
    """One error naming every refused file, with the first hint."""
    message = "\n".join(p.message for p in problems)
    hint = next((p.hint for p in problems if p.hint), "")
    return UnreadableFileError(f"Nothing was imported.\n{message}", hint)


class DropOverlay(QWidget):
    """A translucent cover with a dashed rounded border and a large message.

    It covers its parent while something is dragged over it, and follows the parent's size.
    While shown it receives the drag itself, so the whole window is one drop zone; a click
    hides it should a drag end without telling.
    """

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("dropOverlay")
        self.setAcceptDrops(True)
        self.message = ""
        self.detail = ""
        self.refused = False
        parent.installEventFilter(self)
        self.hide()

    def show_message(self, message: str, detail: str = "", *, refused: bool = False) -> None:
        """Cover the parent and show a message.

        Args:
            message: The large line.
            detail: A smaller line below it.
            refused: True to draw it as a refusal (warning colour).
        """
        self.message, self.detail, self.refused = message, detail, refused
        covered = self.parentWidget()
        if covered is not None:
            self.setGeometry(covered.rect())
        self.raise_()
        self.show()
        self.update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Follow the parent's size."""
        # While Qt tears the widgets down, events can arrive after Python's attributes are gone.
        covered = self.parentWidget()
        if covered is not None and watched is covered and event.type() == QEvent.Type.Resize:
            self.setGeometry(covered.rect())
        return False

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Get out of the way."""
        self.hide()
        event.ignore()

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the cover, the dashed border and the message."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        fill = QColor(pal.color(QPalette.ColorRole.Window))
        fill.setAlpha(240)
        painter.fillRect(self.rect(), fill)
        accent = QColor("#c0392b") if self.refused else pal.color(QPalette.ColorRole.Highlight)
        pen = QPen(accent, 3, Qt.PenStyle.DashLine)
        pen.setDashPattern([4.0, 3.0])
        painter.setPen(pen)
        frame = QRectF(self.rect()).adjusted(16, 16, -16, -16)
        painter.drawRoundedRect(frame, 18, 18)
        text_box = frame.adjusted(40, 0, -40, 0)
        big = self.font()
        big.setPointSizeF(max(self.font().pointSizeF(), 9.0) * 2.0)
        big.setBold(True)
        painter.setFont(big)
        painter.setPen(accent if self.refused else pal.color(QPalette.ColorRole.WindowText))
        flags = Qt.AlignmentFlag.AlignHCenter | Qt.TextFlag.TextWordWrap
        metrics_big = painter.fontMetrics()
        big_rect = metrics_big.boundingRect(text_box.toRect(), flags, self.message)
        small = self.font()
        painter.setFont(small)
        small_rect = painter.fontMetrics().boundingRect(text_box.toRect(), flags, self.detail)
        gap = 12 if self.detail else 0
        height = big_rect.height() + gap + small_rect.height()
        top = frame.center().y() - height / 2
        width = max(big_rect.width(), small_rect.width())
        backdrop = QRectF(frame.center().x() - width / 2, top, width, height)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(pal.color(QPalette.ColorRole.Window))
        painter.drawRoundedRect(backdrop.adjusted(-24, -16, 24, 16), 12, 12)
        painter.setPen(accent if self.refused else pal.color(QPalette.ColorRole.WindowText))
        painter.setFont(big)
        painter.drawText(
            QRectF(text_box.left(), top, text_box.width(), big_rect.height()), flags, self.message
        )
        if self.detail:
            painter.setFont(small)
            painter.setPen(pal.color(QPalette.ColorRole.WindowText))
            painter.drawText(
                QRectF(text_box.left(), top + big_rect.height() + gap, text_box.width(), 1000),
                flags,
                self.detail,
            )
        painter.end()


def _describe(inputs: DropInputs) -> str:
    """The overlay's small line for an acceptable drop."""
    if inputs.files:
        names = ", ".join(p.name for p in inputs.files[:3])
        more = f" and {len(inputs.files) - 3} more" if len(inputs.files) > 3 else ""
        noun = "file" if len(inputs.files) == 1 else "files"
        return f"{len(inputs.files)} {noun}: {names}{more}"
    return "The dragged text will be read as an author page or a bibliography."


class DropTarget(QObject):
    """Makes a window accept dropped author pages (see :func:`install_drop_target`).

    Drags from inside the application are left to the widgets that started them.
    """

    def __init__(
        self, window: QWidget, on_drop: Callable[[DropInputs], None], parent: QObject | None
    ) -> None:
        super().__init__(parent)
        # Weak references: the window owns this object (through Qt), and a strong reference
        # back would make the window a Python reference cycle, which the garbage collector
        # may then destroy at an unsafe moment inside Qt's event handling.
        self._window = weakref.ref(window)
        self._on_drop: Callable[[], Callable[[DropInputs], None] | None] = (
            weakref.WeakMethod(on_drop) if inspect.ismethod(on_drop) else (lambda: on_drop)
        )
        self.overlay = DropOverlay(window)
        self._inputs = DropInputs()
        self._problems: list[UnreadableFileError] = []
        #: The paper files dropped at a point of the window go to (its id and title), if any.
        self.attach_target: Callable[[QPoint], tuple[int, str] | None] | None = None
        #: Attaches dropped files to a paper (see :attr:`attach_target`).
        self.on_attach: Callable[[int, tuple[Path, ...]], None] | None = None
        self._hide_timer = QTimer(self)
        self._hide_timer.setSingleShot(True)
        self._hide_timer.setInterval(0)
        self._hide_timer.timeout.connect(self.overlay.hide)
        window.setAcceptDrops(True)
        window.installEventFilter(self)
        self.overlay.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Handle the drag events of the window and of its overlay."""
        ref = getattr(self, "_window", None)
        window = ref() if ref is not None else None
        if window is None or (watched is not window and watched is not self.overlay):
            return False
        kind = event.type()
        if kind == QEvent.Type.DragEnter:
            self._enter(event)  # type: ignore[arg-type]
        elif kind == QEvent.Type.DragMove:
            self._move(event)  # type: ignore[arg-type]
        elif kind == QEvent.Type.DragLeave:
            self._hide_timer.start()
        elif kind == QEvent.Type.Drop:
            self._drop(event)  # type: ignore[arg-type]
        else:
            return False
        return True

    def _paper_at(self, event: QDropEvent | QDragMoveEvent) -> tuple[int, str] | None:
        """The paper files dropped here would be attached to: PDFs (or files refman does not
        import) dropped on a paper. None: they are imported (a PDF dropped off the papers
        adds its paper), or refused."""
        files = self._inputs.files
        if self.attach_target is None or not files or not all(p.is_file() for p in files):
            return None
        if not self._problems and not all(is_pdf(path) for path in files):
            return None  # pages and bibliographies are imported wherever they are dropped
        return self.attach_target(event.position().toPoint())

    def _show(self, event: QDropEvent | QDragMoveEvent) -> None:
        """Say what a drop here would do: attach the files to a paper, import, or why not."""
        paper = self._paper_at(event)
        if paper is not None:
            self.overlay.show_message(f"Drop to attach to “{paper[1]}”", _describe(self._inputs))
        elif self._problems:
            first = self._problems[0]
            self.overlay.show_message(first.message, first.hint, refused=True)
        else:
            self.overlay.show_message(DROP_MESSAGE, _describe(self._inputs))

    def _enter(self, event: QDragEnterEvent) -> None:
        if event.source() is not None:
            event.ignore()
            return
        self._hide_timer.stop()
        self._inputs = inputs_from_mime(event.mimeData())
        self._problems = self._inputs.problems()
        self._show(event)
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()

    def _move(self, event: QDragMoveEvent) -> None:
        if event.source() is not None:
            event.ignore()
            return
        self._show(event)  # over another paper, or off the papers
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()

    def _drop(self, event: QDropEvent) -> None:
        self._hide_timer.stop()
        self.overlay.hide()
        if event.source() is not None:
            event.ignore()
            return
        inputs = self._inputs = inputs_from_mime(event.mimeData())
        self._problems = inputs.problems()
        paper = self._paper_at(event)
        if paper is not None and self.on_attach is not None:
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
            attach, files = self.on_attach, inputs.files
            QTimer.singleShot(0, self, lambda: attach(paper[0], files))
            return
        problems = self._problems
        if problems:
            event.ignore()
            log.info("drop refused: %s", "; ".join(p.message for p in problems))
            messages.show_error(self._window(), combined_error(problems), "Cannot import")
            return
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        # Run after the drop returns, so the drag source is not kept waiting by a dialog.
        QTimer.singleShot(0, self, lambda: self._deliver(inputs))

    def _deliver(self, inputs: DropInputs) -> None:
        on_drop = self._on_drop()
        if on_drop is not None:
            on_drop(inputs)


def install_drop_target(window: QWidget, on_drop: Callable[[DropInputs], None]) -> DropTarget:
    """Let a window (any widget) accept dropped author pages.

    Args:
        window: The window; while something is dragged over it, an overlay covers it.
        on_drop: Called (just after the drop) with what was dropped, when it can be imported.
            Images, binary or oversized files are refused with a message naming the
            file and the reason, and ``on_drop`` is not called.

    Returns:
        The installed target (owned by the window).
    """
    return DropTarget(window, on_drop, window)
