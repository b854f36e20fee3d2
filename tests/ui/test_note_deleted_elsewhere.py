"""A note someone deletes elsewhere while it is being written in: what was written is kept
as a new note of the paper, open for typing, and the status bar says so; the card used to
vanish with the typing, or the save said "There is no note"."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page
from tests.helpers.panes import add_note, make_window

from refman.ui.controller import LibraryController
from refman.ui.detail_pane import DetailPane
from refman.ui.main_window import MainWindow
from refman.ui.notes_editor import NoteCard
from refman.ui.paper_notes import KEPT_NOTE

pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> MainWindow:
    """A window showing the first paper of a small library."""
    library.import_pages([sourced(generated_page(3))])
    made = make_window(qtbot, controller, tmp_path / "settings.ini")
    made.table.select_paper(library.paper_ids()[0])
    qtbot.waitUntil(lambda: made.detail_pane.notes.paper_id == library.paper_ids()[0])
    return made


def _writing(qtbot: QtBot, pane: DetailPane, controller: LibraryController) -> NoteCard:
    """A note saved once ("my thoughts"), then typed on (" and more", not saved yet)."""
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "my thoughts")
    card.save()
    settle(controller)
    qtbot.keyClicks(card.editor, " and more")
    return card


def _deleted_elsewhere(location: str, note_id: int) -> None:
    with closing(LibraryService.open(location)) as other:
        other.delete_note(note_id)


def test_a_note_deleted_elsewhere_while_typed_in_comes_back_with_the_typing(
    qtbot: QtBot,
    window: MainWindow,
    controller: LibraryController,
    library_location: str,
    shown_errors: list[str],
) -> None:
    pane, paper = window.detail_pane, controller.service.paper_ids()[0]
    card = _writing(qtbot, pane, controller)
    _deleted_elsewhere(library_location, card.note_id)
    notes = pane.notes
    qtbot.waitUntil(lambda: card.note_id not in notes.cards and len(notes.cards) == 1)
    settle(controller)
    (kept,) = notes.cards.values()
    assert kept.text() == "my thoughts and more"
    assert kept.is_editing()  # open for typing on
    assert [n.text for n in controller.service.paper(paper).notes] == ["my thoughts and more"]
    assert window.statusBar().currentMessage() == KEPT_NOTE
    assert shown_errors == []
    qtbot.keyClicks(kept.editor, "!")  # the typing goes on into the note kept
    kept.save()
    settle(controller)
    assert [n.text for n in controller.service.paper(paper).notes] == ["my thoughts and more!"]
    controller.undo()  # the typing since, then the note kept: a step each
    settle(controller)
    assert [n.text for n in controller.service.paper(paper).notes] == ["my thoughts and more"]
    controller.undo()
    settle(controller)
    assert controller.service.paper(paper).notes == ()


def test_a_save_that_meets_the_deletion_keeps_the_note_once(
    qtbot: QtBot,
    window: MainWindow,
    controller: LibraryController,
    library_location: str,
    shown_errors: list[str],
) -> None:
    """The save lands before the window hears of the deletion: kept once, not twice."""
    pane, paper = window.detail_pane, controller.service.paper_ids()[0]
    card = _writing(qtbot, pane, controller)
    _deleted_elsewhere(library_location, card.note_id)
    card.save()
    settle(controller)
    qtbot.wait(1500)  # the deletion heard too
    settle(controller)
    assert [n.text for n in controller.service.paper(paper).notes] == ["my thoughts and more"]
    assert shown_errors == []
    assert list(pane.notes.cards) == [n.id for n in controller.service.paper(paper).notes]


def test_a_note_deleted_here_is_not_brought_back(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, shown_errors: list[str]
) -> None:
    pane, paper = window.detail_pane, controller.service.paper_ids()[0]
    card = _writing(qtbot, pane, controller)
    card.delete_button.click()
    settle(controller)
    qtbot.wait(1200)
    settle(controller)
    assert controller.service.paper(paper).notes == ()
    assert pane.notes.cards == {}
    assert shown_errors == []
