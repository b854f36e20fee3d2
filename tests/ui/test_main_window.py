"""The main window as a user meets it: search, filters, trash and undo, notes, settings, drops."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImage, QKeySequence
from PySide6.QtWidgets import QApplication, QLabel, QPlainTextEdit
from pytestqt.qtbot import QtBot

from refman.__main__ import main
from refman.core.importing.values import ImportChoices
from refman.core.library import LibraryService
from refman.core.listing import ListReader
from refman.core.operations import ImportPages, SetDuplicateFlag
from refman.core.rules import FieldEdits
from refman.core.values import PaperQuery, Section, SortKey
from tests.helpers.fixtures import seed_files, settle, sourced, sourced_file
from tests.helpers.pages import generated_page
from tests.helpers.panes import make_window, row_id
from tests.helpers.pdfs import make_pdf

from refman.ui import app as app_module
from refman.ui import window_chrome
from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.paper_columns import ADDED, PAGE, TITLE, YEAR
from refman.ui.settings import WindowSettings


@pytest.fixture
def seeded(library: LibraryService) -> LibraryService:
    """A library with the three seed pages (or our stand-ins) imported."""
    for path in seed_files():
        library.import_pages([sourced_file(path)])
    return library


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, seeded: LibraryService, tmp_path: Path
) -> Iterator[MainWindow]:
    """The main window over the seeded library."""
    yield make_window(qtbot, controller, tmp_path / "settings.ini")


@pytest.fixture
def reopened_controller(seeded: LibraryService, qapp: object) -> Iterator[LibraryController]:
    """A second controller over the same library: the window of the next session."""
    made = LibraryController(seeded)
    yield made
    settle(made)
    made.runner.shutdown()


def titles(window: MainWindow) -> list[str]:
    """The titles the list shows, top to bottom."""
    model = window.model
    return [str(model.index(row, 0).data()) for row in range(model.rowCount())]


def counted_queries(monkeypatch: pytest.MonkeyPatch) -> list[PaperQuery]:
    """The queries the list worker counts from now on, in order."""
    counted: list[PaperQuery] = []
    original = ListReader.count

    def count(reader: ListReader, query: PaperQuery) -> int:
        counted.append(query)
        return original(reader, query)

    monkeypatch.setattr(ListReader, "count", count)
    return counted


def test_typing_in_the_search_field_narrows_the_list_and_the_count(
    qtbot: QtBot, window: MainWindow
) -> None:
    assert window.count_label.text() == "20 of 20 papers"
    qtbot.keyClicks(window.search_box, "megasc")
    settle(window.controller)
    assert all("megascale" in t.lower() for t in titles(window))
    assert len(titles(window)) == window.controller.service.count(PaperQuery(text="megasc"))
    assert window.count_label.text() == f"{window.model.rowCount()} of 20 papers"

    qtbot.keyClick(window.search_box, Qt.Key.Key_Escape)
    assert window.search_box.text() == ""
    qtbot.wait_until(lambda: window.model.rowCount() == 20)
    settle(window.controller)  # the library's total is a read of its own
    assert window.count_label.text() == "20 of 20 papers"


def test_a_search_for_a_tag_the_library_lacks_says_so_in_the_windows_words(
    qtbot: QtBot, window: MainWindow
) -> None:
    """``tag:`` naming no tag is not "No paper matches": the list says there is no such tag,
    with the tags like it, or where the window lists its tags (not ``refman tags``), as
    ``refman list`` refuses it; the count says the search did not run."""
    ids = window.controller.service.paper_ids()
    window.controller.service.tag(ids[:2], ["NeurIPS"])
    note = window.findChild(QLabel, "emptyListNote")
    assert note is not None
    qtbot.keyClicks(window.search_box, "tag:nuerips ")
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 0 and note.isVisible())
    assert note.text() == (
        "The search “tag:nuerips” could not run: There is no tag “nuerips”. Tags like it: NeurIPS."
    )
    assert window.count_label.text() == "Search not run"
    window.search_box.clear()
    qtbot.keyClicks(window.search_box, "tag:zebra")
    settle(window.controller)
    qtbot.wait_until(lambda: "zebra" in note.text())
    assert note.text() == (
        "The search “tag:zebra” could not run: There is no tag “zebra”. "
        "The tag pane on the left lists the library's tags."
    )
    window.search_box.clear()
    qtbot.keyClicks(window.search_box, "tag:neurips")
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 2)


def test_a_search_that_finds_papers_only_in_the_trash_says_so(
    qtbot: QtBot, window: MainWindow
) -> None:
    """A paper moved to the Trash is not lost: the empty list says the Trash holds papers
    the search finds (as ``refman search`` does), counted off the GUI thread."""
    service = window.controller.service
    rows = (row_id(window.model, row) for row in range(window.model.rowCount()))
    # (a title QtTest can type: its key clicks are ASCII only)
    first = next(pid for pid in rows if service.paper(pid).title.isascii())
    title = service.paper(first).title
    window.controller.trash([first])
    settle(window.controller)
    note = window.findChild(QLabel, "emptyListNote")
    assert note is not None
    typed = f'"{title}" '
    qtbot.keyClicks(window.search_box, typed)
    settle(window.controller)
    qtbot.wait_until(lambda: "in the Trash" in note.text())
    assert note.text() == (
        f"No paper matches “{typed.strip()}”. Check the spelling, or clear the search (Esc). "
        "1 paper in the Trash does: pick Trash on the left to see it."
    )


def test_an_empty_list_says_why(qtbot: QtBot, window: MainWindow) -> None:
    note = window.findChild(QLabel, "emptyListNote")
    assert note is not None and not note.isVisible()
    qtbot.keyClicks(window.search_box, "zzqqxx")
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 0 and note.isVisible())
    assert note.text().startswith("No paper matches “zzqqxx”.")
    qtbot.keyClick(window.search_box, Qt.Key.Key_Escape)
    qtbot.wait_until(lambda: window.model.rowCount() == 20)
    assert not note.isVisible()
    window.tag_pane.select_section(Section.TRASH)
    settle(window.controller)
    qtbot.wait_until(lambda: note.isVisible())
    assert note.text() == "The Trash is empty."


def test_typing_counts_only_what_the_search_shows_not_the_whole_library_again(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A million papers take the server 50 ms to count: the library's size is kept while
    only the search changes, and the search's own count waits for its rows."""
    settle(window.controller)
    counted = counted_queries(monkeypatch)
    qtbot.keyClicks(window.search_box, "megasc")
    settle(window.controller)
    assert all(q.text for q in counted)  # the library's 20 papers were not counted again
    assert window.count_label.text() == f"{window.model.rowCount()} of 20 papers"
    window.controller.trash(window.controller.service.paper_ids()[:1])
    settle(window.controller)
    assert window.count_label.text().endswith("of 19 papers")  # a change counts it again


def test_a_list_of_every_paper_is_counted_once_for_itself_and_the_status_bar(
    qtbot: QtBot,
    controller: LibraryController,
    library: LibraryService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A million papers take 100 ms to count: when the list shows the whole library (or the
    whole Trash), the list's count is the library's, not counted a second time."""
    library.import_pages([sourced(generated_page(PAGE + 50))])
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    total = PAGE + 50
    assert window.count_label.text() == f"{total:,} of {total:,} papers"
    counted = counted_queries(monkeypatch)
    window.controller.trash(library.paper_ids()[:3])
    settle(window.controller)
    qtbot.wait_until(lambda: window.count_label.text() == f"{total - 3:,} of {total - 3:,} papers")
    assert [q.section for q in counted] == [Section.ALL]  # the list's count, once

    counted.clear()
    qtbot.keyClicks(window.search_box, "zzznothing")  # a search: the library's total is kept
    settle(window.controller)
    assert window.count_label.text() == f"0 of {total - 3:,} papers"
    assert all(q.text for q in counted)
    window.search_box.clear()
    settle(window.controller)
    assert window.count_label.text() == f"{total - 3:,} of {total - 3:,} papers"


def test_ctrl_f_puts_the_cursor_in_the_search_field(qtbot: QtBot, window: MainWindow) -> None:
    window.table.setFocus()
    window.actions_by_id[ActionId.FIND].trigger()
    assert QApplication.focusWidget() is window.search_box
    assert (
        QKeySequence(QKeySequence.StandardKey.Find)
        in window.actions_by_id[ActionId.FIND].shortcuts()
    )


def test_a_tag_click_filters_and_ctrl_click_intersects(
    qtbot: QtBot, window: MainWindow, seeded: LibraryService
) -> None:
    ids = seeded.paper_ids()
    window.controller.tag(ids[:6], ["systems"])
    window.controller.tag(ids[3:9], ["llm"])
    settle(window.controller)
    pane = window.tag_pane

    def click(name: str, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        item = pane.tag_list.find_row("tag", name)
        assert item is not None
        centre = pane.tag_list.visualItemRect(item).center()
        qtbot.mouseClick(pane.tag_list.viewport(), Qt.MouseButton.LeftButton, modifier, centre)

    click("systems")
    qtbot.wait_until(lambda: window.model.rowCount() == 6)
    assert window.count_label.text() == "6 of 20 papers"
    click("llm", Qt.KeyboardModifier.ControlModifier)
    qtbot.wait_until(lambda: window.model.rowCount() == 3)
    shown = {row_id(window.model, r) for r in range(3)}
    assert shown == set(ids[3:6])
    qtbot.mouseClick(pane.clear_button, Qt.MouseButton.LeftButton)
    qtbot.wait_until(lambda: window.model.rowCount() == 20)


def test_delete_moves_the_selection_to_trash_and_undo_brings_it_back(
    qtbot: QtBot, window: MainWindow, seeded: LibraryService
) -> None:
    first = row_id(window.model, 0)
    window.table.select_paper(first)
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Delete)
    qtbot.wait_until(lambda: window.model.rowCount() == 19)
    assert first not in {row_id(window.model, r) for r in range(19)}
    assert seeded.count(PaperQuery(section=Section.TRASH)) == 1
    settle(window.controller)  # the library's total is a read of its own
    assert window.count_label.text() == "19 of 19 papers"
    assert window.undo_action.text().replace("&", "") == "Undo Move 1 paper to Trash"

    assert window.table.selected_ids() != [first]  # the next paper took its place

    window.undo_action.trigger()
    settle(window.controller)
    assert window.model.rowCount() == 20
    assert seeded.count(PaperQuery(section=Section.TRASH)) == 0
    # the paper back from the Trash is the one selected, as the person looks for it
    qtbot.wait_until(lambda: window.table.selected_ids() == [first])
    assert window.detail_pane.current_paper() == first
    assert window.redo_action.text().replace("&", "") == "Redo Move 1 paper to Trash"
    window.redo_action.trigger()
    settle(window.controller)
    assert window.model.rowCount() == 19
    assert seeded.paper_ids(PaperQuery(section=Section.TRASH)) == [first]


def test_a_narrow_window_keeps_room_for_the_titles(qtbot: QtBot, window: MainWindow) -> None:
    """At 1000 x 650 the columns beside the title give up width for it; at the usual size
    they keep theirs."""
    header = window.table.horizontalHeader()
    window.resize(1400, 900)
    qtbot.wait_until(lambda: window.width() == 1400)
    wide = [header.sectionSize(c) for c in range(header.count())]
    window.resize(1000, 650)
    qtbot.wait_until(lambda: window.width() == 1000)
    window.place_panes(window.splitter.width())  # as a window opened at that size has them
    qtbot.wait_until(lambda: window.table.viewport().width() > 400)
    width = window.table.viewport().width()
    assert header.sectionSize(TITLE) >= 0.3 * width
    assert all(header.sectionSize(c) <= wide[c] for c in range(1, header.count()))
    assert header.sectionSize(ADDED) >= window.fontMetrics().horizontalAdvance("2026-12-06")
    window.resize(1400, 900)
    qtbot.wait_until(lambda: header.sectionSize(TITLE) > 0.3 * window.table.viewport().width())


def test_ctrl_z_in_a_field_just_handed_over_undoes_the_edit(
    qtbot: QtBot, window: MainWindow, seeded: LibraryService
) -> None:
    """After Enter, the cursor stays in the field: Ctrl+Z there undoes the library's change
    (the field has no typing of its own left), and undoes typing while there is some."""
    paper = row_id(window.model, 0)
    window.table.select_paper(paper)
    settle(window.controller)
    before = seeded.paper(paper).title
    title = window.detail_pane.title_edit
    title.setFocus()
    title.selectAll()
    qtbot.keyClicks(title, "A title typed over")
    qtbot.keyClick(title, Qt.Key.Key_Return)
    settle(window.controller)
    assert seeded.paper(paper).title == "A title typed over"
    assert title.hasFocus()
    qtbot.keyClick(title, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(window.controller)
    assert seeded.paper(paper).title == before
    assert title.toPlainText() == before
    tags = window.detail_pane.tag_chips.field
    tags.setFocus()
    qtbot.keyClicks(tags, "fieldwork")
    qtbot.keyClick(tags, Qt.Key.Key_Return)
    settle(window.controller)
    assert [t.name for t in seeded.paper(paper).tags] == ["fieldwork"]
    qtbot.keyClicks(tags, "ab")
    qtbot.keyClick(tags, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the typing
    settle(window.controller)
    assert [t.name for t in seeded.paper(paper).tags] == ["fieldwork"]
    tags.clear()
    qtbot.keyClick(tags, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the tag
    settle(window.controller)
    assert seeded.paper(paper).tags == ()


def test_a_note_typed_and_never_saved_survives_closing_the_window(
    qtbot: QtBot,
    window: MainWindow,
    seeded: LibraryService,
    reopened_controller: LibraryController,
    tmp_path: Path,
) -> None:
    paper = row_id(window.model, 0)
    assert seeded.paper(paper).notes == ()
    window.table.select_paper(paper)
    settle(window.controller)  # the paper is read off the GUI thread
    assert window.detail_pane.findChild(QPlainTextEdit, "noteEdit") is None
    with qtbot.wait_signal(window.detail_pane.notes.note_opened):
        window.detail_pane.notes.add_note()
    card = window.detail_pane.findChild(QPlainTextEdit, "noteEdit")
    assert card is not None
    card.setFocus()
    qtbot.keyClicks(card, "Read section 4 again")
    window.close()  # straight away: no pause for the autosave

    reopened = make_window(qtbot, reopened_controller, tmp_path / "settings.ini")
    reopened.table.select_paper(paper)
    settle(reopened_controller)
    assert [n.text for n in seeded.paper(paper).notes] == ["Read section 4 again"]
    editor = reopened.detail_pane.findChild(QPlainTextEdit, "noteEdit")
    assert editor is not None and editor.toPlainText() == "Read section 4 again"


def test_window_size_panes_and_columns_are_restored(
    qtbot: QtBot,
    controller: LibraryController,
    reopened_controller: LibraryController,
    seeded: LibraryService,
    tmp_path: Path,
) -> None:
    settings = tmp_path / "settings.ini"
    window = make_window(qtbot, controller, settings)
    window.resize(760, 540)  # within the offscreen screen, which restoreGeometry respects
    window.actions_by_id[ActionId.SHOW_TAG_PANE].setChecked(False)
    window.table.horizontalHeader().moveSection(3, 1)
    order = [window.table.horizontalHeader().logicalIndex(i) for i in range(5)]
    size = (window.width(), window.height())
    window.close()

    again = make_window(qtbot, reopened_controller, settings)
    assert (again.width(), again.height()) == size
    assert not again.tag_pane.isVisible()
    assert not again.actions_by_id[ActionId.SHOW_TAG_PANE].isChecked()
    assert [again.table.horizontalHeader().logicalIndex(i) for i in range(5)] == order
    assert WindowSettings(settings).last_library() == seeded.location


def test_the_list_sorted_by_a_column_is_sorted_so_in_the_next_session(
    qtbot: QtBot,
    controller: LibraryController,
    reopened_controller: LibraryController,
    seeded: LibraryService,
    tmp_path: Path,
) -> None:
    settings = tmp_path / "settings.ini"
    window = make_window(qtbot, controller, settings)
    window.table.sortByColumn(YEAR, Qt.SortOrder.AscendingOrder)  # a click on Year
    qtbot.wait_until(lambda: window.model.query.sort is SortKey.YEAR)
    settle(controller)
    oldest_first = titles(window)
    window.close()

    again = make_window(qtbot, reopened_controller, settings)
    assert (again.model.query.sort, again.model.query.descending) == (SortKey.YEAR, False)
    assert titles(again) == oldest_first
    header = again.table.horizontalHeader()
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (
        YEAR,
        Qt.SortOrder.AscendingOrder,
    )
    again.close()
    written = QSettings(str(settings), QSettings.Format.IniFormat)
    written.remove("list/places")  # an older refman's one sort, this sort unknown: the default
    written.setValue("list/sort", "colour")
    written.sync()
    third = make_window(qtbot, reopened_controller, settings)
    assert third.model.query.sort is SortKey.ADDED and third.model.query.descending
    third.close()


def test_each_library_opens_sorted_as_it_was_left(
    qtbot: QtBot,
    controller: LibraryController,
    reopened_controller: LibraryController,
    seeded: LibraryService,
    tmp_path: Path,
) -> None:
    settings = tmp_path / "settings.ini"
    window = make_window(qtbot, controller, settings)
    window.table.sortByColumn(YEAR, Qt.SortOrder.AscendingOrder)  # a click on Year
    qtbot.wait_until(lambda: window.model.query.sort is SortKey.YEAR)
    settle(controller)
    window.close()
    another = LibraryService.open(tmp_path / "another.sqlite")
    another.import_pages([sourced(generated_page(3))])
    elsewhere = LibraryController(another)
    try:
        # Another library opens in its own sort (the default: newest added first) ...
        other = make_window(qtbot, elsewhere, settings)
        settle(elsewhere)
        assert (other.model.query.sort, other.model.query.descending) == (SortKey.ADDED, True)
        other.table.sortByColumn(TITLE, Qt.SortOrder.DescendingOrder)
        qtbot.wait_until(lambda: other.model.query.sort is SortKey.TITLE)
        settle(elsewhere)
        other.close()
        # ... which does not replace the first library's, and is its own the next time.
        again = make_window(qtbot, reopened_controller, settings)
        assert (again.model.query.sort, again.model.query.descending) == (SortKey.YEAR, False)
        again.close()
        other_again = make_window(qtbot, elsewhere, settings)
        query = other_again.model.query
        assert (query.sort, query.descending) == (SortKey.TITLE, True)
        other_again.close()
        settle(elsewhere)
    finally:
        elsewhere.runner.shutdown()
        another.close()


def test_the_next_session_shows_the_tag_and_the_paper_shown_when_the_window_closed(
    qtbot: QtBot,
    controller: LibraryController,
    reopened_controller: LibraryController,
    seeded: LibraryService,
    tmp_path: Path,
) -> None:
    ids = seeded.paper_ids()
    seeded.tag(ids[:6], ["to read"])
    settings = tmp_path / "settings.ini"
    window = make_window(qtbot, controller, settings)
    window.tag_pane.select_tags(["to read"])
    qtbot.wait_until(lambda: window.model.rowCount() == 6)
    assert window.table.select_paper(ids[4])
    qtbot.wait_until(lambda: window.detail_pane.current_paper() == ids[4])
    window.close()

    again = make_window(qtbot, reopened_controller, settings)
    qtbot.wait_until(lambda: again.table.current_id() == ids[4])
    assert again.tag_pane.selected_tags() == ("to read",) and again.model.rowCount() == 6
    qtbot.wait_until(lambda: again.detail_pane.current_paper() == ids[4])
    again.close()

    # What went meanwhile is left out: the tag deleted, the paper moved to the Trash.
    seeded.delete_tag("to read")
    seeded.trash([ids[4]])
    third = make_window(qtbot, reopened_controller, settings)
    qtbot.wait_until(lambda: third.model.rowCount() == len(ids) - 1)
    settle(reopened_controller)
    assert third.tag_pane.selected_tags() == () and third.model.rowCount() == len(ids) - 1
    assert third.table.current_id() is None
    third.close()

    # Another library opened with these settings is not shown at this one's place, and
    # each library opens at its own place (the other one's did not replace it).
    seeded.tag(ids[:2], ["other"])
    fourth = make_window(qtbot, reopened_controller, settings)
    fourth.tag_pane.select_tags(["other"])
    qtbot.wait_until(lambda: fourth.model.rowCount() == 2)
    fourth.close()
    another = LibraryService.open(tmp_path / "another.sqlite")
    another.import_pages([sourced(generated_page(3))])
    another.tag(another.paper_ids(), ["other"])
    elsewhere = LibraryController(another)
    try:
        other = make_window(qtbot, elsewhere, settings)
        settle(elsewhere)
        assert other.tag_pane.selected_tags() == () and other.model.rowCount() == 3
        other.tag_pane.select_section(Section.TRASH)
        settle(elsewhere)
        other.close()
        fifth = make_window(qtbot, reopened_controller, settings)
        qtbot.wait_until(lambda: fifth.tag_pane.selected_tags() == ("other",))
        qtbot.wait_until(lambda: fifth.model.rowCount() == 2)
        fifth.close()
        again_other = make_window(qtbot, elsewhere, settings)
        qtbot.wait_until(lambda: again_other.tag_pane.current_filter().section is Section.TRASH)
        again_other.close()
        settle(elsewhere)
    finally:
        elsewhere.runner.shutdown()
        another.close()


def test_view_menu_hides_and_shows_the_detail_pane(qtbot: QtBot, window: MainWindow) -> None:
    action = window.actions_by_id[ActionId.SHOW_DETAIL_PANE]
    action.trigger()
    assert not window.detail_pane.isVisible()
    action.trigger()
    assert window.detail_pane.isVisible()


def test_file_import_opens_the_wizard(qtbot: QtBot, window: MainWindow) -> None:
    window.actions_by_id[ActionId.IMPORT].trigger()
    qtbot.wait_until(lambda: window.wizard.isVisible())
    assert window.wizard.objectName() == "importWizard"
    assert "Ctrl+I" in window.actions_by_id[ActionId.IMPORT].shortcut().toString()


def test_an_empty_library_shows_the_welcome_view(
    qtbot: QtBot, controller: LibraryController, tmp_path: Path
) -> None:
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    welcome = window.paper_panel.welcome
    assert window.paper_panel.currentWidget() is welcome
    assert welcome.import_button.text() == "Import papers…"
    said = " ".join(label.text() for label in welcome.findChildren(QLabel))
    assert "your Zotero or Mendeley Desktop library itself" in said  # (no export needed)
    assert "zotero.sqlite or Mendeley Desktop's database anywhere on this window" in said
    qtbot.mouseClick(welcome.import_button, Qt.MouseButton.LeftButton)
    qtbot.wait_until(lambda: window.wizard.isVisible())


@pytest.mark.filterwarnings("ignore:Function.*QDragEnterEvent:DeprecationWarning")
def test_dropping_a_page_file_on_the_window_opens_the_wizard_with_it(
    qtbot: QtBot, window: MainWindow
) -> None:
    page = seed_files()[0]
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(page))])
    target = window.table.viewport()
    where = QPointF(target.rect().center())
    enter = QDragEnterEvent(
        where.toPoint(),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(window, enter)
    drop = QDropEvent(
        where,
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(window, drop)
    qtbot.wait_until(lambda: hasattr(window, "wizard") and window.wizard.isVisible())
    assert window.wizard.source_page.wait_until_read()
    pages = window.wizard.source_page.sourced_pages()
    assert [p.source for p in pages] == [page.name]
    assert len(pages[0].page.records) >= 4


def test_the_screenshot_command_renders_the_window_to_a_png(
    library_path: Path, seeded: LibraryService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "window.png"
    before = set(QApplication.topLevelWidgets())
    code = main(["--db", str(library_path), "screenshot", str(out), "--size", "1200x800"])
    assert code == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1200, 800)
    assert main(["--db", str(library_path), "screenshot", str(out), "--select", "99999"]) == 2
    # A tag the library does not hold is an error, as in refman list (not an empty list).
    capsys.readouterr()
    assert main(["--db", str(library_path), "screenshot", str(out), "--tag", "nuerips"]) == 2
    assert "There is no tag “nuerips”." in capsys.readouterr().err
    # So is a person the library does not hold (it showed all papers, and said nothing).
    assert main(["--db", str(library_path), "screenshot", str(out), "--person", "9999"]) == 2
    assert "There is no person #9999 in this library." in capsys.readouterr().err
    # Whether it succeeded or not, the command leaves no window behind.
    left = set(QApplication.topLevelWidgets()) - before
    assert not [w for w in left if isinstance(w, MainWindow)]


def test_the_screenshot_of_a_paper_with_a_pdf_shows_its_first_page(
    library_path: Path, seeded: LibraryService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paper = seeded.paper_ids()[0]
    seeded.attach(paper, [make_pdf(tmp_path / "paper.pdf")], link=True)
    shown: list[bool] = []
    save = app_module._save

    def saved(window: MainWindow, target: Path) -> None:
        shown.append(window.detail_pane.files.preview.isVisible())
        save(window, target)

    monkeypatch.setattr(app_module, "_save", saved)
    out = tmp_path / "window.png"
    assert main(["--db", str(library_path), "screenshot", str(out), "--select", str(paper)]) == 0
    assert shown == [True]  # the picture is taken once the page is drawn
    assert QImage(str(out)).width() > 0


def test_a_filtered_list_drops_a_paper_that_no_longer_matches(
    qtbot: QtBot, window: MainWindow, seeded: LibraryService
) -> None:
    ids = seeded.paper_ids()
    window.controller.tag(ids[:3], ["ml"])
    settle(window.controller)
    window.tag_pane.select_tags(["ml"])
    settle(window.controller)
    assert window.model.rowCount() == 3
    window.controller.untag([ids[0]], "ml")
    settle(window.controller)
    assert window.model.rowCount() == 2
    assert ids[0] not in {row_id(window.model, r) for r in range(2)}
    assert window.count_label.text() == "2 of 20 papers"
    window.tag_pane.select_section(Section.UNTAGGED)
    window.tag_pane.clear_tags()
    settle(window.controller)
    assert window.model.rowCount() == 18
    later = row_id(window.model, 0)
    window.controller.tag([later], ["later"])
    settle(window.controller)
    assert window.model.rowCount() == 17
    assert window.model.row_of(later) is None


def test_show_these_papers_clears_the_tag_filter(
    qtbot: QtBot, window: MainWindow, seeded: LibraryService
) -> None:
    window.controller.tag(seeded.paper_ids()[:2], ["ml"])
    settle(window.controller)
    window.tag_pane.select_tags(["ml"])
    settle(window.controller)
    assert window.model.rowCount() == 2
    recent = seeded.paper_ids(PaperQuery(section=Section.RECENT))
    window.show_papers(recent)
    qtbot.wait_until(lambda: window.model.rowCount() == len(recent))
    assert window.tag_pane.current_filter().tags == ()
    # the first paper is selected once its row is read (off the GUI thread)
    qtbot.wait_until(lambda: window.table.selected_ids() == [recent[0]])


def test_the_trash_count_speaks_of_the_trash(
    qtbot: QtBot, window: MainWindow, seeded: LibraryService
) -> None:
    window.controller.trash(seeded.paper_ids()[:2])
    settle(window.controller)
    window.tag_pane.select_section(Section.TRASH)
    settle(window.controller)
    assert window.model.rowCount() == 2
    assert window.count_label.text() == "2 of 2 papers in the Trash"
    window.controller.empty_trash()
    qtbot.waitUntil(lambda: window.count_label.text() == "The Trash is empty", timeout=2000)


def test_opening_another_library_makes_it_the_one_reopened_next_time(
    qtbot: QtBot, seeded: LibraryService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from refman.ui import app

    monkeypatch.setattr(app, "WindowSettings", lambda: WindowSettings(tmp_path / "s.ini"))
    window = app.build_window(seeded)
    window.settings = WindowSettings(tmp_path / "s.ini")
    qtbot.add_widget(window)
    window.show()
    other = tmp_path / "other.sqlite"
    monkeypatch.setattr(window_chrome, "ask_library_file", lambda _parent: str(other))
    opened: list[MainWindow] = []
    real_build = app.build_window

    def build(service: LibraryService) -> MainWindow:
        new = real_build(service)
        new.settings = WindowSettings(tmp_path / "s.ini")
        qtbot.add_widget(new)
        opened.append(new)
        return new

    monkeypatch.setattr(app, "build_window", build)
    window.actions_by_id[ActionId.OPEN_LIBRARY].trigger()
    qtbot.wait_until(lambda: bool(opened) and opened[0].isVisible())
    assert not window.isVisible()
    assert opened[0].controller.service.location == str(other)
    assert WindowSettings(tmp_path / "s.ini").last_library() == str(other)
    opened[0].close()
    opened[0].controller.service.close()


def test_following_a_possible_duplicate_link_selects_that_paper(
    qtbot: QtBot, window: MainWindow, seeded: LibraryService
) -> None:
    attention = set(seeded.paper_ids(PaperQuery(section=Section.ATTENTION)))
    first, second = [i for i in seeded.paper_ids() if i not in attention][:2]
    window.controller.apply(SetDuplicateFlag(second, first))
    settle(window.controller)
    window.tag_pane.select_section(Section.ATTENTION)
    settle(window.controller)
    assert window.model.row_of(second) is not None
    window.table.select_paper(second)
    window.detail_pane.paper_link_activated.emit(first)
    qtbot.wait_until(lambda: window.table.selected_ids() == [first])
    assert window.tag_pane.current_filter().section is Section.ALL


def test_empty_trash_deletes_for_good_after_asking(
    qtbot: QtBot, window: MainWindow, seeded: LibraryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QMessageBox

    empty_trash = window.actions_by_id[ActionId.EMPTY_TRASH]
    qtbot.wait_until(lambda: not empty_trash.isEnabled())  # nothing in the Trash
    seeded.tag(seeded.paper_ids()[:2], ["only these"])  # (its papers go: it goes with them)
    seeded.tag(seeded.paper_ids()[1:3], ["kept"])
    window.controller.trash(seeded.paper_ids()[:2])
    settle(window.controller)
    qtbot.wait_until(empty_trash.isEnabled)
    assert window.controller.undo_stack.count() == 1
    assert window.tag_pane.tag_list.find_row("tag", "only these") is not None
    monkeypatch.setattr(QMessageBox, "question", lambda *_args: QMessageBox.StandardButton.Yes)
    empty_trash.trigger()
    settle(window.controller)
    assert seeded.paper_count() == 18
    assert window.controller.undo_stack.count() == 0
    assert window.count_label.text() == "18 of 18 papers"
    qtbot.wait_until(lambda: not empty_trash.isEnabled())
    assert window.statusBar().currentMessage() == (
        "Deleted 2 papers for good. The tag “only these”, on no paper now, went with them."
    )
    qtbot.wait_until(lambda: window.tag_pane.tag_list.find_row("tag", "only these") is None)
    assert window.tag_pane.tag_list.find_row("tag", "kept") is not None
    assert [t.name for t in seeded.tags()] == ["kept"]


def test_delete_permanently_deletes_the_papers_selected_in_the_trash_after_asking(
    qtbot: QtBot, window: MainWindow, seeded: LibraryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As Empty Trash does, for the papers selected: asked first (No changes nothing),
    Shift+Delete in the list, the Undo history cleared, the others left in the Trash."""
    from PySide6.QtWidgets import QMessageBox

    delete = window.actions_by_id[ActionId.DELETE_PERMANENTLY]
    first = row_id(window.model, 0)
    window.table.select_paper(first)
    qtbot.wait_until(lambda: window.table.selected_ids() == [first])
    assert not delete.isEnabled()  # (not in the Trash)
    trashed = seeded.paper_ids()[:3]
    window.controller.trash(trashed)
    settle(window.controller)
    window.tag_pane.select_section(Section.TRASH)
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 3)
    assert not delete.isEnabled()  # (nothing selected)
    gone = row_id(window.model, 0), row_id(window.model, 1)
    window.table.select_papers(list(gone))
    qtbot.wait_until(lambda: sorted(window.table.selected_ids()) == sorted(gone))
    assert delete.isEnabled()
    asked: list[str] = []

    def answer(_parent: object, title: str, text: str) -> QMessageBox.StandardButton:
        asked.append(f"{title}: {text}")
        return QMessageBox.StandardButton.No if len(asked) == 1 else QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer)
    delete.trigger()
    settle(window.controller)
    assert asked == [
        "Delete Permanently: Delete the 2 papers selected in the Trash for good? This cannot "
        "be undone, and it also clears the Undo history."
    ]
    assert seeded.count(PaperQuery(section=Section.TRASH)) == 3
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Delete, Qt.KeyboardModifier.ShiftModifier)
    settle(window.controller)
    assert len(asked) == 2
    assert seeded.paper_count() == 18
    assert set(seeded.paper_ids(PaperQuery(section=Section.TRASH))) == set(trashed) - set(gone)
    assert window.controller.undo_stack.count() == 0
    qtbot.wait_until(lambda: window.model.rowCount() == 1)
    assert window.statusBar().currentMessage() == "Deleted 2 papers for good."


def test_a_long_subject_name_never_widens_the_detail_pane(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> None:
    from tests.helpers.fixtures import sourced

    page = (
        "Ines Carvalho\n\nPublications and source records attributed to Ines Carvalho.\n\n"
        "1 recordLinked to original sources\n\narXiv 2025\n\nSharded Loaders at Scale\n\n"
        "We shard data loaders across many hosts and measure the effect on throughput.\n\n"
        "cs.DC↗\n"
    )
    (paper,) = library.import_pages([sourced(page)]).new_ids
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    window.resize(1000, 700)
    window.place_panes(window.splitter.width())
    window.table.select_paper(paper)
    pane = window.detail_pane
    qtbot.wait_until(lambda: pane.subject_texts() != [])
    assert pane.subject_texts() == ["Distributed, Parallel, and Cluster Computing (cs.DC)"]
    area = pane.scroll_area
    body = area.widget()
    assert body is not None
    qtbot.wait_until(lambda: body.width() <= area.viewport().width())


def test_an_undo_whose_paper_was_changed_elsewhere_is_refused_with_a_message(
    qtbot: QtBot,
    window: MainWindow,
    seeded: LibraryService,
    library_path: Path,
    shown_errors: list[str],
) -> None:
    """A second program edits the title this window edited: Undo says so, changes nothing,
    and leaves the history without that step (never the crash dialog)."""
    paper = seeded.paper_ids()[0]
    window.table.select_paper(paper)
    window.controller.edit_fields(paper, lambda: FieldEdits(title="Mine"))
    settle(window.controller)
    assert window.undo_action.isEnabled() and window.undo_action.text() == "&Undo Edit title"
    elsewhere = LibraryService.open(library_path)  # another refman on the same file
    try:
        elsewhere.edit_fields(paper, title="Theirs")
    finally:
        elsewhere.close()
    window.undo_action.trigger()
    settle(window.controller)
    assert shown_errors == [
        f"The title of paper #{paper} was changed elsewhere since. It was left as it is now."
    ]
    assert seeded.paper(paper).title == "Theirs"
    assert window.controller.undo_stack.count() == 0
    assert not window.undo_action.isEnabled()


def test_papers_an_undone_import_left_waiting_are_deleted_once_the_window_opens(
    qtbot: QtBot, library: LibraryService, controller: LibraryController, tmp_path: Path
) -> None:
    library.import_pages([sourced_file(seed_files()[0])])
    kept = library.paper_ids()
    done = library.apply(ImportPages((sourced_file(seed_files()[1]),), ImportChoices()))
    assert done.inverse is not None
    library.apply(done.inverse)  # the window that undid it closed before the deleting ended
    assert library.purge_pending() > 0
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    qtbot.wait_until(lambda: library.purge_pending() == 0, timeout=10_000)
    settle(controller)
    assert [row_id(window.model, r) for r in range(window.model.rowCount())] == kept
    assert window.count_label.text() == f"{len(kept)} of {len(kept)} papers"


def test_a_paper_retitled_out_of_the_search_stays_in_the_pane_while_its_title_is_typed_in(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> None:
    """The list left it out, gave its place to the next paper, and the title field (the
    keyboard still in it) showed that paper's title: typing on renamed the wrong paper."""
    library.import_pages([sourced(generated_page(5))])
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    window.search_box.set_text_now("nets")  # (in every title, in no abstract)
    settle(controller)
    assert window.model.rowCount() == 5
    paper = row_id(window.model, 1)
    window.table.select_paper(paper)
    settle(controller)
    title = window.detail_pane.title_edit
    title.setFocus()
    title.selectAll()
    qtbot.keyClicks(title, "Something Else Entirely")
    qtbot.keyClick(title, Qt.Key.Key_Return)
    settle(controller)
    qtbot.waitUntil(lambda: window.model.rowCount() == 4, timeout=2000)
    settle(controller)
    assert library.paper(paper).title == "Something Else Entirely"
    assert window.detail_pane.current_paper() == paper and not window.table.has_selection()
    assert title.toPlainText() == "Something Else Entirely"
    assert not window.detail_pane.kept.notice.isVisible()  # (not in the Trash)
    window.table.setFocus()
    window.table.select_paper(row_id(window.model, 0))
    settle(controller)
    assert window.detail_pane.current_paper() == row_id(window.model, 0)


def test_going_to_a_paper_further_down_the_list_keeps_the_list_as_it_is(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> None:
    """A related paper (or a duplicate's) clicked that the list shows further down than its
    rows read so far is selected there: the tag filter and the search were cleared, as for a
    paper the list does not show."""
    library.import_pages([sourced(generated_page(3 * PAGE))])
    library.tag(library.paper_ids(), ["ml"])
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    window.tag_pane.select_tags(["ml"])
    settle(controller)
    last = library.paper_ids(window.model.query)[-1]
    assert window.model.row_of(last) is None  # not read yet
    window.go_to_paper(last)
    settle(controller)
    qtbot.wait_until(lambda: window.table.selected_ids() == [last])
    assert window.tag_pane.current_filter().tags == ("ml",)
    assert window.detail_pane.current_paper() == last
