"""The paper list's columns from the header's menu: hidden and shown again, remembered."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page
from tests.helpers.panes import make_window, row_id

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.paper_columns import AUTHOR, TITLE, VENUE, YEAR

# The offscreen platform warns when a top-level widget or a menu is shown; nothing to do
# with us.
pytestmark = pytest.mark.qt_log_ignore(
    "does not support propagateSizeHints", "does not support raise", "grabbing the keyboard"
)


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> Iterator[MainWindow]:
    """A window over a library of four papers."""
    library.import_pages([sourced(generated_page(4))])
    made = make_window(qtbot, controller, tmp_path / "settings.ini")
    settle(controller)
    yield made


def header_menu(qtbot: QtBot, window: MainWindow, pick: str | None) -> list[tuple[str, bool]]:
    """Right-click the list's header like a person; the entries its menu shows (text,
    ticked), after clicking ``pick`` (None: the menu closed with Escape)."""
    header = window.table.horizontalHeader()
    seen: list[tuple[str, bool]] = []

    def in_menu() -> None:
        menu = QApplication.activePopupWidget()
        assert isinstance(menu, QMenu)
        seen.extend((a.text(), a.isChecked()) for a in menu.actions())
        chosen = [a for a in menu.actions() if a.text() == pick]
        if chosen:
            chosen[0].trigger()
        menu.close()

    QTimer.singleShot(50, in_menu)
    header.customContextMenuRequested.emit(QPoint(header.width() // 2, header.height() // 2))
    qtbot.wait_until(lambda: bool(seen))
    return seen


def test_a_column_hidden_from_the_headers_menu_stays_hidden_in_the_next_session(
    qtbot: QtBot,
    window: MainWindow,
    controller: LibraryController,
    tmp_path: Path,
) -> None:
    """The list showed every column, always: no way to hide Venue as Zotero's header menu
    does."""
    header = window.table.horizontalHeader()
    assert not header.isSectionHidden(VENUE)
    venue_width = window.table.widths.chosen[VENUE]
    shown = header_menu(qtbot, window, "Venue")
    assert shown[:4] == [("Title", True), ("First author", True), ("Year", True), ("Venue", True)]
    assert header.isSectionHidden(VENUE) and not header.isSectionHidden(YEAR)
    assert ("Venue", False) in header_menu(qtbot, window, None)
    window.resize(window.width() - 10, window.height())  # (a new fit keeps it hidden)
    qtbot.wait_until(lambda: header.isSectionHidden(VENUE))
    window.close()

    again = make_window(qtbot, controller, tmp_path / "settings.ini")
    settle(controller)
    header = again.table.horizontalHeader()
    assert header.isSectionHidden(VENUE) and not header.isSectionHidden(TITLE)
    header_menu(qtbot, again, "Venue")  # shown again, at the width it had
    assert not header.isSectionHidden(VENUE) and header.sectionSize(VENUE) > 0
    assert again.table.widths.chosen[VENUE] == venue_width
    header_menu(qtbot, again, "Title")  # (the title cannot be hidden)
    assert not header.isSectionHidden(TITLE)
    again.close()


def test_default_columns_puts_every_column_back_at_its_place_and_width(
    qtbot: QtBot, window: MainWindow
) -> None:
    header = window.table.horizontalHeader()
    defaults = dict(window.table.widths.chosen)
    header.moveSection(header.visualIndex(VENUE), 1)  # Venue dragged next to the title
    header_menu(qtbot, window, "Year")
    window.table.widths.chosen[AUTHOR] = defaults[AUTHOR] + 40  # (as a drag of its edge)
    assert header.isSectionHidden(YEAR) and header.logicalIndex(1) == VENUE
    assert [text for text, _ in header_menu(qtbot, window, None)][:2] == ["Title", "Venue"]
    header_menu(qtbot, window, "Default Columns")
    assert [header.logicalIndex(i) for i in range(header.count())] == list(range(header.count()))
    assert not any(header.isSectionHidden(c) for c in range(header.count()))
    assert window.table.widths.chosen == defaults


def test_the_status_bar_says_how_many_papers_are_selected_when_several_are(
    qtbot: QtBot, window: MainWindow
) -> None:
    """With the detail pane hidden nothing said how many papers a Shift-click selected."""
    window.actions_by_id[ActionId.SHOW_DETAIL_PANE].trigger()
    count = window.count_label
    assert count.text() == "4 of 4 papers"
    window.table.select_paper(row_id(window.model, 0))
    assert count.text() == "4 of 4 papers"  # (one paper: the list shows which)
    window.table.selectAll()
    qtbot.wait_until(lambda: count.text() == "4 of 4 papers · 4 selected")
    window.search_box.setText(str(window.model.index(1, TITLE).data()))
    qtbot.wait_until(lambda: count.text() == "1 of 4 papers")


def test_a_header_too_narrow_for_its_name_ends_in_an_ellipsis(
    qtbot: QtBot, window: MainWindow
) -> None:
    """A narrow list cut "First author" to "First autho", as if that were its name."""
    window.resize(900, 500)
    header = window.table.horizontalHeader()
    name = str(window.model.headerData(AUTHOR, Qt.Orientation.Horizontal))
    qtbot.wait_until(
        lambda: header.sectionSize(AUTHOR) < header.fontMetrics().horizontalAdvance(name) + 12
    )
    assert header.textElideMode() == Qt.TextElideMode.ElideRight
