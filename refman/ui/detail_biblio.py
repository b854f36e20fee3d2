"""The detail pane's bibliographic fields: type, citation key, DOI, arXiv id, link, volume,
issue, pages and publisher — each editable in place; DOI, arXiv id and link also open in the
browser."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSignalBlocker, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QToolButton,
    QWidget,
)

from refman.common.identifiers import arxiv_url, doi_url
from refman.core.rules import FIELD_LABELS, ITEM_TYPES
from refman.core.values import PaperDetail

from refman.ui.detail_fields import FieldEdit
from refman.ui.look import heading_label
from refman.ui.read_only import mark_changing

#: (field, placeholder) of the one-line fields, in the order shown.
TEXT_FIELDS = (
    ("citekey", "Citation key"),
    ("doi", "Add DOI"),
    ("arxiv_id", "Add arXiv id"),
    ("url", "Add link"),
    ("volume", "Add volume"),
    ("issue", "Add issue"),
    ("pages", "Add pages"),
    ("publisher", "Add publisher"),
)


def _as_is(url: str) -> str:
    return url


#: The fields that are links, and how their value becomes an address.
LINKS: dict[str, Callable[[str], str]] = {"doi": doi_url, "arxiv_id": arxiv_url, "url": _as_is}


def open_link(address: str) -> bool:
    """Open a web address in the browser; anything but http(s) is refused (False)."""
    url = QUrl(address)
    if url.scheme().lower() not in ("http", "https") or not url.isValid():
        return False
    return bool(QDesktopServices.openUrl(url))


class BibliographicFields(QWidget):
    """Type and the bibliographic fields of one paper.

    Signals:
        committed(str, str): A field was edited: its name and the text typed ("" clears it).
    """

    committed = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("bibliographicFields")
        self.type_combo = QComboBox(self)
        mark_changing(self.type_combo)
        self.type_combo.setObjectName("typeField")
        self.type_combo.setAccessibleName("Type")
        for item_type, label in ITEM_TYPES.items():
            self.type_combo.addItem(label, item_type)
        self.type_combo.activated.connect(self.on_type_combo_activated)
        self.fields: dict[str, FieldEdit] = {}
        self.link_buttons: dict[str, QToolButton] = {}
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(12)
        grid.setVerticalSpacing(2)
        grid.addWidget(heading_label("Type", self), 0, 0)
        grid.addWidget(self.type_combo, 0, 1)
        #: The paper's other citation keys, under its key (hidden when it has none).
        self.aliases = QLabel(self)
        self.aliases.setObjectName("citekeyAliases")
        self.aliases.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.aliases.setWordWrap(True)
        self.aliases.hide()
        row = 1
        for name, placeholder in TEXT_FIELDS:
            label = FIELD_LABELS.get(name, name)
            grid.addWidget(heading_label(label[:1].upper() + label[1:], self), row, 0)
            grid.addLayout(self._row(name, placeholder, label), row, 1)
            row += 1
            if name == "citekey":
                grid.addWidget(self.aliases, row, 1)
                row += 1
        grid.setColumnStretch(1, 1)

    def _row(self, name: str, placeholder: str, label: str) -> QHBoxLayout:
        field = FieldEdit(f"{name}Field", placeholder, self, label=label[:1].upper() + label[1:])
        field.committed.connect(lambda text, n=name: self.committed.emit(n, text))
        self.fields[name] = field
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(field, 1)
        if name in LINKS:
            button = QToolButton(self)
            button.setObjectName(f"open_{name}")
            button.setText("↗")
            button.setAutoRaise(True)
            button.setToolTip(f"Open the {label} in the browser")
            button.setAccessibleName(f"Open the {label} in the browser")
            button.clicked.connect(lambda _=False, n=name: self.open(n))
            self.link_buttons[name] = button
            row.addWidget(button)
        return row

    def show_paper(self, paper: PaperDetail) -> None:
        """Show a paper's fields (fields being typed in keep their text)."""
        with QSignalBlocker(self.type_combo):
            index = self.type_combo.findData(paper.type)
            if index < 0:  # a type refman has no name for: show it as it is
                self.type_combo.addItem(paper.type, paper.type)
                index = self.type_combo.count() - 1
            self.type_combo.setCurrentIndex(index)
        for name, field in self.fields.items():
            value = getattr(paper, name) or ""
            if not field.is_edited():
                field.set_value(value)
            if name in self.link_buttons:
                self.link_buttons[name].setEnabled(bool(value))
        self.aliases.setText(f"Also cited as {', '.join(paper.aliases)}")
        self.aliases.setToolTip("Keys of entries merged into this paper: a \\cite of them finds it")
        self.aliases.setVisible(bool(paper.aliases))

    def address(self, name: str) -> str | None:
        """The web address a link field shows, or None when it is empty."""
        value = self.fields[name].text().strip()
        return LINKS[name](value) if value else None

    def open(self, name: str) -> bool:
        """Open a link field in the browser."""
        address = self.address(name)
        return open_link(address) if address else False

    def revert(self, name: str) -> None:
        """Show a field's stored value again (after a refused edit)."""
        if name in self.fields:
            self.fields[name].revert()

    @Slot(int)
    def on_type_combo_activated(self, index: int) -> None:
        """A type was picked."""
        self.committed.emit("type", str(self.type_combo.itemData(index)))
