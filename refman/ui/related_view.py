"""The detail pane's Related block: the papers of the library most related to the one shown,
each with the words it shares ("shares: straggler, pipeline, MFU"); a click shows that paper.

The papers are found off the GUI thread (on the list reader's thread, as the list's reads
are); a newer paper drops the question about the older, so moving through the list never
waits for them.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from refman.core.related import RelatedPaper
from refman.core.values import Changes

from refman.ui.controller import LibraryController
from refman.ui.links import inner_link
from refman.ui.list_worker import LATER
from refman.ui.look import clear_layout, plain_label, scaled_font, set_muted

#: Said while the related papers are being found, and when there are none.
FINDING = "Finding related papers…"
NONE_FOUND = "No other paper shares its distinctive words."


def _entry(paper: RelatedPaper, on_link: Callable[[str], None], parent: QWidget) -> QWidget:
    """A related paper: its title as a link (wrapped), then why, muted and smaller."""
    entry = QWidget(parent)
    entry.setObjectName("relatedPaper")
    layout = QVBoxLayout(entry)
    layout.setContentsMargins(0, 0, 0, 4)
    layout.setSpacing(1)
    title = QLabel(entry)
    title.setObjectName("relatedTitle")
    title.setTextFormat(Qt.TextFormat.RichText)
    title.setWordWrap(True)
    title.setText(f'<a href="paper:{paper.id}">{html.escape(paper.title)}</a>')
    title.setToolTip("Show this paper")
    title.linkActivated.connect(on_link)
    shares = plain_label("shares: " + ", ".join(paper.shares), entry)
    shares.setObjectName("relatedShares")
    shares.setFont(scaled_font(shares.font(), 0.9))
    set_muted(shares)
    layout.addWidget(title)
    layout.addWidget(shares)
    return entry


class RelatedView(QWidget):
    """The papers most related to the one shown, each a link.

    Signals:
        paper_activated(int): A related paper was clicked; the argument is its id.
    """

    paper_activated = Signal(int)

    def __init__(self, controller: LibraryController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("relatedPapers")
        self.controller = controller
        self.paper_id: int | None = None
        #: The related papers shown (empty while finding them, or when there are none).
        self.found: list[RelatedPaper] = []
        self._reads = controller.lists.channel(self, rank=LATER)
        self.status = plain_label(FINDING, self)
        self.status.setObjectName("relatedStatus")
        set_muted(self.status)
        self.entries = QVBoxLayout()
        self.entries.setSpacing(4)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.status)
        layout.addLayout(self.entries)
        controller.changed.connect(self.on_changed)

    def show_paper(self, paper_id: int | None) -> None:
        """Find the papers related to this one (None: none shown). The same paper again is
        not asked twice."""
        if paper_id == self.paper_id:
            return
        self.paper_id = paper_id
        self._show([], FINDING)  # not the last paper's while this one's are found
        self.refresh()

    def refresh(self) -> None:
        """Find the shown paper's related papers again (off the GUI thread)."""
        self._reads.new_generation()
        pid = self.paper_id
        if pid is None:
            self._show([])
            return
        self._reads.ask(lambda reader: reader.related(pid), self._show)

    def _show(self, found: list[RelatedPaper], empty: str = NONE_FOUND) -> None:
        self.found = found
        clear_layout(self.entries)
        for paper in found:
            self.entries.addWidget(_entry(paper, self.on_link, self))
        self.status.setText(empty)
        self.status.setVisible(not found)

    @Slot(str)
    def on_link(self, link: str) -> None:
        """Show the related paper clicked."""
        if (paper_id := inner_link(link, "paper")) is not None:
            self.paper_activated.emit(paper_id)

    @Slot(object)
    def on_changed(self, changes: Changes) -> None:
        """Find them again when papers came, went or changed (a paper restored from the
        Trash is one that changed)."""
        if self.paper_id is not None and (changes.structure or changes.added or changes.papers):
            self.refresh()
