"""The search field's help: a small popup with the search syntax and examples to click.

Opened by the "?" at the end of the search field (or F1 in it). A click on an example puts
it in the search field, added to what is there.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QFont, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QFrame, QGridLayout, QVBoxLayout, QWidget

from refman.ui.look import heading_label, link_button, muted, plain_label, set_muted

#: (example, what it finds), in the order shown.
EXAMPLES = (
    ("pipeline straggler", "every word, the last one as you type it"),
    ('"exact phrase"', "the words in this order"),
    ("author:jiang", "an author whose name has a word starting so"),
    ('owner:"Zhuo Jiang"', "on that person's imported page"),
    ("year:2024", "published in 2024"),
    ("year:2023..2025", "from 2023 to 2025 (also 2023-2025, ..2019, 2020.., >2020)"),
    ("title:survey", "the title contains it"),
    ("venue:arxiv", "the venue contains it"),
    ("subject:cs.DC", "filed under the subject (subject:cs for all of cs)"),
    ('tag:"to read"', "carries the tag"),
    ("note:todo", "a note of the paper contains it"),
    ("is:duplicate", "a possible duplicate (also is:suggested, is:incomplete, is:unread)"),
    ("rating:4..", "four stars or more (rating:0: not rated)"),
    ("10.1145/3188720", "a DOI, arXiv id or citation key pasted: its paper"),
    ("-survey", "leave out what matches (also -author:smith, NOT survey)"),
    ("llm OR transformer", "either"),
)


def icon_canvas(widget: QWidget, size: int) -> tuple[QPixmap, QPainter]:
    """A transparent square for drawing a small icon at the screen's pixel ratio, and its
    (antialiasing) painter: end the painter before using the pixmap."""
    ratio = max(widget.devicePixelRatioF(), 1.0)
    pixmap = QPixmap(round(size * ratio), round(size * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    return pixmap, painter


def help_icon(widget: QWidget, size: int = 16) -> QIcon:
    """A "?" in a circle, in the widget's muted text colour."""
    pixmap, painter = icon_canvas(widget, size)
    colour = muted(widget.palette())
    painter.setPen(QPen(colour, size / 12))
    painter.drawEllipse(QRectF(1, 1, size - 2, size - 2))
    font = QFont(widget.font())
    font.setPixelSize(round(size * 0.7))
    font.setBold(True)
    painter.setFont(font)
    painter.drawText(QRectF(QPointF(0, 0), QPointF(size, size)), Qt.AlignmentFlag.AlignCenter, "?")
    painter.end()
    return QIcon(pixmap)


class SearchHelp(QFrame):
    """The popup: the syntax, each example a link that puts it in the search field.

    Signals:
        example_chosen(str): An example was clicked.
    """

    example_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("searchHelp")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 12, 14, 12)
        layout.addWidget(heading_label("Search", self))
        grid = QGridLayout()
        grid.setHorizontalSpacing(16)
        grid.setVerticalSpacing(4)
        self.examples: list[QWidget] = []
        for row, (example, meaning) in enumerate(EXAMPLES):
            button = link_button(example, self)
            button.setObjectName("searchExample")
            button.setFont(QFont("monospace", button.font().pointSize()))
            button.clicked.connect(lambda _=False, e=example: self._choose(e))
            grid.addWidget(button, row, 0, Qt.AlignmentFlag.AlignLeft)
            label = plain_label(meaning, self, wrap=False)
            set_muted(label)
            grid.addWidget(label, row, 1)
            self.examples.append(button)
        layout.addLayout(grid)
        tip = plain_label("Combine them: author:okafor year:2023.. -survey. Esc clears.", self)
        set_muted(tip)
        layout.addWidget(tip)

    def _choose(self, example: str) -> None:
        self.hide()
        self.example_chosen.emit(example)

    def show_below(self, widget: QWidget) -> None:
        """Open under a widget, right-aligned with it."""
        self.adjustSize()
        corner = widget.mapToGlobal(QPoint(widget.width() - self.width(), widget.height() + 2))
        self.move(corner)
        self.show()
