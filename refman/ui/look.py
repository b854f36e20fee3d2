"""Small shared pieces of the panes' look: muted colours, section headings, plain labels.

Colours are derived from the widget's palette, so the panes follow light and dark themes.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLayout,
    QPushButton,
    QTableWidgetItem,
    QWidget,
)

#: Spacing used between blocks of the detail pane and around the sidebar.
GAP = 14


def mix(a: QColor, b: QColor, amount: float) -> QColor:
    """Blend two colours.

    Args:
        a: The first colour.
        b: The second colour.
        amount: How much of ``b`` (0 gives ``a``, 1 gives ``b``).

    Returns:
        The blended, opaque colour.
    """
    return QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * amount,
        a.greenF() + (b.greenF() - a.greenF()) * amount,
        a.blueF() + (b.blueF() - a.blueF()) * amount,
    )


def muted(palette: QPalette) -> QColor:
    """The colour of secondary text (counts, labels, hints) for a palette."""
    return mix(
        palette.color(QPalette.ColorRole.WindowText), palette.color(QPalette.ColorRole.Window), 0.45
    )


def subtle_fill(palette: QPalette) -> QColor:
    """A faint fill that sets a block apart from the window background."""
    return mix(
        palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.WindowText), 0.07
    )


def heading_font(base: QFont) -> QFont:
    """The font of group headings: small, semi-bold, upper case, slightly spaced."""
    font = QFont(base)
    size = base.pointSizeF()
    if size > 0:
        font.setPointSizeF(max(size * 0.8, 7.0))
    font.setWeight(QFont.Weight.DemiBold)
    font.setCapitalization(QFont.Capitalization.AllUppercase)
    font.setLetterSpacing(QFont.SpacingType.PercentageSpacing, 106)
    return font


def scaled_font(base: QFont, factor: float, weight: QFont.Weight | None = None) -> QFont:
    """A copy of ``base`` scaled by ``factor`` and optionally with another weight."""
    font = QFont(base)
    size = base.pointSizeF()
    if size > 0:
        font.setPointSizeF(size * factor)
    if weight is not None:
        font.setWeight(weight)
    return font


def set_muted(widget: QWidget) -> None:
    """Draw a widget's text in the muted colour."""
    palette = widget.palette()
    colour = muted(palette)
    palette.setColor(QPalette.ColorRole.WindowText, colour)
    palette.setColor(QPalette.ColorRole.Text, colour)
    widget.setPalette(palette)


def plain_label(text: str = "", parent: QWidget | None = None, *, wrap: bool = True) -> QLabel:
    """A label that never interprets its text as HTML (text from author pages is data).

    Args:
        text: The text, shown exactly.
        parent: The parent widget.
        wrap: Wrap long lines.

    Returns:
        A selectable plain-text label.
    """
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setText(text)
    return label


def heading_label(text: str, parent: QWidget | None = None) -> QLabel:
    """A muted group heading such as "TAGS"."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    label.setFont(heading_font(label.font()))
    set_muted(label)
    return label


def heading_with(text: str, widget: QWidget, parent: QWidget) -> QWidget:
    """A group heading with a widget at its right (the Notes heading and its Add Note)."""
    row = QWidget(parent)
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(heading_label(text, row), 1, Qt.AlignmentFlag.AlignBottom)
    layout.addWidget(widget)
    return row


def table_cell(text: str, key: int, *, number: bool = False) -> QTableWidgetItem:
    """A read-only cell of a table of things (people, imports) carrying the thing's id (as
    its user data); a number aligned right."""
    item = QTableWidgetItem(text)
    item.setData(Qt.ItemDataRole.UserRole, key)
    item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
    if number:
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


def clear_layout(layout: QLayout) -> None:
    """Take every widget out of a layout and delete it (hidden at once, deleted once the
    event in progress is over: one of them may be sending the click that brought us here)."""
    while (item := layout.takeAt(0)) is not None:
        if (widget := item.widget()) is not None:
            widget.hide()
            widget.deleteLater()


#: The colour of "needs your attention": suggested titles, possible duplicates, warnings.
ATTENTION = "#b26a00"
#: The colour of an error or a refusal.
ERROR = "#b42318"
#: The review table's status dots: new, merge, repeat.
NEW = "#2e7d32"
MERGE = "#1565c0"
REPEAT = "#8a8a8a"
#: The paper list's mark of an unread paper (and of one being read).
UNREAD = "#1e88e5"
_DOTS: dict[str, QIcon] = {}


def status_dot(colour: str) -> QIcon:
    """A small round marker in a status colour (the review table's)."""
    if colour not in _DOTS:
        pixmap = QPixmap(24, 24)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(colour))
        painter.drawEllipse(5, 5, 14, 14)
        painter.end()
        _DOTS[colour] = QIcon(pixmap)
    return _DOTS[colour]


def link_button_style(extra: str = "") -> str:
    """The style sheet of a flat push button that reads as a link (underlined on hover, and
    while it has the keyboard: a link reached with Tab shows where the keyboard is)."""
    return (
        f"QPushButton {{ border: none; padding: 0; color: palette(link); {extra} }}"
        "QPushButton:disabled { color: palette(mid); }"
        "QPushButton:hover:enabled, QPushButton:focus { text-decoration: underline; }"
    )


def link_button(text: str, parent: QWidget | None = None) -> QPushButton:
    """A flat push button that reads as a link, with a pointing-hand cursor."""
    button = QPushButton(text, parent)
    button.setFlat(True)
    button.setCursor(Qt.CursorShape.PointingHandCursor)
    button.setStyleSheet(link_button_style())
    return button
