"""The Preferences dialog: the citation style and language of Copy Citation, what Export
proposes, and how files are attached (copied, or linked relative to a base folder).

Each control shows one :class:`~refman.ui.settings.Preference` and writes it back when the
dialog is accepted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from refman.common.errors import RefmanError
from refman.core.citation_languages import language_name, languages
from refman.core.citations import style_language

from refman.ui.export_dialog import Format
from refman.ui.look import heading_label
from refman.ui.settings import (
    CITATION_LANGUAGE,
    CITATION_STYLE,
    EXPORT_FORMAT,
    EXPORT_NOTES,
    FILES_BASE,
    FILES_LINK,
    WindowSettings,
)


def keyed(label: str, key: str) -> str:
    """A preference's label with ``key`` (its first appearance) the letter Alt takes to it."""
    at = label.lower().index(key)
    return f"{label[:at]}&{label[at:]}"


def ask_folder(parent: QWidget | None, current: str) -> str:
    """Ask for a folder ("" when cancelled; tests replace this function)."""
    return QFileDialog.getExistingDirectory(parent, "Base Folder of Linked Files", current)


class PreferencesDialog(QDialog):
    """Citation style and language, default export format, notes in exports, how files are
    attached."""

    def __init__(
        self,
        settings: WindowSettings,
        styles: Mapping[str, str],
        formats: Sequence[Format],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("preferencesDialog")
        self.setWindowTitle("Preferences")
        self.settings = settings
        self.style_combo = QComboBox(self)
        self.style_combo.setObjectName("citationStyle")
        for style_id, name in styles.items():
            self.style_combo.addItem(name, style_id)
        self.style_combo.setCurrentIndex(
            max(0, self.style_combo.findData(settings.get(CITATION_STYLE)))
        )
        self.language_combo = self._language_combo(settings.get(CITATION_LANGUAGE))
        self.style_combo.currentIndexChanged.connect(self._style_changed)
        self._style_changed()
        self.format_combo = QComboBox(self)
        self.format_combo.setObjectName("exportFormatPreference")
        for fmt in formats:
            self.format_combo.addItem(fmt.label, fmt.id)
        self.format_combo.setCurrentIndex(
            max(0, self.format_combo.findData(settings.get(EXPORT_FORMAT)))
        )
        self.notes_check = QCheckBox(keyed(EXPORT_NOTES.label, "n"), self)
        self.notes_check.setObjectName("exportNotesPreference")
        self.notes_check.setChecked(settings.get(EXPORT_NOTES))
        files = self._files_form(settings)
        citing = QFormLayout()
        citing.addRow(keyed(CITATION_STYLE.label, "s") + ":", self.style_combo)
        citing.addRow(keyed(CITATION_LANGUAGE.label, "g") + ":", self.language_combo)
        exporting = QFormLayout()
        exporting.addRow(keyed(EXPORT_FORMAT.label, "f") + ":", self.format_combo)
        exporting.addRow("", self.notes_check)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(heading_label("Citing", self))
        layout.addLayout(citing)
        layout.addSpacing(8)
        layout.addWidget(heading_label("Exporting", self))
        layout.addLayout(exporting)
        layout.addSpacing(8)
        layout.addWidget(heading_label("Files", self))
        layout.addLayout(files)
        layout.addWidget(buttons)

    def _language_combo(self, chosen: str) -> QComboBox:
        """The languages citations can be written in, the style's own first."""
        combo = QComboBox(self)
        combo.setObjectName("citationLanguage")
        combo.addItem("The style’s own language", "")
        for locale, name in languages().items():
            combo.addItem(f"{name} ({locale})", locale)
        combo.setCurrentIndex(max(0, combo.findData(chosen)))
        return combo

    def _style_changed(self) -> None:
        """A style written in one language (Nature) keeps it: the language is not asked."""
        style = str(self.style_combo.currentData())
        try:
            own = style_language(style)
        except RefmanError:  # a style refman does not ship
            own = None
        self.language_combo.setEnabled(own is None)
        self.language_combo.setToolTip(
            ""
            if own is None
            else f"{self.style_combo.currentText()} is always written in {language_name(own)}."
        )

    def _files_form(self, settings: WindowSettings) -> QFormLayout:
        """Link or copy attached files, and the base folder of linked ones."""
        self.link_check = QCheckBox(keyed(FILES_LINK.label, "l"), self)
        self.link_check.setObjectName("linkFilesPreference")
        self.link_check.setChecked(settings.get(FILES_LINK))
        self.base_edit = QLineEdit(settings.get(FILES_BASE), self)
        self.base_edit.setObjectName("filesBasePreference")
        self.base_edit.setPlaceholderText("None: linked files keep their full path")
        choose = QPushButton("C&hoose…", self)
        choose.clicked.connect(self.on_choose_base)
        base_row = QHBoxLayout()
        base_row.addWidget(self.base_edit, 1)
        base_row.addWidget(choose)
        files = QFormLayout()
        files.addRow("", self.link_check)
        base_label = QLabel(keyed(FILES_BASE.label, "b") + ":", self)
        base_label.setBuddy(self.base_edit)  # (a screen reader's name for it, and Alt+B)
        files.addRow(base_label, base_row)
        return files

    def on_choose_base(self) -> None:
        """Pick the base folder."""
        chosen = ask_folder(self, self.base_edit.text())
        if chosen:
            self.base_edit.setText(chosen)

    def accept(self) -> None:
        """Keep the choices."""
        self.settings.set(CITATION_STYLE, str(self.style_combo.currentData()))
        self.settings.set(CITATION_LANGUAGE, str(self.language_combo.currentData()))
        self.settings.set(EXPORT_FORMAT, str(self.format_combo.currentData()))
        self.settings.set(EXPORT_NOTES, self.notes_check.isChecked())
        self.settings.set(FILES_LINK, self.link_check.isChecked())
        self.settings.set(FILES_BASE, self.base_edit.text().strip())
        super().accept()
