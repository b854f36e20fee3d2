"""The box above a paper's title: "In the Trash since …", or "Possibly the same paper as …"
with Show it, Merge and Not a duplicate."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from refman.core.operations import Outcome, SetDuplicateFlag
from refman.core.paper_merge import MergePapers, MergeResult
from refman.core.values import PaperDetail

from refman.ui.controller import LibraryController
from refman.ui.look import GAP, link_button, plain_label, subtle_fill
from refman.ui.read_only import mark_changing


def duplicate_line(title: str | None, *, trashed: bool = False) -> str:
    """The banner of a paper an import kept apart from a near-identical one.

    Args:
        title: The other paper's title; None when it is no longer in the library.
        trashed: The other paper is in the Trash.
    """
    if title is None:
        return "Possibly the same paper as one no longer in the library"
    return f"Possibly the same paper as “{title}”" + (", now in the Trash" if trashed else "")


class PaperBanner(QFrame):
    """Says a paper is in the Trash, or that it may duplicate another one: Show it shows the
    other paper, Merge merges this one into it (the other paper is kept, being the one the
    library had first: see :mod:`refman.core.paper_merge`), Not a duplicate drops the mark.

    Signals:
        show_requested(int): Show it was clicked; the argument is the other paper's id.
    """

    show_requested = Signal(int)

    def __init__(self, controller: LibraryController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.paper_id: int | None = None
        self.setObjectName("detailBanner")
        self.setStyleSheet(
            f"QFrame#detailBanner {{ background: {subtle_fill(self.palette()).name()};"
            " border-radius: 5px; margin-bottom: 6px; }"
        )
        self.duplicate_of: int | None = None
        self.text = plain_label("", self)
        self.text.setObjectName("detailBannerText")
        self.show_button = link_button("Show it", self)
        self.show_button.setObjectName("showDuplicateButton")
        self.show_button.setToolTip("Select that paper in the list")
        self.merge_button = QPushButton("Merge", self)
        self.merge_button.setObjectName("mergeDuplicateButton")
        self.merge_button.setToolTip(
            "The same paper: merge this one into the other, which keeps its own fields and "
            "gains what it lacks, with this one's tags, notes and files; this one goes to the "
            "Trash (Undo takes the merge back)"
        )
        self.not_duplicate_button = QPushButton("Not a duplicate", self)
        self.not_duplicate_button.setObjectName("notDuplicateButton")
        mark_changing(self.merge_button, self.not_duplicate_button)
        self.not_duplicate_button.setToolTip(
            "They are different papers: stop flagging this one (Undo brings the flag back)"
        )
        actions = QHBoxLayout()
        actions.setContentsMargins(0, 0, 0, 0)
        actions.setSpacing(GAP)
        actions.addWidget(self.show_button)
        actions.addStretch(1)
        actions.addWidget(self.merge_button)
        actions.addWidget(self.not_duplicate_button)
        inner = QVBoxLayout(self)
        inner.setContentsMargins(10, 7, 8, 7)
        inner.setSpacing(6)
        inner.addWidget(self.text)
        inner.addLayout(actions)
        self.show_button.clicked.connect(self.on_show_button_clicked)
        self.merge_button.clicked.connect(self.on_merge_button_clicked)
        self.not_duplicate_button.clicked.connect(self.on_not_duplicate_button_clicked)

    def show_for(self, paper: PaperDetail, other: PaperDetail | None) -> None:
        """Say what there is to say about ``paper`` (``other``: the paper it may duplicate,
        None when that one is gone), or hide."""
        self.duplicate_of = None
        self.paper_id = paper.id
        linkable = False
        if paper.trashed is not None:
            since = f"In the Trash since {paper.trashed:%Y-%m-%d %H:%M}"
            if paper.merged_into is not None:  # its notes and files went with the merge
                self.duplicate_of = paper.merged_into
                linkable = other is not None and other.trashed is None
                merged = f"Merged into “{other.title}”" if other else "Merged into another paper"
                since = f"{merged}. {since}"
            self.text.setText(since)
        elif paper.possible_duplicate_of is not None:
            self.duplicate_of = paper.possible_duplicate_of
            trashed = other is not None and other.trashed is not None
            linkable = other is not None and not trashed
            self.text.setText(duplicate_line(other.title if other else None, trashed=trashed))
        flagged = self.duplicate_of is not None and paper.trashed is None
        self.show_button.setVisible(linkable)
        self.merge_button.setVisible(linkable and flagged)
        self.not_duplicate_button.setVisible(flagged)
        self.setVisible(paper.trashed is not None or self.duplicate_of is not None)

    @Slot()
    def on_show_button_clicked(self) -> None:
        """Ask for the other paper to be shown."""
        if self.duplicate_of is not None:
            self.show_requested.emit(self.duplicate_of)

    @Slot()
    def on_merge_button_clicked(self) -> None:
        """Merge this paper into the other one (undoable); the list then selects the one
        kept where it shows it (the list stays as it is: a search, a section)."""
        if self.paper_id is not None and self.duplicate_of is not None:
            self._back_to_list()
            op = MergePapers(keep=self.duplicate_of, other=self.paper_id)
            self.controller.apply(op, self._merged, label="Merging…")

    def _merged(self, outcome: Outcome[MergeResult]) -> None:
        self.controller.select_wanted.emit((outcome.value.kept,))

    @Slot()
    def on_not_duplicate_button_clicked(self) -> None:
        """Drop the "possibly the same paper" mark (undoable)."""
        if self.paper_id is not None:
            self._back_to_list()
            self.controller.apply(SetDuplicateFlag(self.paper_id, None))

    def _back_to_list(self) -> None:
        """Give the keyboard to the paper list: the button clicked hides, and Qt would hand
        it to the next field (the title, where typing would rename the paper)."""
        paper_list = self.window().findChild(QWidget, "paperList")
        if paper_list is not None:
            paper_list.setFocus(Qt.FocusReason.OtherFocusReason)
