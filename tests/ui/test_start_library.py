"""The library the window starts with: the one open when it last closed, unless that one is
not there any more or cannot be opened (then the default one, saying why)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from refman import paths
from refman.common.errors import RefmanError
from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page

from refman.ui import app, starting
from refman.ui.settings import WindowSettings

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


def _library(path: Path, papers: int) -> None:
    service = LibraryService.open(path)
    service.import_pages([sourced(generated_page(papers))])
    service.close()


def _remembering(ini: Path, library: Path | str) -> WindowSettings:
    """Settings that remember ``library`` as the one open when the window last closed."""
    written = QSettings(str(ini), QSettings.Format.IniFormat)
    written.setValue("library/last", str(library))
    written.sync()
    return WindowSettings(ini)


def _start_and_close(qtbot: QtBot, settings: WindowSettings) -> tuple[int, str | None]:
    """Start the window as ``refman`` does; close it. Returns the papers it showed and what
    it said of the library remembered."""
    service, notice = starting.start_library(None, settings)
    window = app.build_window(service, settings)
    qtbot.add_widget(window)
    window.show()
    settle(window.controller)
    count = service.count()
    window.close()
    window.controller.shutdown()
    service.close()
    return count, None if notice is None else f"{notice.message} {notice.window_hint}"


def test_a_library_moved_away_gives_way_to_the_default_one_and_is_opened_again_once_back(
    qtbot: QtBot, tmp_path: Path, qapp: object
) -> None:
    mine = tmp_path / "usb" / "papers.sqlite"
    mine.parent.mkdir()
    _library(mine, 7)
    ini = tmp_path / "refman.ini"
    away = tmp_path / "papers-elsewhere.sqlite"
    mine.rename(away)  # the disk is not connected

    count, said = _start_and_close(qtbot, _remembering(ini, mine))
    assert count == 0 and paths.default_library().is_file()
    assert said is not None and f"“{mine}”" in said and "not there any more" in said
    assert "default library is open instead" in said and "File ▸ Open Library…" in said
    assert WindowSettings(ini).last_library() == str(mine)  # still the one to reopen

    away.rename(mine)  # the disk is back
    count, said = _start_and_close(qtbot, WindowSettings(ini))
    assert (count, said) == (7, None)
    assert WindowSettings(ini).last_library() == str(mine)


def test_a_library_a_newer_refman_wrote_does_not_keep_the_window_from_starting(
    qtbot: QtBot, tmp_path: Path, qapp: object
) -> None:
    newer = tmp_path / "newer.sqlite"
    _library(newer, 3)
    with sqlite3.connect(newer) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.close()
    before = newer.read_bytes()
    _library(paths.default_library(), 2)

    count, said = _start_and_close(qtbot, _remembering(tmp_path / "refman.ini", newer))
    assert count == 2
    assert said is not None and "newer version of refman" in said and "Update refman" in said
    assert newer.read_bytes() == before


@pytest.mark.logs_warnings("refman.ui")
def test_settings_that_cannot_be_kept_do_not_keep_the_window_from_starting(
    qtbot: QtBot, tmp_path: Path, qapp: object
) -> None:
    blocker = tmp_path / "config"
    blocker.write_text("a file where the settings' folder should be", encoding="utf-8")
    settings = WindowSettings(blocker / "refman.ini")  # it raised FileExistsError: exit 1
    assert settings.problem is not None and str(blocker) in settings.problem
    _library(paths.default_library(), 2)
    assert _start_and_close(qtbot, settings) == (2, None)  # (closing saves: nothing kept)
    said = starting.settings_not_kept(settings.problem)
    assert "cannot keep its settings" in f"{said.message} {said.hint}"
    assert "not remembered" in said.hint and blocker.is_file()


def test_a_shared_library_out_of_reach_is_asked_about_not_stood_in_for(
    tmp_path: Path, qapp: object
) -> None:
    """The shared library open last, its server away (on a train): the person is asked (Try
    Again, Open Another Library…, Quit) rather than shown the default library in its place."""
    away = "postgresql+psycopg://alice@127.0.0.1:9/lab_papers"
    settings = _remembering(tmp_path / "refman.ini", away)
    with pytest.raises(RefmanError, match="cannot be reached"):
        starting.start_library(None, settings)
    assert starting.first_tried(None, settings) == away
