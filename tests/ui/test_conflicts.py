"""Two people, one paper: an edit or a note saved from the window after someone else changed
it is never written over theirs; the window asks which to keep, and does what was chosen."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page
from tests.helpers.panes import add_note, make_window

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
    qtbot.wait_exposed(made)
    made.activateWindow()
    qtbot.wait_until(made.isActiveWindow)  # a question taking the keyboard away is seen
    made.show_paper(library.paper_ids()[0])
    settle(controller)
    yield made


class Asked:
    """The questions the window asked (mine, theirs, choices), answered with ``answer``."""

    def __init__(self) -> None:
        self.answer: str | None = conflicts.BOTH
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


class RealQuestions:
    """The real conflict dialog, answered by ``act`` each time it opens (in its own event
    loop), with the buttons each one offered."""

    def __init__(self, act: Callable[[QMessageBox], None]) -> None:
        self.act = act
        self.buttons: list[list[str]] = []
        self._seen: list[QMessageBox] = []
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._look)
        self.timer.start()

    def _look(self) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or box.objectName() != "conflictDialog":
            return
        if box in self._seen or not box.isVisible():
            return
        self._seen.append(box)
        self.buttons.append([b.text() for b in box.buttons() if b.isVisible()])
        self.act(box)


@pytest.fixture
def real_questions() -> Iterator[Callable[[Callable[[QMessageBox], None]], RealQuestions]]:
    """Answer the real conflict dialog the way the test says (the timer stops after it)."""
    made: list[RealQuestions] = []

    def answer(act: Callable[[QMessageBox], None]) -> RealQuestions:
        made.append(RealQuestions(act))
        return made[-1]

    yield answer
    for answering in made:
        answering.timer.stop()


def _escape(qtbot: QtBot) -> Callable[[QMessageBox], None]:
    return lambda box: qtbot.keyClick(box, Qt.Key.Key_Escape)


def _close(box: QMessageBox) -> None:
    box.close()  # the window's close button


@pytest.mark.parametrize("closing", ["escape", "close button"])
def test_closing_the_question_about_a_title_keeps_the_typed_title_unsaved_in_its_field(
    qtbot: QtBot,
    pane: DetailPane,
    controller: LibraryController,
    library_location: str,
    real_questions: Callable[[Callable[[QMessageBox], None]], RealQuestions],
    closing: str,
) -> None:
    asked = real_questions(_escape(qtbot) if closing == "escape" else _close)
    paper = controller.service.paper_ids()[0]
    title = pane.title_edit
    title.setFocus()
    title.selectAll()
    qtbot.keyClicks(title, "My Better Title")
    with _elsewhere(library_location) as other:
        other.edit_fields(paper, title="Their Better Title")
    qtbot.keyClick(title, Qt.Key.Key_Return)
    settle(controller)
    (buttons,) = asked.buttons  # asked once (the dialog taking the keyboard asks no more)
    assert {"Keep Mine", "Keep Theirs", "Decide Later"} <= set(buttons)
    # The typed title is still there, marked as not saved, and the line under it says why.
    assert title.toPlainText() == "My Better Title"
    assert title.is_edited() and title.property("held")
    note = pane.held.note
    assert note.isVisible()
    assert note.text() == (
        "Not saved: someone else changed the title to “Their Better Title” while you were "
        "editing. Enter in the field saves yours; Esc takes theirs."
    )
    assert controller.service.paper(paper).title == "Their Better Title"
    # Enter saves it now (their title was seen), and the mark goes.
    qtbot.keyClick(title, Qt.Key.Key_Return)
    settle(controller)
    assert controller.service.paper(paper).title == "My Better Title"
    qtbot.waitUntil(lambda: not title.is_edited() and note.isHidden(), timeout=2000)
    assert not title.property("held") and title.toPlainText() == "My Better Title"
    assert len(asked.buttons) == 1


def test_a_year_kept_unsaved_takes_theirs_with_escape(
    qtbot: QtBot,
    pane: DetailPane,
    controller: LibraryController,
    library_location: str,
    asked: Asked,
) -> None:
    asked.answer = None  # the question closed
    paper = controller.service.paper_ids()[0]
    year = pane.year_field
    year.setFocus()
    year.selectAll()
    qtbot.keyClicks(year, "1999")
    with _elsewhere(library_location) as other:
        other.edit_fields(paper, year=2001)
    qtbot.keyClick(year, Qt.Key.Key_Return)
    settle(controller)
    assert [q[:2] for q in asked.questions] == [("1999", "2001")]
    assert year.text() == "1999" and year.is_edited() and year.property("held")
    assert "Not saved: someone else changed the year to “2001”" in pane.held.note.text()
    assert controller.service.paper(paper).year == 2001
    qtbot.keyClick(year, Qt.Key.Key_Escape)
    assert year.text() == "2001" and not year.property("held")
    assert pane.held.note.isHidden()
    settle(controller)
    assert controller.service.paper(paper).year == 2001
    assert len(asked.questions) == 1


def test_a_title_question_closed_after_moving_on_shows_its_paper_again_with_the_title(
    qtbot: QtBot,
    controller: LibraryController,
    library: LibraryService,
    library_location: str,
    asked: Asked,
    tmp_path: Path,
) -> None:
    asked.answer = None
    library.import_pages([sourced(generated_page(3))])
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    first, second = library.paper_ids()[:2]
    window.go_to_paper(first)
    settle(controller)
    title = window.detail_pane.title_edit
    title.setFocus()
    title.selectAll()
    qtbot.keyClicks(title, "My Better Title")
    with _elsewhere(library_location) as other:
        other.edit_fields(first, title="Their Better Title")
    window.table.select_paper(second)  # moving on saves the typing; the save meets theirs
    settle(controller)
    assert len(asked.questions) == 1
    assert window.table.current_id() == first
    shown = window.detail_pane.shown_paper()
    assert shown is not None and shown.id == first
    assert title.toPlainText() == "My Better Title" and title.property("held")
    assert library.paper(first).title == "Their Better Title"
    assert library.paper(second).title != "My Better Title"


def test_closing_the_question_about_a_note_keeps_both_texts(
    qtbot: QtBot,
    pane: DetailPane,
    controller: LibraryController,
    library_location: str,
    real_questions: Callable[[Callable[[QMessageBox], None]], RealQuestions],
) -> None:
    asked = real_questions(_escape(qtbot))
    paper = controller.service.paper_ids()[0]
    card = add_note(qtbot, pane, controller)
    qtbot.keyClicks(card.editor, "my thoughts")
    with _elsewhere(library_location) as other:
        other.edit_note(card.note_id, "their thoughts")
    card.save()
    settle(controller)
    settle(controller)
    (buttons,) = asked.buttons
    assert {"Keep Mine", "Keep Theirs", "Keep Both"} <= set(buttons)
    assert "Decide Later" not in buttons
    texts = sorted(n.text for n in controller.service.paper(paper).notes)
    assert texts == ["my thoughts", "their thoughts"]
