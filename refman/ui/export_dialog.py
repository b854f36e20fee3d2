"""The export dialog: which papers, in which format, with or without notes, to which file."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QVBoxLayout,
    QWidget,
)

from refman.ui.look import plain_label, set_muted


@dataclass(frozen=True, slots=True)
class Format:
    """An export format as the dialog offers it."""

    id: str
    label: str
    suffix: str


@dataclass(frozen=True, slots=True)
class ExportChoice:
    """What the user chose."""

    format: str
    with_notes: bool
    path: Path


def ask_file(parent: QWidget, title: str, suggested: Path, fmt: Format) -> Path | None:
    """Ask where to save (tests replace this)."""
    path, _ = QFileDialog.getSaveFileName(
        parent, title, str(suggested), f"{fmt.label} (*{fmt.suffix});;All files (*)"
    )
    return Path(path) if path else None


class ExportDialog(QDialog):
    """Asks for the format and whether notes go along; then for the file."""

    def __init__(
        self,
        what: str,
        formats: Sequence[Format],
        chosen: str,
        with_notes: bool,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("exportDialog")
        self.setWindowTitle("Export")
        self.formats = list(formats)
        self.format_combo = QComboBox(self)
        self.format_combo.setObjectName("exportFormat")
        for fmt in self.formats:
            self.format_combo.addItem(fmt.label, fmt.id)
        self.format_combo.setCurrentIndex(max(0, self.format_combo.findData(chosen)))
        self.notes_check = QCheckBox("Include &notes (BibTeX annote, RIS N1)", self)
        self.notes_check.setObjectName("exportNotes")
        self.notes_check.setChecked(with_notes)
        summary = plain_label(what, self)
        summary.setObjectName("exportWhat")
        hint = plain_label(
            "BibTeX and BibLaTeX for LaTeX; RIS for EndNote, Mendeley and Word's tools; "
            "CSL-JSON for Zotero and pandoc; CSV for spreadsheets.",
            self,
        )
        set_muted(hint)
        form = QFormLayout()
        form.addRow("&Format:", self.format_combo)
        form.addRow("", self.notes_check)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Export…")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(summary)
        layout.addLayout(form)
        layout.addWidget(hint)
        layout.addWidget(buttons)

    def chosen_format(self) -> Format:
        """The format picked."""
        return self.formats[self.format_combo.currentIndex()]

    def choice(self, suggested_name: str) -> ExportChoice | None:
        """Ask for the file (after OK); None when the user cancelled either step."""
        fmt = self.chosen_format()
        path = ask_file(
            self.parentWidget() or self, "Export", Path(suggested_name + fmt.suffix), fmt
        )
        if path is None:
            return None
        if not path.suffix:
            path = path.with_suffix(fmt.suffix)
        return ExportChoice(fmt.id, self.notes_check.isChecked(), path)
