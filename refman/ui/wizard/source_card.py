"""The parts of the wizard's first page: the paste box, and a card for each source."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase, QTextCharFormat
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from refman.common.text import join_words, plural
from refman.importers import PageFormat, ParsedPage
from refman.importers.identify import link_spans
from refman.importers.messages import PAGE_SHAPE
from refman.importers.records import PageLink
from refman.importers.sources import html_page

from refman.ui.look import plain_label, scaled_font, set_muted

FORMAT_WORDS = {
    PageFormat.PUBLICATION_LIST: "publication list (venue, year, title, abstract, subjects)",
    PageFormat.AUTHOR_ABSTRACTS: "list of authors and abstracts (no titles)",
    PageFormat.REFERENCE_LIST: "list of references (authors, title, venue, year)",
    PageFormat.BIBTEX: "BibTeX bibliography",
    PageFormat.RIS: "RIS bibliography",
    PageFormat.CSL_JSON: "CSL-JSON bibliography",
    PageFormat.PDF: "a paper's PDF (its metadata and first page; the file is attached)",
    PageFormat.ZOTERO: "Zotero library (its items, tags, collections, notes and files)",
    PageFormat.MENDELEY: "Mendeley library (its documents, tags, folders, notes and files)",
}
#: A short example of an author page, shown when text is not one.
PAGE_EXAMPLE = """\
Ada Lovelace
Publications and source records attributed to Ada Lovelace.
2 records
arXiv 2025
Notes on the Analytical Engine
We describe a machine that manipulates symbols …
cs.LG
NeurIPS 2024
…"""
#: The colours of warnings and of errors on the page.
WARNING_COLOUR = "#a15c00"
ERROR_COLOUR = "#b42318"


def count_text(page: ParsedPage) -> str:
    """Return "12 records found (the page says 12)" for a page."""
    n = len(page.records)
    found = f"{n} record found" if n == 1 else f"{n} records found"
    return found if page.claimed is None else f"{found} (the page says {page.claimed})"


@dataclass
class Source:
    """One page the user gave: its name and what reading it produced.

    Attributes:
        name: The file name or "pasted text".
        page: The parsed page or bibliography, or None when it is neither.
        error: Why it is neither.
        path: The file it came from, if any.
        bibliography: True when it looked like a bibliography but could not be read as one.
        reading: True while the file is being read.
        unreadable: True when the file cannot be read as text at all (an image, binary data,
            too large, missing); :attr:`error` then says why and what to do.
    """

    name: str
    page: ParsedPage | None = None
    error: str = ""
    path: Path | None = None
    bibliography: bool = False
    reading: bool = False
    unreadable: bool = False

    @property
    def left_out(self) -> bool:
        """True when the source was read and is nothing refman imports."""
        return self.page is None and not self.reading

    @property
    def not_a_page(self) -> bool:
        """True when it is text, but neither an author page nor a bibliography."""
        return self.left_out and not (self.bibliography or self.unreadable)


def sources_note(sources: Sequence[Source]) -> tuple[str, bool]:
    """What the page says under the cards: the sources that will be left out, or why
    nothing can be imported yet.

    Args:
        sources: Every source given.

    Returns:
        The text ("" while files are read, or when every source can be imported) and True
        when it says why Next is not possible.
    """
    bad = [s for s in sources if s.left_out]
    if not bad or any(s.reading for s in sources):
        return "", False
    if len(bad) == len(sources):
        return (
            "✗  Nothing here can be imported, so Next is not possible yet. Paste, open or "
            "drop an author page or a bibliography.",
            True,
        )
    noun = "file" if all(s.path for s in bad) else "source"
    good = len(sources) - len(bad)
    names = join_words(
        [s.name for s in bad[:3]] + ([f"{len(bad) - 3} more"] if len(bad) > 3 else [])
    )
    return (
        f"⚠  {plural(len(bad), noun)} cannot be imported and will be left out ({names}). "
        f"Next goes on with the other {'one' if good == 1 else good}.",
        False,
    )


def _coloured(label: QLabel, colour: str) -> QLabel:
    label.setStyleSheet(f"color: {colour};")
    return label


class PasteArea(QPlainTextEdit):
    """The box text is pasted into. Pasted HTML (a browser's copy) comes in as its visible
    text, each link's text carrying where the link pointed (an anchor of its characters): a
    link goes when its text is deleted or pasted over, and is read where its text stands."""

    def insertFromMimeData(self, source: QMimeData) -> None:
        """Paste as plain text, the HTML's links kept on their text."""
        if not source.hasHtml():
            super().insertFromMimeData(source)
            return
        text, links = html_page(source.html())
        cursor, at = self.textCursor(), 0
        plain = QTextCharFormat()
        cursor.beginEditBlock()  # (one paste, one undo step)
        for start, end, href in link_spans(text, links):
            cursor.insertText(text[at:start], plain)
            anchored = QTextCharFormat()
            anchored.setAnchor(True)
            anchored.setAnchorHref(href)
            cursor.insertText(text[start:end], anchored)
            at = end
        cursor.insertText(text[at:], plain)
        cursor.setCharFormat(plain)  # what is typed next is no link's
        cursor.endEditBlock()
        self.setTextCursor(cursor)

    @property
    def links(self) -> list[PageLink]:
        """The links of the text in the box now, in its order (each named by its text)."""
        found: list[PageLink] = []
        block = self.document().begin()
        while block.isValid():
            it, previous = block.begin(), ""  # (a link never runs over a line's end)
            while not it.atEnd():
                fragment = it.fragment()
                href = fragment.charFormat().anchorHref()
                if href and href == previous:  # (one link's text in formats alike)
                    found[-1] = PageLink(found[-1].text + fragment.text(), href)
                elif href:
                    found.append(PageLink(fragment.text(), href))
                previous = href
                it += 1
            block = block.next()
        return [PageLink(" ".join(link.text.split()), link.href) for link in found]


class SourceCard(QFrame):
    """Shows one source and what was recognised in it.

    Signals:
        remove_requested(): The user wants this source gone.
    """

    remove_requested = Signal()

    def __init__(self, source: Source, removable: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sourceCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        grid = QGridLayout(self)
        grid.setContentsMargins(12, 10, 12, 10)
        grid.setVerticalSpacing(3)
        page = source.page
        name = source.name if source.path else source.name[:1].upper() + source.name[1:]
        title = plain_label(page.owner if page and page.owner else name)
        title.setObjectName("sourceOwner")
        title.setFont(scaled_font(title.font(), 1.15, QFont.Weight.DemiBold))
        grid.addWidget(title, 0, 0)
        if removable:
            remove = QPushButton("Remove")
            remove.setObjectName("removeSourceButton")
            remove.setToolTip(f"Do not import {source.name}")
            remove.clicked.connect(self.remove_requested)
            grid.addWidget(remove, 0, 1, Qt.AlignmentFlag.AlignTop)
        rows = _rows(source)
        for row, label in enumerate(rows, start=1):
            grid.addWidget(label, row, 0, 1, 2)
        grid.setColumnStretch(0, 1)


def _rows(source: Source) -> list[QLabel]:
    """The lines of a card under its name: what was recognised, or why nothing was."""
    if source.reading:
        reading = plain_label("Reading…")
        reading.setObjectName("sourceReading")
        set_muted(reading)
        return [reading]
    page = source.page
    if page is None:
        if source.unreadable:
            text = f"✗  Cannot be imported. {source.error}"
        elif source.bibliography:
            text = f"✗  Not a bibliography. {source.error}"
        else:  # (what a page is like is said once, under the cards: :class:`PageHelp`)
            text = f"✗  Not an author page. {source.error.removesuffix(PAGE_SHAPE).strip()}"
        error = _coloured(plain_label(text), ERROR_COLOUR)
        error.setObjectName("sourceError")
        return [error]
    fmt = plain_label(f"{FORMAT_WORDS.get(page.format, str(page.format))} · {source.name}")
    fmt.setObjectName("sourceFormat")
    set_muted(fmt)
    count = plain_label(f"✓  {count_text(page)}")
    count.setObjectName("sourceCount")
    rows = [fmt, count]
    for warning in page.warnings:
        label = _coloured(plain_label(f"⚠  {warning}"), WARNING_COLOUR)
        label.setObjectName("sourceWarning")
        rows.append(label)
    return rows


class PageHelp(QWidget):
    """What an author page is, with a short example: shown once under the cards when some
    text given is not one."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pageHelp")
        shape = plain_label(f"{PAGE_SHAPE} An author page looks like this:")
        shape.setObjectName("pageShape")
        set_muted(shape)
        example = plain_label(PAGE_EXAMPLE, wrap=False)
        example.setObjectName("pageExample")
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        example.setFont(scaled_font(mono, 0.9))
        example.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        example.setStyleSheet(
            "#pageExample { border: 1px solid palette(mid); border-radius: 4px;"
            " padding: 6px 8px; background: palette(base); }"
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(shape)
        layout.addWidget(example)
