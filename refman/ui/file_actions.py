"""Files from the window: *Paper ▸ Attach File…* and *Open File* (and the list's context
menu; Enter or a double-click on a paper opens its first file, else its DOI or link) for
the current paper; PDFs dropped on a paper of the list or on the detail pane, attached to
that paper (dropped anywhere else they go to the import wizard); the PDFs' text read into
the search in the background, its progress in the status bar; the search's Everything
mode."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QObject, QPoint, Slot

from refman.common.errors import RefmanError
from refman.common.identifiers import online_address
from refman.common.text import plural
from refman.core.extraction import start_counter
from refman.core.file_index import IndexProgress, IndexReport
from refman.core.values import Changes

from refman.ui import files_view, messages
from refman.ui.actions import ActionId
from refman.ui.detail_biblio import open_link
from refman.ui.drop import DropTarget
from refman.ui.file_indexer import FileIndexer
from refman.ui.quiet_start import QuietStart
from refman.ui.read_only import enable_action
from refman.ui.settings import FILES_BASE, FILES_LINK, Preference
from refman.ui.window_chrome import no_file_text, opened_online_text

if TYPE_CHECKING:
    from refman.ui.main_window import MainWindow


def _start_counting_pages() -> None:
    """Start the worker that counts attached PDFs' pages, off the GUI thread."""
    threading.Thread(target=start_counter, name="refman-pages", daemon=True).start()


class FileActions(QObject):
    """Connects Attach File… and file drops on papers to the detail pane's files."""

    def __init__(self, window: MainWindow, drops: DropTarget) -> None:
        super().__init__(window)
        self.window_ = window
        self.action = window.actions_by_id[ActionId.ATTACH_FILE]
        self.action.triggered.connect(self.on_attach)
        self.opening = window.actions_by_id[ActionId.OPEN_FILE]
        self.opening.triggered.connect(self.on_open_file)
        window.table.activated.connect(self.on_table_activated)  # (Enter, a double-click)
        window.table.current_paper_changed.connect(self.enable)
        drops.attach_target = self.paper_at
        drops.on_attach = self.attach
        self.indexer = FileIndexer(window.controller, self)
        self.indexer.progress.connect(self.on_index_progress)
        self.indexer.finished.connect(self.on_indexed)
        self._said = ""  # (what the reading said last)
        self._later: tuple[str, int] | None = None
        window.statusBar().messageChanged.connect(self.on_status_changed)
        window.controller.changed.connect(self.on_changed)
        window.search_box.search_changed.connect(self.on_search_changed)
        # Once the window is up and the person pauses: the workers' start takes the CPU.
        self.quiet = QuietStart(
            [self.indexer.start, window.detail_pane.files.renderer.warm, _start_counting_pages],
            lambda: window.controller.runner.idle and window.controller.lists.idle,
            self,
        )
        for working in (
            window.search_box.search_changed,
            window.table.current_paper_changed,
            window.table.selection_changed,
            window.table.horizontalHeader().sortIndicatorChanged,
            window.table.verticalScrollBar().valueChanged,
            window.tag_pane.filter_changed,
        ):
            working.connect(self.quiet.busy)
        window.settings.on_change.append(self.on_preference)
        self.on_preference(FILES_BASE)
        self.enable()

    def on_preference(self, preference: Preference[Any]) -> None:
        """Attach files as the preferences say: copied or linked, relative to which folder."""
        if preference in (FILES_BASE, FILES_LINK):
            settings = self.window_.settings
            base = settings.get(FILES_BASE)
            self.window_.controller.service.use_base_folder(Path(base) if base else None)
            self.window_.detail_pane.files.link = settings.get(FILES_LINK)

    @Slot(object)
    def on_changed(self, changes: Changes) -> None:
        """Files attached (or papers changed): read the text of any new PDF."""
        if changes.papers or changes.added:
            self.indexer.start()

    def _say(self, text: str, timeout: int, *, then: bool = False) -> None:
        """Say how reading the PDFs goes, unless the status bar says something else (what
        an attach or another action said is left to be read: "The paper has “x.pdf”
        already…" was replaced at once by the reading's progress); ``then``: say it once
        the status bar is free (the reading's outcome), else not at all (its progress)."""
        bar = self.window_.statusBar()
        if bar.currentMessage() not in ("", self._said):
            self._later = (text, timeout) if then else None
            return
        self._said, self._later = text, None
        bar.showMessage(text, timeout)

    @Slot(str)
    def on_status_changed(self, text: str) -> None:
        """The status bar is free: say the reading's outcome kept back."""
        if not text and self._later is not None:
            self._say(*self._later)

    @Slot(object)
    def on_index_progress(self, progress: IndexProgress) -> None:
        """Say how far reading the PDFs has come."""
        self._say(f"Reading PDFs for the search: {progress.done:,} of {progress.total:,}", 4000)

    @Slot(int)
    def on_indexed(self, report: IndexReport) -> None:
        """Say that the PDFs are in the search (an Everything search finds them now), and
        which had no text to read."""
        said = [f"The text of {plural(report.read, 'PDF')} is in the search (Everything)."]
        said += [f"The text of “{n}” could not be read: {why}." for _, n, why in report.unreadable]
        if report.looked_at:
            self._say(" ".join(said[bool(not report.read) :]), 12000, then=True)
        if not report.read:
            return
        box = self.window_.search_box
        if box.everything and box.text().strip():
            self.window_.model.set_query(self.window_.current_query())

    @Slot(str)
    def on_search_changed(self, text: str) -> None:
        """Show where an Everything search found the paper shown in its files."""
        box = self.window_.search_box
        self.window_.detail_pane.files.set_search(text if box.everything else "")

    @Slot()
    def enable(self) -> None:
        """Attach File… and Open File need a current paper."""
        enable_action(self.action, self.window_.table.current_id() is not None)
        self.opening.setEnabled(self.window_.table.current_id() is not None)

    @Slot()
    def on_attach(self) -> None:
        """Ask for files and attach them to the current paper."""
        paper_id = self.window_.table.current_id()
        if paper_id is not None:
            chosen = files_view.ask_files(self.window_)  # (tests replace it)
            self.attach(paper_id, tuple(Path(p) for p in chosen))

    @Slot()
    def on_open_file(self) -> None:
        """Paper ▸ Open File: the current paper's first file."""
        if (paper_id := self.window_.table.current_id()) is not None:
            self.open_first(paper_id)

    @Slot(QModelIndex)
    def on_table_activated(self, index: QModelIndex) -> None:
        """Enter or a double-click on a paper in the list: its first file (else its DOI or
        link)."""
        if (row := self.window_.model.paper_row(index.row())) is not None:
            self.open_first(row.id)

    def open_first(self, paper_id: int) -> None:
        """Open a paper's first file with the system's viewer, as ``refman open ID`` does; a
        paper without one: its DOI, arXiv page or link in the browser (as Zotero does), else
        the status bar says how to attach a file."""
        window = self.window_
        shown = window.detail_pane.shown_paper()
        paper = shown if shown is not None and shown.id == paper_id else None
        try:
            paper = paper or window.controller.service.paper(paper_id)
        except RefmanError as error:  # (gone since, or the library cannot be read)
            messages.show_error(window, error, "Cannot open")
            return
        if paper.files:
            window.detail_pane.files.open_file(paper.files[0])
        elif (online := online_address(paper.doi, paper.arxiv_id, paper.url)) is not None:
            what, address = online
            opened = open_link(address)
            window.say_for_a_while(opened_online_text(paper.title, what, address, opened))
        else:
            window.say_for_a_while(no_file_text(paper.title))

    def attach(self, paper_id: int, files: tuple[Path, ...]) -> None:
        """Attach files to a paper (copied in off the GUI thread; undoable)."""
        self.window_.detail_pane.files.attach(files, paper_id)

    def paper_at(self, point: QPoint) -> tuple[int, str] | None:
        """The paper under a point of the window: a row of the list, or the paper the detail
        pane shows (its id and title); None elsewhere."""
        window = self.window_
        viewport = window.table.viewport()
        inside = viewport.mapFrom(window, point)
        if viewport.isVisible() and viewport.rect().contains(inside):
            row = window.table.indexAt(inside).row()
            found = window.model.paper_row(row) if row >= 0 else None
            return (found.id, found.title) if found is not None else None
        pane = window.detail_pane
        shown = pane.shown_paper()
        if (
            shown is not None
            and pane.isVisible()
            and pane.rect().contains(pane.mapFrom(window, point))
        ):
            return shown.id, pane.title_edit.shown_title()
        return None
