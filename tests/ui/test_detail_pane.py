"""The detail pane on a real library: what it shows, editing in place, tags and notes."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QEvent, Qt, QUrl
from PySide6.QtGui import QTextCursor, QTextImageFormat
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QWidget,
)
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced
from tests.helpers.panes import MakePane, add_note

from refman.ui import links, notes_editor
from refman.ui.controller import LibraryController
from refman.ui.detail_pane import PROVISIONAL_NOTE, DetailPane

# The offscreen platform warns when a top-level widget is shown; nothing to do with us.
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")

HOSTILE_TITLE = "<b>Bold</b> claims <img src=x onerror=alert(1)>"
HOSTILE_ABSTRACT = (
    "We link to <a href=http://evil.example>a page</a> and <img src=x onerror=alert(1)> "
    "inside an abstract with plenty of ordinary words."
)

PUBLICATIONS = f"""Alice Smith
Publications and source records attributed to Alice Smith.
2 recordsLinked to original sources
arXiv2024
Graph networks at scale
We scale graph networks to billions of edges, with \\textbf{{sparse}} kernels and care.
cs.LG↗
arXiv2023
{HOSTILE_TITLE}
{HOSTILE_ABSTRACT}
math.OC↗
"""

AUTHORS = (
    "Ada Lovelace\n\n"
    "Grace Hopper, Alan Turing, Ada Lovelace et al.\n\n"
    "We introduce BAMBOO (\\textbf{B}yteDance \\textbf{A}I \\textbf{M}olecular Simulation "
    "\\textbf{Boo}ster), a framework for molecular dynamics with many words.\n"
)


@pytest.fixture
def ids(library: LibraryService) -> dict[str, int]:
    """Three papers (two from Alice Smith's page, one from Ada's), by the first word of
    their title."""
    library.import_pages([sourced(PUBLICATIONS, "alice.txt"), sourced(AUTHORS, "ada.txt")])
    return {d.title.split()[0]: d.id for d in library.details(library.paper_ids())}


def retype(qtbot: QtBot, field: QWidget, text: str, *, enter: bool = True) -> None:
    """Select everything in a field, type over it (empty: delete it) and press Enter."""
    field.setFocus()
    field.selectAll()  # type: ignore[attr-defined]
    if text:
        qtbot.keyClicks(field, text)
    else:
        qtbot.keyClick(field, Qt.Key.Key_Delete)
    if enter:
        qtbot.keyClick(field, Qt.Key.Key_Return)


def note_texts(library: LibraryService, paper_id: int) -> list[str]:
    """The texts of a paper's notes, as stored."""
    return [n.text for n in library.paper(paper_id).notes]


def test_empty_state(make_pane: MakePane) -> None:
    pane = make_pane(None)
    assert pane.current_paper() is None
    assert pane.stack.currentWidget() is pane.empty
    assert pane.empty.text() == "Select a paper to see its details"


def test_shows_title_authors_subjects_abstract_and_provenance(
    make_pane: MakePane, ids: dict[str, int]
) -> None:
    pane = make_pane(ids["Graph"])
    assert pane.current_paper() == ids["Graph"]
    assert pane.title_edit.toPlainText() == "Graph networks at scale"
    assert pane.provisional.isHidden()
    assert pane.subject_texts() == ["Machine Learning (cs.LG)"]
    assert "with sparse kernels" in pane.abstract.text()
    assert "\\textbf" not in pane.abstract.text()
    assert pane.year_field.text() == "2024" and pane.venue_field.text() == "arXiv"
    assert pane.provenance.text().startswith("From Alice Smith's page · alice.txt · imported ")
    assert pane.attributed.text() == "Alice Smith"


def test_provisional_title_authors_and_et_al(make_pane: MakePane, ids: dict[str, int]) -> None:
    pane = make_pane(ids["BAMBOO"])
    assert not pane.provisional.isHidden()
    assert pane.provisional.text() == PROVISIONAL_NOTE
    assert "ByteDance AI Molecular Simulation Booster" in pane.abstract.text()
    buttons = pane.authors.findChildren(QPushButton)
    assert [b.accessibleName() for b in buttons] == ["Grace Hopper", "Alan Turing", "Ada Lovelace"]
    assert any(label.text() == "et al." for label in pane.authors.findChildren(QLabel))


def test_clicking_an_author_emits_their_person_id(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], library: LibraryService
) -> None:
    pane = make_pane(ids["BAMBOO"])
    detail = library.paper(ids["BAMBOO"])
    turing = detail.author_ids[detail.authors.index("Alan Turing")]
    button = pane.authors.findChild(QPushButton, f"author_{turing}")
    with qtbot.wait_signal(pane.person_clicked) as blocker:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert blocker.args == [turing]


def test_html_from_a_page_is_shown_literally(make_pane: MakePane, ids: dict[str, int]) -> None:
    hostile = next(i for name, i in ids.items() if name.startswith("<b>"))
    pane = make_pane(hostile)
    assert pane.title_edit.toPlainText() == HOSTILE_TITLE
    assert not pane.title_edit.acceptRichText()
    block = pane.title_edit.document().begin()
    fragments = block.begin()
    while not fragments.atEnd():
        assert not fragments.fragment().charFormat().isImageFormat()
        fragments += 1
    assert not isinstance(pane.title_edit.currentCharFormat(), QTextImageFormat)
    assert pane.abstract.textFormat() == Qt.TextFormat.PlainText
    assert "<img src=x onerror=alert(1)>" in pane.abstract.text()
    assert "<a href=http://evil.example>a page</a>" in pane.abstract.text()
    assert pane.subject_texts() == ["Optimization and Control (math.OC)"]


def test_editing_the_title_persists_and_survives_reimport(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
) -> None:
    pane = make_pane(ids["BAMBOO"])
    retype(qtbot, pane.title_edit, "BAMBOO: a molecular simulation booster")
    settle(controller)
    detail = library.paper(ids["BAMBOO"])
    assert detail.title == "BAMBOO: a molecular simulation booster"
    assert not detail.title_provisional and "title" in detail.user_edited
    assert pane.provisional.isHidden()
    assert pane.title_edit.toPlainText() == "BAMBOO: a molecular simulation booster"
    assert "\n" not in pane.title_edit.toPlainText()
    library.import_pages([sourced(AUTHORS, "ada.txt")])
    assert library.paper(ids["BAMBOO"]).title == "BAMBOO: a molecular simulation booster"


def test_title_committed_then_left_keeps_the_new_title(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
) -> None:
    pane = make_pane(ids["Graph"])
    retype(qtbot, pane.title_edit, "Graph networks, at scale")
    settle(controller)
    assert pane.title_edit.hasFocus()
    pane.year_field.setFocus()  # leaving the title must not commit (or revert) again
    assert not pane.title_edit.hasFocus()
    settle(controller)
    assert pane.title_edit.toPlainText() == "Graph networks, at scale"
    assert library.paper(ids["Graph"]).title == "Graph networks, at scale"
    assert controller.undo_stack.count() == 1


def test_switching_papers_saves_typing_to_the_paper_it_was_typed_for(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
) -> None:
    pane = make_pane(ids["Graph"])
    retype(qtbot, pane.title_edit, "Typed for Graph", enter=False)
    pane.show_paper(ids["BAMBOO"])
    settle(controller)
    assert library.paper(ids["Graph"]).title == "Typed for Graph"
    assert library.paper(ids["BAMBOO"]).title == "BAMBOO"
    assert pane.title_edit.toPlainText() == "BAMBOO"
    pane.venue_field.setFocus()
    qtbot.keyClicks(pane.venue_field, "ICML")
    pane.show_paper(ids["Graph"])
    settle(controller)
    assert library.paper(ids["BAMBOO"]).venue == "ICML"
    assert library.paper(ids["Graph"]).venue == "arXiv"
    assert pane.venue_field.text() == "arXiv"
    assert pane.title_edit.toPlainText() == "Typed for Graph"


def test_the_newest_paper_asked_for_is_shown_and_the_pane_never_waits_for_it(
    make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    hostile = next(i for name, i in ids.items() if name.startswith("<b>"))
    pane = make_pane(ids["Graph"])
    pane.show_paper(ids["BAMBOO"])  # as pressing Down twice quickly does
    pane.show_paper(hostile)
    assert pane.current_paper() == hostile
    assert pane.title_edit.toPlainText() == "Graph networks at scale"  # read off the thread
    settle(controller)
    assert pane.title_edit.toPlainText() == HOSTILE_TITLE
    shown = pane.shown_paper()
    assert shown is not None and shown.id == hostile
    pane.show_paper(None)
    assert pane.stack.currentWidget() is pane.empty and pane.current_paper() is None


def test_escape_reverts_and_empty_title_is_refused(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
    shown_errors: list[str],
) -> None:
    pane = make_pane(ids["Graph"])
    retype(qtbot, pane.title_edit, "Something else", enter=False)
    qtbot.keyClick(pane.title_edit, Qt.Key.Key_Escape)
    assert pane.title_edit.toPlainText() == "Graph networks at scale"
    retype(qtbot, pane.title_edit, "")
    settle(controller)
    assert shown_errors == ["A title cannot be empty. Type the paper's title."]
    assert pane.title_edit.toPlainText() == "Graph networks at scale"
    assert library.paper(ids["Graph"]).title == "Graph networks at scale"
    assert controller.undo_stack.count() == 0


@pytest.mark.parametrize("typed", ["20x4", "999", "2101", "-5"])
def test_invalid_year_is_refused_with_a_message(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
    shown_errors: list[str],
    typed: str,
) -> None:
    pane = make_pane(ids["Graph"])
    retype(qtbot, pane.year_field, typed)
    settle(controller)
    assert shown_errors == [
        f"“{typed}” is not a year. Type a year from 1000 to 2100, or leave it empty."
    ]
    assert pane.year_field.text() == "2024"
    assert library.paper(ids["Graph"]).year == 2024
    assert library.paper(ids["Graph"]).user_edited == frozenset()
    assert controller.undo_stack.count() == 0


def test_year_and_venue_edits_persist_and_undo(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["Graph"])
    retype(qtbot, pane.year_field, "2019")
    settle(controller)
    retype(qtbot, pane.venue_field, "NeurIPS")
    settle(controller)
    svc = controller.service
    assert (svc.paper(ids["Graph"]).year, svc.paper(ids["Graph"]).venue) == (2019, "NeurIPS")
    retype(qtbot, pane.year_field, "")
    settle(controller)
    assert svc.paper(ids["Graph"]).year is None
    assert pane.year_field.text() == ""
    pane.setFocus()
    controller.undo()
    settle(controller)
    assert svc.paper(ids["Graph"]).year == 2019
    assert pane.year_field.text() == "2019"
    controller.redo()
    settle(controller)
    assert svc.paper(ids["Graph"]).year is None
    assert pane.year_field.text() == ""
    assert pane.venue_field.text() == "NeurIPS"


def test_a_value_typed_again_as_it_is_does_not_hide_an_undo(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["Graph"])
    before = controller.service.paper(ids["Graph"]).year
    retype(qtbot, pane.year_field, "2019")
    settle(controller)
    retype(qtbot, pane.year_field, "2019")  # the same again: nothing to change
    settle(controller)
    pane.setFocus()
    controller.undo()
    settle(controller)
    assert controller.service.paper(ids["Graph"]).year == before
    assert pane.year_field.text() == str(before or "")  # not the undone 2019


def test_a_long_venue_ends_in_an_ellipsis_and_shows_whole_when_hovered_or_edited(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    long = (
        "Proceedings of the Annual Conference on Empirical Methods in Natural Language Processing"
    )
    pane = make_pane(ids["Graph"])
    retype(qtbot, pane.venue_field, long)
    settle(controller)
    pane.setFocus()  # the field is left: at rest again
    venue = pane.venue_field
    assert venue.text() == long and controller.service.paper(ids["Graph"]).venue == long
    assert venue.cut_short() and venue.toolTip() == long

    venue.setFocus()  # being edited: the whole text, the cursor moving through it
    assert not venue.cut_short() and venue.toolTip() == ""
    pane.setFocus()
    pane.resize(1600, 900)  # a wide pane shows it whole
    qtbot.wait_until(lambda: not venue.cut_short())
    assert venue.toolTip() == ""
    retype(qtbot, pane.year_field, "2020")  # a short field is never cut
    assert not pane.year_field.cut_short()


def test_tag_chips_add_and_remove(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["Graph"])
    field = pane.findChild(QLineEdit, "addTagField")
    assert field is pane.tag_chips.field
    field.setFocus()
    qtbot.keyClicks(field, "  graph   learning ")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert field.text() == ""
    settle(controller)
    svc = controller.service
    assert [t.name for t in svc.paper(ids["Graph"]).tags] == ["graph learning"]
    assert pane.tag_chips.tag_names() == ["graph learning"]
    remove = pane.findChild(QToolButton, "removeTag_graph learning")
    assert remove is pane.tag_chips.remove_button("graph learning")
    qtbot.mouseClick(remove, Qt.MouseButton.LeftButton)
    settle(controller)
    assert svc.paper(ids["Graph"]).tags == ()
    assert pane.tag_chips.tag_names() == []
    controller.undo()
    settle(controller)
    assert [t.name for t in svc.paper(ids["Graph"]).tags] == ["graph learning"]
    assert pane.tag_chips.tag_names() == ["graph learning"]


def test_tag_field_completes_existing_tags(
    qtbot: QtBot, make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    controller.tag([ids["BAMBOO"]], ["molecular dynamics"])
    settle(controller)
    pane = make_pane(ids["Graph"])
    completer = pane.tag_chips.field.completer()
    assert completer.model().stringList() == ["molecular dynamics"]  # type: ignore[attr-defined]
    completer.activated.emit("molecular dynamics")
    settle(controller)
    assert [t.name for t in controller.service.paper(ids["Graph"]).tags] == ["molecular dynamics"]
    assert pane.tag_chips.tag_names() == ["molecular dynamics"]


def test_chips_follow_changes_made_elsewhere(
    make_pane: MakePane, ids: dict[str, int], controller: LibraryController
) -> None:
    pane = make_pane(ids["Graph"])
    controller.tag([ids["Graph"], ids["BAMBOO"]], ["later"])
    settle(controller)
    assert pane.tag_chips.tag_names() == ["later"]
    assert pane.tag_chips.field.completer().model().stringList() == ["later"]  # type: ignore[attr-defined]
    controller.set_tag_colour("later", "#e53935")
    settle(controller)
    button = pane.tag_chips.remove_button("later")
    assert button is not None
    chip = button.parentWidget()
    assert chip is not None and "#e53935" in chip.styleSheet()


# -- notes: saved off the GUI thread, and nothing typed is ever lost ------------------------


def test_notes_typed_then_flushed_are_kept(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
) -> None:
    pane = make_pane(ids["Graph"])
    with qtbot.wait_signal(pane.notes.note_opened) as opened:
        qtbot.mouseClick(pane.add_note_button, Qt.MouseButton.LeftButton)
    settle(controller)
    (card,) = pane.notes.cards.values()
    assert opened.args == [card]
    assert card.is_editing()
    assert note_texts(library, ids["Graph"]) == [""]
    qtbot.keyClicks(card.editor, "Read **section 3** again")
    pane.flush()  # what the window calls on close: no waiting for the debounce
    settle(controller)
    assert note_texts(library, ids["Graph"]) == ["Read **section 3** again"]
    again = make_pane(ids["Graph"])
    (shown,) = again.notes.cards.values()
    assert shown.text() == "Read **section 3** again"
    assert not shown.is_editing()
    assert "section 3" in shown.preview.toPlainText()
    assert "**" not in shown.preview.toPlainText()


def test_notes_are_saved_when_the_note_loses_focus(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
) -> None:
    pane = make_pane(ids["Graph"])
    card = add_note(qtbot, pane, controller)
    qtbot.wait_until(card.editor.hasFocus)
    qtbot.keyClicks(card.editor, "saved on leaving")
    pane.venue_field.setFocus()  # long before the pause that would save it
    assert not card.editor.hasFocus()
    settle(controller)
    assert note_texts(library, ids["Graph"]) == ["saved on leaving"]
    assert not card.is_dirty()


def test_a_note_added_and_left_with_nothing_typed_goes(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
) -> None:
    """Add Note, then the cursor goes elsewhere before a word is typed: no empty note stays,
    and the history is as before it (Redo brings it back); a note typed in stays."""
    pane = make_pane(ids["Graph"])
    card = add_note(qtbot, pane, controller)
    qtbot.wait_until(card.editor.hasFocus)
    assert note_texts(library, ids["Graph"]) == [""]
    pane.venue_field.setFocus()
    settle(controller)
    assert library.paper(ids["Graph"]).notes == ()
    qtbot.wait_until(lambda: pane.notes.cards == {})
    assert pane.notes.empty.isVisibleTo(pane)
    assert not controller.undo_stack.canUndo()
    assert controller.undo_stack.redoText() == "Add note"

    card = add_note(qtbot, pane, controller)
    qtbot.wait_until(card.editor.hasFocus)
    qtbot.keyClicks(card.editor, "kept")
    pane.venue_field.setFocus()
    settle(controller)
    assert note_texts(library, ids["Graph"]) == ["kept"]
    card = add_note(qtbot, pane, controller)  # left by showing another paper
    pane.show_paper(ids["BAMBOO"])
    settle(controller)
    assert note_texts(library, ids["Graph"]) == ["kept"]
    pane.show_paper(ids["Graph"])
    settle(controller)
    card = add_note(qtbot, pane, controller)
    qtbot.wait_until(card.editor.hasFocus)
    with qtbot.wait_signal(pane.notes.note_opened):  # left by adding another note
        qtbot.mouseClick(pane.add_note_button, Qt.MouseButton.LeftButton)
    settle(controller)
    assert note_texts(library, ids["Graph"]) == ["kept", ""]
    assert len(pane.notes.cards) == 2


def test_notes_typed_are_kept_when_the_pane_is_closed(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
) -> None:
    pane = make_pane(ids["Graph"])
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "closing now")
    pane.close()  # as when the window closes: no waiting for the pause
    settle(controller)
    assert note_texts(library, ids["Graph"]) == ["closing now"]


def test_notes_typed_are_kept_when_the_pane_is_destroyed(
    qtbot: QtBot, controller: LibraryController, ids: dict[str, int], library: LibraryService
) -> None:
    pane = DetailPane(controller)
    pane.show_paper(ids["Graph"])
    settle(controller)
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "never lost")
    pane.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    settle(controller)
    assert note_texts(library, ids["Graph"]) == ["never lost"]


def test_notes_are_saved_after_a_pause_and_switching_papers(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
) -> None:
    pane = make_pane(ids["Graph"])
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "first")
    qtbot.wait_until(lambda: note_texts(library, ids["Graph"]) == ["first"], timeout=3000)
    settle(controller)
    assert card.status.text() == "Saved"
    qtbot.keyClicks(card.editor, " and second")
    pane.show_paper(ids["BAMBOO"])
    settle(controller)
    assert note_texts(library, ids["Graph"]) == ["first and second"]
    assert pane.notes.cards == {}
    pane.show_paper(ids["Graph"])
    settle(controller)
    (shown,) = pane.notes.cards.values()
    assert shown.text() == "first and second"


def test_typing_on_while_a_note_is_being_saved_is_kept(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(notes_editor, "SAVE_DELAY_MS", 60_000)  # no pause saves it meanwhile
    pane = make_pane(ids["Graph"])
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "first")
    card.save()  # what the pause in typing does: the save runs off the GUI thread
    assert not controller.runner.idle
    qtbot.keyClicks(card.editor, " and more")  # the user goes on typing meanwhile
    assert card.text() == "first and more"
    settle(controller)
    assert note_texts(library, ids["Graph"]) == ["first"]
    assert card.text() == "first and more" and card.is_dirty()
    pane.flush()
    settle(controller)
    assert note_texts(library, ids["Graph"]) == ["first and more"]


def test_a_note_shown_again_before_its_save_landed_keeps_the_text(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
) -> None:
    pane = make_pane(ids["Graph"])
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "kept")
    gate = threading.Event()  # a slow job ahead of the save keeps it from landing
    controller.runner.submit(lambda _progress, _cancelled: gate.wait(20))
    try:
        pane.show_paper(ids["BAMBOO"])  # saves the note, off the GUI thread
        pane.show_paper(ids["Graph"])  # and back, before the save has landed
        assert note_texts(library, ids["Graph"]) == [""]
        (shown,) = pane.notes.cards.values()
        assert shown.text() == "kept" and not shown.is_dirty()
        shown.editor.moveCursor(QTextCursor.MoveOperation.End)
        qtbot.keyClicks(shown.editor, " and more")
    finally:
        gate.set()
    settle(controller)
    assert shown.text() == "kept and more"
    pane.flush()
    settle(controller)
    assert note_texts(library, ids["Graph"]) == ["kept and more"]


def test_a_refresh_does_not_clobber_a_note_being_typed(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(notes_editor, "SAVE_DELAY_MS", 60_000)  # no pause saves it meanwhile
    pane = make_pane(ids["Graph"])
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "typing")
    controller.tag([ids["Graph"]], ["busy"])
    settle(controller)  # the tag landed and the pane refreshed
    assert pane.tag_chips.tag_names() == ["busy"]
    assert card.text() == "typing" and card.is_dirty()
    pane.flush()
    settle(controller)
    assert note_texts(library, ids["Graph"]) == ["typing"]


def test_note_edits_undo_and_delete(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
) -> None:
    pane = make_pane(ids["Graph"])
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "draft")
    pane.flush()
    settle(controller)
    controller.undo()  # the edit
    settle(controller)
    assert card.text() == ""
    assert note_texts(library, ids["Graph"]) == [""]
    controller.redo()
    settle(controller)
    assert card.text() == "draft"
    assert note_texts(library, ids["Graph"]) == ["draft"]
    qtbot.mouseClick(card.delete_button, Qt.MouseButton.LeftButton)
    settle(controller)
    assert library.paper(ids["Graph"]).notes == ()
    assert pane.notes.cards == {}
    controller.undo()
    settle(controller)
    (back,) = pane.notes.cards.values()
    assert back.text() == "draft"
    assert note_texts(library, ids["Graph"]) == ["draft"]


def test_preview_toggle_renders_markdown(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    library: LibraryService,
    controller: LibraryController,
) -> None:
    pane = make_pane(ids["Graph"])
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "# Heading")
    qtbot.keyClick(card.editor, Qt.Key.Key_Return)
    qtbot.keyClick(card.editor, Qt.Key.Key_Return)
    qtbot.keyClicks(card.editor, "- <b>item</b>")
    qtbot.mouseClick(card.mode_button, Qt.MouseButton.LeftButton)
    assert not card.is_editing()
    assert card.mode_button.text() == "Edit"
    assert "Heading" in card.preview.toPlainText()
    assert "<b>item</b>" in card.preview.toPlainText()  # no HTML in notes either
    settle(controller)  # showing the rendering saved the source
    assert note_texts(library, ids["Graph"]) == ["# Heading\n\n- <b>item</b>"]
    assert not card.is_editing()


def test_a_paper_deleted_for_good_shows_the_empty_state(
    make_pane: MakePane, controller: LibraryController, ids: dict[str, int]
) -> None:
    pane = make_pane(ids["Graph"])
    controller.trash([ids["Graph"]])
    settle(controller)
    assert pane.current_paper() == ids["Graph"]
    assert pane.banner.text.text().startswith("In the Trash since ")
    assert not pane.banner.isHidden()
    assert pane.banner.not_duplicate_button.isHidden() and pane.banner.show_button.isHidden()
    controller.empty_trash()
    settle(controller)
    assert pane.current_paper() is None
    assert pane.stack.currentWidget() is pane.empty


def test_links_in_a_note_open_only_after_asking_and_never_in_place(
    qtbot: QtBot,
    make_pane: MakePane,
    ids: dict[str, int],
    controller: LibraryController,
    shown_errors: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[str] = []
    opened: list[str] = []

    def ask(_parent: object, address: str) -> bool:
        asked.append(address)
        return True

    def open_url(url: QUrl) -> bool:
        opened.append(url.toString())
        return True

    monkeypatch.setattr(links, "asker", ask)
    monkeypatch.setattr(links, "opener", open_url)
    pane = make_pane(ids["Graph"])
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(
        card.editor,
        "[site](https://example.org/a?b=1) [secret](file:///etc/passwd) "
        "[paper](doi:10.1234/abc) [tool](javascript:alert(1))",
    )
    qtbot.mouseClick(card.mode_button, Qt.MouseButton.LeftButton)
    shown = card.preview.toPlainText()

    def click(word: str) -> None:
        cursor = card.preview.document().find(word)
        assert not cursor.isNull(), word
        cursor.setPosition(cursor.selectionStart() + 1)
        point = card.preview.cursorRect(cursor).center()
        qtbot.mouseClick(card.preview.viewport(), Qt.MouseButton.LeftButton, pos=point)

    click("secret")
    click("tool")
    assert asked == [] and opened == []
    assert len(shown_errors) == 2 and all("does not open this link" in e for e in shown_errors)
    assert "file:///etc/passwd" in shown_errors[0]
    click("site")
    click("paper")
    assert asked == ["https://example.org/a?b=1", "https://doi.org/10.1234/abc"]
    assert opened == asked
    assert card.preview.toPlainText() == shown  # the preview never navigated
