"""The detail pane's Reading row: the paper's status as three toggles (Unread, Reading, Read)
and its rating as five stars; a click changes them (clicking the lit star again clears the
rating, as Zotero's and Mendeley's users expect)."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QToolButton, QWidget

from refman.core.reading_status import MarkPapers
from refman.core.rules import RATING_MAX, READING_STATUSES
from refman.core.values import PaperDetail

from refman.ui.controller import LibraryController
from refman.ui.flow_layout import FlowLayout
from refman.ui.read_only import mark_changing
from refman.ui.shown_changes import Follows, change_shown


class ReadingBar(QWidget):
    """Shows and sets one paper's reading status and rating."""

    def __init__(self, controller: LibraryController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("readingBar")
        self.controller = controller
        self.paper_id: int | None = None
        #: The paper was seen in the library: a merge elsewhere since is followed.
        self.follows: Follows = lambda: False
        self.rating = 0
        # The toggles and the stars wrap onto two lines in a narrow pane.
        flow = FlowLayout(self, h_gap=16)
        toggles, star_row = QWidget(self), QWidget(self)
        flow.addWidget(toggles)
        flow.addWidget(star_row)
        row = QHBoxLayout(toggles)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        self.status_group = QButtonGroup(self)
        self.status_buttons: dict[str, QToolButton] = {}
        for status in READING_STATUSES:
            button = QToolButton(toggles)
            button.setText(status.capitalize())
            button.setCheckable(True)
            button.setObjectName(f"status_{status}")
            button.setToolTip(f"Mark this paper as {status}")
            self.status_group.addButton(button)
            self.status_buttons[status] = button
            button.clicked.connect(lambda _=False, s=status: self._mark(status=s))
            row.addWidget(button)
        row = QHBoxLayout(star_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        self.star_buttons: list[QToolButton] = []
        for n in range(1, RATING_MAX + 1):
            star = QToolButton(star_row)
            star.setObjectName(f"star_{n}")
            star.setAutoRaise(True)
            star.setToolTip(f"{_stars(n)} (click again to clear)")
            star.setAccessibleName(_star_name(n, 0))
            star.setCursor(Qt.CursorShape.PointingHandCursor)
            star.clicked.connect(lambda _=False, k=n: self.on_star_clicked(k))
            self.star_buttons.append(star)
            row.addWidget(star)
        mark_changing(*self.status_buttons.values(), *self.star_buttons)

    def show_paper(self, paper: PaperDetail) -> None:
        """Show a paper's status and rating."""
        self.paper_id = paper.id
        self.status_buttons[paper.status].setChecked(True)
        self.rating = paper.rating
        for n, star in enumerate(self.star_buttons, start=1):
            star.setText("★" if n <= paper.rating else "☆")
            star.setAccessibleName(_star_name(n, paper.rating))

    @Slot(int)
    def on_star_clicked(self, stars: int) -> None:
        """Rate the paper; the star already lit last clears the rating."""
        self._mark(rating=0 if stars == self.rating else stars)

    def _mark(self, status: str | None = None, rating: int | None = None) -> None:
        if self.paper_id is not None:
            make = partial(MarkPapers, (self.paper_id,), status, rating)
            change_shown(self.controller, make, _done(status, rating), follow=self.follows())


def _done(status: str | None, rating: int | None) -> str:
    """What was done to the paper kept: "it was marked as read on"."""
    if status is not None:
        return f"your reading status ({status}) was set on"
    return f"your rating ({_stars(rating)}) was given to" if rating else "the rating was cleared on"


def _stars(n: int) -> str:
    return f"{n} star{'s' if n > 1 else ''}"


def _star_name(n: int, rating: int) -> str:
    """What a screen reader says of the ``n``th star of a paper rated ``rating`` (the
    button shows only ☆ or ★)."""
    return f"{_stars(n)}, the paper's rating (press to clear)" if n == rating else _stars(n)
