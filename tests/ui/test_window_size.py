"""The window made smaller and larger again: the paper list keeps its room, and the widths
a small window forces on the list's columns are never remembered as the person's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import seed_files, settle, sourced_file
from tests.helpers.panes import make_window, row_id

from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.paper_columns import ADDED, AUTHOR, TITLE, VENUE, YEAR, floor_width
from refman.ui.settings import WindowSettings

# The offscreen platform warns when a top-level widget is shown; nothing to do with us.
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")

OpenWindow = Callable[[], MainWindow]


@pytest.fixture
def open_window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> OpenWindow:
    """Opens the window over the seed pages, with the same settings file each time (the
    next session's window); the first one opens at 1400 × 900 (a window opened again fits
    the offscreen platform's small screen)."""
    for path in seed_files():
        library.import_pages([sourced_file(path)])
    settings = tmp_path / "settings.ini"

    def open_() -> MainWindow:
        window = make_window(qtbot, controller, settings)
        settle(controller)
        return window

    return open_


def resize(qtbot: QtBot, window: MainWindow, width: int, height: int) -> None:
    window.resize(width, height)
    qtbot.wait_until(lambda: window.width() == width and window.height() == height)


def widths(window: MainWindow) -> list[int]:
    header = window.table.horizontalHeader()
    return [header.sectionSize(c) for c in range(header.count())]


def test_a_smaller_window_takes_the_width_from_the_detail_pane_first(
    qtbot: QtBot, open_window: OpenWindow
) -> None:
    """At 800 × 500 the list was crushed beside an empty detail pane wider than it."""
    window = open_window()
    navigation, middle, detail = window.tag_pane, window.people.middle, window.detail_pane
    wide = window.splitter.sizes()
    assert wide[1] > wide[2] > 0
    resize(qtbot, window, 800, 500)
    narrowest = max(detail.minimumWidth(), detail.minimumSizeHint().width())
    qtbot.wait_until(lambda: detail.width() == narrowest)
    assert middle.width() > detail.width()
    assert navigation.width() >= navigation.minimumWidth()
    assert middle.width() >= 300
    window.table.select_paper(row_id(window.model, 0))  # a paper shown: the same
    qtbot.wait_until(lambda: detail.stack.currentWidget() is detail.scroll_area)
    assert middle.width() > detail.width()
    resize(qtbot, window, 1400, 900)
    qtbot.wait_until(lambda: window.splitter.sizes() == wide)  # the panes as they were


def test_a_pane_the_person_widened_keeps_its_width_through_a_smaller_window(
    qtbot: QtBot, open_window: OpenWindow
) -> None:
    window = open_window()
    splitter = window.splitter
    handle = splitter.handle(2)
    middle = handle.rect().center()
    qtbot.mousePress(handle, Qt.MouseButton.LeftButton, pos=middle)
    qtbot.mouseMove(handle, middle - QPoint(100, 0))
    qtbot.mouseRelease(handle, Qt.MouseButton.LeftButton, pos=middle - QPoint(100, 0))
    chosen = splitter.sizes()
    assert chosen[2] > 450  # the detail pane dragged wider
    resize(qtbot, window, 1000, 700)
    resize(qtbot, window, 1400, 900)
    qtbot.wait_until(lambda: splitter.sizes() == chosen)
    resize(qtbot, window, 1000, 700)
    window.close()  # remembered as chosen, not as the smaller window had it
    again = open_window()
    resize(qtbot, again, 1400, 900)
    qtbot.wait_until(lambda: again.splitter.sizes() == chosen)


def test_columns_a_small_window_narrowed_come_back_in_the_next_session(
    qtbot: QtBot, open_window: OpenWindow
) -> None:
    """They were remembered narrowed: "Marta Ø…" beside a wide title at full size."""
    window = open_window()
    full = widths(window)
    table, header = window.table, window.table.horizontalHeader()
    resize(qtbot, window, 800, 500)
    qtbot.wait_until(lambda: widths(window)[AUTHOR] < full[AUTHOR])
    # The titles stay readable: the columns of least use are left out, no scrolling sideways.
    qtbot.wait_until(lambda: not table.horizontalScrollBar().isVisible())
    assert header.sectionSize(TITLE) >= 0.3 * table.viewport().width()
    assert header.isSectionHidden(ADDED) and not header.isSectionHidden(YEAR)
    resize(qtbot, window, 1400, 900)  # at full size again, the widths come back at once
    qtbot.wait_until(lambda: widths(window)[AUTHOR] == full[AUTHOR])
    assert not any(header.isSectionHidden(c) for c in range(header.count()))
    resize(qtbot, window, 800, 500)
    window.close()  # closed while small
    again = open_window()
    resize(qtbot, again, 1400, 900)
    qtbot.wait_until(lambda: widths(again)[AUTHOR] == full[AUTHOR])
    assert [w for c, w in enumerate(widths(again)) if c != TITLE] == [
        w for c, w in enumerate(full) if c != TITLE
    ]


def test_a_column_the_person_widened_is_remembered(qtbot: QtBot, open_window: OpenWindow) -> None:
    window = open_window()
    header = window.table.horizontalHeader()
    viewport = header.viewport()
    edge = header.sectionViewportPosition(VENUE) + header.sectionSize(VENUE) - 1
    y = header.height() // 2
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=QPoint(edge, y))
    qtbot.mouseMove(viewport, QPoint(edge + 60, y))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=QPoint(edge + 60, y))
    dragged = header.sectionSize(VENUE)
    assert dragged > 100
    resize(qtbot, window, 800, 500)
    resize(qtbot, window, 1400, 900)
    qtbot.wait_until(lambda: header.sectionSize(VENUE) == dragged)
    resize(qtbot, window, 800, 500)
    window.close()
    again = open_window()
    resize(qtbot, again, 1400, 900)
    qtbot.wait_until(lambda: again.table.horizontalHeader().sectionSize(VENUE) == dragged)


def test_columns_an_older_refman_remembered_cramped_come_back_at_their_widths(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path
) -> None:
    """An older refman remembered the widths a small window forced (each at its floor)."""
    window = open_window()
    full = widths(window)
    header = window.table.horizontalHeader()
    char = window.table.fontMetrics().averageCharWidth()
    for column in (AUTHOR, VENUE):
        header.resizeSection(column, floor_width(column, char))
    cramped = header.saveState()  # as that refman saved it
    window.close()
    WindowSettings(tmp_path / "settings.ini").save(
        geometry=window.saveGeometry(),
        window_state=window.saveState(),
        splitter=window.splitter.saveState(),
        header=cramped,
        panes={},
        library=window.controller.service.location,
    )
    again = open_window()
    resize(qtbot, again, 1400, 900)
    qtbot.wait_until(lambda: widths(again)[AUTHOR] == full[AUTHOR])
    assert widths(again)[VENUE] == full[VENUE]
