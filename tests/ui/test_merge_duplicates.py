"""Merging a possible duplicate from its banner in the window: one paper left in the list,
the kept one shown with what it gained, Undo and Redo through the Edit menu."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from refman.core.importing.values import ImportChoices, SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import TrashPapers
from refman.core.paper_merge import MergePapers
from refman.core.values import PaperQuery, Section
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from tests.helpers.fixtures import settle
from tests.helpers.panes import make_window

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(
    "does not support propagateSizeHints", "does not support raise", "does not support grabbing"
)

TITLE = "Placement-Aware Job Scheduling for Training Across Thousands of Chips"


@pytest.fixture
def pair(library: LibraryService) -> tuple[int, int]:
    """A paper and a near-identical record of it kept apart, with a DOI, a tag and a note."""
    first = ParsedRecord(TITLE, False, "Scheduling jobs on a cluster of chips, placed by topology.")
    second = ParsedRecord(
        TITLE.replace("Job", "Jobs"), False, "", year=2024, doi="10.5555/placement"
    )
    page = ParsedPage("Maren Solvik", PageFormat.PUBLICATION_LIST, 2, [first, second])
    result = library.import_pages([SourcedPage(page)], ImportChoices(keep_all_separate=True))
    original, duplicate = result.new_ids
    assert library.paper(duplicate).possible_duplicate_of == original
    library.tag([duplicate], ["schedulers"])
    library.add_note(duplicate, "The camera-ready version.")
    return original, duplicate


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, pair: tuple[int, int], tmp_path: Path
) -> MainWindow:
    """The main window over the library with the pair."""
    return make_window(qtbot, controller, tmp_path / "settings.ini")


def test_merge_on_the_banner_leaves_one_paper_and_undo_brings_the_other_back(
    qtbot: QtBot, window: MainWindow, library: LibraryService, pair: tuple[int, int]
) -> None:
    original, duplicate = pair
    controller = window.controller
    window.activateWindow()
    qtbot.wait_until(window.isActiveWindow)
    window.search_box.setFocus()
    qtbot.keyClicks(window.search_box, "placement")  # the merge happens in a search
    qtbot.wait_until(lambda: window.model.query.text == "placement")
    qtbot.wait_until(lambda: window.model.rowCount() == 2)
    window.table.select_paper(duplicate)
    banner = window.detail_pane.banner
    qtbot.wait_until(lambda: banner.isVisible() and banner.paper_id == duplicate)
    assert banner.merge_button.isVisible() and banner.merge_button.text() == "Merge"

    qtbot.mouseClick(banner.merge_button, Qt.MouseButton.LeftButton)
    settle(controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 1)
    # the kept paper is the one shown, with what the other brought; no banner any more
    qtbot.wait_until(lambda: window.detail_pane.current_paper() == original)
    kept = library.paper(original)
    assert kept.doi == "10.5555/placement" and [t.name for t in kept.tags] == ["schedulers"]
    assert [n.text for n in kept.notes] == ["The camera-ready version."]
    qtbot.wait_until(lambda: not banner.isVisible())
    assert window.table.selected_ids() == [original]
    # the keyboard is the list's (the button went: Qt gave it to the title, to rename)
    assert QApplication.focusWidget() is window.table
    assert window.search_box.text() == "placement"  # the list stays the one searched
    assert library.paper_ids(PaperQuery(section=Section.TRASH)) == [duplicate]
    assert window.undo_action.text().replace("&", "") == "Undo Merge papers"

    window.undo_action.trigger()
    settle(controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 2)
    qtbot.wait_until(lambda: window.table.selected_ids() == [duplicate])  # back, and selected
    assert library.paper(duplicate).notes[0].text == "The camera-ready version."
    assert library.paper(original).doi is None and library.paper(original).tags == ()
    assert library.paper(duplicate).possible_duplicate_of == original

    window.redo_action.trigger()
    settle(controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 1)
    assert library.paper(original).doi == "10.5555/placement"


def test_merge_two_papers_from_the_menu_keeps_the_one_added_first(
    qtbot: QtBot, window: MainWindow, library: LibraryService, pair: tuple[int, int]
) -> None:
    original, _ = pair
    controller = window.controller
    action = window.actions_by_id[ActionId.MERGE_PAPERS]
    table = window.table
    qtbot.wait_until(lambda: window.model.rowCount() == 2)
    first = table.visualRect(window.model.index(0, 0)).center()
    second = table.visualRect(window.model.index(1, 0)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=first)
    assert not action.isEnabled()  # one paper is not two
    qtbot.mouseClick(
        table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, second
    )
    assert action.isEnabled()
    action.trigger()
    settle(controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 1)
    assert library.paper_ids() == [original]
    assert library.paper(original).doi == "10.5555/placement"
    qtbot.wait_until(lambda: table.selected_ids() == [original])
    controller.apply(TrashPapers((original,)))
    settle(controller)
    window.tag_pane.select_section(Section.TRASH)
    qtbot.wait_until(lambda: window.model.rowCount() == 2)
    table.selectAll()
    assert len(table.selected_ids()) == 2
    assert not action.isEnabled()  # nothing is merged in the Trash


@pytest.fixture
def third(library: LibraryService, pair: tuple[int, int]) -> int:
    """A third record of the paper, typed in by hand, with a tag of its own."""
    record = ParsedRecord(
        TITLE.replace("Across", "on"), False, "", year=2024, venue="OSDI", pages="1-15"
    )
    page = ParsedPage("Tomas Berg", PageFormat.PUBLICATION_LIST, 1, [record])
    (paper_id,) = library.import_pages(
        [SourcedPage(page)], ImportChoices(keep_all_separate=True)
    ).new_ids
    library.tag([paper_id], ["to cite"])
    return paper_id


def test_merge_papers_merges_three_selected_once_confirmed_and_one_undo_takes_it_back(
    qtbot: QtBot,
    third: int,
    window: MainWindow,
    library: LibraryService,
    pair: tuple[int, int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original, duplicate = pair
    controller, table = window.controller, window.table
    action = window.actions_by_id[ActionId.MERGE_PAPERS]
    qtbot.wait_until(lambda: window.model.rowCount() == 3)
    asked: list[str] = []

    def answer(reply: QMessageBox.StandardButton) -> None:
        def question(_parent: object, _title: str, text: str) -> QMessageBox.StandardButton:
            asked.append(text)
            return reply

        monkeypatch.setattr(QMessageBox, "question", question)

    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert len(table.selected_ids()) == 3 and action.isEnabled()
    answer(QMessageBox.StandardButton.No)
    action.trigger()
    settle(controller)
    assert "Merge the 3 selected papers into one?" in asked[0]
    assert sorted(library.paper_ids()) == [original, duplicate, third]  # not confirmed
    answer(QMessageBox.StandardButton.Yes)
    action.trigger()
    settle(controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 1)
    assert library.paper_ids() == [original]
    kept = library.paper(original)
    assert kept.doi == "10.5555/placement" and kept.pages == "1-15"
    assert sorted(t.name for t in kept.tags) == ["schedulers", "to cite"]
    qtbot.wait_until(lambda: table.selected_ids() == [original])
    assert window.undo_action.text() == "&Undo Merge papers"
    window.undo_action.trigger()
    settle(controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 3)
    assert sorted(library.paper_ids()) == [original, duplicate, third]
    assert [t.name for t in library.paper(third).tags] == ["to cite"]
    qtbot.wait_until(lambda: sorted(table.selected_ids()) == [duplicate, third])


@pytest.mark.logs_warnings("refman.ui")
def test_a_library_that_can_only_be_read_keeps_merge_and_marks_disabled_whatever_is_selected(
    qtbot: QtBot, window: MainWindow, library: LibraryService, shown_errors: list[str]
) -> None:
    """Selecting papers enables the actions that follow the selection, but never one that
    changes a library that can only be read; the Delete key does nothing either."""
    window.safety._read_only("This library can only be read: a test.")
    qtbot.wait_until(lambda: window.model.rowCount() == 2)
    window.table.selectAll()
    assert len(window.table.selected_ids()) == 2
    changing = (ActionId.MERGE_PAPERS, ActionId.DELETE, ActionId.MARK_READ, ActionId.ATTACH_FILE)
    for action_id in changing:
        action = window.actions_by_id[action_id]
        assert not action.isEnabled(), action_id
        assert action.toolTip() == "This library can only be read: a test."
    assert window.actions_by_id[ActionId.COPY_CITATION].isEnabled()  # reading still works
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Delete)
    qtbot.keyClick(window.table, Qt.Key.Key_Backspace)
    settle(window.controller)
    assert shown_errors == [] and len(library.paper_ids()) == 2


def test_the_merged_paper_in_the_trash_says_where_it_went_and_shows_it(
    qtbot: QtBot, window: MainWindow, library: LibraryService, pair: tuple[int, int]
) -> None:
    original, duplicate = pair
    controller = window.controller
    controller.apply(MergePapers(original, duplicate))
    settle(controller)
    window.tag_pane.select_section(Section.TRASH)
    qtbot.wait_until(lambda: window.model.rowCount() == 1 and window.model.paper_id(0) is not None)
    settle(controller)
    row = window.table.visualRect(window.model.index(0, 0)).center()
    qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=row)
    banner = window.detail_pane.banner
    qtbot.wait_until(lambda: banner.isVisible() and banner.paper_id == duplicate)
    assert banner.text.text().startswith(f"Merged into “{TITLE}”. In the Trash since ")
    assert banner.show_button.isVisible()
    assert not banner.merge_button.isVisible() and not banner.not_duplicate_button.isVisible()
    qtbot.mouseClick(banner.show_button, Qt.MouseButton.LeftButton)
    qtbot.wait_until(lambda: window.detail_pane.current_paper() == original)
    assert library.paper(duplicate).merged_into == original


def test_a_narrow_window_keeps_the_banners_buttons_inside_the_detail_pane(
    qtbot: QtBot, window: MainWindow, pair: tuple[int, int]
) -> None:
    """The banner's three buttons need more width than the pane's narrowest: the pane widens
    (the list gives way) instead of its content running under the scroll bar."""
    _, duplicate = pair
    window.resize(900, 600)
    window.place_panes(window.splitter.width())
    window.table.select_paper(duplicate)
    pane = window.detail_pane
    qtbot.wait_until(lambda: pane.banner.isVisible() and pane.banner.paper_id == duplicate)
    qtbot.wait_until(lambda: pane.width() >= pane.minimumWidth())
    area = pane.scroll_area
    body = area.widget()
    assert body is not None
    qtbot.wait_until(lambda: body.width() <= area.viewport().width())
    button = pane.banner.not_duplicate_button
    right = button.mapTo(area.viewport(), button.rect().topRight()).x()
    assert right < area.viewport().width()


def test_the_merged_paper_restored_from_the_trash_comes_back_with_its_note(
    qtbot: QtBot, window: MainWindow, library: LibraryService, pair: tuple[int, int]
) -> None:
    """Restore in the Trash: the merged paper is a paper of its own again, with the note its
    merge had moved to the kept paper; Undo puts it back in the Trash and the note back on the
    kept paper, which the detail pane shows."""
    original, duplicate = pair
    controller, table = window.controller, window.table
    controller.apply(MergePapers(original, duplicate))
    settle(controller)
    window.tag_pane.select_section(Section.TRASH)
    qtbot.wait_until(lambda: window.model.rowCount() == 1 and window.model.paper_id(0) is not None)
    settle(controller)
    row = table.visualRect(window.model.index(0, 0)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=row)
    restore = window.actions_by_id[ActionId.RESTORE]
    qtbot.wait_until(restore.isEnabled)
    restore.trigger()
    settle(controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 0)
    assert window.statusBar().currentMessage() == "Restored 1 paper from the Trash."

    window.tag_pane.select_section(Section.ALL)
    qtbot.wait_until(lambda: window.model.rowCount() == 2)
    notes = window.detail_pane.notes

    def shown(paper_id: int) -> list[str] | None:
        if notes.paper_id != paper_id:
            return None
        return [card.text() for card in notes.cards.values()]

    table.select_paper(duplicate)
    qtbot.wait_until(lambda: shown(duplicate) == ["The camera-ready version."])
    table.select_paper(original)
    qtbot.wait_until(lambda: shown(original) == [])
    assert notes.empty.isVisibleTo(notes)

    assert window.undo_action.text().replace("&", "") == "Undo Restore 1 paper"
    window.undo_action.trigger()
    settle(controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 1)
    qtbot.wait_until(lambda: shown(original) == ["The camera-ready version."])
    assert library.paper(duplicate).trashed is not None and library.paper(duplicate).notes == ()
