"""Two people, one paper: an edit or a note saved from the window after someone else changed
it is never written over theirs; the window asks which to keep, and does what was chosen."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing

import pytest
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page
from tests.helpers.panes import add_note

from refman.ui import conflicts
from refman.ui.controller import LibraryController
from refman.ui.detail_pane import DetailPane

pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)


@pytest.fixture
def pane(
    qtbot: QtBot, controller: LibraryController, library: LibraryService
) -> Iterator[DetailPane]:
    """The detail pane showing the first paper of a small library."""
    library.import_pages([sourced(generated_page(3))])
    made = DetailPane(controller)
    qtbot.add_widget(made)
    made.show()
    made.show_paper(library.paper_ids()[0])
    settle(controller)
    yield made


class Asked:
    """The questions the window asked (mine, theirs, choices), answered with ``answer``."""

    def __init__(self) -> None:
        self.answer = conflicts.BOTH
        self.questions: list[tuple[str, str, tuple[str, ...]]] = []

    def __call__(
        self,
        _parent: object,
        _title: str,
        _text: str,
        mine: str,
        theirs: str,
        choices: tuple[str, ...],
    ) -> str | None:
        self.questions.append((mine, theirs, choices))
        return self.answer


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> Asked:
    """The conflict dialog, answered by the test."""
    made = Asked()
    monkeypatch.setattr(conflicts, "chooser", made)
    return made


def _elsewhere(location: str) -> closing[LibraryService]:
    return closing(LibraryService.open(location))


def _retitle_while(qtbot: QtBot, pane: DetailPane, location: str, **theirs: str) -> int:
    """Type "My Better Title" into the paper's title while someone else changes its fields
    (``theirs``), then finish typing; the paper's id."""
    controller = pane.controller
    paper = controller.service.paper_ids()[0]
    title = pane.title_edit
    title.setFocus()
    title.selectAll()
    qtbot.keyClicks(title, "My Better Title")
    with _elsewhere(location) as other:
        other.edit_fields(paper, **theirs)
    title.commit()
    settle(controller)
    return paper


@pytest.mark.parametrize("answer", [conflicts.MINE, conflicts.THEIRS, conflicts.BOTH])
def test_a_note_changed_elsewhere_while_typed_asks_and_keeps_what_was_chosen(
    qtbot: QtBot,
    pane: DetailPane,
    controller: LibraryController,
    library_location: str,
    asked: Asked,
    answer: str,
) -> None:
    asked.answer = answer
    paper = controller.service.paper_ids()[0]
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "my thoughts")
    with _elsewhere(library_location) as other:
        other.edit_note(card.note_id, "their thoughts")
    card.save()
    settle(controller)
    assert asked.questions == [("my thoughts", "their thoughts", ("mine", "theirs", "both"))]
    settle(controller)
    texts = sorted(n.text for n in controller.service.paper(paper).notes)
    expected = {
        conflicts.MINE: ["my thoughts"],
        conflicts.THEIRS: ["their thoughts"],
        conflicts.BOTH: ["my thoughts", "their thoughts"],
    }[answer]
    assert texts == expected


@pytest.mark.parametrize("answer", [conflicts.MINE, conflicts.THEIRS])
def test_a_title_changed_elsewhere_while_edited_asks_and_keeps_what_was_chosen(
    qtbot: QtBot,
    pane: DetailPane,
    controller: LibraryController,
    library_location: str,
    asked: Asked,
    answer: str,
) -> None:
    asked.answer = answer
    paper = _retitle_while(qtbot, pane, library_location, title="Their Better Title")
    title = pane.title_edit
    assert asked.questions == [("My Better Title", "Their Better Title", ("mine", "theirs"))]
    settle(controller)
    kept = "My Better Title" if answer == conflicts.MINE else "Their Better Title"
    assert controller.service.paper(paper).title == kept
    qtbot.waitUntil(lambda: title.toPlainText() == kept, timeout=2000)


def test_an_edit_of_another_field_goes_through_without_a_question(
    qtbot: QtBot,
    pane: DetailPane,
    controller: LibraryController,
    library_location: str,
    asked: Asked,
) -> None:
    paper = _retitle_while(qtbot, pane, library_location, venue="Their Venue")
    assert asked.questions == []
    detail = controller.service.paper(paper)
    assert (detail.title, detail.venue) == ("My Better Title", "Their Venue")
