"""The search syntax in the window: typed fields filter the list, and the help popup's
examples go into the search field when clicked."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import THREE_PAPERS as RECORDS
from tests.helpers.pages import publication_page
from tests.helpers.panes import make_window

from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(
    "does not support propagateSizeHints", "does not support raise", "grabbing the keyboard"
)


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> MainWindow:
    library.import_pages([sourced(publication_page("Zhuo Jiang", RECORDS))])
    library.import_pages(
        [sourced(publication_page("Lena Fischer", [("Tidal sketches", 2022, "SIGMOD")]))]
    )
    return make_window(qtbot, controller, tmp_path / "settings.ini")


def _titles(window: MainWindow) -> set[str]:
    model = window.model
    return {model.index(r, 0).data() for r in range(model.rowCount())}


def test_typing_fields_and_ranges_filters_the_list(
    qtbot: QtBot, window: MainWindow, controller: LibraryController
) -> None:
    qtbot.keyClicks(window.search_box, "year:2023..2024")
    settle(controller)
    qtbot.waitUntil(lambda: window.model.rowCount() == 2)
    assert _titles(window) == {
        "Rebalancing pipelines around stragglers",
        "Gradient compression on slow networks",
    }
    qtbot.keyClicks(window.search_box, " -venue:iclr")
    settle(controller)
    qtbot.waitUntil(lambda: _titles(window) == {"Rebalancing pipelines around stragglers"})
    window.search_box.clear()
    qtbot.keyClicks(window.search_box, 'owner:"lena"')
    settle(controller)
    qtbot.waitUntil(lambda: _titles(window) == {"Tidal sketches"})
    assert window.count_label.text().startswith("1 of 4")


def test_the_help_popup_puts_a_clicked_example_in_the_search_field(
    qtbot: QtBot, window: MainWindow, controller: LibraryController
) -> None:
    window.search_box.help_action.trigger()
    help_popup = window.search_box.help
    qtbot.waitUntil(help_popup.isVisible)
    example = next(
        b for b in help_popup.findChildren(QPushButton, "searchExample") if b.text() == "year:2024"
    )
    qtbot.mouseClick(example, Qt.MouseButton.LeftButton)
    assert not help_popup.isVisible()
    assert window.search_box.text() == "year:2024"
    settle(controller)
    qtbot.waitUntil(lambda: _titles(window) == {"Rebalancing pipelines around stragglers"})


def test_a_search_cut_to_its_first_words_says_so_as_the_command_line_does(
    qtbot: QtBot, window: MainWindow, controller: LibraryController
) -> None:
    """A pasted paragraph is searched by its first 64 words; the status bar says so."""
    pasted = "tidal " + " ".join(f"w{i}" for i in range(70))
    window.search_box.set_text_now("tidal")
    settle(controller)
    qtbot.waitUntil(lambda: window.count_label.text() == "1 of 4 papers")
    window.search_box.set_text_now(pasted)
    settle(controller)
    qtbot.waitUntil(
        lambda: (
            window.count_label.text()
            == "0 of 4 papers (the search uses its first 64 words and phrases)"
        )
    )
