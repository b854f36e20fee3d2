"""The navigation pane on a real library: sections, people, tag filters and tag editing."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QByteArray, QMimeData, QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QColor, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import (
    QApplication,
    QColorDialog,
    QDialogButtonBox,
    QInputDialog,
    QListWidgetItem,
)
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from refman.core.rules import TAG_MAX
from refman.core.values import PaperQuery, Section
from tests.helpers.fixtures import settle, sourced

from refman.ui import tag_pane
from refman.ui.controller import LibraryController
from refman.ui.paper_drag import PAPER_IDS_MIME
from refman.ui.sidebar import COLOUR_ROLE, COUNT_ROLE, KEY_ROLE
from refman.ui.tag_pane import NavFilter, TagPane

# The offscreen platform warns when a top-level widget is shown; nothing to do with us.
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")

AUTHORS_PAGE = """Ada Lovelace

Grace Hopper, Alan Turing, Ada Lovelace et al.

We introduce an analytical engine for numbers and symbols, with a long abstract of many words.
"""


def publication_page(owner: str, titles: list[str]) -> str:
    """A publication-list page with one record per title."""
    lines = [
        "arXiv subjects",
        owner,
        f"Publications and source records attributed to {owner}.",
        f"{len(titles)} recordsLinked to original sources",
    ]
    for n, title in enumerate(titles):
        lines += [
            "arXiv2024",
            title,
            f"Abstract number {n} of {title.lower()}, with enough words to read as an abstract.",
            "cs.LG↗",
        ]
    return "\n\n".join(lines)


@pytest.fixture
def ids(library: LibraryService) -> dict[str, int]:
    """Four papers, three from Alice Smith and one from Ada; their ids by the first word of
    their title."""
    titles = ["Graph networks at scale", "Sparse attention kernels", "Robust optimisers"]
    library.import_pages([sourced(publication_page("Alice Smith", titles)), sourced(AUTHORS_PAGE)])
    return {d.title.split()[0]: d.id for d in library.details(library.paper_ids())}


@pytest.fixture
def pane(qtbot: QtBot, controller: LibraryController, ids: dict[str, int]) -> TagPane:
    """A shown tag pane over the four papers."""
    widget = TagPane(controller)
    qtbot.add_widget(widget)
    widget.resize(260, 700)
    widget.show()
    qtbot.wait_exposed(widget)
    settle(controller)  # the counts are read off the GUI thread
    return widget


def tagged(controller: LibraryController, ids: dict[str, int], pane: TagPane) -> None:
    """Tag Graph+Sparse "ml", Sparse+Robust "systems"."""
    controller.tag([ids["Graph"], ids["Sparse"]], ["ml"])
    controller.tag([ids["Sparse"], ids["Robust"]], ["systems"])
    settle(controller)
    controller.undo_stack.clear()


def papers_with_tag(library: LibraryService, name: str) -> set[int]:
    """The papers that carry a tag, read from the library."""
    return set(library.paper_ids(PaperQuery(tags=(name,))))


def colour_of(library: LibraryService, name: str) -> str | None:
    """A tag's colour, read from the library (the tag must exist)."""
    (colour,) = [t.colour for t in library.tags() if t.name == name]
    return colour


def undo(controller: LibraryController) -> None:
    """Take the last change back, as Edit > Undo does, and wait for it to land."""
    controller.undo()
    settle(controller)


def tag_row(pane: TagPane, name: str) -> QListWidgetItem:
    """The row of a tag (which must be listed)."""
    item = pane.tag_list.find_row("tag", name)
    assert item is not None, name
    return item


def click_tag(qtbot: QtBot, pane: TagPane, name: str, modifier: Qt.KeyboardModifier) -> None:
    """Click a tag in the list like a user (with a modifier key)."""
    centre = pane.tag_list.visualItemRect(tag_row(pane, name)).center()
    qtbot.mouseClick(pane.tag_list.viewport(), Qt.MouseButton.LeftButton, modifier, centre)


def trigger(pane: TagPane, name: str, text: str) -> None:
    """Trigger an entry of a tag's context menu."""
    menu = pane.build_tag_menu(name)
    action = next(a for a in menu.actions() if a.text().replace("&", "").startswith(text))
    action.trigger()


def counts_shown(pane: TagPane) -> dict[object, int]:
    """The count on every section and person row."""
    shown = {}
    for r in range(pane.nav_list.count()):
        item = pane.nav_list.item(r)
        if item.data(COUNT_ROLE) is not None:
            shown[item.data(KEY_ROLE)] = item.data(COUNT_ROLE)
    return shown


def test_sections_and_people_show_their_counts(pane: TagPane, library: LibraryService) -> None:
    shown = counts_shown(pane)
    assert shown[Section.ALL] == 4
    assert shown[Section.UNTAGGED] == 4
    assert shown[Section.TRASH] == 0
    assert shown[Section.ATTENTION] == library.section_counts().attention
    people = {p.id: p.count for p in library.people()}
    assert {k: v for k, v in shown.items() if isinstance(k, int)} == people
    texts = [pane.nav_list.item(r).text() for r in range(pane.nav_list.count())]
    assert texts[:7] == [
        "Library",
        "All papers",
        "Unread",
        "Needs attention",
        "Untagged",
        "Recently added",
        "Trash",
    ]
    assert "People" in texts and "Alice Smith" in texts
    assert pane.current_filter() == NavFilter(Section.ALL, None, ())


def test_counts_follow_changes(
    pane: TagPane, controller: LibraryController, ids: dict[str, int]
) -> None:
    controller.tag([ids["Graph"]], ["ml"])
    settle(controller)
    assert counts_shown(pane)[Section.UNTAGGED] == 3
    controller.tag([ids["Sparse"], ids["Robust"]], ["ml"])
    settle(controller)
    assert counts_shown(pane)[Section.UNTAGGED] == 1
    assert tag_row(pane, "ml").data(COUNT_ROLE) == 3
    undo(controller)
    assert counts_shown(pane)[Section.UNTAGGED] == 3
    assert tag_row(pane, "ml").data(COUNT_ROLE) == 1
    undo(controller)
    assert counts_shown(pane)[Section.UNTAGGED] == 4
    assert pane.tag_list.find_row("tag", "ml") is None


def test_a_tag_change_right_after_a_trash_still_counts_everything_again(
    pane: TagPane, controller: LibraryController, library: LibraryService, ids: dict[str, int]
) -> None:
    """A change to tags alone counts only what tags change, but not over a reload of
    everything that was asked and not shown yet (the Trash's count would stay behind)."""
    people_before = {k: v for k, v in counts_shown(pane).items() if isinstance(k, int)}
    controller.trash([ids["Graph"]])
    controller.tag([ids["Sparse"]], ["ml"])  # both land before the first count is shown
    settle(controller)
    shown = counts_shown(pane)
    assert shown[Section.TRASH] == 1 and shown[Section.ALL] == 3
    assert shown[Section.UNTAGGED] == 2
    assert tag_row(pane, "ml").data(COUNT_ROLE) == 1
    people = {p.id: p.count for p in library.people()}
    assert {k: v for k, v in shown.items() if isinstance(k, int)} == people != people_before


def test_clicking_a_person_filters_by_that_person(
    qtbot: QtBot, pane: TagPane, library: LibraryService
) -> None:
    alice = next(p.id for p in library.people() if p.name == "Alice Smith")
    item = pane.nav_list.find_row("person", alice)
    assert item is not None
    centre = pane.nav_list.visualItemRect(item).center()
    with qtbot.wait_signal(pane.filter_changed) as blocker:
        qtbot.mouseClick(pane.nav_list.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    assert blocker.args == [NavFilter(Section.ALL, alice, ())]
    with qtbot.wait_signal(pane.filter_changed) as blocker:
        pane.select_section(Section.TRASH)
    assert blocker.args == [NavFilter(Section.TRASH, None, ())]


def test_selecting_an_author_who_owns_no_page_lists_them(
    qtbot: QtBot, pane: TagPane, library: LibraryService
) -> None:
    detail = next(d for d in library.details(library.paper_ids()) if d.authors)
    grace = detail.author_ids[detail.authors.index("Grace Hopper")]
    with qtbot.wait_signal(pane.filter_changed) as blocker:
        pane.select_person(grace)
    assert blocker.args[0].person_id == grace
    item = pane.nav_list.find_row("person", grace)
    assert item is not None and item.text() == "Grace Hopper" and item.isSelected()
    settle(pane.controller)  # the count is read, then shown
    item = pane.nav_list.find_row("person", grace)
    assert item is not None and item.isSelected() and item.data(COUNT_ROLE) == 1
    pane.select_section(Section.ALL)
    assert pane.nav_list.find_row("person", grace) is None


def test_click_ctrl_click_and_clear_tag_filter(
    qtbot: QtBot, pane: TagPane, controller: LibraryController, ids: dict[str, int]
) -> None:
    tagged(controller, ids, pane)
    clear = pane.findChild(type(pane.clear_button), "clearTagFilter")
    assert clear is pane.clear_button and not clear.isEnabled()
    with qtbot.wait_signal(pane.filter_changed) as blocker:
        click_tag(qtbot, pane, "ml", Qt.KeyboardModifier.NoModifier)
    assert blocker.args == [NavFilter(Section.ALL, None, ("ml",))]
    assert clear.isEnabled()
    with qtbot.wait_signal(pane.filter_changed) as blocker:
        click_tag(qtbot, pane, "systems", Qt.KeyboardModifier.ControlModifier)
    assert blocker.args[0].tags == ("ml", "systems")
    with qtbot.wait_signal(pane.filter_changed) as blocker:
        click_tag(qtbot, pane, "ml", Qt.KeyboardModifier.ControlModifier)
    assert blocker.args[0].tags == ("systems",)
    with qtbot.wait_signal(pane.filter_changed) as blocker:
        qtbot.mouseClick(clear, Qt.MouseButton.LeftButton)
    assert blocker.args[0].tags == ()
    assert not clear.isEnabled()
    assert pane.current_filter() == NavFilter()


def test_tag_list_shows_counts_and_colours(
    pane: TagPane,
    controller: LibraryController,
    library: LibraryService,
    ids: dict[str, int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tagged(controller, ids, pane)
    monkeypatch.setattr(tag_pane, "ask_colour", lambda parent, current: "#e53935")
    trigger(pane, "ml", "Set Colour")
    settle(controller)
    assert colour_of(library, "ml") == "#e53935"
    item = pane.tag_list.find_row("tag", "ml")
    assert item is not None
    assert item.data(COLOUR_ROLE) == "#e53935" and item.data(COUNT_ROLE) == 2
    monkeypatch.setattr(tag_pane, "ask_colour", lambda parent, current: ...)
    trigger(pane, "ml", "Set Colour")  # cancelled: nothing changes
    settle(controller)
    assert colour_of(library, "ml") == "#e53935"
    assert controller.undo_stack.count() == 1
    trigger(pane, "ml", "No Colour")
    settle(controller)
    assert colour_of(library, "ml") is None
    assert tag_row(pane, "ml").data(COLOUR_ROLE) is None
    undo(controller)
    assert colour_of(library, "ml") == "#e53935"
    assert tag_row(pane, "ml").data(COLOUR_ROLE) == "#e53935"


def test_rename_then_undo(
    pane: TagPane,
    controller: LibraryController,
    library: LibraryService,
    ids: dict[str, int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tagged(controller, ids, pane)
    pane.select_tags(["ml"])
    prompts: list[str] = []

    def ask(parent: object, old: str) -> str:
        prompts.append(old)
        return "machine learning"

    monkeypatch.setattr(tag_pane, "ask_tag_name", ask)
    trigger(pane, "ml", "Rename")
    settle(controller)
    assert prompts == ["ml"]
    assert [t.name for t in library.tags()] == ["machine learning", "systems"]
    assert papers_with_tag(library, "machine learning") == {ids["Graph"], ids["Sparse"]}
    assert pane.current_filter().tags == ("machine learning",)  # the selection follows
    undo(controller)
    assert [t.name for t in library.tags()] == ["ml", "systems"]
    assert papers_with_tag(library, "ml") == {ids["Graph"], ids["Sparse"]}
    assert tag_row(pane, "ml").data(COUNT_ROLE) == 2


def test_f2_on_a_tag_renames_it(
    qtbot: QtBot,
    pane: TagPane,
    controller: LibraryController,
    library: LibraryService,
    ids: dict[str, int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The keyboard reaches Rename… too (a context menu is the mouse's), as in a file
    manager."""
    tagged(controller, ids, pane)
    prompts: list[str] = []

    def ask(parent: object, old: str) -> str:
        prompts.append(old)
        return "machine learning"

    monkeypatch.setattr(tag_pane, "ask_tag_name", ask)
    pane.tag_list.setFocus()
    pane.tag_list.setCurrentItem(tag_row(pane, "ml"))
    qtbot.keyClick(pane.tag_list, Qt.Key.Key_F2)
    settle(controller)
    assert prompts == ["ml"]
    assert [t.name for t in library.tags()] == ["machine learning", "systems"]
    undo(controller)
    assert [t.name for t in library.tags()] == ["ml", "systems"]


def test_rename_onto_existing_tag_merges_and_undo_splits(
    pane: TagPane,
    controller: LibraryController,
    library: LibraryService,
    ids: dict[str, int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tagged(controller, ids, pane)
    before = {t.name: (t.id, t.colour, papers_with_tag(library, t.name)) for t in library.tags()}
    monkeypatch.setattr(tag_pane, "ask_tag_name", lambda parent, old: "systems")
    pane.rename_tag("ml")
    settle(controller)
    assert [t.name for t in library.tags()] == ["systems"]
    assert papers_with_tag(library, "systems") == {ids["Graph"], ids["Sparse"], ids["Robust"]}
    assert pane.tag_list.count() == 1
    undo(controller)
    after = {t.name: (t.id, t.colour, papers_with_tag(library, t.name)) for t in library.tags()}
    assert after == before
    assert pane.tag_list.count() == 2


def test_rename_prompt_mentions_merging(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def get_text(parent: object, title: str, label: str, text: str = "") -> tuple[str, bool]:
        seen.append(label)
        return "", False

    monkeypatch.setattr(QInputDialog, "getText", get_text)
    assert tag_pane.ask_tag_name(None, "ml") is None
    assert "merged" in seen[0]


def test_delete_tag_and_undo(
    pane: TagPane, controller: LibraryController, library: LibraryService, ids: dict[str, int]
) -> None:
    tagged(controller, ids, pane)
    pane.select_tags(["ml", "systems"])
    trigger(pane, "ml", "Delete Tag")
    settle(controller)
    assert [t.name for t in library.tags()] == ["systems"]
    assert pane.current_filter().tags == ("systems",)
    assert pane.tag_list.find_row("tag", "ml") is None
    undo(controller)
    assert papers_with_tag(library, "ml") == {ids["Graph"], ids["Sparse"]}
    assert pane.tag_list.find_row("tag", "ml") is not None


def drag_move(pos: QPointF, mime: QMimeData) -> QDragMoveEvent:
    """A drag moving over a point of the tag list's viewport."""
    return QDragMoveEvent(
        pos.toPoint(),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )


def drop_at(pos: QPointF, mime: QMimeData) -> QDropEvent:
    """A drop at a point of the tag list's viewport."""
    return QDropEvent(
        pos,
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )


def paper_drag(paper_ids: list[int]) -> QMimeData:
    """What the paper list puts on a drag."""
    mime = QMimeData()
    mime.setData(PAPER_IDS_MIME, QByteArray(json.dumps(paper_ids).encode()))
    return mime


# PySide6 marks the only QDragMoveEvent constructor deprecated (it takes a QPoint).
@pytest.mark.filterwarnings("ignore:Function.*QDragMoveEvent:DeprecationWarning")
def test_dropping_papers_on_a_tag_tags_them(
    pane: TagPane, controller: LibraryController, library: LibraryService, ids: dict[str, int]
) -> None:
    tagged(controller, ids, pane)
    item = pane.tag_list.find_row("tag", "systems")
    assert item is not None
    centre = QPointF(pane.tag_list.visualItemRect(item).center())
    mime = paper_drag([ids["Graph"], ids["Sparse"]])
    move = drag_move(centre, mime)
    pane.tag_list.dragMoveEvent(move)
    assert move.isAccepted()
    assert pane.tag_list.drop_row == pane.tag_list.row(item)  # highlighted while dragging
    drop = drop_at(centre, mime)
    pane.tag_list.dropEvent(drop)
    assert drop.isAccepted()
    assert pane.tag_list.drop_row == -1
    settle(controller)
    assert papers_with_tag(library, "systems") == {ids["Graph"], ids["Sparse"], ids["Robust"]}
    assert tag_row(pane, "systems").data(COUNT_ROLE) == 3
    undo(controller)
    assert papers_with_tag(library, "systems") == {ids["Sparse"], ids["Robust"]}
    assert tag_row(pane, "systems").data(COUNT_ROLE) == 2


@pytest.mark.filterwarnings("ignore:Function.*QDragMoveEvent:DeprecationWarning")
def test_drops_of_anything_else_are_refused(
    pane: TagPane, controller: LibraryController, library: LibraryService, ids: dict[str, int]
) -> None:
    controller.tag([ids["Graph"]], ["ml"])
    settle(controller)
    item = tag_row(pane, "ml")
    centre = QPointF(pane.tag_list.visualItemRect(item).center())
    mime = QMimeData()
    mime.setText("[1, 2]")
    move = drag_move(centre, mime)
    pane.tag_list.dragMoveEvent(move)
    assert not move.isAccepted()
    below = QPointF(QPoint(20, pane.tag_list.viewport().height() - 2))
    papers = paper_drag([ids["Sparse"]])  # the event does not own its data: keep it alive
    drop = drop_at(below, papers)
    pane.tag_list.dropEvent(drop)  # not over a tag
    assert not drop.isAccepted()
    settle(controller)
    assert papers_with_tag(library, "ml") == {ids["Graph"]}
    assert controller.undo_stack.count() == 1


def test_select_tags_ignores_unknown_names_and_escape_clears(
    qtbot: QtBot, pane: TagPane, controller: LibraryController, ids: dict[str, int]
) -> None:
    tagged(controller, ids, pane)
    pane.select_tags(["ML", "nope"])
    assert pane.current_filter().tags == ("ml",)
    pane.tag_list.setFocus()
    with qtbot.wait_signal(pane.filter_changed) as blocker:
        qtbot.keyClick(pane.tag_list, Qt.Key.Key_Escape)
    assert blocker.args[0].tags == ()


def test_empty_library_shows_a_hint_instead_of_tags(
    qtbot: QtBot, controller: LibraryController
) -> None:
    widget = TagPane(controller)
    qtbot.add_widget(widget)
    widget.show()
    settle(controller)
    assert widget.no_tags.isVisible() and not widget.tag_list.isVisible()
    assert counts_shown(widget)[Section.ALL] == 0


@pytest.mark.parametrize(
    ("button", "expected"),
    [("No Colour", None), ("OK", "#00ff00"), ("Cancel", ...)],
)
def test_colour_dialog_answers(qtbot: QtBot, button: str, expected: object) -> None:
    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QColorDialog)
        dialog.setCurrentColor(QColor("#00ff00"))
        box = dialog.findChild(QDialogButtonBox)
        assert box is not None
        chosen = next(b for b in box.buttons() if b.text().replace("&", "") == button)
        chosen.click()

    QTimer.singleShot(0, answer)
    assert tag_pane.ask_colour(None, "#123456") == expected


def test_a_refused_rename_is_shown_and_changes_nothing(
    pane: TagPane,
    controller: LibraryController,
    library: LibraryService,
    ids: dict[str, int],
    monkeypatch: pytest.MonkeyPatch,
    shown_errors: list[str],
) -> None:
    tagged(controller, ids, pane)
    pane.select_tags(["ml"])
    monkeypatch.setattr(tag_pane, "ask_tag_name", lambda parent, old: "x" * (TAG_MAX + 1))
    trigger(pane, "ml", "Rename")
    settle(controller)
    assert shown_errors == [f"A tag name can be at most {TAG_MAX} characters long."]
    assert [t.name for t in library.tags()] == ["ml", "systems"]
    assert pane.current_filter().tags == ("ml",)
    assert controller.undo_stack.count() == 0


def test_a_renamed_tag_leaves_no_trace_in_the_selection(
    pane: TagPane,
    controller: LibraryController,
    library: LibraryService,
    ids: dict[str, int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tagged(controller, ids, pane)
    monkeypatch.setattr(tag_pane, "ask_tag_name", lambda parent, old: "machine learning")
    trigger(pane, "ml", "Rename")  # while "ml" is not selected
    settle(controller)
    assert pane.current_filter().tags == ()
    controller.tag([ids["Robust"]], ["ml"])  # a new tag of the old name
    settle(controller)
    pane.select_tags(["ml"])
    controller.tag([ids["Graph"]], ["systems"])
    settle(controller)
    assert pane.current_filter().tags == ("ml",)
