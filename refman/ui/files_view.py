"""The detail pane's Files block: the paper's files with their pages and size; a click opens
one with the system's viewer, its menu shows it in its folder, renames or removes it
(undoable); *Attach File…* in the heading adds more. A file that is not where it should be is
shown as missing.

The dialogs are plain functions of this module, which tests replace.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QImage
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QMainWindow,
    QMenu,
    QPushButton,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from refman.common.errors import RefmanError
from refman.common.text import plural
from refman.common.words import size_text
from refman.core.attachments import AttachFiles, RemoveFiles, RenameFile
from refman.core.file_index import FoundText
from refman.core.operations import Outcome
from refman.core.values import FileView, PaperDetail

from refman.ui import messages
from refman.ui.controller import LibraryController
from refman.ui.file_preview import PagePreview, PreviewRenderer
from refman.ui.look import (
    ATTENTION,
    clear_layout,
    heading_with,
    link_button,
    link_button_style,
    plain_label,
    scaled_font,
    set_muted,
)
from refman.ui.read_only import mark_changing
from refman.ui.shown_changes import Follows, change_shown

log = logging.getLogger("refman.ui")

#: Said under the heading of a paper without files.
NO_FILES = "No files. Drop PDFs here, or Attach File…"


def ask_files(parent: QWidget | None) -> list[str]:
    """Ask for files to attach (tests replace this function)."""
    paths, _ = QFileDialog.getOpenFileNames(parent, "Attach Files", "", "All files (*)")
    return list(paths)


def ask_file_name(parent: QWidget | None, old: str) -> str | None:
    """Ask for a file's new name (tests replace this function)."""
    text, ok = QInputDialog.getText(parent, "Rename File", "New name of the file:", text=old)
    return text if ok and text.strip() else None


def ask_located(parent: QWidget | None, name: str) -> str | None:
    """Ask where a missing file is now (tests replace this function)."""
    path, _ = QFileDialog.getOpenFileName(parent, f"Locate “{name}”", "", "All files (*)")
    return path or None


def open_path(parent: QWidget | None, path: Path, what: str) -> None:
    """Open a file or folder with the system's program for it, or say why not."""
    if not path.exists():
        messages.show_error(
            parent,
            RefmanError(
                f"{what} is missing: it is not at {path}.",
                "Find it, then use Locate… in the file's ⋯ menu.",
            ),
            "Cannot open",
        )
    elif not QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
        messages.show_error(
            parent,
            RefmanError(f"No program could open {what}.", f"Open it yourself: {path}"),
            "Cannot open",
        )


def about(file: FileView) -> str:
    """ "12 pages · 1.2 MB · linked", or why it is missing."""
    if file.missing:
        return f"Missing: not at {file.path}" if file.path else "Missing"
    parts = [plural(file.pages, "page")] if file.pages is not None else []
    parts.append(size_text(file.size))
    if file.linked:
        parts.append("linked")
    return " · ".join(parts)


class FileRow(QWidget):
    """One file: its name (a click opens it), what it is, and its menu."""

    def __init__(self, view: FilesView, file: FileView) -> None:
        super().__init__(view)
        self.setObjectName("fileRow")
        self.file = file
        self.name = link_button(file.name, self)
        self.name.setObjectName("fileName")
        self.name.setStyleSheet(link_button_style("text-align: left;"))
        icon = QStyle.StandardPixmap.SP_FileIcon
        self.name.setIcon(self.style().standardIcon(icon))
        self.name.setToolTip(f"Open {file.path}")
        self.name.clicked.connect(lambda: view.open_file(file))
        self.about = plain_label(about(file), self)
        self.about.setObjectName("fileAbout")
        self.about.setFont(scaled_font(self.about.font(), 0.9))
        if file.missing:
            self.about.setStyleSheet(f"QLabel {{ color: {ATTENTION}; }}")
        else:
            set_muted(self.about)
        self.menu_button = QToolButton(self)
        self.menu_button.setObjectName("fileMenu")
        self.menu_button.setText("⋯")
        self.menu_button.setAutoRaise(True)
        self.menu_button.setToolTip("Open, show in its folder, rename or remove this file")
        self.menu_button.setStyleSheet("QToolButton::menu-indicator { image: none; }")
        self.menu_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu = QMenu(self.menu_button)
        if file.missing:
            self.menu.addAction("Locate…", lambda: view.locate(file))
        self.menu.addAction("Open", lambda: view.open_file(file))
        self.menu.addAction("Show in Folder", lambda: view.show_in_folder(file))
        self.menu.addSeparator()
        self.menu.addAction("Rename…", lambda: view.rename(file))
        self.menu.addAction("Remove", lambda: view.remove(file))
        self.menu_button.setMenu(self.menu)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.name, 1)
        top.addWidget(self.menu_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 2)
        layout.setSpacing(0)
        layout.addLayout(top)
        layout.addWidget(self.about)


class FilesView(QWidget):
    """The files of the paper shown.

    Signals:
        attached(tuple): Files were attached; the argument is their views.
    """

    attached = Signal(tuple)

    def __init__(self, controller: LibraryController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("paperFiles")
        self.controller = controller
        self.paper_id: int | None = None
        #: The paper was seen in the library: a merge elsewhere since is followed.
        self.follows: Follows = lambda: False
        #: Link attached files where they are instead of copying them (a preference).
        self.link = False
        self.attach_button = QPushButton("Attach File…", self)
        self.attach_button.setObjectName("attachFile")
        self.attach_button.setToolTip("Attach PDFs or other files to this paper")
        self.attach_button.clicked.connect(self.on_attach_clicked)
        mark_changing(self.attach_button)
        #: The block's heading: "FILES" with Attach File… at its right.
        self.heading = heading_with("Files", self.attach_button, parent or self)
        self.empty = plain_label(NO_FILES, self)
        self.empty.setObjectName("noFiles")
        set_muted(self.empty)
        #: Where in its files an Everything search found the paper (hidden otherwise).
        self.found = plain_label("", self)
        self.found.setObjectName("foundInFiles")
        self.found.setFont(scaled_font(self.found.font(), 0.92))
        self.found.hide()
        #: The search whose words are looked for in the files ("": none, or not Everything).
        self.search = ""
        self._reads = controller.lists.channel(self)
        self.rows = QVBoxLayout()
        self.rows.setSpacing(4)
        #: The first page of the paper's first PDF (drawn off the GUI thread).
        self.preview = PagePreview(self)
        self.preview.opened.connect(self.on_preview_opened)
        self.renderer = PreviewRenderer(controller, self)
        self.renderer.rendered.connect(self.on_rendered)
        self._previewed: tuple[FileView, object] | None = None
        self._answered: object = None  # the key of the last first page drawn (or not)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.empty)
        layout.addLayout(self.rows)
        layout.addWidget(self.found)
        layout.addWidget(self.preview)

    def show_paper(self, paper: PaperDetail | None) -> None:
        """Show a paper's files (None: none)."""
        self.paper_id = paper.id if paper is not None else None
        clear_layout(self.rows)
        files = paper.files if paper is not None else ()
        for file in files:
            self.rows.addWidget(FileRow(self, file))
        self.empty.setVisible(not files)
        self._find()
        self._draw(files)

    def _draw(self, files: tuple[FileView, ...]) -> None:
        """Draw the first page of the first PDF that is there (off the GUI thread): the
        first whose pages could be counted (an encrypted or damaged one has none to draw)."""
        pdfs = [f for f in files if f.name.lower().endswith(".pdf") and not f.missing]
        pdf = next((f for f in pdfs if f.pages is not None), pdfs[0] if pdfs else None)
        key = self.renderer.ask(Path(pdf.path)) if pdf is not None else None
        if pdf is None or key is None:
            self._previewed = None
            self.preview.show_image(None)
            return
        if self._previewed is None or self._previewed[1] != key:
            self.preview.show_image(None)  # not the last paper's page meanwhile
            self._answered = None
        self._previewed = (pdf, key)

    def drawing(self) -> bool:
        """True while the first page asked for has not been drawn (or found undrawable)."""
        return self._previewed is not None and self._answered != self._previewed[1]

    @Slot(tuple, object)
    def on_rendered(self, key: tuple[str, int, float], image: object) -> None:
        """Show a drawn first page, if it is still the one wanted."""
        if self._previewed is not None and self._previewed[1] == key:
            self._answered = key
            self.preview.show_image(image if isinstance(image, QImage) else None)

    @Slot()
    def on_preview_opened(self) -> None:
        """Open the PDF whose first page was clicked."""
        if self._previewed is not None:
            self.open_file(self._previewed[0])

    def set_search(self, text: str) -> None:
        """Show where an Everything search for ``text`` found the paper in its files ("":
        no such search)."""
        if text != self.search:
            self.search = text
            self._find()

    def _find(self) -> None:
        """Look for the search's words in the files' text (off the GUI thread)."""
        self._reads.new_generation()
        pid, text = self.paper_id, self.search
        if pid is None or not text.strip() or self.empty.isVisibleTo(self):
            self.found.hide()
            return
        self._reads.ask(lambda reader: reader.snippet(pid, text), self._show_found)

    def _show_found(self, found: FoundText | None) -> None:
        if found is not None:
            self.found.setText(f"Found in {found.where}: “{found.text}”")
        self.found.setVisible(found is not None)

    def file_rows(self) -> list[FileRow]:
        """The rows shown, in order."""
        items = (self.rows.itemAt(i) for i in range(self.rows.count()))
        return [w for item in items if item and isinstance(w := item.widget(), FileRow)]

    # -- actions ----------------------------------------------------------------------------

    def attach(self, paths: list[str] | tuple[Path, ...], paper_id: int | None = None) -> None:
        """Copy files in and attach them to a paper (the one shown by default)."""
        target = paper_id if paper_id is not None else self.paper_id
        if target is None or not paths:
            return
        op = AttachFiles(target, tuple(str(p) for p in paths), self.link)
        done = f"“{Path(paths[0]).name}” was" if len(paths) == 1 else "your files were"
        follow = target == self.paper_id and self.follows()
        change_shown(
            self.controller,
            lambda: op,
            f"{done} attached to",
            follow=follow,
            on_done=self._on_attached,
            label="Copying the files…",
        )

    def _on_attached(self, outcome: Outcome[tuple[FileView, ...]]) -> None:
        """Say which files the paper held already (they were not attached again)."""
        new = outcome.inverse.file_ids if isinstance(outcome.inverse, RemoveFiles) else ()
        held = [view for view in outcome.value if view.id not in new]
        window = self.window()
        if held and isinstance(window, QMainWindow):
            names = ", ".join(f"“{view.name}”" for view in held)
            said = f"The paper has {names} already: the same file is not attached twice."
            if any(view.missing for view in held):  # (its copy gone: Locate… puts it back)
                said = (
                    f"The paper has {names} already, missing from its place: Locate… in the "
                    "file's ⋯ menu puts it back."
                )
            window.statusBar().showMessage(said, 8000)
        self.attached.emit(outcome.value)

    @Slot()
    def on_attach_clicked(self) -> None:
        """Ask for files and attach them to the paper shown."""
        if self.paper_id is not None:
            self.attach(ask_files(self.window()))

    def open_file(self, file: FileView) -> None:
        """Open a file with the system's viewer."""
        open_path(self.window(), Path(file.path), f"“{file.name}”")

    def show_in_folder(self, file: FileView) -> None:
        """Open the folder that holds a file."""
        open_path(self.window(), Path(file.path).parent, f"The folder of “{file.name}”")

    def rename(self, file: FileView) -> None:
        """Ask for a new name and rename the file (undoable)."""
        name = ask_file_name(self.window(), file.name)
        if name is not None and name != file.name:
            try:
                op = RenameFile(file.id, name)
            except RefmanError as error:
                messages.show_error(self.window(), error, "Cannot rename")
                return
            self.controller.apply(op)

    def locate(self, file: FileView) -> None:
        """Ask where a missing file is now, and link it there (or copy it back into the
        storage folder); undoable."""
        found = ask_located(self.window(), file.name)
        if found is not None:
            service = self.controller.service
            self.controller.apply_built(
                lambda: service.locate_op(file.id, found), label="Copying the file…"
            )

    def remove(self, file: FileView) -> None:
        """Take the file off the paper (undoable; a stored file waits for Empty Trash)."""
        self.controller.apply(RemoveFiles((file.id,)))
