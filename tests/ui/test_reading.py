"""Reading status and rating in the window: the detail pane's toggles and stars, the list's
Read and Rating columns, the keys and the Paper menu, the Unread section, undo."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu, QToolButton
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from refman.core.values import Section
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page
from tests.helpers.panes import make_window, row_id
from tests.ui.test_tag_pane import counts_shown

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.paper_columns import RATING, STATUS

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> MainWindow:
    """The window over five papers, the first selected."""
    library.import_pages([sourced(generated_page(5, owner="Ada Okonkwo"))])
    made = make_window(qtbot, controller, tmp_path / "settings.ini")
    made.table.selectRow(0)
    settle(controller)
    return made


def _button(window: MainWindow, name: str) -> QToolButton:
    found = window.detail_pane.findChild(QToolButton, name)
    assert found is not None, name
    return found


def _cell(window: MainWindow, row: int, column: int) -> str:
    return str(window.model.index(row, column).data() or "")


def test_marking_read_in_the_detail_pane_takes_the_paper_out_of_unread_and_undo_returns_it(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    paper = row_id(window.model, 0)
    assert _cell(window, 0, STATUS) == "•"  # unread
    assert counts_shown(window.tag_pane)[Section.UNREAD] == 5
    assert _button(window, "status_unread").isChecked()
    qtbot.mouseClick(_button(window, "status_read"), Qt.MouseButton.LeftButton)
    settle(window.controller)
    assert library.paper(paper).status == "read"
    assert _cell(window, 0, STATUS) == ""
    assert counts_shown(window.tag_pane)[Section.UNREAD] == 4
    assert _button(window, "status_read").isChecked()
    assert window.actions_by_id[ActionId.UNDO].text() == "&Undo Mark 1 paper as read"
    window.actions_by_id[ActionId.UNDO].trigger()
    settle(window.controller)
    assert library.paper(paper).status == "unread"
    assert _button(window, "status_unread").isChecked()
    assert counts_shown(window.tag_pane)[Section.UNREAD] == 5


def test_a_star_rates_and_the_same_star_again_clears_the_rating(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    paper = row_id(window.model, 0)
    qtbot.mouseClick(_button(window, "star_4"), Qt.MouseButton.LeftButton)
    settle(window.controller)
    assert library.paper(paper).rating == 4
    assert _cell(window, 0, RATING) == "★★★★☆"
    assert [_button(window, f"star_{n}").text() for n in range(1, 6)] == ["★"] * 4 + ["☆"]
    qtbot.mouseClick(_button(window, "star_4"), Qt.MouseButton.LeftButton)
    settle(window.controller)
    assert library.paper(paper).rating == 0
    assert _cell(window, 0, RATING) == ""


def test_keys_in_the_list_rate_and_mark_every_selected_paper(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    window.table.setFocus()
    window.table.selectAll()
    qtbot.keyClick(window.table, Qt.Key.Key_5)
    settle(window.controller)
    assert {d.rating for d in library.details(library.paper_ids())} == {5}
    qtbot.keyClick(
        window.table,
        Qt.Key.Key_R,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    settle(window.controller)
    assert {d.status for d in library.details(library.paper_ids())} == {"read"}
    assert counts_shown(window.tag_pane)[Section.UNREAD] == 0
    second_row = window.table.visualRect(window.model.index(1, 0)).center()
    qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=second_row)
    assert len(window.table.selected_ids()) == 1
    qtbot.keyClick(window.table, Qt.Key.Key_0)
    qtbot.keyClick(
        window.table,
        Qt.Key.Key_U,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    settle(window.controller)
    second = library.paper(row_id(window.model, 1))
    assert (second.status, second.rating) == ("unread", 0)


def test_the_paper_menu_holds_the_reading_actions_and_they_need_a_selection(
    qtbot: QtBot, window: MainWindow
) -> None:
    menus = {m.title(): m for m in window.menuBar().findChildren(QMenu)}
    texts = [a.text() for a in menus["&Paper"].actions() if a.text()]
    assert texts[:4] == ["&New Paper…", "Open &File", "&Attach File…", "Mer&ge Papers"]
    assert texts[4:7] == ["Mark as &Unread", "Mark as Rea&ding", "Mark as &Read"]
    assert texts[-1] == "&0  No Rating" and texts[7].endswith("★★★★★")
    window.table.clearSelection()
    assert not window.actions_by_id[ActionId.MARK_READ].isEnabled()
    first_row = window.table.visualRect(window.model.index(0, 0)).center()
    qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=first_row)
    enabled = [window.actions_by_id[i].isEnabled() for i in (ActionId.MARK_READ, ActionId.RATE_5)]
    assert enabled == [True, True]


def test_the_unread_section_lists_what_is_left_to_read_and_the_rating_column_sorts(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    ids = library.paper_ids()
    library.mark(ids[:2], status="read")
    library.mark([ids[3]], rating=3)
    library.mark([ids[4]], rating=5)
    window.tag_pane.select_section(Section.UNREAD)
    settle(window.controller)
    assert sorted(row_id(window.model, r) for r in range(window.model.rowCount())) == sorted(
        ids[2:]
    )
    header = window.table.horizontalHeader()
    x = header.sectionViewportPosition(RATING) + header.sectionSize(RATING) // 2
    qtbot.mouseClick(
        header.viewport(), Qt.MouseButton.LeftButton, pos=header.rect().center().__class__(x, 5)
    )
    settle(window.controller)
    assert [_cell(window, r, RATING) for r in range(2)] == ["★★★★★", "★★★☆☆"]


def test_a_rated_paper_that_moves_in_a_rating_sort_stays_the_selected_one(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    # Sorted by rating, rating the fifth paper moves it to the top: the selection must go
    # with it, or the next key rates another paper.
    header = window.table.horizontalHeader()
    x = header.sectionViewportPosition(RATING) + header.sectionSize(RATING) // 2
    qtbot.mouseClick(
        header.viewport(), Qt.MouseButton.LeftButton, pos=header.rect().center().__class__(x, 5)
    )
    settle(window.controller)
    window.table.selectRow(4)
    settle(window.controller)
    chosen = row_id(window.model, 4)
    qtbot.keyClick(window.table, Qt.Key.Key_5)
    settle(window.controller)
    qtbot.keyClick(window.table, Qt.Key.Key_3)
    settle(window.controller)
    rated = {pid: library.paper(pid).rating for pid in library.paper_ids()}
    assert rated[chosen] == 3 and sum(1 for r in rated.values() if r) == 1, rated
    assert window.table.selected_ids() == [chosen]
    shown = window.detail_pane.shown_paper()
    assert shown is not None and shown.id == chosen


def test_working_through_unread_each_paper_marked_read_hands_over_to_the_next(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    """Marked read in Unread, the paper leaves the list and the next one is selected, so
    Ctrl+Shift+R again reads the next; a new search shows no paper it did not choose."""
    window.tag_pane.select_section(Section.UNREAD)
    settle(window.controller)
    order = [row_id(window.model, r) for r in range(window.model.rowCount())]
    window.table.select_paper(order[1])
    window.table.setFocus()
    read = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    for left, expected in ((4, order[2]), (3, order[3])):
        qtbot.keyClick(window.table, Qt.Key.Key_R, read)
        settle(window.controller)
        assert window.model.rowCount() == left
        assert window.table.current_id() == expected
        assert window.detail_pane.current_paper() == expected
    assert [library.paper(i).status for i in order] == [
        "unread",
        "read",
        "read",
        "unread",
        "unread",
    ]
    qtbot.keyClicks(window.search_box, "zzzz-no-such-word")
    settle(window.controller)
    assert window.table.current_id() is None
