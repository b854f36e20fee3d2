"""A shared library's server out of reach while the People or the Import History window is
the one in front: that window says so itself (the change asked there was not done, the server
is away), as the main window's strip does; it said so only in the main window, behind it, and
the button seemed to do nothing. The notice goes away by itself once the server is back."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import JIANG_PAPERS as PAPERS
from tests.helpers.pages import abstracts_page
from tests.helpers.panes import make_window
from tests.helpers.postgres import server_away

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.nav_rows import EVERYONE
from refman.ui.outage import NOT_DONE

pytestmark = [
    pytest.mark.parametrize("backend", ["postgres"], indirect=True),
    pytest.mark.qt_log_ignore("does not support propagateSizeHints", "does not support raise"),
]

BACK_MS = 10_000


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> MainWindow:
    """Z. Jiang's page (two papers) and Zhuo Jiang's (one of them): two spellings."""
    library.import_pages([sourced(abstracts_page("Z. Jiang", PAPERS))])
    library.import_pages([sourced(abstracts_page("Zhuo Jiang", PAPERS[:1]))])
    return make_window(qtbot, controller, tmp_path / "settings.ini")


@pytest.mark.logs_warnings("refman.ui")
def test_same_person_while_the_server_is_away_is_said_in_the_people_window(
    qtbot: QtBot, window: MainWindow, library: LibraryService, library_location: str
) -> None:
    controller, nav = window.controller, window.tag_pane.nav_list
    row = next(r for r in range(nav.count()) if nav.item(r).text() == EVERYONE)
    centre = nav.visualItemRect(nav.item(row)).center()
    qtbot.mouseClick(nav.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    dialog = window.people.dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible)
    settle(controller)
    qtbot.waitUntil(lambda: dialog.variant_list.count() == 1)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    dialog.variant_list.setCurrentRow(0)
    strip = dialog.outage.strip
    assert strip.isHidden()
    with server_away(library_location):
        qtbot.mouseClick(dialog.merge_button, Qt.MouseButton.LeftButton)
        settle(controller)
        qtbot.waitUntil(strip.isVisible, timeout=3000)
        assert strip.label.text() == NOT_DONE
        assert window.outage.strip.isVisible()  # the main window says it too
    qtbot.waitUntil(strip.isHidden, timeout=BACK_MS)
    assert sorted(p.name for p in library.people()) == ["Z. Jiang", "Zhuo Jiang"]


@pytest.mark.logs_warnings("refman.ui")
def test_the_import_history_says_the_server_is_away(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    controller = window.controller
    window.actions_by_id[ActionId.IMPORT_HISTORY].trigger()
    dialog = window.history.dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible)
    settle(controller)
    strip = dialog.outage.strip
    with server_away(library_location):
        qtbot.waitUntil(window.outage.strip.isVisible, timeout=3000)
        qtbot.waitUntil(strip.isVisible, timeout=3000)
        assert "cannot be reached" in strip.label.text()
    qtbot.waitUntil(strip.isHidden, timeout=BACK_MS)
