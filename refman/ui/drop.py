"""Dropping author pages onto a window: what was dropped, an overlay, and a drop handler.

:func:`inputs_from_mime` reads dragged data (file URLs, plain text, HTML) into
:class:`DropInputs`. :func:`install_drop_target` makes any window a drop target: while
something is dragged over it, a :class:`DropOverlay` says what a drop would do (or why it
would be refused). Files that cannot be imported (images, binary or oversized files) go on
with the others, for the wizard to name each and leave it out; a drop of nothing but such
files imports nothing and is explained through :func:`~refman.ui.messages.show_error`.
"""

from __future__ import annotations

import inspect
import logging
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, QObject, QPoint, Qt, QTimer
from PySide6.QtGui import QAction, QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QWidget

from refman.importers import UnreadableFileError
from refman.importers.messages import LINK_HINT, web_address
from refman.importers.pdf_file import is_pdf
from refman.importers.sources import LoadedSource, check_file, html_page

from refman.ui import messages
from refman.ui.drop_overlay import DropOverlay
from refman.ui.read_only import locked

log = logging.getLogger("refman.ui")

#: What the overlay says over a drop that will be imported.
DROP_MESSAGE = "Drop to import author pages, bibliographies or PDFs"
#: The source name of dropped text.
DROPPED_TEXT = "dropped text"
#: What a drop on a library that can only be read does not do.
LOCKED_HINT = "Nothing dropped here can be imported or attached."


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
                found.append(UnreadableFileError(f"{web_address(self.links[0])}.", LINK_HINT))
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
    hint = next((p.window_hint for p in problems if p.window_hint), "")
    return UnreadableFileError(f"Nothing was imported.\n{message}", hint)


def _describe(inputs: DropInputs, left_out: Sequence[UnreadableFileError] = ()) -> str:
    """The overlay's small lines for an acceptable drop (and the files it leaves out)."""
    if inputs.files:
        names = ", ".join(p.name for p in inputs.files[:3])
        more = f" and {len(inputs.files) - 3} more" if len(inputs.files) > 3 else ""
        noun = "file" if len(inputs.files) == 1 else "files"
        lines = [f"{len(inputs.files)} {noun}: {names}{more}"]
        lines += [f"{p.message} It will be left out." for p in left_out[:3]]
        if len(left_out) > 3:
            lines.append(f"{len(left_out) - 3} more will be left out.")
        return "\n".join(lines)
    return "The dragged text will be read as an author page or a bibliography."


class DropTarget(QObject):
    """Makes a window accept dropped author pages (see :func:`install_drop_target`).

    Drags from inside the application are left to the widgets that started them.
    """

    def __init__(
        self,
        window: QWidget,
        on_drop: Callable[[DropInputs], None],
        parent: QObject | None,
        reports_files: bool = False,
        action: QAction | None = None,
    ) -> None:
        super().__init__(parent)
        self._reports_files = reports_files
        self._action = action
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

    def _refusal(self) -> list[UnreadableFileError]:
        """Why a drop would import nothing (empty when it goes on to ``on_drop``).

        Files go on while one of them can be imported (the receiver names each of the others
        and leaves it out), or always for a receiver that shows every file's problem.
        """
        files = self._inputs.files
        if files and (self._reports_files or len(self._problems) < len(files)):
            return []
        return self._problems

    def _show(self, event: QDropEvent | QDragMoveEvent) -> None:
        """Say what a drop here would do: attach the files to a paper, import, or why not."""
        paper = self._paper_at(event)
        if (refused := locked(self._action, LOCKED_HINT)) is not None:
            self.overlay.show_message(refused.message, refused.window_hint, refused=True)
        elif paper is not None:
            self.overlay.show_message(f"Drop to attach to “{paper[1]}”", _describe(self._inputs))
        elif refusal := self._refusal():
            first = refusal[0]
            self.overlay.show_message(first.message, first.window_hint, refused=True)
        else:
            self.overlay.show_message(DROP_MESSAGE, _describe(self._inputs, self._problems))

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
        if (refused := locked(self._action, LOCKED_HINT)) is not None:
            event.ignore()
            messages.show_error(self._window(), refused, "Cannot import")
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
        problems = self._refusal()
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


def install_drop_target(
    window: QWidget,
    on_drop: Callable[[DropInputs], None],
    *,
    reports_files: bool = False,
    action: QAction | None = None,
) -> DropTarget:
    """Let a window (any widget) accept dropped author pages.

    Args:
        window: The window; while something is dragged over it, an overlay covers it.
        on_drop: Called (just after the drop) with what was dropped, when something of it
            can be imported: files that cannot be (images, binary or oversized files) come
            along with the others, for ``on_drop`` to name each and leave it out. A drop of
            nothing but such files is refused with a message naming each file and the
            reason, and ``on_drop`` is not called.
        reports_files: ``on_drop`` shows every file's problem itself (the wizard's card for
            each source): files are never refused, even when none can be imported.
        action: The action a drop does (File ▸ Import…): while it is locked because the
            library can only be read, every drop is refused with its reason.

    Returns:
        The installed target (owned by the window).
    """
    return DropTarget(window, on_drop, window, reports_files, action)
