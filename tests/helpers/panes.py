"""Shared pieces of the window's tests: shown panes and windows over the test's controller,
notes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.helpers.fixtures import settle

from refman.ui.citing import release_clipboard
from refman.ui.controller import LibraryController
from refman.ui.detail_pane import DetailPane
from refman.ui.main_window import MainWindow
from refman.ui.notes_editor import NoteCard
from refman.ui.paper_model import PaperTableModel
from refman.ui.settings import WindowSettings

#: Builds a shown detail pane showing a paper (None: no paper).
MakePane = Callable[[int | None], DetailPane]


@pytest.fixture
def make_pane(
    qtbot: QtBot, controller: LibraryController, ids: dict[str, int]
) -> Iterator[MakePane]:
    """Build detail panes over the module's seeded library (its ``ids`` fixture), each shown
    as the active window and showing a paper."""

    def make(paper_id: int | None = None) -> DetailPane:
        pane = DetailPane(controller)
        qtbot.add_widget(pane)
        pane.resize(420, 900)
        pane.show()
        qtbot.wait_exposed(pane)
        pane.activateWindow()
        qtbot.wait_until(pane.isActiveWindow)
        pane.show_paper(paper_id)
        settle(controller)  # the paper is read off the GUI thread
        return pane

    yield make


def add_note(qtbot: QtBot, pane: DetailPane, controller: LibraryController) -> NoteCard:
    """Add a note to the paper shown and wait until it is saved and open for typing."""
    with qtbot.wait_signal(pane.notes.note_opened) as opened:
        pane.notes.add_note()
    settle(controller)
    (card,) = opened.args
    assert isinstance(card, NoteCard)
    return card


def make_window(qtbot: QtBot, controller: LibraryController, settings_file: Path) -> MainWindow:
    """A shown main window over a controller's library, with its own settings file."""
    window = MainWindow(controller, WindowSettings(settings_file))
    qtbot.add_widget(window)
    window.show()
    qtbot.wait_exposed(window)
    settle(controller)  # the counts are read off the GUI thread
    return window


def row_id(model: PaperTableModel, row: int) -> int:
    """The id of the paper a list row shows (its page must have been read)."""
    paper_id = model.paper_id(row)
    assert paper_id is not None, f"row {row} has not been read"
    return paper_id


@pytest.fixture(scope="session", autouse=True)
def _plain_clipboard_at_exit() -> Iterator[None]:
    """Leave plain text on the clipboard when the tests end, as the application does when
    it quits (a QMimeData made in Python crashes Qt for Python at exit)."""
    yield
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is not None:
        release_clipboard()
