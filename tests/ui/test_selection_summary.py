"""Several papers selected: the detail pane says how many and its controls act on all of
them (not on the one paper whose details it showed), as Zotero shows "4 items selected"."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from refman.core.values import PaperQuery, Section
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import THREE_PAPERS as RECORDS
from tests.helpers.pages import publication_page
from tests.helpers.panes import make_window

from refman.ui import selection_summary
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(
    "does not support propagateSizeHints", "does not support raise", "grabbing the keyboard"
)


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> MainWindow:
    library.import_pages([sourced(publication_page("Zhuo Jiang", RECORDS))])
    made = make_window(qtbot, controller, tmp_path / "settings.ini")
    qtbot.wait_until(lambda: made.model.rowCount() == 3)
    return made


def _click_row(qtbot: QtBot, window: MainWindow, row: int, *, add: bool = False) -> None:
    table = window.table
    centre = table.visualRect(window.model.index(row, 0)).center()
    modifier = Qt.KeyboardModifier.ControlModifier if add else Qt.KeyboardModifier.NoModifier
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, modifier, centre)


def _summary_shown(window: MainWindow) -> bool:
    return window.detail_pane.stack.currentWidget() is window.selection.summary


def test_several_selected_papers_are_tagged_and_marked_from_the_pane_all_at_once(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    pane = window.detail_pane
    _click_row(qtbot, window, 0)
    qtbot.wait_until(lambda: pane.shown_paper() is not None)
    assert not _summary_shown(window)  # one paper: its details
    _click_row(qtbot, window, 1, add=True)
    _click_row(qtbot, window, 2, add=True)
    qtbot.wait_until(lambda: _summary_shown(window))
    heading = pane.findChild(QLabel, "selectionHeading")
    assert heading is not None and heading.text() == "3 papers selected"
    settle(window.controller)  # (the current paper's details read meanwhile stay beneath)
    assert _summary_shown(window)

    field = window.selection.summary.tags.field
    qtbot.mouseClick(field, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(field, "reading group")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    settle(window.controller)
    ids = library.paper_ids()
    assert all([t.name for t in library.paper(i).tags] == ["reading group"] for i in ids)
    assert field.text() == ""
    read = next(b for b in window.selection.summary.findChildren(QPushButton) if b.text() == "Read")
    qtbot.mouseClick(read, Qt.MouseButton.LeftButton)
    settle(window.controller)
    assert {library.paper(i).status for i in ids} == {"read"}
    window.undo_action.trigger()
    settle(window.controller)
    assert {library.paper(i).status for i in ids} == {"unread"}  # one step for all three

    _click_row(qtbot, window, 1)  # one paper again: its details
    qtbot.wait_until(lambda: not _summary_shown(window))
    qtbot.wait_until(lambda: pane.current_paper() == window.model.paper_id(1))
    assert pane.title_edit.isVisible()


@pytest.mark.logs_warnings("refman.ui")
def test_the_summary_trashes_the_selection_and_is_locked_with_a_library_that_is_read_only(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    window.table.selectAll()
    qtbot.wait_until(lambda: _summary_shown(window))
    trash = window.selection.summary.findChild(QPushButton, "selectionMoveButton")
    assert trash is not None and trash.isEnabled()
    qtbot.mouseClick(trash, Qt.MouseButton.LeftButton)
    settle(window.controller)
    assert library.paper_ids() == []
    qtbot.wait_until(lambda: not _summary_shown(window))  # nothing selected any more
    window.undo_action.trigger()
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 3)
    window.table.selectAll()
    qtbot.wait_until(lambda: _summary_shown(window))
    window.safety._read_only("This library can only be read: a test.")
    assert not trash.isEnabled()
    assert trash.toolTip() == "This library can only be read: a test."
    assert window.selection.summary.tags.field.isReadOnly()
    assert len(library.paper_ids()) == 3


def test_the_pane_follows_the_selection_not_the_row_a_ctrl_click_took_out(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    pane = window.detail_pane
    first, second = window.model.paper_id(0), window.model.paper_id(1)
    _click_row(qtbot, window, 0)
    _click_row(qtbot, window, 1, add=True)
    qtbot.wait_until(lambda: _summary_shown(window))
    _click_row(qtbot, window, 1, add=True)  # takes the second out: the first alone is selected
    assert window.table.selected_ids() == [first] and window.table.current_id() == second
    qtbot.wait_until(lambda: pane.current_paper() == first and not _summary_shown(window))
    qtbot.wait_until(lambda: pane.shown_paper() is not None and pane.shown_paper().id == first)  # type: ignore[union-attr]
    _click_row(qtbot, window, 0, add=True)  # nothing selected: nothing to act on
    assert window.table.selected_ids() == []
    qtbot.wait_until(lambda: pane.stack.currentWidget() is pane.empty)
    _click_row(qtbot, window, 1)
    qtbot.wait_until(lambda: pane.stack.currentWidget() is pane.scroll_area)
    qtbot.wait_until(lambda: pane.current_paper() == second)


def test_tab_leaves_the_list_with_its_selection_and_the_keyboard_comes_back_to_it(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    window.activateWindow()
    qtbot.wait_until(window.isActiveWindow)
    window.table.setFocus()
    window.table.selectAll()
    qtbot.wait_until(lambda: _summary_shown(window))
    qtbot.keyClick(window.table, Qt.Key.Key_Tab)
    assert len(window.table.selected_ids()) == 3  # Tab moved the focus, not the selection
    field = window.selection.summary.tags.field
    field.setFocus()
    qtbot.wait_until(field.hasFocus)
    first = window.model.paper_id(0)
    assert first is not None
    window.table.select_paper(first)  # one paper: the summary goes, with the keyboard in it
    qtbot.wait_until(lambda: not _summary_shown(window))
    assert QApplication.focusWidget() is window.table


def test_undoing_a_tagging_that_took_papers_out_of_the_list_brings_them_back_selected(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    window.tag_pane.select_section(Section.UNTAGGED)
    settle(window.controller)
    _click_row(qtbot, window, 0)
    _click_row(qtbot, window, 2, add=True)
    qtbot.wait_until(lambda: _summary_shown(window))
    chosen = {p for p in (window.model.paper_id(0), window.model.paper_id(2)) if p is not None}
    assert len(chosen) == 2
    field = window.selection.summary.tags.field
    qtbot.mouseClick(field, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(field, "to read")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    settle(window.controller)
    assert window.model.rowCount() == 1  # tagged: no longer Untagged
    assert {p for p in chosen if [t.name for t in library.paper(p).tags] == ["to read"]} == chosen

    window.undo_action.trigger()
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 3)
    qtbot.wait_until(lambda: set(window.table.selected_ids()) == chosen)
    assert not any(library.paper(p).tags for p in chosen)
    assert _summary_shown(window)  # the two papers, as they were before


def test_an_undo_that_takes_the_papers_shown_out_of_the_list_leaves_no_paper_beside_it(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    """In the Trash, Restore, Undo (the papers back, selected) and Undo again (out of the
    Trash): the Trash is empty and so is the detail pane; it went on showing the paper that
    had been current, which the list no longer held."""
    _click_row(qtbot, window, 0)
    _click_row(qtbot, window, 1, add=True)
    qtbot.wait_until(lambda: _summary_shown(window))
    window.table.trash_selected()
    settle(window.controller)
    window.tag_pane.select_section(Section.TRASH)
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 2)
    window.table.selectAll()
    qtbot.wait_until(lambda: _summary_shown(window))
    window.selection.summary.findChild(QPushButton, "selectionRestoreButton").click()  # type: ignore[union-attr]
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 0)
    window.undo_action.trigger()  # back in the Trash, selected
    settle(window.controller)
    qtbot.wait_until(lambda: len(window.table.selected_ids()) == 2)
    window.undo_action.trigger()  # out of the Trash
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 0)
    assert library.paper_ids(PaperQuery(section=Section.TRASH)) == []
    qtbot.wait_until(lambda: window.detail_pane.current_paper() is None)
    assert window.detail_pane.stack.currentWidget() is not window.detail_pane.scroll_area


def test_the_tags_of_several_papers_are_shown_and_a_chips_x_takes_one_off_them_all(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    """The summary shows the tags the selected papers carry (how many of them, when not
    all); a chip's × takes its tag off every selected paper, one step for Ctrl+Z."""
    ids = [p for p in (window.model.paper_id(r) for r in range(3)) if p is not None]
    library.tag(ids, ["ml"])
    library.tag(ids[:1], ["to read"])
    library.tag(ids[2:], ["other"])  # not selected
    _click_row(qtbot, window, 0)
    _click_row(qtbot, window, 1, add=True)
    qtbot.wait_until(lambda: _summary_shown(window))
    chips = window.selection.summary.tags
    qtbot.wait_until(lambda: chips.chip_texts() == ["ml", "to read (1 of 2)"])
    remove = chips.remove_button("ml")
    assert remove is not None
    assert remove.toolTip() == "Remove the tag “ml” from the selected papers"
    qtbot.mouseClick(remove, Qt.MouseButton.LeftButton)
    settle(window.controller)
    assert [[t.name for t in library.paper(p).tags] for p in ids] == [
        ["to read"],
        [],
        ["ml", "other"],
    ]
    qtbot.wait_until(lambda: chips.chip_texts() == ["to read (1 of 2)"])
    assert window.undo_action.text() == "&Undo Remove tag “ml” from 2 papers"
    window.undo_action.trigger()
    settle(window.controller)
    assert all("ml" in [t.name for t in library.paper(p).tags] for p in ids)
    qtbot.wait_until(lambda: chips.chip_texts() == ["ml", "to read (1 of 2)"])


def test_the_tags_of_a_selection_too_large_to_read_are_not_shown(
    qtbot: QtBot, window: MainWindow, library: LibraryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past :data:`TAGS_SHOWN_UP_TO` papers their ids are not read to show their tags (a
    Ctrl+A of a million papers); Add tag to all… still works."""
    monkeypatch.setattr(selection_summary, "TAGS_SHOWN_UP_TO", 2)
    library.tag(library.paper_ids(), ["ml"])
    _click_row(qtbot, window, 0)
    _click_row(qtbot, window, 1, add=True)
    chips = window.selection.summary.tags
    qtbot.wait_until(lambda: chips.chip_texts() == ["ml"])
    _click_row(qtbot, window, 2, add=True)
    qtbot.wait_until(lambda: chips.chip_texts() == [])
    settle(window.controller)
    assert chips.chip_texts() == []


def test_papers_selected_in_the_trash_can_be_deleted_permanently_from_the_summary(
    qtbot: QtBot, window: MainWindow, library: LibraryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The summary of several papers in the Trash offers Delete Permanently… as the Edit
    menu does (asked first); outside the Trash the button is not there."""
    from PySide6.QtWidgets import QMessageBox

    summary = window.selection.summary
    delete = summary.findChild(QPushButton, "selectionDeleteButton")
    assert delete is not None
    window.table.selectAll()
    qtbot.wait_until(lambda: _summary_shown(window))
    assert delete.isHidden()  # (not in the Trash)
    window.table.trash_selected()
    settle(window.controller)
    window.tag_pane.select_section(Section.TRASH)
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 3)
    chosen = [window.model.paper_id(0), window.model.paper_id(1)]
    _click_row(qtbot, window, 0)
    _click_row(qtbot, window, 1, add=True)
    qtbot.wait_until(lambda: _summary_shown(window))
    qtbot.wait_until(lambda: not delete.isHidden() and delete.isEnabled())
    assert delete.text() == "Delete Permanently…"
    monkeypatch.setattr(QMessageBox, "question", lambda *_args: QMessageBox.StandardButton.Yes)
    delete.click()
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 1)
    assert library.paper_count() == 1
    assert not set(library.paper_ids(PaperQuery(section=Section.TRASH))) & set(chosen)
