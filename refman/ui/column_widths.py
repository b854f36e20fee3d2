"""The paper list's column widths: those the person chose, fitted to the list's width.

The columns beside the title keep the widths the person gave them by dragging a header's
edge (or their defaults), and the title the width that left it. A list too narrow for them
narrows them on screen only, and leaves out those of least use when it must
(:func:`~refman.ui.paper_columns.fitted_widths`); a wider list shows them as chosen again.
The widths remembered between sessions are the chosen ones: a small window never makes
its cramped columns the person's choice ("Marta Ø…" beside a wide title at full size).
Widths an older refman remembered at their floors (what a small window forced) are taken
for no choice: those columns come back at their default widths.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QEvent, QObject, QSignalBlocker, Qt, QTimer, Slot
from PySide6.QtWidgets import QHeaderView

from refman.ui.column_menu import ColumnMenu
from refman.ui.paper_columns import (
    ADDED,
    AUTHOR,
    NARROWEST,
    RATING,
    STATUS,
    TITLE,
    VENUE,
    YEAR,
    fitted_widths,
    floor_width,
)

#: The columns beside the title and their default widths, in average characters.
DEFAULT_WIDTHS = ((AUTHOR, 18), (YEAR, 6), (VENUE, 10), (ADDED, 11), (STATUS, 3), (RATING, 8))


def set_up_columns(header: QHeaderView, char: int) -> ColumnWidths:
    """Lay out a paper list's columns: movable, at their default widths beside the title,
    which stretches; their widths are then kept fitted to the list (:class:`ColumnWidths`).

    Args:
        header: The list's horizontal header.
        char: The font's average character width.
    """
    header.setSectionsMovable(True)
    header.setHighlightSections(False)
    header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    header.setTextElideMode(Qt.TextElideMode.ElideRight)  # ("First au…", not "First autho")
    header.setStretchLastSection(False)
    header.setMinimumSectionSize(NARROWEST)
    for column, chars in DEFAULT_WIDTHS:
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(column, chars * char + 24)
    header.setSectionResizeMode(TITLE, QHeaderView.ResizeMode.Stretch)
    widths = ColumnWidths(header, char)
    ColumnMenu(header, widths)  # (the header's menu: columns shown or hidden)
    return widths


class ColumnWidths(QObject):
    """Keeps the chosen widths of a list's columns and fits them to the list's width."""

    def __init__(self, header: QHeaderView, char: int) -> None:
        """Take the header's widths now as the chosen ones.

        Args:
            header: The list's horizontal header (the title column stretches).
            char: The font's average character width (the columns' floors are in letters).
        """
        super().__init__(header)
        self._header = header
        self._char = char
        self._fitting = False  # the widths change, but not by the person's hand
        self._by_hand = False  # a mouse button is down on the header
        self.chosen = self._widths()
        self._defaults = dict(self.chosen)
        #: The title's width when the person last set a column's width (None: never).
        self.title: int | None = None
        #: The columns the person hid (the header's menu); their chosen widths are kept.
        self.hidden: set[int] = set()
        self._width: int | None = None  # the list's width when last fitted
        header.sectionResized.connect(self.on_header_section_resized)
        header.viewport().installEventFilter(self)

    def _widths(self) -> dict[int, int]:
        """The widths shown of the columns beside the title (0: left out)."""
        header = self._header
        return {c: header.sectionSize(c) for c in range(header.count()) if c != TITLE}

    def _show(self, widths: dict[int, int]) -> None:
        """Show the columns at these widths (0: leave the column out)."""
        header = self._header
        self._fitting = True
        try:
            for column, width in widths.items():
                if width and header.isSectionHidden(column):
                    header.showSection(column)
                if not width:
                    header.hideSection(column)
                elif header.sectionSize(column) != width:
                    header.resizeSection(column, width)
        finally:
            self._fitting = False

    def fit(self, width: int) -> None:
        """Show the chosen widths, narrowed as far as a list ``width`` pixels wide needs (the
        columns of least use left out when even that is not enough), the hidden ones left
        out."""
        self._width = width
        shown = {c: w for c, w in self.chosen.items() if c not in self.hidden}
        fitted = fitted_widths(shown, width, self._char, self.title)
        self._show({c: fitted.get(c, 0) for c in self.chosen})

    def set_hidden(self, column: int, hidden: bool) -> None:
        """Hide a column beside the title, or show it again at its chosen width."""
        if column == TITLE:
            return
        if hidden:
            self.hidden.add(column)
        else:
            self.hidden.discard(column)
        self._refit()

    def reset(self) -> None:
        """Every column shown again, in its first place, at its default width (the title
        the rest of the list)."""
        header = self._header
        for column in range(header.count()):
            header.moveSection(header.visualIndex(column), column)
        self.chosen, self.hidden, self.title = dict(self._defaults), set(), None
        self._refit()

    def _refit(self) -> None:
        if self._width is not None:
            self.fit(self._width)
        else:
            self._show({c: 0 if c in self.hidden else w for c, w in self.chosen.items()})

    def state(self) -> QByteArray:
        """The header's state (the columns' order and the chosen widths, hidden columns'
        too: :attr:`hidden` is remembered apart) to remember."""
        shown = self._widths()
        self._show(self.chosen)
        try:
            return self._header.saveState()
        finally:
            self._show(shown)

    def restore(self, state: QByteArray) -> bool:
        """Put back a state saved by :meth:`state`; its widths are the chosen ones.

        Returns:
            False when the state could not be read (nothing changed).
        """
        self._fitting = True
        try:
            with QSignalBlocker(self._header):  # (the sort arrow follows the list's query)
                restored = self._header.restoreState(state)
        finally:
            self._fitting = False
        if restored:
            widths = self._widths()
            forced = {c for c, w in widths.items() if w in (0, floor_width(c, self._char))}
            self.chosen = {c: self._defaults[c] if c in forced else w for c, w in widths.items()}
            self._refit()
        return restored

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Tell the person's resizing (a drag or a double click on a column's edge) from
        the list's own (Qt resizes columns as the list's width changes, too)."""
        kind = event.type()
        if kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick):
            self._by_hand = True
        elif kind == QEvent.Type.MouseButtonRelease:
            QTimer.singleShot(0, self, self._hands_off)
        return super().eventFilter(watched, event)

    def _hands_off(self) -> None:
        self._by_hand = False

    @Slot(int, int, int)
    def on_header_section_resized(self, column: int, _old: int, _new: int) -> None:
        """The person dragged a column's edge: the widths shown are theirs from now on (those
        a narrow list shows narrowed too), and the title keeps what they leave it."""
        if self._by_hand and not self._fitting and column != TITLE:
            shown = {c: w for c, w in self._widths().items() if w}
            self.chosen.update(shown)
            self.title = max(0, self._header.viewport().width() - sum(shown.values()))
