"""The main window from the keyboard: Tab through the detail pane in the order it is laid
out, from the search field to its results, the list's first Down, Delete on what has the
keyboard (papers in the list, a tag, a saved search; nothing elsewhere)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, QPoint, Qt
from PySide6.QtGui import QAccessible, QColor, QPalette, QTextCursor
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QMenu,
    QTextEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from refman.core.saved_searches import SaveSearch
from refman.core.values import PaperQuery, Section
from tests.helpers.fixtures import seed_files, settle, sourced_file
from tests.helpers.panes import make_window, row_id

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.export_dialog import ExportDialog
from refman.ui.main_window import MainWindow
from refman.ui.notes_editor import NoteCard
from refman.ui.preferences import PreferencesDialog
from refman.ui.sidebar import KEY_ROLE, KIND_ROLE, SidebarList
from refman.ui.window_chrome import LIST_MENU, build_menu

# The offscreen platform warns when a top-level widget is shown; nothing to do with us.
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> Iterator[MainWindow]:
    """The seed pages in a shown, active window; the newest paper tagged "rivers" and
    "to re" (the tags the report's tester typed)."""
    for path in seed_files():
        library.import_pages([sourced_file(path)])
    library.tag(library.paper_ids()[:1], ["rivers", "to re"])
    made = make_window(qtbot, controller, tmp_path / "settings.ini")
    made.activateWindow()
    qtbot.wait_until(made.isActiveWindow)
    yield made


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


def press(qtbot: QtBot, key: Qt.Key, modifier: Qt.KeyboardModifier | None = None) -> QWidget:
    """Press a key where the keyboard is; returns where it is then."""
    qtbot.keyClick(focused(), key, modifier or Qt.KeyboardModifier.NoModifier)
    return focused()


def show_first_paper(qtbot: QtBot, window: MainWindow) -> int:
    first = row_id(window.model, 0)
    window.table.select_paper(first)
    qtbot.wait_until(lambda: window.detail_pane.tag_chips.tag_names() == ["rivers", "to re"])
    return first


def test_tab_goes_from_the_venue_through_the_tag_chips_to_the_tag_field(
    qtbot: QtBot, window: MainWindow
) -> None:
    """The ×s of the chips sat between the search field and the navigation pane."""
    show_first_paper(qtbot, window)
    pane = window.detail_pane
    # (the chips as the person sees them: shown, their ×s too — a loaded machine lays them
    # out a moment after the tags are known)
    qtbot.wait_until(
        lambda: (button := pane.tag_chips.remove_button("to re")) is not None and button.isVisible()
    )
    qtbot.mouseClick(pane.venue_field, Qt.MouseButton.LeftButton)
    qtbot.wait_until(pane.venue_field.hasFocus)
    assert press(qtbot, Qt.Key.Key_Tab) is pane.tag_chips.remove_button("rivers")
    assert press(qtbot, Qt.Key.Key_Tab) is pane.tag_chips.remove_button("to re")
    assert press(qtbot, Qt.Key.Key_Tab) is pane.tag_chips.field
    assert press(qtbot, Qt.Key.Key_Backtab) is pane.tag_chips.remove_button("to re")
    qtbot.keyClick(focused(), Qt.Key.Key_Space)  # the × takes the tag off
    qtbot.wait_until(lambda: pane.tag_chips.tag_names() == ["rivers"])


def test_tab_out_of_a_note_goes_on_in_the_detail_pane_then_leaves_it_at_its_end(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Tab out of a note went to the navigation pane."""
    show_first_paper(qtbot, window)
    pane = window.detail_pane
    cards: list[NoteCard] = []
    for typed in ("first", "last note"):  # (a note left with nothing typed goes)
        with qtbot.wait_signal(pane.notes.note_opened) as opened:
            qtbot.mouseClick(pane.add_note_button, Qt.MouseButton.LeftButton)
        settle(window.controller)
        cards.append(opened.args[0])
        qtbot.keyClicks(cards[-1].editor, typed)
    first, last = cards
    qtbot.mouseClick(first.editor.viewport(), Qt.MouseButton.LeftButton)
    qtbot.wait_until(first.editor.hasFocus)
    first.editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(first.editor, " note")
    assert press(qtbot, Qt.Key.Key_Tab) is last.mode_button  # the next note's Preview
    assert first.text() == "first note"  # Tab moved on, it typed nothing
    last.editor.setFocus()
    qtbot.wait_until(last.editor.hasFocus)
    # The last control of the pane: Tab goes on to what follows the pane (the toolbar, as
    # from the pane's other last controls), never back to the navigation pane.
    after = press(qtbot, Qt.Key.Key_Tab)
    assert after.objectName() == "toolbarImportButton"
    assert press(qtbot, Qt.Key.Key_Backtab) is last.editor


def test_down_in_the_search_field_selects_the_first_result_in_the_list(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    search = window.search_box
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.wait_until(search.hasFocus)
    qtbot.keyClicks(search, "training")
    settle(window.controller)
    assert window.model.rowCount() > 1
    assert not window.table.has_selection()
    assert press(qtbot, Qt.Key.Key_Down) is window.table
    settle(window.controller)
    first = row_id(window.model, 0)
    assert window.table.selected_ids() == [first]
    qtbot.wait_until(lambda: window.detail_pane.current_paper() == first)
    assert first in library.paper_ids(PaperQuery(text="training"))


def test_enter_in_the_search_field_goes_to_the_results_too(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    search = window.search_box
    search.setFocus()
    qtbot.wait_until(search.hasFocus)
    qtbot.keyClicks(search, "training")
    assert press(qtbot, Qt.Key.Key_Return) is window.table  # before the results came
    settle(window.controller)
    first = row_id(window.model, 0)
    assert window.table.selected_ids() == [first]
    assert first in library.paper_ids(PaperQuery(text="training"))
    assert search.text() == "training"  # the search stays


def test_the_first_down_in_a_list_with_nothing_selected_selects_the_first_paper(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Tab into the list put the focus frame on row 1 without selecting it; Down then
    selected row 2."""
    tags = window.tag_pane.tag_list
    tags.setFocus()
    qtbot.wait_until(tags.hasFocus)
    assert not window.table.has_selection()
    assert press(qtbot, Qt.Key.Key_Tab) is window.table
    assert not window.table.has_selection()
    press(qtbot, Qt.Key.Key_Down)
    first = row_id(window.model, 0)
    assert window.table.selected_ids() == [first]
    qtbot.wait_until(lambda: window.detail_pane.current_paper() == first)
    press(qtbot, Qt.Key.Key_Down)
    assert window.table.selected_ids() == [row_id(window.model, 1)]


def test_delete_on_a_tag_deletes_the_tag_not_the_papers_selected(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    """Delete on a tag did nothing, or moved the paper selected in the list to the Trash."""
    show_first_paper(qtbot, window)
    tags = window.tag_pane.tag_list
    qtbot.wait_until(lambda: tags.count() == 2)
    window.tag_pane.nav_list.setFocus()
    assert press(qtbot, Qt.Key.Key_Tab) is tags
    assert tags.currentItem().data(KEY_ROLE) == "rivers"  # its focus frame, not selected
    press(qtbot, Qt.Key.Key_Delete)
    settle(window.controller)
    assert library.tag_names() == ["to re"]
    assert library.paper_ids(PaperQuery(section=Section.TRASH)) == []
    qtbot.wait_until(lambda: window.detail_pane.tag_chips.tag_names() == ["to re"])
    assert window.undo_action.text().replace("&", "").startswith("Undo Delete tag")
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(window.controller)
    assert library.tag_names() == ["rivers", "to re"]


def trashed(library: LibraryService) -> list[int]:
    return library.paper_ids(PaperQuery(section=Section.TRASH))


def test_delete_on_a_section_or_a_person_trashes_nothing(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    """Delete on the navigation pane moved the papers selected in the list to the Trash."""
    first = show_first_paper(qtbot, window)
    nav = window.tag_pane.nav_list
    qtbot.mouseClick(nav.viewport(), Qt.MouseButton.LeftButton, pos=_centre(nav, "section"))
    assert focused() is nav and nav.currentItem().data(KEY_ROLE) == Section.ALL
    press(qtbot, Qt.Key.Key_Delete)
    press(qtbot, Qt.Key.Key_Backspace)
    settle(window.controller)
    count = library.count()
    assert trashed(library) == [] and window.count_label.text() == f"{count} of {count} papers"
    assert window.table.selected_ids() == [first]
    qtbot.mouseClick(nav.viewport(), Qt.MouseButton.LeftButton, pos=_centre(nav, "person"))
    settle(window.controller)
    assert focused() is nav and nav.currentItem().data(KEY_ROLE) is not None
    window.table.select_paper(row_id(window.model, 0))
    nav.setFocus()
    press(qtbot, Qt.Key.Key_Delete)
    settle(window.controller)
    assert trashed(library) == []
    assert window.table.has_selection()


def _centre(nav: SidebarList, kind: str) -> QPoint:
    """The middle of the first row of a kind in the navigation list."""
    item = next(nav.item(r) for r in range(nav.count()) if nav.item(r).data(KIND_ROLE) == kind)
    return nav.visualItemRect(item).center()


def test_delete_on_a_saved_search_deletes_it_not_the_papers_and_undo_brings_it_back(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    controller = window.controller
    controller.apply(SaveSearch("Rivers", "rivers"))
    settle(controller)
    qtbot.wait_until(lambda: bool(window.tag_pane.saved_searches()))
    nav = window.tag_pane.nav_list
    qtbot.mouseClick(nav.viewport(), Qt.MouseButton.LeftButton, pos=_centre(nav, "saved"))
    settle(controller)
    shown = window.model.rowCount()
    assert shown > 0
    window.table.select_paper(row_id(window.model, 0))
    nav.setFocus()
    assert nav.currentItem().text() == "Rivers"
    press(qtbot, Qt.Key.Key_Delete)
    settle(controller)
    assert library.saved_searches() == [] and trashed(library) == []
    qtbot.wait_until(
        lambda: nav.find_row("saved", 1) is None and not window.tag_pane.saved_searches()
    )
    assert window.undo_action.text().replace("&", "").startswith("Undo")
    press(qtbot, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(controller)
    assert [v.name for v in library.saved_searches()] == ["Rivers"]
    assert trashed(library) == []


def test_delete_in_the_search_field_and_the_detail_pane_never_trashes_papers(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    first = show_first_paper(qtbot, window)
    box = window.search_box
    box.setText("xrivers")
    box.setFocus()
    box.setCursorPosition(0)
    press(qtbot, Qt.Key.Key_Delete)
    assert box.text() == "rivers"
    pane = window.detail_pane
    qtbot.mouseClick(pane.venue_field, Qt.MouseButton.LeftButton)
    qtbot.wait_until(pane.venue_field.hasFocus)
    pane.venue_field.setCursorPosition(0)
    venue = pane.venue_field.text()
    press(qtbot, Qt.Key.Key_Delete)
    assert pane.venue_field.text() == venue[1:]
    pane.add_note_button.setFocus()  # a button of the pane, not a field
    press(qtbot, Qt.Key.Key_Delete)
    pane.tag_chips.field.setFocus()
    press(qtbot, Qt.Key.Key_Delete)
    settle(window.controller)
    assert trashed(library) == []
    assert window.table.selected_ids() == [first]
    window.table.setFocus()  # the list: Delete is Move to Trash
    press(qtbot, Qt.Key.Key_Delete)
    settle(window.controller)
    assert trashed(library) == [first]


def _mnemonics(menu: QMenu) -> list[str]:
    """The letter underlined in each entry of a menu ("" for an entry without one)."""
    texts = [a.text() for a in menu.actions() if not a.isSeparator()]
    return [m.group(1).lower() if (m := re.search(r"&([^&])", t)) else "" for t in texts]


@pytest.mark.qt_log_ignore("does not support raise", "grabbing the keyboard")
def test_every_menu_entry_has_a_letter_of_its_own(qtbot: QtBot, window: MainWindow) -> None:
    """Alt+E then R went to Redo or to Restore from Trash, a second R to the other (and so
    for B in File, P in Edit, N in Paper, M in the list's menu): two entries shared a letter."""
    menus = [a.menu() for a in window.menuBar().actions()]
    menus.append(build_menu(window.table, window.actions_by_id, LIST_MENU))
    menus.append(window.tag_pane.build_tag_menu("rivers"))
    for menu in menus:
        assert isinstance(menu, QMenu)
        letters = _mnemonics(menu)
        assert "" not in letters and len(set(letters)) == len(letters), menu.title()
    titles = [a.text() for a in window.menuBar().actions()]  # the menu bar's too
    assert len({re.sub(r".*&(.).*", r"\1", t.lower()) for t in titles if "&" in t}) == len(titles)
    # From the keyboard: Alt+E opens Edit, whose O restores the papers selected in the Trash.
    first = show_first_paper(qtbot, window)
    window.controller.trash([first])
    settle(window.controller)
    window.tag_pane.select_section(Section.TRASH)
    qtbot.wait_until(lambda: window.model.rowCount() == 1)
    window.table.select_paper(first)
    window.table.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_E, Qt.KeyboardModifier.AltModifier)
    qtbot.wait_until(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    edit = QApplication.activePopupWidget()
    assert isinstance(edit, QMenu) and edit.title() == "&Edit"
    qtbot.keyClick(edit, Qt.Key.Key_O)
    settle(window.controller)
    assert trashed(window.controller.service) == []


def _spoken(widget: QWidget) -> str:
    """What a screen reader names a widget."""
    face = QAccessible.queryAccessibleInterface(widget)
    return face.text(QAccessible.Text.Name) if face is not None else ""


def test_every_control_has_a_name_a_screen_reader_can_say(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    """The stars were read as "white star", the ↗ buttons as an arrow, the detail pane's
    fields, the title and the search field's buttons had no name at all."""
    first = show_first_paper(qtbot, window)
    library.edit_fields(first, doi="10.1000/xyz", url="https://example.org/a")
    library.mark([first], rating=3)
    window.detail_pane.show_paper(first)
    settle(window.controller)
    qtbot.wait_until(lambda: window.detail_pane.reading.rating == 3)
    kinds = (QAbstractButton, QLineEdit, QAbstractItemView, QComboBox, QTextEdit)
    shown = [w for kind in kinds for w in window.findChildren(kind) if w.isVisible()]
    unnamed = [
        f"{type(w).__name__}#{w.objectName()}: {_spoken(w)!r}"
        for w in shown
        if not isinstance(w, QHeaderView) and len(_spoken(w).strip("☆★↗×?… ")) < 2
    ]
    assert unnamed == []
    biblio, bar = window.detail_pane.biblio, window.detail_pane.reading
    assert _spoken(biblio.link_buttons["doi"]) == "Open the DOI in the browser"
    assert _spoken(biblio.fields["citekey"]) == "Citation key"
    assert [_spoken(s) for s in bar.star_buttons][1:4] == [
        "2 stars",
        "3 stars, the paper's rating (press to clear)",
        "4 stars",
    ]
    assert _spoken(window.detail_pane.year_field) == "Year"


@pytest.mark.qt_log_ignore("does not support raise", "grabbing the keyboard")
def test_the_arrow_keys_pass_all_people_by_and_enter_on_it_opens_the_people_window(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    """Down onto "All people…" opened the People window and put the selection back on the
    person above: the saved searches below could not be reached with the arrow keys."""
    window.controller.apply(SaveSearch("Rivers", "rivers"))
    settle(window.controller)
    nav = window.tag_pane.nav_list
    qtbot.wait_until(lambda: nav.find_row("saved", 1) is not None)
    opened: list[bool] = []
    window.tag_pane.people_requested.connect(lambda: opened.append(True))
    last_person = max(r for r in range(nav.count()) if nav.item(r).data(KIND_ROLE) == "person")
    nav.setCurrentRow(last_person)
    nav.setFocus()
    qtbot.wait_until(nav.hasFocus)
    shown = window.tag_pane.current_filter()
    assert press(qtbot, Qt.Key.Key_Down) is nav  # onto "All people…": the list stays
    assert nav.currentItem().data(KIND_ROLE) == "people" and not opened
    assert window.tag_pane.current_filter() == shown
    press(qtbot, Qt.Key.Key_Down)  # on to the saved search, shown
    settle(window.controller)
    assert nav.currentItem().text() == "Rivers" and not opened
    assert window.count_label.text().startswith(
        f"{len(library.paper_ids(PaperQuery(text='rivers')))} of"
    )
    press(qtbot, Qt.Key.Key_Up)
    assert press(qtbot, Qt.Key.Key_Return) is not None and opened  # Enter opens it
    assert window.tag_pane.current_filter().saved is not None  # the saved search still shown


def _framed(qtbot: QtBot, tags: QWidget, row: int) -> int:
    """How many pixels of a tag row are drawn in (a shade of) the highlight colour."""
    assert isinstance(tags, SidebarList)
    qtbot.wait(50)  # (painted)
    image = tags.viewport().grab().toImage()
    rect = tags.visualItemRect(tags.item(row))
    highlight = tags.palette().color(QPalette.ColorRole.Highlight)
    tinted = highlight.blue() > highlight.red() + 60  # (the offscreen style's: blue)
    assert tinted
    return sum(
        (c := QColor(image.pixel(x, y))).blue() > c.red() + 30
        for x in range(rect.left(), rect.right())
        for y in range(rect.top(), rect.bottom())
    )


def test_the_tag_the_keyboard_is_on_is_framed_though_not_picked(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Ctrl+Down in the tags moved the keyboard to a tag nobody could see: Space (pick it),
    F2 and Delete act on a row drawn as every other."""
    show_first_paper(qtbot, window)
    tags = window.tag_pane.tag_list
    qtbot.wait_until(lambda: tags.count() == 2)
    tags.setFocus()
    qtbot.wait_until(tags.hasFocus)
    tags.setCurrentRow(0, QItemSelectionModel.SelectionFlag.NoUpdate)
    assert _framed(qtbot, tags, 0) > 0 and _framed(qtbot, tags, 1) == 0
    press(qtbot, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    assert tags.currentRow() == 1 and not tags.selectedItems()
    assert _framed(qtbot, tags, 0) == 0 and _framed(qtbot, tags, 1) > 0
    press(qtbot, Qt.Key.Key_Space)  # picked: drawn as picked, the frame gone into it
    assert window.tag_pane.selected_tags() == ("to re",)
    window.table.setFocus()  # the keyboard elsewhere: no frame
    qtbot.wait_until(lambda: not tags.hasFocus())
    tags.clearSelection()
    assert _framed(qtbot, tags, 1) == 0


def test_f6_goes_from_part_to_part_of_the_window_and_ctrl_l_to_the_search(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Out of the detail pane the keyboard went back to the list only through every field
    of the pane (Shift+Tab) or the mouse."""
    first = show_first_paper(qtbot, window)
    pane = window.detail_pane
    qtbot.mouseClick(pane.venue_field, Qt.MouseButton.LeftButton)
    qtbot.wait_until(pane.venue_field.hasFocus)
    assert press(qtbot, Qt.Key.Key_F6) is window.search_box  # from the details, round
    assert press(qtbot, Qt.Key.Key_F6) is window.tag_pane.nav_list
    assert press(qtbot, Qt.Key.Key_F6) is window.table
    assert window.table.selected_ids() == [first]  # (the selection as it was)
    assert pane.isAncestorOf(press(qtbot, Qt.Key.Key_F6))
    assert press(qtbot, Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier) is window.table
    window.actions_by_id[ActionId.SHOW_TAG_PANE].trigger()  # a hidden pane is passed by
    assert press(qtbot, Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier) is window.search_box
    window.search_box.setText("rivers")
    window.table.setFocus()
    assert press(qtbot, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier) is window.search_box
    assert window.search_box.selectedText() == "rivers"  # typing replaces it
    assert press(qtbot, Qt.Key.Key_Escape) is window.search_box
    assert window.search_box.text() == ""


def _alt(qtbot: QtBot, dialog: QWidget, letter: Qt.Key) -> QWidget:
    """Alt and a letter in a dialog; where the keyboard is then."""
    qtbot.keyClick(dialog, letter, Qt.KeyboardModifier.AltModifier)
    return focused()


@pytest.mark.qt_log_ignore("does not support raise", "grabbing the keyboard")
def test_the_fields_of_the_dialogs_are_reached_with_alt_and_their_letter(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Save Search…'s, Export's and the Preferences' fields had no letter (the New Paper
    form's had), and the Preferences' base folder no name a screen reader could say."""
    press(
        qtbot, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    dialog = window.saved.dialog
    assert dialog is not None
    qtbot.wait_until(dialog.isActiveWindow)
    assert _alt(qtbot, dialog, Qt.Key.Key_R) is dialog.search
    assert _alt(qtbot, dialog, Qt.Key.Key_T) is dialog.tags
    assert _alt(qtbot, dialog, Qt.Key.Key_N) is dialog.name
    _alt(qtbot, dialog, Qt.Key.Key_A)
    qtbot.wait_until(dialog.any_tag.isChecked)
    dialog.reject()
    prefs = PreferencesDialog(window.settings, {"apa": "APA"}, [], window)
    qtbot.add_widget(prefs)
    prefs.show()
    prefs.activateWindow()
    qtbot.wait_until(prefs.isActiveWindow)
    assert _alt(qtbot, prefs, Qt.Key.Key_B) is prefs.base_edit
    assert _spoken(prefs.base_edit) == "Base folder of linked files:"
    assert _alt(qtbot, prefs, Qt.Key.Key_F) is prefs.format_combo
    assert _alt(qtbot, prefs, Qt.Key.Key_S) is prefs.style_combo
    _alt(qtbot, prefs, Qt.Key.Key_L)
    qtbot.wait_until(prefs.link_check.isChecked)
    prefs.reject()
    export = ExportDialog("3 papers", [], "bibtex", False, window)
    qtbot.add_widget(export)
    export.show()
    export.activateWindow()
    qtbot.wait_until(export.isActiveWindow)
    assert _alt(qtbot, export, Qt.Key.Key_F) is export.format_combo
    _alt(qtbot, export, Qt.Key.Key_N)
    qtbot.wait_until(export.notes_check.isChecked)
    export.reject()


def test_tab_from_the_list_goes_to_the_papers_title_no_invisible_stop_between(
    qtbot: QtBot, window: MainWindow
) -> None:
    """The detail pane's scroll area took the keyboard on its own: a Tab showed nothing."""
    show_first_paper(qtbot, window)
    pane = window.detail_pane
    window.table.setFocus()
    qtbot.wait_until(window.table.hasFocus)
    assert press(qtbot, Qt.Key.Key_Tab) is pane.title_edit
    assert press(qtbot, Qt.Key.Key_Backtab) is window.table
    stops = []
    widget = window.table.nextInFocusChain()
    while widget is not None and widget is not window.table:
        if widget.focusPolicy() & Qt.FocusPolicy.TabFocus and pane.isAncestorOf(widget):
            stops.append(widget)
        widget = widget.nextInFocusChain()
    assert pane.scroll_area not in stops and pane.scroll_area.viewport() not in stops
