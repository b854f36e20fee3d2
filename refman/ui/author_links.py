"""A paper's authors in the detail pane, each a link to that person's papers.

A long author list (a collaboration's sixty names) filled the pane and pushed the year, the
venue, the tags and the reading controls out of sight. Beyond :data:`COLLAPSE_OVER` authors
the pane shows the first :data:`FIRST_AUTHORS` and a link, "… and 50 more", that shows them
all (a button: Tab reaches it, Space or Enter presses it, and the keyboard goes on to the
first name it showed).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QPushButton, QSizePolicy, QVBoxLayout, QWidget

from refman.common.text import join_words

from refman.ui.flow_layout import FlowLayout
from refman.ui.look import link_button, link_button_style, plain_label, set_muted

#: How many authors a long list shows before "… and N more".
FIRST_AUTHORS = 10
#: Lists up to this long show every author (hiding one or two names would save nothing).
COLLAPSE_OVER = 12


class AuthorLinks(QWidget):
    """The authors of a paper, each one a link to that person's papers.

    Signals:
        person_clicked(int): An author was clicked; the argument is the person id.
    """

    person_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("authorLinks")
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        names = QWidget(self)
        self._flow = FlowLayout(names, h_gap=4, v_gap=2)
        column.addWidget(names)
        #: "Edited by …" under the authors, hidden when the paper names no editors.
        self.editors = plain_label("", self, wrap=True)
        self.editors.setObjectName("editors")
        set_muted(self.editors)
        self.editors.hide()
        column.addWidget(self.editors)
        self._shown: tuple[tuple[str, ...], tuple[int, ...], bool, tuple[str, ...]] | None = None
        self._expanded = False
        self._buttons: list[QPushButton] = []
        #: "… and N more" while some authors are not shown, else None.
        self.more_button: QPushButton | None = None
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def set_authors(
        self,
        names: Sequence[str],
        ids: Sequence[int],
        complete: bool,
        editors: Sequence[str] = (),
    ) -> None:
        """Show authors (the first few of a long list); "et al." when the page listed only
        the first few; then "Edited by …" when the paper names editors.

        Args:
            names: Author names, in order.
            ids: Their person ids, in the same order.
            complete: False when the page cut the list short.
            editors: The editors' names (an edited book's, a chapter's book's), in order.
        """
        wanted = (tuple(names), tuple(ids), complete, tuple(editors))
        if wanted == self._shown:
            return
        self._shown = wanted
        self._expanded = False
        self._fill()

    def author_buttons(self) -> list[QPushButton]:
        """The author links shown, in order."""
        return list(self._buttons)

    def _fill(self) -> None:
        names, ids, complete, editors = self._shown or ((), (), True, ())
        self._flow.clear()
        self._buttons, self.more_button = [], None
        if not names and not editors:
            empty = plain_label("Authors not given on the page", self, wrap=False)
            set_muted(empty)
            self._flow.addWidget(empty)
        long = len(names) > COLLAPSE_OVER and not self._expanded
        shown = FIRST_AUTHORS if long else len(names)
        for n, (name, person_id) in enumerate(zip(names[:shown], ids, strict=False)):
            last = n == len(names) - 1
            button = QPushButton(name.replace("&", "&&") + ("" if last else ","), self)
            button.setObjectName(f"author_{person_id}")
            button.setFlat(True)
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.setToolTip(f"Show the papers of {name}")
            button.setAccessibleName(name)
            button.setStyleSheet(link_button_style("text-align: left;"))
            button.clicked.connect(lambda _=False, pid=person_id: self.person_clicked.emit(pid))
            self._flow.addWidget(button)
            self._buttons.append(button)
        if long:
            self.more_button = link_button(f"… and {len(names) - shown} more", self)
            self.more_button.setObjectName("moreAuthors")
            self.more_button.setToolTip(f"Show all {len(names)} authors")
            self.more_button.clicked.connect(self.on_more_button_clicked)
            self._flow.addWidget(self.more_button)
        elif names and not complete:
            more = plain_label("et al.", self, wrap=False)
            more.setToolTip("The page listed only the first authors")
            set_muted(more)
            self._flow.addWidget(more)
        self.editors.setText(_edited_by(names, editors) if editors else "")
        self.editors.setVisible(bool(editors))
        self.updateGeometry()

    @Slot()
    def on_more_button_clicked(self) -> None:
        """Show every author; the keyboard goes on to the first name that was hidden."""
        button = self.more_button
        had_focus = button is not None and button.hasFocus()
        if had_focus:  # held here while the links are made again (not lost to the toolbar)
            self.setFocus(Qt.FocusReason.OtherFocusReason)
        self._expanded = True
        self._fill()
        if had_focus:
            first_hidden = self._buttons[FIRST_AUTHORS]
            first_hidden.show()  # (a layout shows the widgets it is given a moment later)
            first_hidden.setFocus(Qt.FocusReason.TabFocusReason)


def _edited_by(authors: Sequence[str], editors: Sequence[str]) -> str:
    """ "Edited by Luca Rossi and Kofi Mensah" (after the authors: "in a book edited by …")."""
    listed = join_words(editors)
    return f"In a book edited by {listed}" if authors else f"Edited by {listed}"
