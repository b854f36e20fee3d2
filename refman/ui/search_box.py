"""The search field: filters the paper list as the user types, at every keystroke.

There is no typing delay: each keystroke asks for its list at once. The list reads it off the
GUI thread and a newer keystroke interrupts the read of the one before (see
:mod:`refman.ui.list_worker`), so typing never waits and the list shows the newest answer.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal, Slot
from PySide6.QtGui import QActionGroup, QIcon, QKeyEvent, QPen
from PySide6.QtWidgets import QLineEdit, QMenu, QStyle, QWidget

from refman.ui.look import muted
from refman.ui.search_help import SearchHelp, help_icon, icon_canvas

PLACEHOLDER = "Search titles, authors, abstracts, tags, notes…"
EVERYTHING_PLACEHOLDER = "Search everything, the text of the PDFs too…"
#: The two search modes, in the magnifier's menu.
FIELDS_MODE = "Titles, Authors, Abstracts, Tags && Notes"
EVERYTHING_MODE = "Everything (PDFs Too)"
#: The keys that go on from the field to the results.
_TO_RESULTS = (Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter)


def magnifier_icon(widget: QWidget, size: int = 16) -> QIcon:
    """A search icon drawn in the widget's muted text colour (no icon theme needed).

    Args:
        widget: Supplies the palette and the screen's pixel ratio.
        size: The icon's size in device-independent pixels.

    Returns:
        The icon.
    """
    pixmap, painter = icon_canvas(widget, size)
    pen = QPen(muted(widget.palette()), size / 9)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    radius = size * 0.3
    centre = QPointF(size * 0.42, size * 0.42)
    painter.drawEllipse(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius))
    reach = radius * 0.72
    painter.drawLine(
        QPointF(centre.x() + reach, centre.y() + reach), QPointF(size * 0.86, size * 0.86)
    )
    painter.end()
    return QIcon(pixmap)


class SearchBox(QLineEdit):
    """A search field that reports its text at every change.

    Each keystroke, paste or clear reports the new text through :attr:`search_changed` (the
    same text is never reported twice in a row). Esc clears the field; Down or Enter asks
    for the results (as in Zotero and Mail: the list gets the keyboard, its first paper
    selected).

    Signals:
        search_changed(str): The text to search for ("" shows everything).
        results_wanted(): Down or Enter was pressed: the person goes on to the results.
    """

    search_changed = Signal(str)
    results_wanted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        """Create the field.

        Args:
            parent: The parent widget.
        """
        super().__init__(parent)
        self.setObjectName("searchBox")
        self.setPlaceholderText(PLACEHOLDER)
        self.setClearButtonEnabled(True)
        self.setAccessibleName("Search")
        self.search_action = self.addAction(
            magnifier_icon(self), QLineEdit.ActionPosition.LeadingPosition
        )
        self.search_action.setToolTip("Search titles, authors and more, or everything (PDFs)")
        self.search_action.setText("What to search")  # (its button's name to a screen reader)
        self.search_action.triggered.connect(self.show_modes)
        #: The search also looks inside the papers' PDFs (Zotero's "Everything").
        self.everything = False
        self.modes = QMenu(self)
        self.modes.setObjectName("searchModes")
        group = QActionGroup(self.modes)
        self.fields_mode = self.modes.addAction(FIELDS_MODE)
        self.everything_mode = self.modes.addAction(EVERYTHING_MODE)
        for action, on in ((self.fields_mode, False), (self.everything_mode, True)):
            action.setCheckable(True)
            group.addAction(action)
            action.triggered.connect(lambda _=False, on=on: self.set_everything(on))
        self.fields_mode.setChecked(True)
        #: Shown in the field while it searches everything (PDFs too); a click switches back.
        self.everything_mark = self.addAction(
            self.style().standardIcon(QStyle.StandardPixmap.SP_FileIcon),
            QLineEdit.ActionPosition.TrailingPosition,
        )
        self.everything_mark.setToolTip("Searching everything, the PDFs' text too (click: not)")
        self.everything_mark.setText("Searching everything: search the fields only")
        self.everything_mark.triggered.connect(lambda: self.set_everything(False))
        self.everything_mark.setVisible(False)
        trailing = QLineEdit.ActionPosition.TrailingPosition
        self.help_action = self.addAction(help_icon(self), trailing)
        self.help_action.setToolTip("Search syntax: author:, year:2023..2025, -word, OR… (F1)")
        self.help_action.setText("Search syntax")
        self.help_action.triggered.connect(self.show_help)
        self.help = SearchHelp(self)
        self.help.example_chosen.connect(self.add_example)
        self._emitted: str | None = None
        self.textChanged.connect(self.on_text_changed)

    @Slot()
    def show_modes(self) -> None:
        """Show the search modes under the magnifier."""
        self.modes.popup(self.mapToGlobal(self.rect().bottomLeft()))

    def set_everything(self, on: bool) -> None:
        """Search inside the PDFs too (or not), and search again."""
        if on == self.everything:
            return
        self.everything = on
        (self.everything_mode if on else self.fields_mode).setChecked(True)
        self.everything_mark.setVisible(on)
        self.setPlaceholderText(EVERYTHING_PLACEHOLDER if on else PLACEHOLDER)
        self._emit(self.text())

    def set_text_now(self, text: str) -> None:
        """Put text in the field and report it.

        Args:
            text: The new search text.
        """
        if text != self.text():
            self.setText(text)  # reported by on_text_changed
        elif text != self._emitted:
            self._emit(text)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Esc clears the field (and the search); F1 shows the search syntax; Down or Enter
        goes on to the results."""
        plain = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if event.key() == Qt.Key.Key_Escape and self.text():
            event.accept()
            self.set_text_now("")
        elif event.key() == Qt.Key.Key_F1:
            event.accept()
            self.show_help()
        elif event.key() in _TO_RESULTS and plain == Qt.KeyboardModifier.NoModifier:
            event.accept()
            self.results_wanted.emit()
        else:
            super().keyPressEvent(event)

    @Slot()
    def show_help(self) -> None:
        """Show the search syntax under the field."""
        self.help.show_below(self)

    @Slot(str)
    def add_example(self, example: str) -> None:
        """Put an example of the syntax in the field, after what is there."""
        text = self.text().rstrip()
        self.set_text_now(f"{text} {example}" if text else example)
        self.setFocus(Qt.FocusReason.OtherFocusReason)

    def _emit(self, text: str) -> None:
        self._emitted = text
        self.search_changed.emit(text)

    @Slot(str)
    def on_text_changed(self, text: str) -> None:
        """Typed, pasted, cleared: search for what is in the field now."""
        if text != self._emitted:
            self._emit(text)
