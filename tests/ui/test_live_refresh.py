"""The window follows changes made elsewhere: another program on the same library file, or a
colleague on the same shared library, seen within a second, without disturbing what is being
typed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from tests.helpers.cli import refman_process
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page
from tests.helpers.panes import add_note, make_window

from refman.ui.controller import LibraryController
from refman.ui.kept_paper import KEPT_IN_TRASH
from refman.ui.main_window import MainWindow
from refman.ui.settings import WindowSettings

pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)

#: A page of two papers nobody else has.
PAGE = """arXiv subjects
Ida Elsewhere
Publications and source records attributed to Ida Elsewhere.
2 recordsLinked to original sources

arXiv2025

Quillwort Scheduling for Elastic Training

We schedule quillwort jobs on elastic clusters and measure their cost on many machines.

cs.DC↗

arXiv2025

Bramblefinch Caching at the Edge

Bramblefinch caches keep hot shards close to the edge and cut tail latency by half.

cs.NI↗
"""


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> Iterator[MainWindow]:
    library.import_pages([sourced(generated_page(5))])
    yield make_window(qtbot, controller, tmp_path / "settings.ini")


def titles(window: MainWindow) -> list[str]:
    model = window.model
    return [str(model.index(row, 0).data()) for row in range(model.rowCount())]


def test_an_import_by_another_program_shows_within_a_second(
    qtbot: QtBot, window: MainWindow, library_location: str, tmp_path: Path
) -> None:
    page = tmp_path / "page.txt"
    page.write_text(PAGE, encoding="utf-8")
    assert window.count_label.text() == "5 of 5 papers"
    done = refman_process(library_location, tmp_path / "home", "import", str(page))
    assert done.returncode == 0, done.stderr
    ended = time.monotonic()
    qtbot.waitUntil(
        lambda: "Quillwort Scheduling for Elastic Training" in titles(window), timeout=1000
    )
    qtbot.waitUntil(lambda: window.count_label.text() == "7 of 7 papers", timeout=1000)
    assert time.monotonic() - ended < 1.0


def test_a_tag_added_elsewhere_shows_in_the_tag_pane(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    other = LibraryService.open(library_location)
    try:
        other.tag(other.paper_ids()[:2], ["from elsewhere"])
    finally:
        other.close()
    pane = window.tag_pane
    qtbot.waitUntil(
        lambda: pane.tag_list.find_row("tag", "from elsewhere") is not None, timeout=1000
    )


def test_a_note_being_typed_is_kept_when_its_paper_changes_elsewhere(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    controller = window.controller
    paper_id = controller.service.paper_ids(PaperQuery())[0]
    window.go_to_paper(paper_id)
    settle(controller)
    card = add_note(qtbot, window.detail_pane, controller)
    qtbot.keyClicks(card.editor, "half a thought")
    other = LibraryService.open(library_location)
    try:
        other.edit_fields(paper_id, title="Renamed By A Colleague")
    finally:
        other.close()
    title = window.detail_pane.title_edit
    qtbot.waitUntil(lambda: title.toPlainText() == "Renamed By A Colleague", timeout=1000)
    assert card.editor.toPlainText() == "half a thought"
    card.save()
    settle(controller)
    assert [n.text for n in controller.service.paper(paper_id).notes] == ["half a thought"]


def test_tag_note_edit_and_trash_by_another_program_show_within_a_second(
    qtbot: QtBot, window: MainWindow, library_location: str, tmp_path: Path
) -> None:
    controller = window.controller
    paper = controller.service.paper_ids()[0]
    window.go_to_paper(paper)
    settle(controller)
    pane, home = window.detail_pane, tmp_path / "home"

    def run(*args: str) -> float:
        done = refman_process(library_location, home, *args)
        assert done.returncode == 0, done.stderr
        return time.monotonic()

    def shown_within_a_second(ended: float, check: object) -> None:
        qtbot.waitUntil(check, timeout=1000)  # type: ignore[arg-type]
        assert time.monotonic() - ended < 1.0

    ended = run("tag", str(paper), "seen elsewhere")
    shown_within_a_second(ended, lambda: "seen elsewhere" in pane.tag_chips.tag_names())
    ended = run("note", str(paper), "a note from the terminal")
    shown_within_a_second(
        ended, lambda: "a note from the terminal" in [c.text() for c in pane.notes.cards.values()]
    )
    ended = run("edit", str(paper), "--title", "Retitled In A Terminal")
    shown_within_a_second(ended, lambda: pane.title_edit.toPlainText() == "Retitled In A Terminal")
    ended = run("trash", str(paper))
    shown_within_a_second(ended, lambda: window.count_label.text() == "4 of 4 papers")


def test_two_windows_follow_each_other_and_an_undo_of_what_the_other_deleted_is_refused(
    qtbot: QtBot,
    window: MainWindow,
    library_location: str,
    tmp_path: Path,
    shown_errors: list[str],
) -> None:
    first = window.controller
    second_service = LibraryService.open(library_location)
    second = LibraryController(second_service)
    other = MainWindow(second, WindowSettings(tmp_path / "other.ini"))
    qtbot.add_widget(other)
    try:
        other.show()
        settle(second)
        paper = first.service.paper_ids()[0]
        first.trash([paper])
        settle(first)
        qtbot.waitUntil(lambda: other.count_label.text() == "4 of 4 papers", timeout=1000)
        second.empty_trash()
        settle(second)
        first.undo()  # "Move to Trash": its paper is gone for good
        settle(first)
        assert shown_errors == [  # what the window says, not a command to type
            f"There is no paper #{paper} in this library. It was deleted since (elsewhere, "
            "or in another window); nothing was changed."
        ]
        assert first.service.count() == 4  # nothing was put back in a wrong state
        qtbot.waitUntil(lambda: window.count_label.text() == "4 of 4 papers", timeout=1000)
    finally:
        other.close()
        settle(second)
        second.shutdown()
        second_service.close()


def test_the_selection_and_the_windows_own_undo_survive_papers_added_elsewhere(
    qtbot: QtBot, window: MainWindow, library_location: str, tmp_path: Path
) -> None:
    controller = window.controller
    paper = controller.service.paper_ids()[2]
    window.table.select_paper(paper)
    controller.tag([paper], ["mine"])
    settle(controller)
    page = tmp_path / "page.txt"
    page.write_text(PAGE, encoding="utf-8")
    done = refman_process(library_location, tmp_path / "home", "import", str(page))
    assert done.returncode == 0, done.stderr
    qtbot.waitUntil(lambda: window.count_label.text() == "7 of 7 papers", timeout=1000)
    assert window.table.selected_ids() == [paper]  # still the paper the person had chosen
    controller.undo()  # the window's own tagging: others only added papers meanwhile
    settle(controller)
    assert controller.service.paper(paper).tags == ()
    assert controller.service.count() == 7


def _trash_elsewhere(location: str, paper: int) -> None:
    other = LibraryService.open(location)
    try:
        other.trash([paper])
    finally:
        other.close()


def test_a_paper_moved_to_the_trash_elsewhere_while_a_note_is_written_stays_with_the_note(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    controller, pane = window.controller, window.detail_pane
    paper = controller.service.paper_ids()[2]
    window.go_to_paper(paper)
    settle(controller)
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "half a thought")
    _trash_elsewhere(library_location, paper)
    kept = pane.kept
    notice = kept.notice
    qtbot.waitUntil(notice.isVisible, timeout=2000)  # pinned above the paper, scrolled or not
    assert KEPT_IN_TRASH in [label.text() for label in notice.findChildren(QLabel)]
    qtbot.waitUntil(lambda: window.count_label.text() == "4 of 4 papers", timeout=1000)
    settle(controller)
    # The pane stays on the paper, with the note being written; the list selects nothing.
    shown = pane.shown_paper()
    assert shown is not None and shown.id == paper and shown.trashed is not None
    assert pane.stack.currentWidget() is pane.scroll_area
    assert pane.notes.cards == {card.note_id: card} and card.isVisible()
    assert not window.table.has_selection()
    assert kept.restore_button.isVisible() and kept.copy_note_button.isVisible()
    qtbot.keyClicks(card.editor, " and more")
    card.save()
    settle(controller)
    assert [n.text for n in controller.service.paper(paper).notes] == ["half a thought and more"]
    qtbot.mouseClick(kept.copy_note_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == "half a thought and more"
    assert kept.copy_note_button.text() == "Copied"
    assert card.editor.hasFocus()  # (the click left the keyboard in the note)
    qtbot.mouseClick(kept.restore_button, Qt.MouseButton.LeftButton)
    settle(controller)
    qtbot.waitUntil(lambda: window.table.current_id() == paper, timeout=2000)
    assert controller.service.paper(paper).trashed is None
    assert window.count_label.text() == "5 of 5 papers"
    qtbot.waitUntil(lambda: not notice.isVisible(), timeout=1000)
    assert [c.text() for c in pane.notes.cards.values()] == ["half a thought and more"]


def test_a_paper_kept_while_written_in_gives_way_to_the_paper_selected_in_the_list(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    controller, pane = window.controller, window.detail_pane
    paper, other = controller.service.paper_ids()[2:4]
    window.go_to_paper(paper)
    settle(controller)
    pane.title_edit.setFocus()  # the keyboard in the title: the person is writing
    _trash_elsewhere(library_location, paper)
    qtbot.waitUntil(pane.kept.notice.isVisible, timeout=2000)
    assert not pane.kept.copy_note_button.isVisible()  # (no note to copy)
    window.table.setFocus()
    window.table.select_paper(other)
    settle(controller)
    shown = pane.shown_paper()
    assert shown is not None and shown.id == other
    assert not pane.kept.notice.isVisible()


def test_a_paper_moved_to_the_trash_elsewhere_while_the_list_has_the_keyboard_gives_way(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    controller, pane = window.controller, window.detail_pane
    paper = controller.service.paper_ids()[2]
    window.go_to_paper(paper)
    settle(controller)
    window.table.setFocus()
    _trash_elsewhere(library_location, paper)
    qtbot.waitUntil(lambda: window.count_label.text() == "4 of 4 papers", timeout=1000)
    qtbot.waitUntil(lambda: window.table.current_id() not in (None, paper), timeout=2000)
    settle(controller)
    shown = pane.shown_paper()
    assert shown is not None and shown.id == window.table.current_id()


def test_an_undo_that_finds_its_change_changed_elsewhere_says_nothing_was_left(
    qtbot: QtBot, window: MainWindow, library_location: str
) -> None:
    """A tag added here, renamed elsewhere: Undo has nothing left to take back, and says so
    (the status bar said 'Undid …' while the paper kept the tag)."""
    controller = window.controller
    paper = controller.service.paper_ids()[0]
    controller.tag([paper], ["to read"])
    settle(controller)
    other = LibraryService.open(library_location)
    try:
        other.rename_tag("to read", "reading list")
    finally:
        other.close()
    controller.undo()
    settle(controller)
    assert window.statusBar().currentMessage() == (
        "Nothing left to undo of “Add tag “to read” to 1 paper”: it was changed elsewhere since."
    )
    assert [t.name for t in controller.service.paper(paper).tags] == ["reading list"]
    controller.tag([paper], ["mine"])  # an undo that did what it says, as before
    settle(controller)
    controller.undo()
    settle(controller)
    assert window.statusBar().currentMessage() == "Undid “Add tag “mine” to 1 paper”."
