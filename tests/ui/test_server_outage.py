"""A shared library whose server goes away and comes back: the window says the server cannot
be reached and that it keeps trying — no damage, no backup to restore — and catches up by
itself once the server is back. One whose server stops answering (its processes stopped):
the window says so, the change lands once it answers, and closing the window meanwhile does
not hang."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page
from tests.helpers.panes import add_note, make_window
from tests.helpers.postgres import server_away, server_frozen

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.notes_editor import NOT_SAVED, SAVED

pytestmark = pytest.mark.parametrize("backend", ["postgres"], indirect=True)

#: How long the window may take to notice the server is back (the change feed tries again
#: every three seconds).
BACK_MS = 10_000


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> Iterator[MainWindow]:
    library.import_pages([sourced(generated_page(5))])
    yield make_window(qtbot, controller, tmp_path / "settings.ini")


@pytest.mark.logs_warnings("refman.ui")
def test_an_outage_is_no_damage_and_its_note_goes_away_by_itself(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    strip, banner = window.outage.strip, window.banner
    with server_away(library_location):
        qtbot.waitUntil(strip.isVisible, timeout=3000)
        assert "The library server cannot be reached — retrying…" in strip.label.text()
        assert "cannot be reached" in strip.toolTip()  # the server's own words
        qtbot.keyClicks(window.search_box, "paper")  # a read of the list that fails
        settle(window.controller)
        assert banner.isHidden()  # not the damaged library's banner, no Restore from Backup
        assert strip.isVisible()
    qtbot.waitUntil(strip.isHidden, timeout=BACK_MS)
    assert banner.isHidden()
    settle(window.controller)
    window.controller.tag(window.controller.service.paper_ids()[:1], ["after the outage"])
    settle(window.controller)
    assert window.tag_pane.tag_list.find_row("tag", "after the outage") is not None


@pytest.mark.logs_warnings("refman.ui")
def test_a_search_while_the_server_is_away_says_so_and_runs_once_it_is_back(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    model, note = window.model, window.paper_panel.empty_note.label
    assert window.count_label.text() == "5 of 5 papers"
    with server_away(library_location):
        qtbot.waitUntil(window.outage.strip.isVisible, timeout=3000)
        qtbot.keyClicks(window.search_box, "diffusion")
        settle(window.controller)
        # not the whole library under a search it does not match: nothing, and why
        assert model.rowCount() == 0
        assert note.isVisible()
        assert note.text() == (
            "The search “diffusion” could not run: the library server cannot be reached. "
            "It runs by itself once the server is back."
        )
        assert window.count_label.text() == "Search not run"
    qtbot.waitUntil(lambda: model.rowCount() == 1, timeout=BACK_MS)
    settle(window.controller)
    assert str(model.index(0, 0).data()) == "Neural adaptive nets for adaptive diffusion"
    assert note.isHidden()
    assert window.count_label.text() == "1 of 5 papers"


#: How long the window may take to say the server does not answer (a change waits four
#: seconds before the server is asked, which has three to answer).
SILENT_MS = 15_000


@pytest.mark.logs_warnings("refman.ui")
def test_a_server_that_stops_answering_is_said_and_the_change_lands_when_it_answers(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    controller, pane, strip = window.controller, window.detail_pane, window.outage.strip
    first, other = controller.service.paper_ids()[:2]
    window.table.select_paper(first)
    settle(controller)
    with server_frozen(library_location):
        controller.tag([first], ["tagged while frozen"])
        qtbot.waitUntil(strip.isVisible, timeout=SILENT_MS)
        assert strip.label.text() == (
            "The library server is not answering; your change will be saved when it does."
        )
        # another paper picked: the pane does not go on showing the one before as if it were
        window.table.select_paper(other)
        qtbot.waitUntil(pane.empty.isVisible, timeout=3000)
        assert pane.empty.text() == "Reading the paper…\nThe library has not answered yet."
    qtbot.waitUntil(strip.isHidden, timeout=BACK_MS)
    settle(controller)
    assert pane.current_paper() == other and not pane.empty.isVisible()
    assert pane.title_edit.toPlainText() == controller.service.paper(other).title
    assert [t.name for t in controller.service.paper(first).tags] == ["tagged while frozen"]


@pytest.mark.logs_warnings("refman.ui")
def test_closing_while_the_server_does_not_answer_gives_up_waiting_and_says_so_in_the_log(
    qtbot: QtBot,
    library: LibraryService,
    library_location: str,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    library.import_pages([sourced(generated_page(3))])
    service = LibraryService.open(library_location)
    controller = LibraryController(service)
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    paper = service.paper_ids()[0]
    try:
        with server_frozen(library_location):
            controller.tag([paper], ["tagged before closing"])
            started = time.monotonic()
            window.close()
            controller.shutdown()
            assert time.monotonic() - started < 8  # (it waited 45 s, until the server woke)
        (said,) = [r.getMessage() for r in caplog.records if "closing while" in r.getMessage()]
        assert "still being saved (Saving your change…" in said  # (and what else was queued)
        assert "the library did not answer" in said
    finally:
        service.close()


@pytest.mark.logs_warnings("refman.ui")
def test_a_note_typed_while_the_server_is_away_stays_and_is_saved_once_it_is_back(
    qtbot: QtBot, window: MainWindow, library_location: str, shown_errors: list[str]
) -> None:
    """The save refused: the text stays in the note as typing, said not saved, never
    replaced by the stored text when the window reads the note again (it was, and lost)."""
    controller, pane = window.controller, window.detail_pane
    paper = controller.service.paper_ids()[0]
    window.table.select_paper(paper)
    qtbot.waitUntil(lambda: pane.notes.paper_id == paper)
    card = add_note(qtbot, pane, controller)
    with server_away(library_location):
        qtbot.waitUntil(window.outage.strip.isVisible, timeout=3000)
        qtbot.keyClicks(card.editor, "written on the train")
        card.save()
        settle(controller)
        assert shown_errors == []  # the strip says it: no box
        assert card.status.text() == NOT_SAVED
    qtbot.waitUntil(window.outage.strip.isHidden, timeout=BACK_MS)
    settle(controller)
    qtbot.wait(500)  # the window reads what it shows again
    assert card.text() == "written on the train"
    assert card.status.text() == NOT_SAVED
    assert [n.text for n in controller.service.paper(paper).notes] == [""]
    card.save()  # leaving the note, or typing on
    settle(controller)
    assert [n.text for n in controller.service.paper(paper).notes] == ["written on the train"]
    assert card.status.text() == SAVED


@pytest.mark.logs_warnings("refman.ui")
def test_a_title_typed_while_the_server_is_away_stays_in_its_field_and_enter_saves_it(
    qtbot: QtBot, window: MainWindow, library_location: str, shown_errors: list[str]
) -> None:
    """The save refused: the title typed stays in the field, marked not saved, with a line
    that says so (the field went back to the stored title: the typing was lost)."""
    controller, pane = window.controller, window.detail_pane
    paper = controller.service.paper_ids()[0]
    stored = controller.service.paper(paper).title
    window.table.select_paper(paper)
    qtbot.waitUntil(lambda: pane.notes.paper_id == paper)
    title = pane.title_edit
    with server_away(library_location):
        qtbot.waitUntil(window.outage.strip.isVisible, timeout=3000)
        title.setFocus()
        title.selectAll()
        qtbot.keyClicks(title, "A Title Typed Offline")
        title.commit()
        settle(controller)
        assert shown_errors == []  # the strip says it: no box
        qtbot.waitUntil(lambda: title.held == stored)
        assert title.toPlainText() == "A Title Typed Offline"
        assert pane.held.note.text() == (
            "Not saved: the library could not take your change to the title. "
            "Enter in the field saves it; Esc takes back what is saved."
        )
        assert "the library could not take it" in title.toolTip()
    qtbot.waitUntil(window.outage.strip.isHidden, timeout=BACK_MS)
    settle(controller)
    qtbot.wait(500)  # the window reads what it shows again
    assert title.toPlainText() == "A Title Typed Offline"  # still there, not saved
    assert controller.service.paper(paper).title == stored
    title.setFocus()
    qtbot.keyClick(title, Qt.Key.Key_Return)
    settle(controller)
    assert controller.service.paper(paper).title == "A Title Typed Offline"
    qtbot.waitUntil(lambda: title.held is None and pane.held.note.isHidden())


@pytest.mark.logs_warnings("refman.ui")
def test_changes_refused_while_the_server_is_away_are_said_by_the_strip_not_a_box_each(
    qtbot: QtBot, window: MainWindow, library_location: str, shown_errors: list[str]
) -> None:
    """Each refused save opened a message box on top of the amber strip, which says it
    already: one notice, and the status bar for the change just refused."""
    controller, strip = window.controller, window.outage.strip
    first, second = controller.service.paper_ids()[:2]
    with server_away(library_location):
        controller.tag([first], ["offline"])  # before the strip is up: it goes up
        settle(controller)
        assert strip.isVisible()
        assert "The library server cannot be reached" in strip.label.text()
        controller.tag([second], ["offline"])
        controller.rename_tag("offline", "elsewhere")
        settle(controller)
        assert shown_errors == []
        assert window.statusBar().currentMessage() == (
            "Not done: the library server cannot be reached. Try again once it is back."
        )
        window.statusBar().clearMessage()
        QApplication.clipboard().setText("before")
        window.go_to_paper(first)
        settle(controller)
        window.actions_by_id[ActionId.COPY_BIBTEX].trigger()  # a read: not a box either
        settle(controller)
        assert shown_errors == []
        assert window.statusBar().currentMessage().startswith("Not done: the library server")
        assert QApplication.clipboard().text() == "before"
    qtbot.waitUntil(strip.isHidden, timeout=BACK_MS)
    settle(controller)
    assert controller.service.paper(first).tags == ()  # nothing was half-saved
    controller.tag([first], ["after"])
    settle(controller)
    assert shown_errors == []
    assert [t.name for t in controller.service.paper(first).tags] == ["after"]


@pytest.mark.logs_warnings("refman.ui")
def test_an_undo_pressed_while_the_server_is_away_stays_in_the_history(
    qtbot: QtBot, window: MainWindow, library_location: str, shown_errors: list[str]
) -> None:
    """The undo could not reach the server and changed nothing, yet its step was thrown out
    of the history as if the change had been changed elsewhere: once the server was back,
    the tag could not be taken back any more."""
    controller, stack = window.controller, window.controller.undo_stack
    first = controller.service.paper_ids()[0]
    controller.tag([first], ["to read"])
    settle(controller)
    with server_away(library_location):
        qtbot.waitUntil(window.outage.strip.isVisible, timeout=3000)
        controller.undo()
        settle(controller)
        assert (stack.count(), stack.index()) == (1, 1)
        assert stack.undoText() == "Add tag “to read” to 1 paper"
    qtbot.waitUntil(window.outage.strip.isHidden, timeout=BACK_MS)
    settle(controller)
    controller.undo()
    settle(controller)
    assert controller.service.paper(first).tags == ()
    assert shown_errors == []
