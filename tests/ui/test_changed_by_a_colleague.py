"""What someone else (a colleague on the shared library, a second window) does to what this
window shows: a paper merged into another while a note of it is being typed, a tag renamed
while the list is filtered by it."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from refman.core.paper_merge import MergePapers
from refman.core.people_ops import MergePeople
from refman.core.values import Section
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page
from tests.helpers.panes import add_note, make_window

from refman.ui import conflicts, notes_editor
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow

pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> MainWindow:
    library.import_pages([sourced(generated_page(3))])
    return make_window(qtbot, controller, tmp_path / "settings.ini")


def test_a_note_typed_in_a_paper_merged_elsewhere_is_saved_once_on_the_paper_kept(
    qtbot: QtBot,
    window: MainWindow,
    library_location: str,
    shown_errors: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The window heard of the merge before the typing was saved: the note was gone from the
    paper shown, taken for deleted, and what was typed kept as a new note of the merged
    paper (in the Trash) besides being in the note that moved: two notes, one in the Trash,
    and the status bar said the note was deleted elsewhere."""
    monkeypatch.setattr(notes_editor, "SAVE_DELAY_MS", 60_000)  # still typing
    controller, pane = window.controller, window.detail_pane
    merged, kept = controller.service.paper_ids()[:2]
    window.go_to_paper(merged)
    settle(controller)
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "half a thought")
    with closing(LibraryService.open(library_location)) as colleague:
        colleague.apply(MergePapers(keep=kept, other=merged))
    qtbot.waitUntil(lambda: card.note_id not in pane.notes.cards, timeout=3000)
    settle(controller)
    qtbot.wait(300)
    settle(controller)
    assert [n.text for n in controller.service.paper(kept).notes] == ["half a thought"]
    assert controller.service.paper(merged).notes == ()
    assert "deleted elsewhere" not in window.statusBar().currentMessage()
    assert shown_errors == []


def test_a_tag_filtered_by_and_renamed_elsewhere_stays_the_filter_under_its_new_name(
    qtbot: QtBot, window: MainWindow, library_location: str, shown_errors: list[str]
) -> None:
    """The filter was dropped (the tag's old name was gone): the list widened to every paper
    by itself, with no tag picked."""
    controller, tags = window.controller, window.tag_pane
    controller.tag(controller.service.paper_ids()[:2], ["ml"])
    settle(controller)
    tags.select_tags(["ml"])
    qtbot.waitUntil(lambda: window.count_label.text() == "2 of 3 papers")
    with closing(LibraryService.open(library_location)) as colleague:
        colleague.rename_tag("ml", "machine learning")
    qtbot.waitUntil(lambda: tags.tag_list.find_row("tag", "machine learning") is not None)
    settle(controller)
    assert tags.selected_tags() == ("machine learning",)
    qtbot.waitUntil(lambda: window.count_label.text() == "2 of 3 papers")
    assert shown_errors == []


def test_a_title_typed_in_a_paper_merged_elsewhere_goes_to_the_paper_kept(
    qtbot: QtBot,
    window: MainWindow,
    library_location: str,
    shown_errors: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The title went to the merged paper in the Trash (its notes went to the paper kept):
    now it is asked about against the kept paper's title, saved there, and said so."""
    questions: list[tuple[str, str]] = []

    def keep_mine(*asked: object) -> str:
        questions.append((str(asked[3]), str(asked[4])))
        return conflicts.MINE

    monkeypatch.setattr(conflicts, "chooser", keep_mine)
    controller, pane = window.controller, window.detail_pane
    merged, kept = controller.service.paper_ids()[:2]
    merged_title = controller.service.paper(merged).title
    kept_title = controller.service.paper(kept).title
    window.go_to_paper(merged)
    settle(controller)
    pane.title_edit.setFocus()
    pane.title_edit.selectAll()
    qtbot.keyClicks(pane.title_edit, "My Better Title")
    with closing(LibraryService.open(library_location)) as colleague:
        colleague.apply(MergePapers(keep=kept, other=merged))
    settle(controller)
    pane.title_edit.commit()
    settle(controller)
    assert questions == [("My Better Title", kept_title)]
    assert controller.service.paper(kept).title == "My Better Title"
    assert controller.service.paper(merged).title == merged_title
    message = window.statusBar().currentMessage()
    assert f"merged into paper #{kept} elsewhere: your title was saved" in message
    controller.undo()
    settle(controller)
    assert controller.service.paper(kept).title == kept_title
    assert shown_errors == []


def test_a_title_typed_in_a_merged_paper_picked_in_the_trash_is_its_own(
    qtbot: QtBot, window: MainWindow, shown_errors: list[str]
) -> None:
    """A paper merged away, picked in the Trash, is edited as itself (restored, it has it)."""
    controller, pane = window.controller, window.detail_pane
    merged, kept = controller.service.paper_ids()[:2]
    kept_title = controller.service.paper(kept).title
    controller.apply(MergePapers(keep=kept, other=merged))
    settle(controller)
    window.tag_pane.select_section(Section.TRASH)
    settle(controller)
    window.go_to_paper(merged)
    settle(controller)
    assert pane.shown_paper() is not None and pane.shown_paper().id == merged  # type: ignore[union-attr]
    pane.title_edit.setFocus()
    pane.title_edit.selectAll()
    qtbot.keyClicks(pane.title_edit, "Its Own Title")
    pane.title_edit.commit()
    settle(controller)
    assert controller.service.paper(merged).title == "Its Own Title"
    assert controller.service.paper(kept).title == kept_title
    assert shown_errors == []


def test_a_tag_filtered_by_and_merged_elsewhere_is_followed_to_the_tag_it_went_into(
    qtbot: QtBot, window: MainWindow, library_location: str, shown_errors: list[str]
) -> None:
    """It was dropped: the list widened to every paper without a word."""
    controller, tags = window.controller, window.tag_pane
    ids = controller.service.paper_ids()
    controller.tag(ids[:2], ["ml"])
    controller.tag(ids[2:], ["machine learning"])
    settle(controller)
    tags.select_tags(["ml"])
    qtbot.waitUntil(lambda: window.count_label.text() == "2 of 3 papers")
    with closing(LibraryService.open(library_location)) as colleague:
        colleague.rename_tag("ml", "machine learning")
    qtbot.waitUntil(lambda: tags.tag_list.find_row("tag", "ml") is None)
    settle(controller)
    assert tags.selected_tags() == ("machine learning",)
    qtbot.waitUntil(lambda: window.count_label.text() == "3 of 3 papers")
    assert window.statusBar().currentMessage() == (
        "The tag “ml” was merged into “machine learning”: the list shows the papers "
        "tagged “machine learning”."
    )
    assert shown_errors == []


def test_a_tag_filtered_by_and_deleted_elsewhere_is_said_gone(
    qtbot: QtBot, window: MainWindow, library_location: str, shown_errors: list[str]
) -> None:
    """The list showed every paper again without a word, as if still filtered."""
    controller, tags = window.controller, window.tag_pane
    ids = controller.service.paper_ids()
    controller.tag(ids[:2], ["ml"])
    settle(controller)
    tags.select_tags(["ml"])
    qtbot.waitUntil(lambda: window.count_label.text() == "2 of 3 papers")
    with closing(LibraryService.open(library_location)) as colleague:
        colleague.delete_tag("ml")
    qtbot.waitUntil(lambda: tags.tag_list.find_row("tag", "ml") is None)
    settle(controller)
    assert tags.selected_tags() == ()
    assert window.statusBar().currentMessage() == (
        "The tag “ml” was deleted: the list is no longer filtered by it."
    )
    assert shown_errors == []


def test_a_person_shown_and_merged_elsewhere_is_followed_to_the_person_kept(
    qtbot: QtBot, window: MainWindow, library_location: str, shown_errors: list[str]
) -> None:
    """The list fell back to all papers without a word."""
    controller, tags = window.controller, window.tag_pane
    with closing(LibraryService.open(library_location)) as colleague:
        colleague.import_pages([sourced(generated_page(1, owner="Another Author"))])
        people = {p.name: p.id for p in colleague.people()}
    settle(controller)
    tags.select_person(people["Prolific Author"])
    settle(controller)
    assert tags.current_filter().person_id == people["Prolific Author"]
    kept = people["Another Author"]
    with closing(LibraryService.open(library_location)) as colleague:
        colleague.apply(MergePeople(kept, people["Prolific Author"]))
    qtbot.waitUntil(lambda: tags.current_filter().person_id == kept, timeout=3000)
    settle(controller)
    assert window.statusBar().currentMessage() == (
        "Prolific Author was merged into Another Author: the list shows Another Author’s papers."
    )
    assert shown_errors == []


def test_a_person_shown_and_gone_elsewhere_is_said_gone(
    qtbot: QtBot, window: MainWindow, library_location: str, shown_errors: list[str]
) -> None:
    """An import reverted elsewhere took the person shown with it: the list showed every
    paper again without a word."""
    controller, tags = window.controller, window.tag_pane
    with closing(LibraryService.open(library_location)) as colleague:
        colleague.import_pages([sourced(generated_page(5, owner="Passing Author"))])
        people = {p.name: p.id for p in colleague.people()}
        reverted = colleague.history()[0].import_id
    settle(controller)
    tags.select_person(people["Passing Author"])
    settle(controller)
    assert tags.current_filter().person_id == people["Passing Author"]
    with closing(LibraryService.open(library_location)) as colleague:
        colleague.revert(reverted)
    qtbot.waitUntil(lambda: tags.current_filter().person_id is None, timeout=3000)
    settle(controller)
    assert window.statusBar().currentMessage() == (
        "Passing Author is no longer in the library: the list is no longer filtered by them."
    )
    assert shown_errors == []


def test_an_undo_of_a_rename_whose_tag_was_merged_elsewhere_says_where_it_went(
    qtbot: QtBot, window: MainWindow, library_location: str, shown_errors: list[str]
) -> None:
    """It said the tag was deleted since."""
    controller = window.controller
    ids = controller.service.paper_ids()
    controller.tag(ids[:1], ["ml"])
    controller.tag(ids[1:2], ["machine learning"])
    controller.rename_tag("ml", "dl")
    settle(controller)
    with closing(LibraryService.open(library_location)) as colleague:
        colleague.rename_tag("dl", "machine learning")
    settle(controller)
    controller.undo()
    settle(controller)
    assert shown_errors == [
        "There is no tag “dl”: it was merged into “machine learning”. Nothing was changed; "
        "the tag pane lists “machine learning”."
    ]
