"""The window's side of keeping the library safe: the check at open, the banner of a damaged
or read-only library, Help ▸ Check Library, File ▸ Back Up Now and Restore from Backup… (its
dialog: :mod:`refman.ui.backup_dialog`)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from refman.common.errors import DamagedLibraryError, RefmanError, ServerUnreachableError
from refman.common.text import plural
from refman.core.library_file import BackupView
from refman.core.recovery import RecoveryReport, recover_library
from refman.core.values import Changes

from refman.ui.actions import ActionId
from refman.ui.backup_dialog import BackupDialog
from refman.ui.controller import LibraryController
from refman.ui.messages import in_words, show_error
from refman.ui.read_only import LOCKED, lock, lock_action

log = logging.getLogger("refman.ui")

#: The actions that change the library: disabled while it can only be read.
CHANGING = (
    ActionId.IMPORT,
    ActionId.NEW_PAPER,
    ActionId.DELETE,
    ActionId.RESTORE,
    ActionId.DELETE_PERMANENTLY,
    ActionId.MERGE_PAPERS,
    ActionId.ATTACH_FILE,
    ActionId.EMPTY_TRASH,
    ActionId.MARK_UNREAD,
    ActionId.MARK_READING,
    ActionId.MARK_READ,
    *(getattr(ActionId, f"RATE_{n}") for n in range(6)),
    ActionId.RENAME_TAG,
    ActionId.SET_TAG_COLOUR,
    ActionId.CLEAR_TAG_COLOUR,
    ActionId.DELETE_TAG,
    ActionId.UNDO,
    ActionId.REDO,
)


class Banner(QFrame):
    """A strip above the panes that says the library can only be read, and why."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("libraryBanner")
        self.setStyleSheet(
            "QFrame#libraryBanner { background: #fdecea; border-bottom: 1px solid #f5c2bd; }"
            "QFrame#libraryBanner QLabel { color: #7a1d14; }"
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 12, 6)
        self.label = QLabel(self)
        self.label.setObjectName("libraryBannerText")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.restore_button = QPushButton("Restore from Backup…", self)
        self.restore_button.setObjectName("libraryBannerRestore")
        self.recover_button = QPushButton("Recover…", self)
        self.recover_button.setObjectName("libraryBannerRecover")
        self.recover_button.setToolTip(
            "Copy what the damaged library can still give into a new library file"
        )
        self.recover_button.hide()
        layout.addWidget(self.label, 1)
        layout.addWidget(self.recover_button)
        layout.addWidget(self.restore_button)
        self.hide()

    def say(self, text: str) -> None:
        """Show the banner with ``text``."""
        self.label.setText(text)
        self.show()


def _ask_recover_file(parent: QWidget | None, suggested: Path) -> Path | None:
    path, _ = QFileDialog.getSaveFileName(
        parent, "Recover into a New Library", str(suggested), "refman libraries (*.sqlite)"
    )
    return Path(path) if path else None


def _ask_open(parent: QWidget | None, text: str) -> bool:
    answer = QMessageBox.question(
        parent,
        "Library Recovered",
        text,
        QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Close,
        QMessageBox.StandardButton.Open,
    )
    return answer == QMessageBox.StandardButton.Open


#: Replaced by tests: where to write a recovered library; whether to open it.
ask_recover_file: Callable[[QWidget | None, Path], Path | None] = _ask_recover_file
ask_open: Callable[[QWidget | None, str], bool] = _ask_open


def install_banner(window: QMainWindow, panes: QWidget) -> Banner:
    """Make the window's central widget the banner (hidden until needed) above the panes."""
    banner = Banner(window)
    central = QWidget(window)
    column = QVBoxLayout(central)
    column.setContentsMargins(0, 0, 0, 0)
    column.setSpacing(0)
    column.addWidget(banner)
    column.addWidget(panes, 1)
    window.setCentralWidget(central)
    return banner


class LibrarySafety(QObject):
    """Wires the safety actions and the banner to the controller."""

    def __init__(
        self,
        window: QWidget,
        controller: LibraryController,
        actions: Mapping[ActionId, QAction],
        banner: Banner,
        tell: Callable[[str], None],
    ) -> None:
        super().__init__(window)
        self.window = window
        self.controller = controller
        self.actions = actions
        self.banner = banner
        self.tell = tell
        actions[ActionId.CHECK_LIBRARY].triggered.connect(self.on_check_library)
        actions[ActionId.BACK_UP].triggered.connect(self.on_back_up)
        actions[ActionId.RESTORE_BACKUP].triggered.connect(self.on_restore_backup)
        banner.restore_button.clicked.connect(self.on_restore_backup)
        banner.recover_button.clicked.connect(self.on_recover)
        controller.lists.failed.connect(self.on_read_failed)
        controller.runner.refused.connect(self.on_refused)
        file = controller.service.file
        has_backups = file.backup_folder is not None  # never a shared library's: its server's
        actions[ActionId.BACK_UP].setEnabled(has_backups)
        actions[ActionId.RESTORE_BACKUP].setEnabled(has_backups and file.read_only is None)
        banner.restore_button.setVisible(actions[ActionId.RESTORE_BACKUP].isEnabled())

    def start(self) -> None:
        """Say at once when the library can only be read; check it in the background."""
        file = self.controller.service.file
        if file.read_only is not None:
            hint = self.controller.service.db.read_only_hint  # whom to ask, what to do
            self._read_only(f"This library can only be read: {file.read_only}.", hint)
            return
        self.controller.runner.submit(
            lambda _p, _c: file.ensure_checked(), self._checked, label="Checking the library…"
        )

    def _checked(self, damaged: str | None) -> None:
        if damaged is not None:
            self.banner.recover_button.show()
            self._read_only(
                f"This library is damaged ({damaged}). It is open for reading only: nothing "
                "will be written to it. Restore a backup (Restore from Backup…), or copy what "
                "can still be read into a new library (Recover…)."
            )

    def _read_only(self, text: str, hint: str = "") -> None:
        log.warning("window shows a read-only library: %s", text)
        self.banner.say(f"{text} {hint}".strip())
        for action_id in CHANGING:
            lock_action(self.actions[action_id], text)
        table = getattr(self.window, "table", None)
        if table is not None:  # its Delete key too
            table.setProperty(LOCKED, text)
        pane = getattr(self.window, "detail_pane", None)
        if pane is not None:  # its editors too, now and for every paper shown later
            pane.locked = text
            lock(pane, text)

    @Slot()
    def on_recover(self) -> None:
        """Recover…: copy what the damaged library can give into a new file, then offer to
        open it (the damaged file is only read)."""
        source = self.controller.service.db.path
        if source is None:
            return
        dest = ask_recover_file(self.window, source.with_name(f"{source.stem}-recovered.sqlite"))
        if dest is None:
            return
        self.controller.runner.submit(
            lambda _p, _c: recover_library(source, dest),
            lambda report: self._recovered(dest, report),
            on_error=lambda error: show_error(self.window, error),
            label="Recovering the library…",
        )

    def _recovered(self, dest: Path, report: RecoveryReport) -> None:
        lost = sum(n for n in report.lost.values() if n > 0)
        gone = len(report.files_missing)
        papers = report.copied.get("papers", 0)
        files = f", with {plural(report.files, 'attached file')}" if report.files else ""
        text = (
            f"{plural(papers, 'paper')} {'was' if papers == 1 else 'were'} copied into "
            f"{dest}{files}"
            + (f"; {lost:,} rows could not be read." if lost else "; nothing was lost.")
            + (
                f" {plural(gone, 'attached file')} missing in the damaged library's folder "
                "could not be copied: the papers show them as missing."
                if gone
                else ""
            )
            + " The damaged library is kept as it was. Open the recovered library now?"
        )
        if ask_open(self.window, text):
            switch = getattr(self.window, "library_switch_requested", None)
            if switch is not None:
                switch.emit(str(dest))

    @Slot(object)
    def on_read_failed(self, error: RefmanError) -> None:
        """A read of the list failed: say so in the banner; damage it found is offered what
        damage found at open is (read only, Recover…). A server that cannot be reached is no
        damage (:mod:`refman.ui.outage` says so)."""
        if self._damage_found(error):
            return
        if self.banner.isHidden() and not isinstance(error, ServerUnreachableError):
            self.banner.say(in_words(error))

    @Slot(object)
    def on_refused(self, error: RefmanError) -> None:
        """A change (or a read off the GUI thread) found the library damaged: the same
        offer as damage found at open or by a read of the list."""
        self._damage_found(error)

    def _damage_found(self, error: RefmanError) -> bool:
        """Offer for the damage an error found what damage found at open gets (the read-only
        banner with Recover…); False for an error that found none."""
        damaged = self.controller.service.file.damaged
        if not isinstance(error, DamagedLibraryError) or damaged is None:
            return False
        if self.banner.recover_button.isHidden():  # (the check's own account stays)
            self._checked(damaged)
        return True

    @Slot()
    def on_check_library(self) -> None:
        """Help ▸ Check Library: the full integrity check, in the background."""
        file = self.controller.service.file
        self.controller.runner.submit(
            lambda _p, _c: file.check(full=True),
            self._report_check,
            label="Checking the library…",
        )

    def _report_check(self, problems: list[str]) -> None:
        if problems:
            self._checked(problems[0])
            show_error(self.window, DamagedLibraryError(f"The library is damaged: {problems[0]}."))
            return
        QMessageBox.information(
            self.window, "Check Library", "The library is whole: every page and index checked."
        )

    @Slot()
    def on_back_up(self) -> None:
        """File ▸ Back Up Now."""
        file = self.controller.service.file
        self.controller.runner.submit(
            lambda _p, _c: file.backup("manual"),
            lambda made: self.tell(f"Backed up to {made.path}"),
            on_error=lambda error: show_error(self.window, error),
            label="Backing up…",
        )

    @Slot()
    def on_restore_backup(self) -> None:
        """File ▸ Restore from Backup…: list the backups (each is opened to count its papers:
        off the GUI thread), choose one, then restore it in the background."""
        file = self.controller.service.file
        self.controller.runner.submit(
            lambda _p, _c: file.backups(), self._choose, label="Reading the backups…"
        )

    def _choose(self, backups: list[BackupView]) -> None:
        dialog = BackupDialog(backups, self.window)
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.chosen() is None:
            return
        chosen = dialog.chosen()
        assert chosen is not None
        file = self.controller.service.file
        self.controller.runner.submit(
            lambda _p, _c: file.restore(chosen),
            self._restored,
            on_error=lambda error: show_error(self.window, error),
            label="Restoring the library…",
        )

    def _restored(self, before: Any) -> None:
        self.controller.undo_stack.clear()  # its steps belong to the library as it was
        self.controller.changed.emit(Changes(structure=True, tags=True, notes=True))
        self.banner.hide()
        for action_id in CHANGING:
            lock_action(self.actions[action_id], None)
        if (table := getattr(self.window, "table", None)) is not None:
            table.setProperty(LOCKED, "")
        self.tell(f"Restored. The library as it was is kept as {before.path.name}.")
