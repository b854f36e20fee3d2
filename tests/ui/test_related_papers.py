"""The detail pane's Related block: the papers most related to the one shown, each with the
words it shares, found off the GUI thread; a click on one shows it; trashing one updates it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle
from tests.helpers.panes import make_window
from tests.helpers.related_library import PAPERS, fill_related

from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.related_view import NONE_FOUND

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


@pytest.fixture
def ids(library: LibraryService) -> dict[str, int]:
    return fill_related(library)


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, ids: dict[str, int], tmp_path: Path
) -> MainWindow:
    return make_window(qtbot, controller, tmp_path / "settings.ini")


def _shown(window: MainWindow, name: str) -> list[str]:
    view = window.detail_pane.related
    labels = view.findChildren(QLabel, name)
    return [label.text() for label in labels if label.isVisibleTo(view)]


def _select(qtbot: QtBot, window: MainWindow, paper_id: int) -> None:
    assert window.table.select_paper(paper_id)
    settle(window.controller)
    qtbot.wait_until(lambda: window.detail_pane.current_paper() == paper_id)


def test_the_related_papers_show_with_why_and_a_click_shows_one(
    qtbot: QtBot, window: MainWindow, ids: dict[str, int]
) -> None:
    _select(qtbot, window, ids["focus"])
    qtbot.wait_until(lambda: len(_shown(window, "relatedTitle")) == 2)
    titles = _shown(window, "relatedTitle")
    assert [t.split(">")[1].split("<")[0] for t in titles] == [PAPERS[1][1], PAPERS[2][1]]
    shares = _shown(window, "relatedShares")
    assert shares[0].startswith("shares: ") and "MFU" in shares[0] and "straggler" in shares[0]
    assert shares[1] == "shares: straggler, microbatches"

    view = window.detail_pane.related
    first = next(
        label for label in view.findChildren(QLabel, "relatedTitle") if label.isVisibleTo(view)
    )
    window.detail_pane.scroll_area.ensureWidgetVisible(first)
    qtbot.mouseClick(first, Qt.MouseButton.LeftButton, pos=QPoint(6, first.height() // 2))
    settle(window.controller)
    qtbot.wait_until(lambda: window.detail_pane.current_paper() == ids["closest"])
    assert window.table.selected_ids() == [ids["closest"]]
    qtbot.wait_until(lambda: PAPERS[0][1] in " ".join(_shown(window, "relatedTitle")))


def test_trashing_a_related_paper_takes_it_away_and_none_says_so(
    qtbot: QtBot, window: MainWindow, ids: dict[str, int]
) -> None:
    _select(qtbot, window, ids["focus"])
    qtbot.wait_until(lambda: len(_shown(window, "relatedTitle")) == 2)
    window.controller.trash([ids["close"]])  # as the list's Move to Trash does
    settle(window.controller)
    qtbot.wait_until(lambda: len(_shown(window, "relatedTitle")) == 1)
    window.controller.undo()  # Edit > Undo
    settle(window.controller)
    qtbot.wait_until(lambda: len(_shown(window, "relatedTitle")) == 2)
    _select(qtbot, window, ids["far"])
    qtbot.wait_until(lambda: not _shown(window, "relatedTitle"))
    assert window.detail_pane.related.status.text() == NONE_FOUND
    assert window.detail_pane.related.status.isVisibleTo(window.detail_pane)
