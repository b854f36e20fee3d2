"""Detail pane fixes from the review: tag completion, several tags at once, the duplicate banner,
confirming a suggested title, and event handlers that survive teardown.

Every test drives the real widgets (keys and clicks on a shown, active window) and checks both
what the user sees and what the library holds.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QFocusEvent, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from refman.core.importing.values import ImportChoices, SourcedPage
from refman.core.library import LibraryService
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from tests.helpers.fixtures import settle, sourced
from tests.helpers.panes import MakePane, add_note

from refman.ui.controller import LibraryController
from refman.ui.detail_banner import duplicate_line
from refman.ui.detail_pane import PROVISIONAL_NOTE, DetailPane

pytestmark = pytest.mark.qt_log_ignore(
    "does not support propagateSizeHints", "does not support raise", "does not support grabbing"
)

LONG = "Placement-Aware Job Scheduling for Training Across More Than Eight Thousand Chips"
NEAR = LONG.replace("Job", "Jab")

AUTHORS = (
    "Ada Lovelace\n\n"
    "Grace Hopper, Alan Turing, Ada Lovelace et al.\n\n"
    "We introduce BAMBOO (\\textbf{B}yteDance \\textbf{A}I \\textbf{M}olecular Simulation "
    "\\textbf{Boo}ster), a framework for molecular dynamics with many words.\n"
)


@pytest.fixture
def ids(library: LibraryService) -> dict[str, int]:
    """Three papers: an original (tagged "to read"), a near-identical one kept separate, and
    a provisional one."""
    first = ParsedRecord(LONG, False, "Abstract one about many things in a cluster scheduler.")
    second = ParsedRecord(NEAR, False, "Abstract two, another text entirely on something.")
    page = ParsedPage("Maren Solvik", PageFormat.PUBLICATION_LIST, 2, [first, second])
    result = library.import_pages([SourcedPage(page)], ImportChoices(keep_all_separate=True))
    original, duplicate = result.new_ids
    (bamboo,) = library.import_pages([sourced(AUTHORS, "ada.txt")]).new_ids
    assert library.paper(duplicate).possible_duplicate_of == original
    assert library.paper(bamboo).title_provisional
    library.tag([original], ["to read"])
    return {"original": original, "duplicate": duplicate, "bamboo": bamboo}


def tags_of(controller: LibraryController, paper_id: int) -> list[str]:
    """The tag names on a paper, as stored."""
    return sorted(t.name for t in controller.service.paper(paper_id).tags)


def type_in_tag_field(qtbot: QtBot, pane: DetailPane, text: str) -> QLineEdit:
    """Focus *Add tag…* and type into it."""
    field = pane.findChild(QLineEdit, "addTagField")
    assert isinstance(field, QLineEdit)
    field.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.wait_until(field.hasFocus)
    qtbot.keyClicks(field, text)
    return field


def completion_popup(qtbot: QtBot, field: QLineEdit) -> QAbstractItemView:
    """The completer's list, once it is shown."""
    completer = field.completer()
    assert completer is not None
    popup = completer.popup()
    assert popup is not None
    qtbot.wait_until(popup.isVisible)
    return popup


# -- 1. picking a completion -------------------------------------------------------------------


def test_picking_a_completion_with_down_and_enter_adds_it_once_and_empties_the_field(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["duplicate"])
    field = type_in_tag_field(qtbot, pane, "to")
    popup = completion_popup(qtbot, field)
    assert [popup.model().index(r, 0).data() for r in range(popup.model().rowCount())] == [
        "to read"
    ]
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    assert field.text() == "to read"  # the highlighted completion, as the user sees it
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    qtbot.wait_until(lambda: field.text() == "")
    settle(controller)
    assert not popup.isVisible()
    assert tags_of(controller, ids["duplicate"]) == ["to read"]
    qtbot.wait_until(lambda: pane.tag_chips.tag_names() == ["to read"])  # (read again first)
    assert controller.undo_stack.count() == 1

    qtbot.keyClicks(field, "systems")  # the next tag is not glued onto the last
    qtbot.keyClick(field, Qt.Key.Key_Return)
    settle(controller)
    assert tags_of(controller, ids["duplicate"]) == ["systems", "to read"]
    assert field.text() == ""
    assert controller.undo_stack.count() == 2
    assert "to readsystems" not in [t.name for t in controller.service.tags()]


def test_picking_a_completion_with_the_mouse_adds_it_once_and_empties_the_field(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["duplicate"])
    field = type_in_tag_field(qtbot, pane, "read")  # matches anywhere in the name
    popup = completion_popup(qtbot, field)
    index = popup.model().index(0, 0)
    viewport = popup.viewport()
    assert viewport is not None
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=popup.visualRect(index).center())
    qtbot.wait_until(lambda: field.text() == "")
    settle(controller)
    QApplication.processEvents()  # nothing writes the completion back afterwards
    assert field.text() == ""
    assert tags_of(controller, ids["duplicate"]) == ["to read"]
    assert pane.tag_chips.tag_names() == ["to read"]
    assert controller.undo_stack.count() == 1
    qtbot.keyClicks(field, "systems")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    settle(controller)
    assert tags_of(controller, ids["duplicate"]) == ["systems", "to read"]


def test_enter_without_picking_adds_what_was_typed(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["duplicate"])
    field = type_in_tag_field(qtbot, pane, "to")
    popup = completion_popup(qtbot, field)  # offered, but nothing chosen
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    settle(controller)
    assert field.text() == ""
    assert tags_of(controller, ids["duplicate"]) == ["to"]
    assert pane.tag_chips.tag_names() == ["to"]
    assert controller.undo_stack.count() == 1


# -- 2. several tags at once -------------------------------------------------------------------


def test_comma_separated_tags_are_added_as_one_undo_step(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["duplicate"])
    field = type_in_tag_field(qtbot, pane, "systems,  to   skim , ,Systems")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    settle(controller)
    assert tags_of(controller, ids["duplicate"]) == ["systems", "to skim"]
    assert sorted(pane.tag_chips.tag_names()) == ["systems", "to skim"]
    assert field.text() == ""
    assert controller.undo_stack.count() == 1
    controller.undo()
    settle(controller)
    assert tags_of(controller, ids["duplicate"]) == []
    assert pane.tag_chips.tag_names() == []


def test_completing_after_a_comma_keeps_the_tags_typed_before_it(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["duplicate"])
    field = type_in_tag_field(qtbot, pane, "systems, to")
    popup = completion_popup(qtbot, field)
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    assert field.text() == "systems, to read"
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    qtbot.wait_until(lambda: field.text() == "")
    settle(controller)
    assert tags_of(controller, ids["duplicate"]) == ["systems", "to read"]
    assert controller.undo_stack.count() == 1


# -- 3. the "possible duplicate" banner --------------------------------------------------------


def test_duplicate_banner_names_the_other_paper_and_links_to_it(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int]
) -> None:
    pane = make_pane(ids["duplicate"])
    assert pane.banner.isVisible()
    assert pane.banner.text.text() == f"Possibly the same paper as “{LONG}”"
    assert "#" not in pane.banner.text.text()
    show = pane.findChild(QPushButton, "showDuplicateButton")
    assert show is pane.banner.show_button and show.isVisible()
    with qtbot.wait_signal(pane.paper_link_activated) as blocker:
        qtbot.mouseClick(show, Qt.MouseButton.LeftButton)
    assert blocker.args == [ids["original"]]
    pane.show_paper(ids["original"])  # the other paper has no banner
    qtbot.wait_until(lambda: shown_id(pane) == ids["original"])
    assert not pane.banner.isVisible()


def test_not_a_duplicate_clears_the_flag_and_undo_brings_it_back(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["duplicate"])
    button = pane.findChild(QPushButton, "notDuplicateButton")
    assert button is pane.banner.not_duplicate_button and button.isVisible()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    settle(controller)
    assert controller.service.paper(ids["duplicate"]).possible_duplicate_of is None
    assert controller.service.section_counts().attention == 1  # only the provisional title
    assert not pane.banner.isVisible()
    assert controller.undo_stack.count() == 1
    controller.undo()
    settle(controller)
    assert controller.service.paper(ids["duplicate"]).possible_duplicate_of == ids["original"]
    assert pane.banner.isVisible() and pane.banner.not_duplicate_button.isVisible()


def test_a_click_that_leaves_an_edited_title_saves_it_and_still_clicks(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["duplicate"])
    pane.title_edit.setFocus()
    qtbot.wait_until(pane.title_edit.hasFocus)
    qtbot.keyClick(pane.title_edit, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(pane.title_edit, " (v2)")
    qtbot.mouseClick(pane.banner.not_duplicate_button, Qt.MouseButton.LeftButton)
    settle(controller)
    assert controller.service.paper(ids["duplicate"]).title == f"{NEAR} (v2)"
    assert controller.service.paper(ids["duplicate"]).possible_duplicate_of is None
    assert not pane.banner.isVisible()


def test_duplicate_of_a_trashed_paper_says_so_and_offers_no_link(
    make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    controller.trash([ids["original"]])
    settle(controller)
    pane = make_pane(ids["duplicate"])
    assert pane.banner.text.text() == f"Possibly the same paper as “{LONG}”, now in the Trash"
    assert not pane.banner.show_button.isVisible()
    assert pane.banner.not_duplicate_button.isVisible()


def test_duplicate_of_a_paper_that_is_gone(
    make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    """Another program deleted the look-alike between two reads: the banner says so."""
    pane = make_pane(ids["duplicate"])
    pane.banner.show_for(controller.service.paper(ids["duplicate"]), None)
    assert pane.banner.text.text() == duplicate_line(None)
    assert not pane.banner.show_button.isVisible()
    assert pane.banner.not_duplicate_button.isVisible()


def test_duplicate_banner_lays_out_inside_the_pane(
    make_pane: MakePane, ids: dict[str, int]
) -> None:
    pane = make_pane(ids["duplicate"])
    QApplication.processEvents()
    banner = pane.banner.rect()
    text = pane.banner.text.geometry()
    for button in (pane.banner.show_button, pane.banner.not_duplicate_button):
        box = button.geometry()
        assert banner.contains(box), button.objectName()
        assert box.top() > text.bottom(), button.objectName()  # below the text, not over it
    assert pane.banner.show_button.geometry().right() < pane.banner.not_duplicate_button.x()
    right_edge = pane.banner.mapTo(pane, QPoint(banner.right(), 0)).x()
    assert right_edge < pane.width()


# -- 4. confirming a suggested title -----------------------------------------------------------


def _assert_confirmed(pane: DetailPane, controller: LibraryController, paper_id: int) -> None:
    detail = controller.service.paper(paper_id)
    assert not detail.title_provisional and "title" in detail.user_edited
    assert not pane.provisional.isVisible() and not pane.keep_title_button.isVisible()
    assert controller.undo_stack.count() == 1


def test_enter_in_an_unchanged_suggested_title_keeps_it(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["bamboo"])
    assert pane.provisional.isVisible() and pane.provisional.text() == PROVISIONAL_NOTE
    assert pane.keep_title_button.isVisible()
    pane.title_edit.setFocus()
    qtbot.keyClick(pane.title_edit, Qt.Key.Key_Return)
    settle(controller)
    _assert_confirmed(pane, controller, ids["bamboo"])
    assert controller.service.paper(ids["bamboo"]).title == "BAMBOO"
    assert pane.title_edit.toPlainText() == "BAMBOO"
    controller.undo()
    settle(controller)
    assert controller.service.paper(ids["bamboo"]).title_provisional
    assert pane.provisional.isVisible() and pane.keep_title_button.isVisible()


def test_keep_this_title_button_keeps_the_suggested_title(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["bamboo"])
    button = pane.findChild(QPushButton, "keepTitleButton")
    assert button is pane.keep_title_button and button.text() == "Keep this title"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    settle(controller)
    _assert_confirmed(pane, controller, ids["bamboo"])
    assert controller.service.paper(ids["bamboo"]).title == "BAMBOO"


def test_keep_this_title_after_typing_keeps_what_was_typed(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["bamboo"])
    pane.title_edit.setFocus()
    qtbot.wait_until(pane.title_edit.hasFocus)
    qtbot.keyClick(pane.title_edit, Qt.Key.Key_End)
    qtbot.keyClicks(pane.title_edit, " booster")
    qtbot.mouseClick(pane.keep_title_button, Qt.MouseButton.LeftButton)
    settle(controller)
    _assert_confirmed(pane, controller, ids["bamboo"])
    assert controller.service.paper(ids["bamboo"]).title == "BAMBOO booster"


def test_the_keep_button_is_only_there_for_suggested_titles(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["original"])
    assert not pane.keep_title_button.isVisible() and not pane.provisional.isVisible()
    pane.title_edit.setFocus()
    qtbot.keyClick(pane.title_edit, Qt.Key.Key_Return)  # an unchanged real title: nothing
    settle(controller)
    assert controller.undo_stack.count() == 0
    assert controller.service.paper(ids["original"]).user_edited == frozenset()


def test_keep_button_sits_beside_the_note(make_pane: MakePane, ids: dict[str, int]) -> None:
    pane = make_pane(ids["bamboo"])
    QApplication.processEvents()

    def placed(widget: QWidget) -> QRect:  # where it is in the pane
        return QRect(widget.mapTo(pane, QPoint(0, 0)), widget.size())

    note, button = placed(pane.provisional), placed(pane.keep_title_button)
    assert note.right() < button.left()
    assert button.top() >= placed(pane.title_edit).bottom()
    assert button.right() <= placed(pane.title_edit).right() + 1


# -- 5. event handlers during teardown ---------------------------------------------------------


def _without_attributes(widget: QWidget, *events: tuple[QWidget, QEvent]) -> None:
    """Deliver events to a widget whose Python attributes are gone (as in teardown)."""
    saved = dict(widget.__dict__)
    widget.__dict__.clear()
    try:
        for target, event in events:
            QApplication.sendEvent(target, event)
    finally:
        widget.__dict__.update(saved)


def test_note_card_events_after_its_attributes_are_gone_are_ignored(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["original"])
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "kept")
    editor = card.editor
    _without_attributes(
        card,
        (editor, QFocusEvent(QEvent.Type.FocusOut)),
        (card, QResizeEvent(QSize(300, 200), QSize(200, 200))),
    )
    assert controller.runner.idle  # the focus-out saved nothing
    pane.flush()  # the card still works afterwards
    settle(controller)
    assert [n.text for n in controller.service.paper(ids["original"]).notes] == ["kept"]


def test_title_and_field_events_after_their_attributes_are_gone_are_ignored(
    make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["original"])
    pane.title_edit.setPlainText("Half typed")
    _without_attributes(pane.title_edit, (pane.title_edit, QFocusEvent(QEvent.Type.FocusOut)))
    _without_attributes(pane.venue_field, (pane.venue_field, QFocusEvent(QEvent.Type.FocusOut)))
    settle(controller)
    assert controller.service.paper(ids["original"]).title == LONG
    assert controller.undo_stack.count() == 0


def shown_id(pane: DetailPane) -> int | None:
    """The id of the paper the pane has on screen (papers are read off the GUI thread)."""
    shown = pane.shown_paper()
    return shown.id if shown is not None else None
