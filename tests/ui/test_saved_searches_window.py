"""Saved searches and the All / Any tag switch in the window: Edit ▸ Save Search… keeps what
the list shows, the sidebar lists it with its count, a click shows its papers (the search
field narrows them further), its menu edits and deletes it, Undo brings it back."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from refman.core.operations import Outcome
from refman.core.saved_searches import SaveSearch
from refman.core.values import NoteView
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import THREE_PAPERS as RECORDS
from tests.helpers.pages import publication_page
from tests.helpers.panes import make_window

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.settings import Place, WindowSettings
from refman.ui.sidebar import COUNT_ROLE

pytestmark = pytest.mark.qt_log_ignore(
    "does not support propagateSizeHints", "does not support raise", "grabbing the keyboard"
)


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> MainWindow:
    library.import_pages([sourced(publication_page("Zhuo Jiang", RECORDS))])
    by_title = {d.title: d.id for d in library.details(library.paper_ids())}
    library.tag([by_title[RECORDS[0][0]]], ["to read"])
    library.tag([by_title[RECORDS[1][0]]], ["systems"])
    return make_window(qtbot, controller, tmp_path / "settings.ini")


def _titles(window: MainWindow) -> set[str]:
    model = window.model
    return {model.index(r, 0).data() for r in range(model.rowCount())}


def _nav_item(window: MainWindow, text: str) -> object:
    nav = window.tag_pane.nav_list
    return next(nav.item(r) for r in range(nav.count()) if nav.item(r).text() == text)


def _click(qtbot: QtBot, window: MainWindow, text: str) -> None:
    nav = window.tag_pane.nav_list
    centre = nav.visualItemRect(_nav_item(window, text)).center()  # type: ignore[arg-type]
    qtbot.mouseClick(nav.viewport(), Qt.MouseButton.LeftButton, pos=centre)


def test_a_search_is_saved_listed_shown_edited_deleted_and_undone(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    qtbot.keyClicks(window.search_box, "year:2024..")
    window.actions_by_id[ActionId.SAVE_SEARCH].trigger()
    dialog = window.saved.dialog
    assert dialog is not None and dialog.search.text() == "year:2024.."
    qtbot.keyClicks(dialog.name, "Recent work")
    qtbot.mouseClick(
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Save),  # type: ignore[union-attr]
        Qt.MouseButton.LeftButton,
    )
    settle(controller)
    assert [(v.name, v.text, v.count) for v in library.saved_searches()] == [
        ("Recent work", "year:2024..", 2)
    ]
    qtbot.waitUntil(lambda: any(v.name == "Recent work" for v in window.tag_pane.saved_searches()))
    assert _nav_item(window, "Recent work").data(COUNT_ROLE) == 2  # type: ignore[attr-defined]

    window.search_box.clear()
    settle(controller)
    _click(qtbot, window, "Recent work")
    settle(controller)
    qtbot.waitUntil(lambda: len(_titles(window)) == 2)
    qtbot.keyClicks(window.search_box, "checkpoint")  # narrows the saved search
    settle(controller)
    qtbot.waitUntil(lambda: _titles(window) == {"Overlapped checkpoint writes"})

    (view,) = window.tag_pane.saved_searches()
    window.saved.edit(view)
    edit = window.saved.dialog
    assert edit is not None
    edit.search.setText("year:2025")
    edit.accept()
    settle(controller)
    assert library.saved_search("Recent work").text == "year:2025"

    menu = window.saved.menu_for(window.tag_pane.saved_searches()[0])
    next(a for a in menu.actions() if a.text().startswith("&Delete")).trigger()
    settle(controller)
    assert library.saved_searches() == []
    window.undo_action.trigger()
    settle(controller)
    assert [v.name for v in library.saved_searches()] == ["Recent work"]


def test_several_tags_match_all_or_any(
    qtbot: QtBot, window: MainWindow, controller: LibraryController
) -> None:
    pane = window.tag_pane
    for name, modifier in (
        ("to read", Qt.KeyboardModifier.NoModifier),
        ("systems", Qt.KeyboardModifier.ControlModifier),
    ):
        item = pane.tag_list.find_row("tag", name)
        assert item is not None
        centre = pane.tag_list.visualItemRect(item).center()
        qtbot.mouseClick(pane.tag_list.viewport(), Qt.MouseButton.LeftButton, modifier, centre)
    settle(controller)
    qtbot.waitUntil(lambda: window.model.rowCount() == 0)  # no paper carries both
    assert pane.match_button.isVisible() and pane.match_button.text() == "Match all"
    qtbot.mouseClick(pane.match_button, Qt.MouseButton.LeftButton)
    assert pane.match_button.text() == "Match any"
    settle(controller)
    qtbot.waitUntil(
        lambda: (
            _titles(window)
            == {"Rebalancing pipelines around stragglers", "Overlapped checkpoint writes"}
        )
    )


def test_a_change_that_moves_a_saved_searchs_count_keeps_its_list_and_selection(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    """Moving a paper out of a saved search changes its count only: the list is not shown
    afresh (which lost the selection the change made, and left the detail pane on the paper
    that went)."""
    controller.apply(SaveSearch("Everything 2024", "year:2024.."))
    settle(controller)
    qtbot.waitUntil(lambda: bool(window.tag_pane.saved_searches()))
    _click(qtbot, window, "Everything 2024")
    settle(controller)
    qtbot.waitUntil(lambda: len(_titles(window)) == 2)
    first = window.model.paper_id(0)
    assert first is not None and window.table.select_paper(first)
    qtbot.waitUntil(lambda: window.detail_pane.current_paper() == first)
    with qtbot.assertNotEmitted(window.tag_pane.filter_changed, wait=300):
        window.actions_by_id[ActionId.DELETE].trigger()
        settle(controller)
        qtbot.waitUntil(lambda: _nav_item(window, "Everything 2024").data(COUNT_ROLE) == 1)  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: len(_titles(window)) == 1)
    remaining = window.model.paper_id(0)
    qtbot.waitUntil(lambda: window.table.selected_ids() == [remaining])
    assert window.detail_pane.current_paper() == remaining


def test_a_saved_search_picked_follows_its_tag_renamed(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    controller.apply(SaveSearch("Queue", "", ("to read",)))
    settle(controller)
    qtbot.waitUntil(lambda: bool(window.tag_pane.saved_searches()))
    _click(qtbot, window, "Queue")
    settle(controller)
    qtbot.waitUntil(lambda: _titles(window) == {"Rebalancing pipelines around stragglers"})
    controller.rename_tag("to read", "reading list")
    settle(controller)
    qtbot.waitUntil(lambda: window.tag_pane.saved_searches()[0].tags == ("reading list",))
    picked = window.tag_pane.current_filter().saved
    assert picked is not None and picked.tags == ("reading list",)
    assert _nav_item(window, "Queue").data(COUNT_ROLE) == 1  # type: ignore[attr-defined]
    qtbot.wait(50)
    settle(controller)
    assert _titles(window) == {"Rebalancing pipelines around stragglers"}
    window.undo_action.trigger()
    settle(controller)
    assert library.saved_search("Queue").tags == ("to read",)
    qtbot.waitUntil(lambda: window.tag_pane.saved_searches()[0].tags == ("to read",))
    assert _titles(window) == {"Rebalancing pipelines around stragglers"}


def test_a_saved_search_lists_the_papers_its_count_counts_where_tags_differ_by_accents(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    """The tags "Ökonomie" and "Okonomie" are two tags: a saved search of one lists the
    papers its sidebar count counts (its tags ran as ``tag:`` terms, which find both)."""
    by_title = {d.title: d.id for d in library.details(library.paper_ids())}
    library.tag([by_title[RECORDS[0][0]]], ["Ökonomie"])
    library.tag([by_title[RECORDS[2][0]]], ["Okonomie"])
    controller.apply(SaveSearch("Economics", "", ("Ökonomie",)))
    settle(controller)
    qtbot.waitUntil(lambda: bool(window.tag_pane.saved_searches()))
    _click(qtbot, window, "Economics")
    settle(controller)
    qtbot.waitUntil(lambda: _nav_item(window, "Economics").data(COUNT_ROLE) == 1)  # type: ignore[attr-defined]
    qtbot.wait(50)
    settle(controller)
    assert _titles(window) == {RECORDS[0][0]}
    qtbot.waitUntil(lambda: window.count_label.text().startswith("1 of "))


def test_an_empty_saved_search_says_why_in_the_list(
    qtbot: QtBot, window: MainWindow, controller: LibraryController
) -> None:
    """The list of a saved search that finds nothing names the saved search (not the search
    line it stands for, which is not in the search field), and a tag of it deleted since."""
    controller.apply(SaveSearch("Systems", "", ("systems",)))
    settle(controller)
    qtbot.waitUntil(lambda: bool(window.tag_pane.saved_searches()))
    _click(qtbot, window, "Systems")
    settle(controller)
    qtbot.waitUntil(lambda: len(_titles(window)) == 1)
    note = window.paper_panel.empty_note.label
    qtbot.keyClicks(window.search_box, "zzzz")
    settle(controller)
    qtbot.waitUntil(lambda: note.isVisible())
    assert note.text() == (
        "No paper of the saved search “Systems” matches “zzzz”. Check the spelling, or clear "
        "the search (Esc)."
    )
    window.search_box.clear()
    controller.delete_tag("systems")
    settle(controller)
    gone = (
        "The saved search “Systems” finds no paper: its tag “systems” is no longer in the "
        "library. Right-click it to change it."
    )
    qtbot.waitUntil(lambda: note.isVisible() and note.text() == gone)
    assert "no longer in the library" in _nav_item(window, "Systems").toolTip()  # type: ignore[attr-defined]


def test_a_note_written_counts_in_the_saved_searches_finding_its_words(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    controller.apply(SaveSearch("To do", "note:todo", ()))
    settle(controller)
    qtbot.waitUntil(lambda: bool(window.tag_pane.saved_searches()))
    _click(qtbot, window, "To do")
    settle(controller)
    assert _nav_item(window, "To do").data(COUNT_ROLE) == 0  # type: ignore[attr-defined]
    first = library.paper_ids()[0]
    made: list[Outcome[NoteView]] = []
    controller.add_note(first, made.append)
    settle(controller)
    qtbot.waitUntil(lambda: bool(made))
    controller.edit_note(made[0].value.id, "TODO: compare with ours")
    settle(controller)
    qtbot.waitUntil(lambda: _nav_item(window, "To do").data(COUNT_ROLE) == 1)  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: window.model.rowCount() == 1)
    assert window.model.paper_id(0) == first


def test_save_search_refuses_a_tag_the_library_does_not_hold_and_comes_back(
    qtbot: QtBot,
    window: MainWindow,
    controller: LibraryController,
    library: LibraryService,
    shown_errors: list[str],
) -> None:
    """As ``refman save-search`` does: a mistyped tag would find nothing, ever. The dialog
    comes back with what was typed, to mend it."""
    window.actions_by_id[ActionId.SAVE_SEARCH].trigger()
    dialog = window.saved.dialog
    assert dialog is not None
    qtbot.keyClicks(dialog.name, "Queue")
    qtbot.keyClicks(dialog.tags, "to raed")
    dialog.accept()
    settle(controller)
    assert shown_errors == ["There is no tag “to raed”. Tags like it: to read."]
    assert library.saved_searches() == []
    qtbot.waitUntil(dialog.isVisible)
    assert (dialog.name.text(), dialog.tags.text()) == ("Queue", "to raed")
    dialog.tags.setText("zebra")  # no tag like it: the window names its own pane
    dialog.accept()
    settle(controller)
    assert shown_errors[1:] == [
        "There is no tag “zebra”. The tag pane on the left lists the library's tags."
    ]
    qtbot.waitUntil(dialog.isVisible)
    dialog.tags.setText("to read")
    dialog.accept()
    settle(controller)
    assert [(v.name, v.tags, v.count) for v in library.saved_searches()] == [
        ("Queue", ("to read",), 1)
    ]


def test_save_search_on_a_saved_search_keeps_its_tags_as_tags(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    """A search saved from a saved search picked (and narrowed by what is typed) keeps its
    tags among the tags picked, not as ``tag:`` terms, which find the tag "Okonomie" for
    "Ökonomie" too."""
    library.tag(library.paper_ids()[:1], ["Ökonomie"])
    controller.apply(SaveSearch("Economics", "year:2024..", ("Ökonomie",)))
    settle(controller)
    qtbot.waitUntil(lambda: bool(window.tag_pane.saved_searches()))
    _click(qtbot, window, "Economics")
    qtbot.keyClicks(window.search_box, "checkpoint")
    settle(controller)
    window.actions_by_id[ActionId.SAVE_SEARCH].trigger()
    dialog = window.saved.dialog
    assert dialog is not None
    assert (dialog.search.text(), dialog.tags.text()) == ("year:2024.. checkpoint", "Ökonomie")


def test_the_next_session_shows_the_saved_search_shown_when_the_window_closed(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    """The window opened on All papers, every paper listed, whatever saved search it showed."""
    settings = window.settings.path
    controller.apply(SaveSearch("Reading list", "", ("to read",)))
    settle(controller)
    qtbot.wait_until(lambda: bool(window.tag_pane.saved_searches()))
    _click(qtbot, window, "Reading list")
    qtbot.wait_until(lambda: window.model.rowCount() == 1)
    picked = window.model.index(0, 0).data()
    window.table.select_paper(library.paper_ids(window.current_query())[0])
    window.close()
    settle(controller)

    def session() -> tuple[MainWindow, LibraryController]:
        again = LibraryController(library)
        return make_window(qtbot, again, settings), again

    again, second = session()
    try:
        qtbot.wait_until(lambda: _titles(again) == {picked})
        assert again.tag_pane.current_filter().saved is not None
        assert again.tag_pane.nav_list.currentItem().text() == "Reading list"
        qtbot.wait_until(lambda: again.table.current_id() is not None)
        again.close()
        settle(second)
    finally:
        second.runner.shutdown()
    # Deleted since: All papers, as for a tag or a person gone.
    library.delete_saved_search(library.saved_searches()[0].id)
    third, last = session()
    try:
        settle(last)
        qtbot.wait_until(lambda: len(_titles(third)) == len(RECORDS))
        assert third.tag_pane.current_filter().saved is None
        third.close()
        settle(last)
    finally:
        last.runner.shutdown()


def test_a_place_an_older_refman_kept_without_a_saved_search_is_read(tmp_path: Path) -> None:
    kept = Place.from_json('["unread", null, ["to read"], 12]')
    assert kept == Place("unread", None, ("to read",), 12, None)
    assert Place.from_json(Place("all", None, (), 3, 7).to_json()).saved == 7
    # An older refman kept one place, of the library open last: it is that library's.
    older = QSettings(str(tmp_path / "older.ini"), QSettings.Format.IniFormat)
    older.setValue("list/place", '["unread", null, ["to read"], 12]')
    older.setValue("library/last", str(tmp_path / "lib.sqlite"))
    older.sync()
    settings = WindowSettings(tmp_path / "older.ini")
    assert settings.place(str(tmp_path / "lib.sqlite")) == kept
    assert settings.place(str(tmp_path / "other.sqlite")) == Place()
    # Its one sort too: the sort of the library open last, no other's.
    older.setValue("list/sort", "year")
    older.sync()
    settings = WindowSettings(tmp_path / "older.ini")
    assert (settings.place(str(tmp_path / "lib.sqlite")).sort, kept.sort) == ("year", "")
    assert settings.place(str(tmp_path / "other.sqlite")) == Place()
    assert Place.from_json(Place(sort="title", descending=True).to_json()).descending
