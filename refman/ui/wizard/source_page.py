"""The wizard's first page: paste, open or drop author pages and see what was recognised."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from refman.core.extraction import Extractor
from refman.core.importing.values import SourcedPage
from refman.importers.records import PageLink
from refman.importers.sources import HTML_SUFFIXES, TEXT_SUFFIXES

from refman.ui.drop import DropInputs, install_drop_target
from refman.ui.look import clear_layout, heading_label, plain_label, set_muted
from refman.ui.runner import OperationRunner
from refman.ui.wizard.source_card import (
    ERROR_COLOUR,
    WARNING_COLOUR,
    PageHelp,
    PasteArea,
    Source,
    SourceCard,
    sources_note,
)
from refman.ui.wizard.source_reading import read_file, read_text

#: How long typing may pause before the pasted text is read (ms).
PARSE_DELAY_MS = 300
PASTED = "pasted text"


def _patterns(suffixes: Iterable[str]) -> str:
    """ "*.bib *.ris" for a file dialog's filter."""
    return " ".join(f"*{suffix}" for suffix in sorted(suffixes))


def file_filter() -> str:
    """The open dialog's filters: by default every file refman imports (pages,
    bibliographies and papers' PDFs, by the endings the importers read)."""
    from refman.importers.detect import BIBLIOGRAPHY_SUFFIXES  # (the readers load with it)

    pages = TEXT_SUFFIXES | HTML_SUFFIXES
    return ";;".join(
        [
            "Author pages, bibliographies and PDFs "
            f"({_patterns(pages | BIBLIOGRAPHY_SUFFIXES | {'.pdf', '.sqlite'})})",
            f"Author pages ({_patterns(pages)})",
            f"Bibliographies ({_patterns(BIBLIOGRAPHY_SUFFIXES)})",
            "Papers' PDFs (*.pdf)",
            "Zotero libraries (zotero.sqlite)",
            "Mendeley Desktop libraries (*@www.mendeley.com.sqlite)",
            "All files (*)",
        ]
    )


def choose_files(parent: QWidget | None) -> list[str]:
    """Ask the user for page files (tests replace this function).

    Args:
        parent: The dialog's parent.

    Returns:
        The chosen paths; empty when the user cancelled.
    """
    paths, _ = QFileDialog.getOpenFileNames(
        parent, "Open author pages, bibliographies or PDFs", "", file_filter()
    )
    return list(paths)


class SourcePage(QWizardPage):
    """Collects author pages: pasted text, opened files and drops; parses each at once.

    The page is complete when every source given is read and one of them is an author page
    or a bibliography; the others are left out, and the page says so (or, when nothing can be
    imported, why Next is not possible). Its one output is :meth:`sourced_pages`.
    """

    def __init__(self, runner: OperationRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sourcePage")
        #: Reads files off the GUI thread (a long page, a PDF: the window keeps answering).
        self._runner = runner
        #: Reads dropped PDFs' papers in a worker process (started with the first PDF).
        self._reader = Extractor()
        self.destroyed.connect(self._reader.close)
        self.setTitle("Add author pages, bibliographies or PDFs")
        self.setSubTitle(
            "Paste the text of a researcher's publication list, open saved pages, "
            "bibliographies (BibTeX, RIS, CSL-JSON), papers' PDFs or a Zotero or Mendeley "
            "Desktop library (zotero.sqlite, …@www.mendeley.com.sqlite), or drop files or text "
            "on this page."
        )
        self._files: list[Source] = []
        self._texts: list[Source] = []
        self._pasted: Source | None = None
        self._paste_pending = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PARSE_DELAY_MS)
        self._build()
        self._connect_signals()
        self.drop_target = install_drop_target(
            self, self.on_drop_target_dropped, reports_files=True
        )
        self._refresh()

    def _build(self) -> None:
        self.paste_area = PasteArea()
        self.paste_area.setObjectName("pasteArea")
        self.paste_area.setPlaceholderText(
            "Paste here: in the browser, select the whole publication list "
            "(Ctrl+A), copy it (Ctrl+C) and paste it here (Ctrl+V)."
        )
        self.paste_area.setTabChangesFocus(True)  # (a tab pasted in stays in the text)
        self.paste_area.setAcceptDrops(False)  # drops become sources of their own
        self.paste_area.viewport().setAcceptDrops(False)
        self.open_button = QPushButton("Open file…")
        self.open_button.setObjectName("openFileButton")
        self.open_button.setToolTip(
            "Open saved author pages (.txt, .md, .html), bibliographies (.bib, .ris, .json) or "
            "papers' PDFs; several at once"
        )
        drop_zone = QLabel("or drop page files or copied text anywhere on this page")
        drop_zone.setObjectName("dropZone")
        drop_zone.setAlignment(Qt.AlignmentFlag.AlignCenter)
        drop_zone.setMinimumHeight(34)
        drop_zone.setStyleSheet(
            "#dropZone { border: 2px dashed palette(mid); border-radius: 8px; padding: 4px 10px; }"
        )
        set_muted(drop_zone)
        self.cards = QWidget()
        self.cards.setObjectName("sourceList")
        self.cards_layout = QVBoxLayout(self.cards)
        self.cards_layout.setContentsMargins(0, 0, 4, 0)
        self.cards_layout.setSpacing(8)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.cards)
        self.empty_hint = plain_label("Nothing yet. Paste a page, open a file, or drop one here.")
        self.empty_hint.setObjectName("emptyHint")
        set_muted(self.empty_hint)
        self.note = plain_label()
        self.note.setObjectName("sourcesNote")

        left = QVBoxLayout()
        left.addWidget(heading_label("Paste a page"))
        left.addWidget(self.paste_area, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(drop_zone, 1)
        left.addLayout(buttons)
        right = QVBoxLayout()
        right.addWidget(heading_label("Recognised"))
        right.addWidget(self.empty_hint)
        right.addWidget(scroll, 1)
        right.addWidget(self.note)
        layout = QHBoxLayout(self)
        layout.addLayout(left, 11)
        layout.addSpacing(12)
        layout.addLayout(right, 10)

    def _connect_signals(self) -> None:
        self.paste_area.textChanged.connect(self.on_paste_area_text_changed)
        self._timer.timeout.connect(self.on_timer_timeout)
        self.open_button.clicked.connect(self.on_open_button_clicked)

    # -- the page's one output ----------------------------------------------------------------

    def sourced_pages(self) -> list[SourcedPage]:
        """The recognised pages, in the order given (files, then texts, then the paste)."""
        return [SourcedPage(s.page, s.name) for s in self.sources() if s.page is not None]

    # -- adding sources -----------------------------------------------------------------------

    def holds_text(self) -> bool:
        """Text was pasted or dropped here (closing would lose it; files stay on the disk)."""
        return bool(self._texts) or bool(self.paste_area.toPlainText().strip())

    def sources(self) -> list[Source]:
        """Every source given so far, recognised or not."""
        pasted = [self._pasted] if self._pasted is not None else []
        return [*self._files, *self._texts, *pasted]

    def add_files(self, paths: Iterable[str | Path]) -> None:
        """Read and parse files off the GUI thread, each shown as being read meanwhile; a
        file that cannot be read is then shown with the reason, and left out.

        Args:
            paths: The files.
        """
        known = {s.path for s in self._files}
        waiting: list[Source] = []
        for raw in paths:
            path = Path(raw)
            if path not in known:
                known.add(path)
                waiting.append(Source(path.name, path=path, reading=True))
        if not waiting:
            return
        self._files.extend(waiting)
        self._refresh()
        reader = self._reader.paper
        self._runner.submit(
            lambda _progress, _cancelled: [read_file(w.path, reader) for w in waiting],
            lambda read: self._files_read(waiting, read),
            label=f"Reading {waiting[0].name}…" if len(waiting) == 1 else "Reading files…",
        )

    def wait_until_read(self, timeout_ms: int = 60_000) -> bool:
        """Process events until the files added so far are read (for closing, and tests).

        Returns:
            True when they are.
        """
        return self._runner.wait(timeout_ms)

    def _files_read(self, waiting: list[Source], read: list[Source]) -> None:
        ready = {id(w): r for w, r in zip(waiting, read, strict=True)}
        self._files = [ready.get(id(s), s) for s in self._files]  # (one removed stays out)
        self._refresh()

    def add_text(self, text: str, source: str = PASTED, links: Sequence[PageLink] = ()) -> None:
        """Parse text given as a whole (pasted from the clipboard or dropped).

        Args:
            text: The page text.
            source: Its name; a number is added when the name is taken.
            links: The links of the HTML the text came from.
        """
        taken = {s.name for s in self.sources()}
        name = next(
            n
            for n in itertools.chain([source], (f"{source} ({i})" for i in itertools.count(2)))
            if n not in taken
        )
        self._texts.append(read_text(self._runner, name, text, links, self._text_read))
        self._refresh()

    def _text_read(self, waiting: Source, read: Source) -> None:
        self._texts = [read if s is waiting else s for s in self._texts]  # (one removed: out)
        self._refresh()

    def _paste_read(self, waiting: Source, read: Source) -> None:
        if self._pasted is waiting:  # (not pasted over meanwhile)
            self._pasted = read
            self._refresh()

    def _remove(self, source: Source) -> None:
        if source is self._pasted:
            self.paste_area.clear()
            return
        self._files = [s for s in self._files if s is not source]
        self._texts = [s for s in self._texts if s is not source]
        self._refresh()

    def _parse_paste(self) -> None:
        self._timer.stop()
        self._paste_pending = False
        text = self.paste_area.toPlainText()
        links = self.paste_area.links
        self._pasted = (
            read_text(self._runner, PASTED, text, links, self._paste_read) if text.strip() else None
        )
        self._refresh()

    def _refresh(self) -> None:
        clear_layout(self.cards_layout)
        sources = self.sources()
        for source in sources:
            card = SourceCard(source, removable=True)
            card.remove_requested.connect(lambda s=source: self._remove(s))
            self.cards_layout.addWidget(card)
        if any(s.not_a_page for s in sources):
            self.cards_layout.addWidget(PageHelp())
        self.cards_layout.addStretch(1)
        self.empty_hint.setVisible(not sources)
        self._show_note()
        self.completeChanged.emit()

    def _show_note(self) -> None:
        """Say which sources will be left out, or why nothing can be imported yet."""
        text, blocking = sources_note(self.sources())
        self.note.setText(text)
        self.note.setStyleSheet(f"color: {ERROR_COLOUR if blocking else WARNING_COLOUR};")
        self.note.setVisible(bool(text))

    # -- QWizardPage ----------------------------------------------------------------------------

    def isComplete(self) -> bool:
        """True when every source given is read and one is an author page or bibliography."""
        sources = self.sources()
        return (
            not self._paste_pending
            and not any(s.reading for s in sources)
            and any(s.page is not None for s in sources)
        )

    def validatePage(self) -> bool:
        """Read any pasted text still waiting for the typing pause."""
        if self._paste_pending:
            self._parse_paste()
        return self.isComplete()

    # -- slots ----------------------------------------------------------------------------------

    @Slot()
    def on_paste_area_text_changed(self) -> None:
        """Read the pasted text once typing pauses."""
        self._paste_pending = True
        self._timer.start()
        self.completeChanged.emit()

    @Slot()
    def on_timer_timeout(self) -> None:
        """Parse the pasted text."""
        self._parse_paste()

    @Slot()
    def on_open_button_clicked(self) -> None:
        """Let the user pick page files."""
        paths = choose_files(self)
        if paths:
            self.add_files(paths)

    @Slot(object)
    def on_drop_target_dropped(self, inputs: DropInputs) -> None:
        """Add what was dropped on the page."""
        if inputs.files:
            self.add_files(inputs.files)
        for text in inputs.texts:
            self.add_text(text.text, text.source, text.links)
