"""Paper ▸ New Paper… (Ctrl+N): a paper added by hand.

A small form asks for the title (*Add Paper* waits for one), the authors on one line, the
year, the type, the venue and the paper's identifiers. Every value is checked by the rule an
edit of the field meets (:mod:`refman.core.new_papers`) before anything changes: a year
"MMXX" is said under the form, which stays open with what was typed. The paper is added as a
one-record import — one undo step, and a paper the library holds already is filled in
rather than added twice — and selected in the list; the status bar says what happened.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import shiboken6
from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from refman.core.importing.values import ImportChoices, ImportResult
from refman.core.new_papers import (
    TYPED_TYPE,
    Added,
    TypedValueError,
    typed_page,
    typed_record,
)
from refman.core.operations import ImportPages, Outcome
from refman.core.rules import ITEM_TYPES
from refman.importers import ParsedRecord

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController

#: The form's one-line fields: (field name, label, placeholder).
_LINES = (
    ("year", "&Year", "2024"),
    ("venue", "&Venue", "Journal, conference or arXiv"),
    ("doi", "&DOI", "10.1145/3620665.3640411"),
    ("arxiv_id", "a&rXiv id", "2402.15627"),
    ("url", "&Link", "https://…"),
)


class NewPaperDialog(QDialog):
    """The form of a paper added by hand; :attr:`record` is what was typed, once accepted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("newPaperDialog")
        self.setWindowTitle("New Paper")
        self.record: ParsedRecord | None = None
        self.title = QLineEdit(self)
        self.title.setObjectName("newPaperTitle")
        self.title.setPlaceholderText("The paper's title")
        self.authors = QLineEdit(self)
        self.authors.setObjectName("newPaperAuthors")
        self.authors.setPlaceholderText("Ann Smith, Bob Jones and Carol White")
        self.type = QComboBox(self)
        self.type.setObjectName("newPaperType")
        for item_type, label in ITEM_TYPES.items():
            self.type.addItem(label, item_type)
        self.type.setCurrentIndex(self.type.findData(TYPED_TYPE))
        self.lines: dict[str, QLineEdit] = {}
        form = QFormLayout()
        form.addRow("&Title", self.title)
        form.addRow("&Authors", self.authors)
        form.addRow("Ty&pe", self.type)
        for name, label, hint in _LINES:
            line = self.lines[name] = QLineEdit(self)
            line.setObjectName(f"newPaper_{name}")
            line.setPlaceholderText(hint)
            form.addRow(label, line)
        self.problem = QLabel(self)
        self.problem.setObjectName("newPaperProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #c62828;")
        self.problem.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.add_button = self.buttons.addButton(
            "Add Paper", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.add_button.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.title.textChanged.connect(self._title_changed)
        self._title_changed()
        self.setMinimumWidth(480)

    @Slot()
    def _title_changed(self) -> None:
        self.add_button.setEnabled(bool(self.title.text().strip()))

    def accept(self) -> None:
        """Close with the record typed, or stay open and say what is wrong."""
        fields = {name: line.text() for name, line in self.lines.items()}
        fields["type"] = str(self.type.currentData())
        try:
            self.record = typed_record(self.title.text(), self.authors.text(), fields)
        except TypedValueError as error:
            self.problem.setText(str(error))
            self.problem.show()
            self._go_to(error.field)
            return
        super().accept()

    def _go_to(self, field: str) -> None:
        """Put the cursor on the field a mistake was typed in, its text selected."""
        editors: dict[str, QWidget] = {"title": self.title, "authors": self.authors}
        editors.update(self.lines)
        editor = editors.get(field, self.type)
        editor.setFocus()
        if isinstance(editor, QLineEdit):
            editor.selectAll()
            editor.textEdited.connect(self.problem.hide)  # (the mistake is being mended)


class NewPaper(QObject):
    """Connects Paper ▸ New Paper… to the form and the library."""

    def __init__(
        self,
        window: QWidget,
        controller: LibraryController,
        actions: dict[ActionId, QAction],
        say: Callable[[str], None],
        go_to: Callable[[int], None],
    ) -> None:
        super().__init__(window)
        self.window_ = window
        self.controller = controller
        self.say = say
        self.go_to = go_to
        self.dialog: NewPaperDialog | None = None
        actions[ActionId.NEW_PAPER].triggered.connect(self.open_form)

    @Slot()
    def open_form(self) -> None:
        """Ask for the paper; add it once the form is accepted."""
        self.dialog = NewPaperDialog(self.window_)
        self.dialog.accepted.connect(self._add)
        self.dialog.open()

    @Slot()
    def _add(self) -> None:
        record = self.dialog.record if self.dialog is not None else None
        if record is None:
            return
        at = datetime.now().replace(microsecond=0)
        dialog = self.dialog
        self.controller.apply(
            ImportPages((typed_page(record),), ImportChoices(), at),
            lambda outcome: self._added(record, outcome),
            on_error=lambda _error: self._refused(dialog),
            label="Adding the paper…",
        )

    def _refused(self, dialog: NewPaperDialog | None) -> None:
        """The library refused the paper (the person was shown why): the form comes back with
        what was typed, to try again or cancel."""
        if dialog is not None and shiboken6.isValid(dialog) and dialog is self.dialog:
            dialog.open()

    def _added(self, record: ParsedRecord, outcome: Outcome[ImportResult]) -> None:
        added = Added.of(record, outcome.value)
        self.go_to(added.paper_id)
        self.say(added.text())
