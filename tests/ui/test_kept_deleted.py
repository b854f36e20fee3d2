"""A paper deleted for good elsewhere (the Trash emptied, its import undone) while a person
writes a note in it stays in the detail pane with the note, and comes back with it: Keep Paper,
or leaving it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page
from tests.helpers.panes import add_note, make_window

from refman.ui.controller import LibraryController
from refman.ui.kept_paper import KEPT_DELETED, KeptPaper
from refman.ui.main_window import MainWindow
from refman.ui.notes_editor import NoteCard

pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> Iterator[MainWindow]:
    library.import_pages([sourced(generated_page(5))])
    yield make_window(qtbot, controller, tmp_path / "settings.ini")


def _delete_elsewhere(location: str, paper: int) -> None:
    """Another program moves the paper to the Trash and empties it."""
    other = LibraryService.open(location)
    try:
        other.trash([paper])
        other.empty_trash()
    finally:
        other.close()


def _writing_when_deleted(
    qtbot: QtBot, window: MainWindow, location: str
) -> tuple[int, NoteCard, KeptPaper]:
    controller, pane = window.controller, window.detail_pane
    paper = controller.service.paper_ids()[2]
    window.go_to_paper(paper)
    settle(controller)
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "half a thought")
    _delete_elsewhere(location, paper)
    kept = pane.kept
    qtbot.waitUntil(kept.notice.isVisible, timeout=3000)
    qtbot.waitUntil(lambda: window.count_label.text() == "4 of 4 papers", timeout=2000)
    settle(controller)
    return paper, card, kept


def test_a_paper_deleted_for_good_while_a_note_is_written_stays_and_comes_back_with_it(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    controller, pane = window.controller, window.detail_pane
    paper, card, kept = _writing_when_deleted(qtbot, window, library_location)
    title = pane.title_edit.shown_title()
    assert KEPT_DELETED in [label.text() for label in kept.notice.findChildren(QLabel)]
    assert kept.keep_button.isVisible() and not kept.restore_button.isVisible()
    # The pane still shows the paper and the note; the list selects nothing.
    shown = pane.shown_paper()
    assert shown is not None and shown.id == paper
    assert pane.notes.cards == {card.note_id: card} and card.isVisible()
    assert not window.table.has_selection()
    qtbot.keyClicks(card.editor, " and more")  # typing on saves nothing, and says nothing
    qtbot.wait(1500)
    settle(controller)
    assert card.text() == "half a thought and more"
    qtbot.mouseClick(kept.copy_note_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == "half a thought and more"
    assert paper not in controller.service.paper_ids()
    qtbot.mouseClick(kept.keep_button, Qt.MouseButton.LeftButton)
    settle(controller)
    # Back, with the note as written, shown and selected in the list.
    qtbot.waitUntil(lambda: window.count_label.text() == "5 of 5 papers", timeout=2000)
    back = window.table.current_id()
    assert back is not None and back != paper
    restored = controller.service.paper(back)
    assert restored.title == title
    assert [n.text for n in restored.notes] == ["half a thought and more"]
    qtbot.waitUntil(lambda: not kept.notice.isVisible(), timeout=2000)
    shown = pane.shown_paper()
    assert shown is not None and shown.id == back
    assert [c.text() for c in pane.notes.cards.values()] == ["half a thought and more"]
    # One undo step lets it go again.
    window.undo_action.trigger()
    settle(controller)
    assert back not in controller.service.paper_ids()


def test_leaving_a_paper_deleted_for_good_with_unsaved_writing_keeps_it(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    controller = window.controller
    paper, _card, _kept = _writing_when_deleted(qtbot, window, library_location)
    other = controller.service.paper_ids()[0]
    window.table.setFocus()
    window.table.select_paper(other)
    settle(controller)
    qtbot.waitUntil(lambda: len(controller.service.paper_ids()) == 5, timeout=2000)
    kept_ids = set(controller.service.paper_ids()) - {other}
    notes = [n.text for pid in kept_ids for n in controller.service.paper(pid).notes]
    assert notes == ["half a thought"]
    assert paper not in controller.service.paper_ids()
    settle(controller)  # (the list and the pane read the paper kept: done before teardown)


def test_closing_the_window_on_a_paper_deleted_for_good_keeps_the_note(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    _writing_when_deleted(qtbot, window, library_location)
    window.close()
    reopened = LibraryService.open(library_location)
    try:
        notes = [n.text for pid in reopened.paper_ids() for n in reopened.paper(pid).notes]
    finally:
        reopened.close()
    assert notes == ["half a thought"]


def test_a_title_being_typed_when_the_paper_is_deleted_for_good_comes_back_with_it(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    controller, pane = window.controller, window.detail_pane
    paper = controller.service.paper_ids()[2]
    window.go_to_paper(paper)
    settle(controller)
    pane.title_edit.setFocus()
    pane.title_edit.selectAll()
    qtbot.keyClicks(pane.title_edit, "A Better Title")
    _delete_elsewhere(library_location, paper)
    qtbot.waitUntil(pane.kept.notice.isVisible, timeout=3000)
    assert not pane.kept.copy_note_button.isVisible()  # (no note to copy)
    window.table.setFocus()  # the title handed over: held, not saved to a paper gone
    settle(controller)
    assert pane.title_edit.toPlainText() == "A Better Title"
    window.table.select_paper(controller.service.paper_ids()[0])
    settle(controller)
    qtbot.waitUntil(lambda: len(controller.service.paper_ids()) == 5, timeout=2000)
    titles = [controller.service.paper(p).title for p in controller.service.paper_ids()]
    assert "A Better Title" in titles
    settle(controller)
