"""The window keeps the library safe: a damaged library is shown read-only with a banner,
Help ▸ Check Library reports, File ▸ Back Up Now and Restore from Backup… work."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QLabel, QMessageBox
from pytestqt.qtbot import QtBot

from refman import paths
from refman.common.errors import DamagedLibraryError
from refman.core.library import LibraryService
from refman.core.operations import TagPapers
from refman.store.integrity import CheckRecord
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page

from refman.ui import backup_dialog, safety
from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.settings import WindowSettings

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


def _open(
    qtbot: QtBot, service: LibraryService, settings: Path
) -> tuple[MainWindow, LibraryController]:
    controller = LibraryController(service)
    window = MainWindow(controller, WindowSettings(settings))
    qtbot.add_widget(window)
    window.show()
    qtbot.wait_exposed(window)
    settle(controller)
    return window, controller


@pytest.fixture
def kept(library_path: Path) -> Iterator[LibraryService]:
    """A library of 40 papers, opened as the window opens it (checks and backups kept)."""
    service = LibraryService.open(library_path)
    service.import_pages([sourced(generated_page(40))])
    service.close()
    opened = LibraryService.open(library_path, paths.check_record(), paths.backup_dir())
    yield opened
    opened.close()


@pytest.mark.logs_warnings("refman.store", "refman.ui")
def test_a_damaged_library_opens_read_only_with_a_banner_and_can_be_recovered(
    qtbot: QtBot, library_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = LibraryService.open(library_path)
    service.import_pages([sourced(generated_page(2_000))])
    service.close()
    data = bytearray(library_path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    middle = (len(data) // page // 2) * page
    data[middle : middle + 16 * page] = os.urandom(16 * page)
    library_path.write_bytes(bytes(data))
    before = library_path.read_bytes()
    damaged = LibraryService.open(library_path, paths.check_record(), paths.backup_dir())
    window, controller = _open(qtbot, damaged, tmp_path / "settings.ini")
    try:
        qtbot.wait_until(lambda: window.banner.isVisible())
        assert "damaged" in window.banner.label.text()
        assert "Restore from Backup" in window.banner.label.text()
        for action_id in (ActionId.IMPORT, ActionId.DELETE, ActionId.EMPTY_TRASH):
            action = window.actions_by_id[action_id]
            assert not action.isEnabled() and "damaged" in action.toolTip()
        # Recover…: a new library of what can still be read, then the offer to open it.
        rescued = tmp_path / "rescued.sqlite"
        offered: list[str] = []
        switched: list[str] = []
        monkeypatch.setattr(safety, "ask_recover_file", lambda _parent, _suggested: rescued)

        def offer(_parent: object, text: str) -> bool:
            offered.append(text)
            return True

        monkeypatch.setattr(safety, "ask_open", offer)
        window.library_switch_requested.connect(switched.append)
        assert window.banner.recover_button.isVisible()
        qtbot.mouseClick(window.banner.recover_button, Qt.MouseButton.LeftButton)
        qtbot.wait_until(lambda: bool(switched), timeout=20_000)
        assert switched == [str(rescued)] and "papers were copied" in offered[0]
        recovered = LibraryService.open(rescued)
        assert recovered.count() > 0
        recovered.close()
    finally:
        settle(controller)
        controller.shutdown()
        damaged.close()
    assert library_path.read_bytes() == before


def test_a_whole_library_shows_no_banner_and_check_library_says_it_is_whole(
    qtbot: QtBot, kept: LibraryService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "information", lambda _parent, _title, text: shown.append(text)
    )
    window, controller = _open(qtbot, kept, tmp_path / "settings.ini")
    try:
        assert not window.banner.isVisible()
        assert window.actions_by_id[ActionId.IMPORT].isEnabled()
        window.actions_by_id[ActionId.CHECK_LIBRARY].trigger()
        qtbot.wait_until(lambda: bool(shown))
        assert "whole" in shown[0]
    finally:
        settle(controller)
        controller.shutdown()


def test_back_up_now_and_restore_from_backup(
    qtbot: QtBot, kept: LibraryService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window, controller = _open(qtbot, kept, tmp_path / "settings.ini")
    try:
        window.actions_by_id[ActionId.BACK_UP].trigger()
        qtbot.wait_until(lambda: len(kept.file.backups()) == 1)
        controller.trash(kept.paper_ids()[:5])
        settle(controller)
        qtbot.wait_until(lambda: window.model.rowCount() == 35)
        assert controller.undo_stack.count() == 1
        seen: list[list[str]] = []

        def accept(dialog: backup_dialog.BackupDialog) -> int:
            seen.append([dialog.list.item(i).text() for i in range(dialog.list.count())])
            return int(QDialog.DialogCode.Accepted)

        monkeypatch.setattr(backup_dialog.BackupDialog, "exec", accept)
        window.actions_by_id[ActionId.RESTORE_BACKUP].trigger()
        # The backups are read off the GUI thread, then the chosen one is restored.
        qtbot.wait_until(lambda: len(kept.file.backups()) == 2, timeout=10_000)
        settle(controller)
        qtbot.wait_until(lambda: window.model.rowCount() == 40)
        assert "40 papers" in seen[0][0] and "made by hand" in seen[0][0]
        assert kept.count() == 40
        assert controller.undo_stack.count() == 0  # its steps belonged to the old state
        reasons = sorted(b.reason for b in kept.file.backups())
        assert reasons == ["manual", "restore"]
    finally:
        settle(controller)
        controller.shutdown()


def _damaged(library_path: Path, papers: int = 2_000) -> None:
    """A library whose middle pages are overwritten with random bytes."""
    service = LibraryService.open(library_path)
    service.import_pages([sourced(generated_page(papers))])
    service.close()
    data = bytearray(library_path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    middle = (len(data) // page // 2) * page
    data[middle : middle + 16 * page] = os.urandom(16 * page)
    library_path.write_bytes(bytes(data))


@pytest.mark.logs_warnings("refman.store", "refman.ui")
def test_damage_a_read_finds_after_open_is_offered_what_damage_found_at_open_is(
    qtbot: QtBot, library_path: Path, tmp_path: Path
) -> None:
    """A library refman remembered whole (no check at open) whose list could not be read
    showed the error in the banner, which named a Recover… button it did not show; the
    library stayed open for changes and was trusted again at the next open."""
    service = LibraryService.open(library_path)
    service.import_pages([sourced(generated_page(2_000))])
    service.close()
    data = bytearray(library_path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    first, last = len(data) // page // 4, len(data) // page - 2  # (its tables still listed)
    data[first * page : last * page] = os.urandom((last - first) * page)
    library_path.write_bytes(bytes(data))
    record = CheckRecord(paths.check_record())
    record.remember(library_path)  # as refman left it after a check: not checked at open
    damaged = LibraryService.open(library_path, paths.check_record(), paths.backup_dir())
    window, controller = _open(qtbot, damaged, tmp_path / "settings.ini")
    try:
        qtbot.wait_until(lambda: window.banner.recover_button.isVisible())
        said = window.banner.label.text()
        assert "This library is damaged" in said and "Recover…" in said
        assert "reading only" in said and "“" not in said  # (not the command line's wording)
        for action_id in (ActionId.IMPORT, ActionId.DELETE, ActionId.MARK_READ):
            action = window.actions_by_id[action_id]
            assert not action.isEnabled() and "damaged" in action.toolTip()
        assert not record.trusted(library_path)  # checked again at the next open
        with pytest.raises(DamagedLibraryError):
            damaged.apply(TagPapers((1,), ("later",)))
    finally:
        settle(controller)
        controller.shutdown()
        damaged.close()
    assert not record.trusted(library_path)


@pytest.mark.logs_warnings("refman.store", "refman.ui")
def test_damage_a_change_finds_after_open_is_offered_what_damage_found_at_open_is(
    qtbot: QtBot, library_path: Path, tmp_path: Path, shown_errors: list[str]
) -> None:
    """A rating refused because the file was damaged (its ratings' index, which the list
    read in its order never reads) said so in a message naming a Recover… button the window
    did not show, and the window went on offering changes."""
    service = LibraryService.open(library_path)
    service.import_pages([sourced(generated_page(5))])
    service.close()
    with closing(sqlite3.connect(library_path)) as conn:
        (root,) = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'ix_papers_rating'"
        ).fetchone()
    data = bytearray(library_path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[(root - 1) * page : root * page] = os.urandom(page)
    library_path.write_bytes(bytes(data))
    CheckRecord(paths.check_record()).remember(library_path)  # not checked at open
    damaged = LibraryService.open(library_path, paths.check_record(), paths.backup_dir())
    window, controller = _open(qtbot, damaged, tmp_path / "settings.ini")
    try:
        qtbot.wait_until(lambda: window.model.rowCount() == 5)
        assert not window.banner.isVisible()  # the list read found nothing wrong
        window.table.select_paper(damaged.paper_ids()[0])
        window.table.setFocus()
        qtbot.keyClick(window.table, Qt.Key.Key_3)  # rate it: the index written
        settle(controller)
        qtbot.wait_until(lambda: window.banner.recover_button.isVisible())
        assert shown_errors and "damaged" in shown_errors[0]
        assert "This library is damaged" in window.banner.label.text()
        assert not window.actions_by_id[ActionId.RATE_3].isEnabled()
    finally:
        settle(controller)
        controller.shutdown()
        damaged.close()


@pytest.mark.logs_warnings("refman.store", "refman.ui")
def test_the_window_says_what_to_do_with_a_damaged_library_with_its_own_menus_and_buttons(
    qtbot: QtBot, library_path: Path, tmp_path: Path, shown_errors: list[str]
) -> None:
    _damaged(library_path)
    damaged = LibraryService.open(library_path, paths.check_record(), paths.backup_dir())
    window, controller = _open(qtbot, damaged, tmp_path / "settings.ini")
    try:
        qtbot.wait_until(lambda: window.banner.isVisible())
        window.actions_by_id[ActionId.CHECK_LIBRARY].trigger()
        qtbot.wait_until(lambda: bool(shown_errors), timeout=20_000)
        said = shown_errors[0]
        assert "damaged" in said and "Nothing was changed" in said
        assert "File ▸ Restore from Backup…" in said and "Recover…" in said
        assert "refman " not in said and "NEW-FILE" not in said
        assert "refman " not in window.banner.label.text()
    finally:
        settle(controller)
        controller.shutdown()
        damaged.close()


def test_restore_from_backup_says_so_when_there_is_no_backup_yet(
    qtbot: QtBot, kept: LibraryService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window, controller = _open(qtbot, kept, tmp_path / "settings.ini")
    seen: list[tuple[str, bool, bool]] = []

    def cancel(dialog: backup_dialog.BackupDialog) -> int:
        said = " ".join(label.text() for label in dialog.findChildren(QLabel))
        seen.append((said, dialog.list.isVisibleTo(dialog), dialog.restore_button.isEnabled()))
        return int(QDialog.DialogCode.Rejected)

    monkeypatch.setattr(backup_dialog.BackupDialog, "exec", cancel)
    try:
        window.actions_by_id[ActionId.RESTORE_BACKUP].trigger()
        qtbot.wait_until(lambda: bool(seen))
        said, list_shown, restorable = seen[0]
        assert "no backups yet" in said and "File ▸ Back Up Now" in said
        assert not list_shown and not restorable
    finally:
        settle(controller)
        controller.shutdown()


def test_a_copy_kept_elsewhere_is_restored_with_other_file(
    qtbot: QtBot,
    kept: LibraryService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    shown_errors: list[str],
) -> None:
    nightly = tmp_path / "usb" / "nightly.sqlite"
    kept.file.backup("manual", nightly)  # as refman backup --to FILE makes it
    notes = tmp_path / "notes.txt"
    notes.write_text("not a library\n", encoding="utf-8")
    window, controller = _open(qtbot, kept, tmp_path / "settings.ini")
    chosen: list[Path] = [notes, nightly]
    monkeypatch.setattr(backup_dialog, "ask_backup_file", lambda _parent: chosen.pop(0))

    def other_file(dialog: backup_dialog.BackupDialog) -> int:
        dialog.other_button.click()
        return int(dialog.result())

    monkeypatch.setattr(backup_dialog.BackupDialog, "exec", other_file)
    try:
        controller.trash(kept.paper_ids()[:5])
        settle(controller)
        window.actions_by_id[ActionId.RESTORE_BACKUP].trigger()  # a text file: refused
        qtbot.wait_until(lambda: bool(shown_errors), timeout=10_000)
        said = shown_errors[0]
        assert "not an SQLite database" in said and "refman backups" not in said
        assert kept.count() == 35
        window.actions_by_id[ActionId.RESTORE_BACKUP].trigger()  # the copy on the USB disk
        qtbot.wait_until(lambda: kept.count() == 40, timeout=10_000)
        settle(controller)
        qtbot.wait_until(lambda: window.model.rowCount() == 40)
        assert [b.reason for b in kept.file.backups()] == ["restore"]
    finally:
        settle(controller)
        controller.shutdown()
