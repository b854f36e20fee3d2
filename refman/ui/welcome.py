"""What an empty library shows instead of an empty list: what refman does and how to start."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal, Slot
from PySide6.QtGui import QFont, QIcon, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from refman.resources import icon_path

from refman.ui.look import mix, scaled_font, set_muted

HEADING = "Your library is empty"
PITCH = (
    "refman keeps the papers you read — import a researcher's publication page, your Zotero "
    "or Mendeley Desktop library itself, or the library you export from Zotero, JabRef or "
    "Mendeley, and refman turns it into a tidy, searchable library without creating "
    "duplicates."
)
BUTTON = "Import papers…"
HINT = (
    "Or drop a page (text or HTML file, or copied text), a .bib, .ris or CSL-JSON file, "
    "papers' PDFs, or Zotero's zotero.sqlite or Mendeley Desktop's database anywhere on this "
    "window."
)

_COLUMN_WIDTH = 460  # the text column's widest width: short, readable lines
_ICON = 96


def _centred_label(text: str, parent: QWidget, font: QFont) -> QLabel:
    label = QLabel(text, parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
    label.setWordWrap(True)
    label.setFont(font)
    return label


class WelcomeView(QWidget):
    """A friendly first page for a library with no papers yet.

    Signals:
        import_requested(): The user asked to import an author page.
    """

    import_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        """Build the view.

        Args:
            parent: The parent widget.
        """
        super().__init__(parent)
        self.setObjectName("welcomeView")
        base = self.font()

        self.icon = QLabel(self)
        self.icon.setObjectName("welcomeIcon")
        self.icon.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.icon.setPixmap(QIcon(str(icon_path(256))).pixmap(QSize(_ICON, _ICON)))

        self.heading = _centred_label(HEADING, self, scaled_font(base, 1.7, QFont.Weight.DemiBold))
        self.heading.setObjectName("welcomeHeading")
        self.pitch = _centred_label(PITCH, self, scaled_font(base, 1.1))
        self.pitch.setObjectName("welcomeText")

        self.import_button = QPushButton(BUTTON, self)
        self.import_button.setObjectName("importButton")
        self.import_button.setDefault(True)
        self.import_button.setAutoDefault(True)
        self.import_button.setFont(scaled_font(base, 1.15, QFont.Weight.DemiBold))
        self.import_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.import_button.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

        self.hint = _centred_label(HINT, self, base)
        self.hint.setObjectName("welcomeHint")
        set_muted(self.hint)

        self._style_button()
        self._lay_out()
        self.import_button.clicked.connect(self.on_import_button_clicked)

    def _lay_out(self) -> None:
        column = QWidget(self)
        column.setObjectName("welcomeColumn")
        column.setMaximumWidth(_COLUMN_WIDTH)
        column.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        inner = QVBoxLayout(column)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.setSpacing(0)
        inner.addWidget(self.icon)
        inner.addSpacing(18)
        inner.addWidget(self.heading)
        inner.addSpacing(10)
        inner.addWidget(self.pitch)
        inner.addSpacing(26)
        inner.addWidget(self.import_button, 0, Qt.AlignmentFlag.AlignHCenter)
        inner.addSpacing(16)
        inner.addWidget(self.hint)

        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(column, 100)
        row.addStretch(1)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 24, 24, 24)
        outer.addStretch(2)
        outer.addLayout(row)
        outer.addStretch(3)

    def _style_button(self) -> None:
        """Draw the import button as the page's one primary action, in the accent colour."""
        palette = self.palette()
        accent = palette.color(QPalette.ColorRole.Highlight)
        text = palette.color(QPalette.ColorRole.HighlightedText)
        self.import_button.setStyleSheet(
            "QPushButton#importButton {"
            f" background: {accent.name()}; color: {text.name()};"
            " border: none; border-radius: 6px; padding: 10px 28px; }"
            f"QPushButton#importButton:hover {{ background: {accent.lighter(112).name()}; }}"
            f"QPushButton#importButton:pressed {{ background: {accent.darker(115).name()}; }}"
            "QPushButton#importButton:focus {"
            f" border: 2px solid {mix(accent, text, 0.55).name()}; }}"
        )

    def changeEvent(self, event: QEvent) -> None:
        """Follow a change of theme."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._style_button()

    @Slot()
    def on_import_button_clicked(self) -> None:
        """Ask the window to open the import wizard."""
        self.import_requested.emit()
