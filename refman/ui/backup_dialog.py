"""File ▸ Restore from Backup…'s dialog: the library's backups, newest first, or a copy kept
elsewhere (*Other File…*)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from refman.core.library_file import BackupView


class BackupDialog(QDialog):
    """Lists the library's backups, newest first; the chosen one is restored (or a copy kept
    elsewhere, *Other File…*: one ``refman backup --to FILE`` made, say)."""

    def __init__(self, backups: list[BackupView], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("backupDialog")
        self.setWindowTitle("Restore from Backup")
        layout = QVBoxLayout(self)
        note = QLabel(
            "Choose the copy to put in place of the library. The library as it is now is "
            "backed up first, so this can be undone by restoring that copy.",
            self,
        )
        note.setWordWrap(True)
        self.list = QListWidget(self)
        self.list.setObjectName("backupList")
        self._fill(backups)
        if not backups:  # (an empty list said nothing of why)
            note.setText(
                "This library has no backups yet. refman makes one when the library is closed "
                "after changes, before Empty Trash and before a large import; File ▸ Back Up "
                "Now makes one at once, and Other File… restores a copy kept elsewhere."
            )
            self.list.hide()
        #: A copy chosen with Other File… (restored instead of the list's).
        self.other: Path | None = None
        buttons = QDialogButtonBox(self)
        self.restore_button = buttons.addButton("Restore", QDialogButtonBox.ButtonRole.AcceptRole)
        self.other_button = buttons.addButton("Other File…", QDialogButtonBox.ButtonRole.ActionRole)
        self.other_button.setObjectName("backupOtherFile")
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.restore_button.setEnabled(bool(backups))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.other_button.clicked.connect(self.on_other_clicked)
        layout.addWidget(note)
        layout.addWidget(self.list)
        layout.addWidget(buttons)
        self.resize(620, 360)

    def _fill(self, backups: list[BackupView]) -> None:
        for backup in backups:
            papers = "?" if backup.papers is None else f"{backup.papers:,}"
            why = _REASONS.get(backup.reason, backup.reason)
            text = (
                f"{backup.made:%Y-%m-%d %H:%M}  —  {papers} papers  —  {why}"
                f"  ({backup.size / 1e6:,.1f} MB)"
            )
            item = QListWidgetItem(text, self.list)
            item.setData(Qt.ItemDataRole.UserRole, str(backup.path))
        if backups:
            self.list.setCurrentRow(0)

    @Slot()
    def on_other_clicked(self) -> None:
        """Other File…: restore a copy of the library kept elsewhere."""
        path = ask_backup_file(self)
        if path is not None:
            self.other = path
            self.accept()

    def chosen(self) -> str | None:
        """The chosen backup's file."""
        if self.other is not None:
            return str(self.other)
        item = self.list.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))


def _ask_backup_file(parent: QWidget | None) -> Path | None:
    path, _ = QFileDialog.getOpenFileName(
        parent, "Restore from a Copy", "", "refman libraries (*.sqlite);;All files (*)"
    )
    return Path(path) if path else None


#: Replaced by tests: which copy of the library, kept elsewhere, to restore.
ask_backup_file: Callable[[QWidget | None], Path | None] = _ask_backup_file


_REASONS = {
    "close": "after a session",
    "manual": "made by hand",
    "empty-trash": "before Empty Trash",
    "import": "before a large import",
    "upgrade": "before an upgrade",
    "restore": "before a restore",
}
