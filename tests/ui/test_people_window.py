"""Following people in the window: the "new" badge in the sidebar, a person's page above
the list, the People window (find anyone, show their papers), spellings of one name merged
and told apart with Undo, and the review of a page imported again (new papers first)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QWizard
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import JIANG_PAPERS as PAPERS
from tests.helpers.pages import abstracts_page, publication_page
from tests.helpers.panes import make_window

from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.nav_rows import EVERYONE
from refman.ui.people_dialog import PeopleDialog
from refman.ui.sidebar import BADGE_ROLE, KIND_ROLE
from refman.ui.wizard import ImportWizard
from refman.ui.wizard.review_model import Column

pytestmark = pytest.mark.qt_log_ignore(
    "does not support propagateSizeHints", "does not support raise", "grabbing the keyboard"
)


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> MainWindow:
    """A window over two pages: Z. Jiang's (two papers) and Zhuo Jiang's (one of them)."""
    library.import_pages([sourced(abstracts_page("Z. Jiang", PAPERS))])
    library.import_pages([sourced(abstracts_page("Zhuo Jiang", PAPERS[:1]))])
    return make_window(qtbot, controller, tmp_path / "settings.ini")


def _nav_row(window: MainWindow, text: str) -> int:
    nav = window.tag_pane.nav_list
    return next(r for r in range(nav.count()) if nav.item(r).text() == text)


def _click_nav(qtbot: QtBot, window: MainWindow, text: str) -> None:
    nav = window.tag_pane.nav_list
    centre = nav.visualItemRect(nav.item(_nav_row(window, text))).center()
    qtbot.mouseClick(nav.viewport(), Qt.MouseButton.LeftButton, pos=centre)


def _badge(window: MainWindow, text: str) -> object:
    nav = window.tag_pane.nav_list
    return nav.item(_nav_row(window, text)).data(BADGE_ROLE)


def test_a_person_with_new_papers_has_a_badge_until_their_page_is_shown(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    assert _badge(window, "Z. Jiang") == "2 new"
    assert _badge(window, "Zhuo Jiang") is None  # their paper came with Z. Jiang's page
    _click_nav(qtbot, window, "Z. Jiang")
    settle(controller)
    header = window.people.header
    qtbot.waitUntil(header.isVisible)
    assert header.name.text() == "Z. Jiang"
    assert header.summary.text().startswith("2 papers · 1 page imported, last on ")
    assert "Mira Okafor</a>&nbsp;(2)" in header.coauthors.text()
    assert window.model.rowCount() == 2
    settle(controller)
    qtbot.waitUntil(lambda: _badge(window, "Z. Jiang") is None)
    assert {p.name: p.new for p in library.people()}["Z. Jiang"] == 0
    # All papers again: the page goes
    _click_nav(qtbot, window, "All papers")
    qtbot.waitUntil(lambda: not header.isVisible())


def test_a_coauthor_link_shows_that_persons_page(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    _click_nav(qtbot, window, "Z. Jiang")
    header = window.people.header
    qtbot.waitUntil(lambda: header.page is not None)
    mira = next(c for c in header.page.coauthors if c.name == "Mira Okafor")  # type: ignore[union-attr]
    header.coauthors.linkActivated.emit(f"person:{mira.id}")  # what a click on the link sends
    settle(controller)
    qtbot.waitUntil(lambda: header.name.text() == "Mira Okafor")
    assert window.tag_pane.current_filter().person_id == mira.id
    assert window.model.rowCount() == 2


def _open_people(qtbot: QtBot, window: MainWindow, controller: LibraryController) -> PeopleDialog:
    _click_nav(qtbot, window, EVERYONE)
    dialog = window.people.dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible)
    settle(controller)
    qtbot.waitUntil(lambda: dialog.table.rowCount() > 0)
    return dialog


def _names(dialog: PeopleDialog) -> list[str]:
    return [dialog.table.item(r, 0).text() for r in range(dialog.table.rowCount())]  # type: ignore[union-attr]


def test_the_people_window_finds_anyone_and_shows_their_papers(
    qtbot: QtBot, window: MainWindow, controller: LibraryController
) -> None:
    dialog = _open_people(qtbot, window, controller)
    # "All people…" opens the window and leaves the list as it was
    assert window.tag_pane.current_filter().person_id is None
    assert _names(dialog) == ["Mira Okafor", "Z. Jiang", "Lars Berg", "Zhuo Jiang"]
    assert dialog.count.text() == "4 people"
    qtbot.keyClicks(dialog.filter, "lars")
    settle(controller)
    qtbot.waitUntil(lambda: _names(dialog) == ["Lars Berg"], timeout=3000)
    item = dialog.table.item(0, 0)
    assert item is not None
    rect = dialog.table.visualItemRect(item)
    # a view takes a double-click on the row its press went to
    qtbot.mousePress(dialog.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(dialog.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    settle(controller)
    qtbot.waitUntil(lambda: window.people.header.name.text() == "Lars Berg")
    assert window.model.rowCount() == 1
    # the author is listed in the sidebar while shown
    assert window.tag_pane.nav_list.item(_nav_row(window, "Lars Berg")).data(KIND_ROLE) == "person"


def test_a_name_typed_in_the_people_window_and_enter_shows_that_person(
    qtbot: QtBot, window: MainWindow, controller: LibraryController
) -> None:
    """As in the main window's search: type, Enter (it did nothing: no row was selected),
    or Down to the list."""
    dialog = _open_people(qtbot, window, controller)
    qtbot.keyClicks(dialog.filter, "lars")
    settle(controller)
    qtbot.waitUntil(lambda: _names(dialog) == ["Lars Berg"], timeout=3000)
    qtbot.keyClick(dialog.filter, Qt.Key.Key_Return)
    settle(controller)
    qtbot.waitUntil(lambda: window.people.header.name.text() == "Lars Berg")
    assert window.model.rowCount() == 1
    qtbot.keyClick(dialog.filter, Qt.Key.Key_Down)
    assert dialog.focusWidget() is dialog.table


def test_two_spellings_are_merged_from_the_people_window_and_undone(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    dialog = _open_people(qtbot, window, controller)
    qtbot.waitUntil(lambda: dialog.variant_list.count() == 1)
    assert dialog.variant_list.item(0).text().startswith("“Zhuo Jiang” (1 paper) and “Z. Jiang”")
    qtbot.mouseClick(dialog.merge_button, Qt.MouseButton.LeftButton)
    settle(controller)
    assert [p.name for p in library.people()] == ["Z. Jiang"]
    qtbot.waitUntil(lambda: "Zhuo Jiang" not in _names(dialog))
    qtbot.waitUntil(lambda: dialog.variant_list.count() == 0)
    assert window.undo_action.text() == "&Undo Merge “Zhuo Jiang” into “Z. Jiang”"
    window.undo_action.trigger()
    settle(controller)
    assert sorted(p.name for p in library.people()) == ["Z. Jiang", "Zhuo Jiang"]
    qtbot.waitUntil(lambda: dialog.variant_list.count() == 1)


def test_a_persons_page_offers_other_spellings_and_not_the_same_sticks(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    _click_nav(qtbot, window, "Zhuo Jiang")
    header = window.people.header
    qtbot.waitUntil(lambda: bool(header.findChildren(QPushButton, "notSamePerson")))
    (row,) = [w for w in header.findChildren(QLabel) if w.text().startswith("May be the same")]
    assert "“Z. Jiang” (2 papers, " in row.text()
    (apart,) = header.findChildren(QPushButton, "notSamePerson")
    qtbot.mouseClick(apart, Qt.MouseButton.LeftButton)
    settle(controller)
    assert library.name_variants() == []
    # the Edit menu names the two (it said "Undo Not the same person")
    assert window.undo_action.text() == "&Undo “Z. Jiang” and “Zhuo Jiang”: not the same person"
    qtbot.waitUntil(lambda: not header.findChildren(QPushButton, "notSamePerson"))


def test_merged_from_the_page_of_the_spelling_that_goes_the_kept_ones_page_shows(
    qtbot: QtBot, window: MainWindow, controller: LibraryController
) -> None:
    _click_nav(qtbot, window, "Zhuo Jiang")  # one paper: Z. Jiang (two) keeps the name
    header = window.people.header
    qtbot.waitUntil(lambda: bool(header.findChildren(QPushButton, "samePerson")))
    (same,) = header.findChildren(QPushButton, "samePerson")
    qtbot.mouseClick(same, Qt.MouseButton.LeftButton)
    settle(controller)
    # the list goes on with the person, under the name kept, not back to all papers
    qtbot.waitUntil(lambda: header.isVisible() and header.name.text() == "Z. Jiang")
    assert window.tag_pane.current_filter().person_id == header.person_id
    assert window.model.rowCount() == 2
    assert [i.text() for i in window.tag_pane.nav_list.selectedItems()] == ["Z. Jiang"]


def test_the_review_of_a_page_imported_again_says_what_is_new_and_lists_it_first(
    qtbot: QtBot, controller: LibraryController, library: LibraryService
) -> None:
    old = [("Rebalancing pipelines around stragglers", 2024, "arXiv")]
    library.import_pages([sourced(publication_page("Zhuo Jiang", old))])
    again = [*old, ("Overlapped checkpoint writes", 2025, "arXiv")]
    wizard = ImportWizard(controller)
    qtbot.add_widget(wizard)
    wizard.show()
    wizard.add_text(publication_page("Zhuo Jiang", again))
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), Qt.MouseButton.LeftButton)
    model = wizard.review_page.model
    qtbot.waitUntil(lambda: model.rowCount() == 2, timeout=10_000)
    QApplication.processEvents()
    (since,) = [w.text() for w in wizard.findChildren(QLabel, "sinceLast") if w.isVisibleTo(wizard)]
    assert since.startswith("Since the last import: 1 new paper since ")
    assert since.endswith("; 1 unchanged")
    titles = [model.index(r, Column.TITLE).data() for r in range(2)]
    assert titles == ["Overlapped checkpoint writes", "Rebalancing pipelines around stragglers"]
    wizard.reject()
