"""Editable-in-place fields of the detail pane: the title heading, year and venue (the
authors are links: :mod:`refman.ui.author_links`).

Every field shows plain text: titles and names come from author pages and are data, never
markup.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, QRectF, QSize, Qt, Signal, Slot
from PySide6.QtGui import (
    QFocusEvent,
    QFont,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QTextEdit,
    QWidget,
)

from refman.ui.field_undo import passes_undo
from refman.ui.look import ATTENTION, plain_label, scaled_font

PROVISIONAL_NOTE = "Title suggested from the abstract — edit to confirm"
KEEP_TITLE = "Keep this title"

_FLAT = (
    "{cls} {{ background: transparent; border: 1px solid transparent; border-radius: 4px; }}"
    "{cls}:hover {{ border-color: palette(mid); }}"
    "{cls}:focus {{ background: palette(base); border-color: palette(highlight); }}"
    f'{{cls}}[held="true"] {{{{ border-color: {ATTENTION}; }}}}'
)
# At rest, text lines up with the labels around it; while edited it moves in from the border.
_EDIT_INSET = 3


def _clean(text: str) -> str:
    return " ".join(text.split())


def held_tip(theirs: str, unsaved: bool = False) -> str:
    """What a field holding typing the library did not take says about it (``unsaved``: the
    library could not take any change then, ``theirs`` being what it holds)."""
    now = f"“{theirs}”" if theirs else "nothing"
    if unsaved:
        return f"Not saved: the library could not take it. Enter saves it; Esc takes back {now}."
    return f"Not saved: someone else changed it to {now}. Enter saves yours; Esc takes theirs."


def _mark_held(field: QWidget, theirs: str | None) -> None:
    """Mark a field as holding typing not saved because someone else changed its value (None:
    no longer)."""
    field.setProperty("held", theirs is not None)
    field.style().unpolish(field)
    field.style().polish(field)


class TitleEdit(QTextEdit):
    """The paper's title as a wrapped heading that can be edited in place.

    Enter (or leaving the field) commits, Escape reverts, and the text is always plain. While
    the title is provisional (suggested, not confirmed), Enter also confirms it unchanged.

    Signals:
        committed(str): The user finished editing and the text differs from the title shown,
            or confirmed a provisional title with Enter.
        held_changed(): The field began or stopped holding typing the library did not take
            (:meth:`hold`).
    """

    committed = Signal(str)
    held_changed = Signal()
    _TIP = "Click to edit the title; Enter saves, Esc cancels"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("titleEdit")
        self.setAccessibleName("Title")
        self.setAcceptRichText(False)
        self.setTabChangesFocus(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setLineWrapMode(QTextEdit.LineWrapMode.WidgetWidth)
        self.setFont(scaled_font(self.font(), 1.45, QFont.Weight.Bold))
        self.setStyleSheet(_FLAT.format(cls="QTextEdit"))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setToolTip(self._TIP)
        self.document().setDocumentMargin(0)  # text in line with the labels around it
        self._shown = ""
        self._provisional = False
        #: The other person's title while the field holds typing not saved (:meth:`hold`).
        self.held: str | None = None
        #: Held because the library could not take it (not someone else's change).
        self.unsaved = False
        self._handed: str | None = None  # committed, its save not answered yet
        self.textChanged.connect(self._fit_height)

    def set_title(self, title: str) -> None:
        """Show a title (replacing anything typed)."""
        self._shown = title
        self._handed = None
        self._set_held(None)
        self.setPlainText(title)
        self.document().setModified(False)
        self._fit_height()

    def hold(self, typed: str, theirs: str, unsaved: bool = False) -> None:
        """Keep typing the library did not take, not saved and marked, over the other
        person's title now stored (what saving it is based on from now on; ``unsaved``: the
        title stored, the library having taken no change)."""
        self.set_title(theirs)
        self.setPlainText(typed)
        self.document().setModified(True)
        self.unsaved = unsaved
        self._set_held(theirs)

    def _set_held(self, theirs: str | None) -> None:
        if theirs != self.held:
            self.held = theirs
            _mark_held(self, theirs)
            tip = self._TIP if theirs is None else held_tip(theirs, self.unsaved)
            self.setToolTip(tip)
            self.held_changed.emit()

    def set_provisional(self, provisional: bool) -> None:
        """Whether the title shown is only a suggestion that Enter may confirm."""
        self._provisional = provisional

    def shown_title(self) -> str:
        """The title the field was last given."""
        return self._shown

    def revert(self) -> None:
        """Throw away what was typed."""
        self.set_title(self._shown)

    def is_edited(self) -> bool:
        """True while the field holds typing not yet committed."""
        return self.document().isModified()

    def commit(self, *, confirm: bool = False) -> None:
        """Hand over what was typed (if it differs from the title shown).

        Args:
            confirm: Hand over an unchanged title too when it is provisional (Enter, or the
                pane's "Keep this title"), which makes it a real title.
        """
        if "_shown" not in self.__dict__:  # not while Qt tears the field down
            return
        text = _clean(self.toPlainText())
        if text != _clean(self._shown) or (confirm and self._provisional and text):
            if text == self._handed and not self.is_edited():
                return  # handed over already (a question about it took the keyboard away)
            self._handed = text
            self.document().setModified(False)
            self._set_held(None)
            self.committed.emit(text)
        elif self.toPlainText() != self._shown:
            self.revert()
        else:  # typed back to what it shows: nothing edited (a change may replace it)
            self.document().setModified(False)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter commits (confirming a provisional title) and Escape reverts; one paragraph."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.commit(confirm=True)
            return
        if event.key() == Qt.Key.Key_Escape:
            self.revert()
            return
        super().keyPressEvent(event)

    def event(self, event: QEvent) -> bool:
        """Undo and Redo go to the window when nothing typed is left to undo here."""
        return passes_undo(event, self.is_edited()) or super().event(event)

    def focusInEvent(self, event: QFocusEvent) -> None:
        """Move the text in from the border while editing."""
        super().focusInEvent(event)
        self.setViewportMargins(_EDIT_INSET, 0, 0, 0)
        self._fit_height()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        """Leaving the field commits."""
        super().focusOutEvent(event)
        if event.reason() != Qt.FocusReason.PopupFocusReason:
            self.setViewportMargins(0, 0, 0, 0)
            self._fit_height()
            self.commit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Re-wrap and fit the height to the text."""
        super().resizeEvent(event)
        self._fit_height()

    def sizeHint(self) -> QSize:
        """As tall as the wrapped text."""
        return QSize(super().sizeHint().width(), self.height())

    @Slot()
    def _fit_height(self) -> None:
        doc = self.document()
        doc.setTextWidth(self.viewport().width())
        height = int(doc.size().height()) + 2 * self.frameWidth() + 2
        if height != self.height():
            self.setFixedHeight(height)


class FieldEdit(QLineEdit):
    """A one-line field (year, venue) that looks like text until hovered or focused.

    Signals:
        committed(str): Editing finished and the text differs from the value shown.
        held_changed(): The field began or stopped holding typing the library did not take
            (:meth:`hold`).
    """

    committed = Signal(str)
    held_changed = Signal()

    def __init__(
        self, name: str, placeholder: str, parent: QWidget | None = None, *, label: str = ""
    ) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.setPlaceholderText(placeholder)
        self.setAccessibleName(label)  # (what a screen reader names it: its heading)
        self.setFrame(False)
        self.setStyleSheet(
            _FLAT.format(cls="QLineEdit") + "QLineEdit { padding: 1px 0px; }"
            f"QLineEdit:focus {{ padding-left: {_EDIT_INSET}px; }}"
        )
        self.setTextMargins(-2, 0, 0, 0)  # no inner margin at rest: text in line with labels
        self._shown = ""
        #: The other person's value while the field holds typing not saved (:meth:`hold`).
        self.held: str | None = None
        #: Held because the library could not take it (not someone else's change).
        self.unsaved = False
        self.editingFinished.connect(self.commit)

    def set_value(self, text: str) -> None:
        """Show a value (replacing anything typed)."""
        self._shown = text
        self._set_held(None)
        self.setText(text)
        self.setCursorPosition(0)
        self._tell_whole()

    def hold(self, typed: str, theirs: str, unsaved: bool = False) -> None:
        """Keep typing the library did not take, not saved and marked, over the other
        person's value now stored (what saving it is based on from now on; ``unsaved``: the
        value stored, the library having taken no change)."""
        self.set_value(theirs)
        self.setText(typed)
        self.setModified(True)
        self.unsaved = unsaved
        self._set_held(theirs)
        self._tell_whole()

    def _set_held(self, theirs: str | None) -> None:
        if theirs != self.held:
            self.held = theirs
            _mark_held(self, theirs)
            self.held_changed.emit()

    def _text_rect(self) -> QRect:
        """Where the text is drawn (QLineEdit keeps 2 px either side of its margins)."""
        margins = self.textMargins()
        return self.contentsRect().adjusted(margins.left() + 2, 0, -margins.right() - 2, 0)

    def cut_short(self) -> bool:
        """True when the value, at rest, is wider than the field (it ends in "…")."""
        text = self.text()
        width = self._text_rect().width()
        return (
            bool(text)
            and not self.hasFocus()
            and self.fontMetrics().horizontalAdvance(text) > width
        )

    def _tell_whole(self) -> None:
        """A value cut short shows whole in the field's tooltip (one held says so)."""
        held = self.__dict__.get("held")  # (none while Qt tears the field down)
        if held is not None:
            self.setToolTip(held_tip(held, self.unsaved))
        else:
            self.setToolTip(self.text() if self.cut_short() else "")

    def paintEvent(self, event: QPaintEvent) -> None:
        """At rest, a value wider than the field ends in "…" (a line edit cuts it off mid-letter
        at its edge: a long venue, a publisher, a link)."""
        if not self.cut_short():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        if self.underMouse() and not self.isReadOnly():  # the hover border of the flat look
            painter.setPen(self.palette().color(QPalette.ColorRole.Mid))
            painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4)
        area = self._text_rect()
        shown = self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideRight, area.width()
        )
        painter.setPen(self.palette().color(QPalette.ColorRole.Text))
        painter.drawText(
            area, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown
        )

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A narrower pane may cut the value short (or a wider one show it whole)."""
        super().resizeEvent(event)
        self._tell_whole()

    def focusInEvent(self, event: QFocusEvent) -> None:
        """Being edited, the value shows whole (scrolling as the cursor moves)."""
        super().focusInEvent(event)
        self._tell_whole()

    def revert(self) -> None:
        """Throw away what was typed."""
        self.set_value(self._shown)

    def shown_value(self) -> str:
        """The value shown before any typing (what an edit is based on)."""
        return self._shown

    def is_edited(self) -> bool:
        """True while the field holds typing not yet committed."""
        return self.isModified()

    @Slot()
    def commit(self) -> None:
        """Hand over what was typed (if it differs from the value shown)."""
        if "_shown" not in self.__dict__:  # not while Qt tears the field down
            return
        if self.text().strip() != self._shown.strip():
            self.setModified(False)
            self._set_held(None)
            self.committed.emit(self.text().strip())
        else:  # typed back to what it shows: nothing edited (a change may replace it)
            self.revert()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Escape reverts."""
        if event.key() == Qt.Key.Key_Escape:
            self.revert()
            return
        super().keyPressEvent(event)

    def event(self, event: QEvent) -> bool:
        """Undo and Redo go to the window when nothing typed is left to undo here."""
        return passes_undo(event, self.is_edited()) or super().event(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        """At rest again, the value starts at its beginning (and may be cut short)."""
        super().focusOutEvent(event)
        self.setCursorPosition(0)
        self._tell_whole()


class ProvisionalNote(QWidget):
    """ "Title suggested from the abstract — edit to confirm", with *Keep this title*."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note = plain_label(PROVISIONAL_NOTE, self)
        self.note.setObjectName("provisionalNote")
        italic = scaled_font(self.note.font(), 0.9)
        italic.setItalic(True)
        self.note.setFont(italic)
        self.note.setStyleSheet(f"QLabel {{ color: {ATTENTION}; }}")
        self.keep = QPushButton(KEEP_TITLE, self)
        self.keep.setObjectName("keepTitleButton")
        self.keep.setToolTip("Confirm the suggested title as it is (Enter in the title)")
        self.keep.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        row.addWidget(self.note, 1)
        row.addWidget(self.keep, 0, Qt.AlignmentFlag.AlignVCenter)
