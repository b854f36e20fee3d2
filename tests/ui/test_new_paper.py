"""Paper ▸ New Paper…: the form adds a paper by hand, selects it and says so; a bad value
is said under the form, which keeps what was typed; Undo takes the paper back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from refman.common.errors import RefmanError
from refman.core.library import LibraryService
from refman.core.operations import ImportPages, Operation, Outcome
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page
from tests.helpers.panes import make_window

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.new_paper import NewPaperDialog


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> Iterator[MainWindow]:
    library.import_pages([sourced(generated_page(3))])
    yield make_window(qtbot, controller, tmp_path / "settings.ini")


def _form(qtbot: QtBot, window: MainWindow) -> NewPaperDialog:
    window.actions_by_id[ActionId.NEW_PAPER].trigger()
    qtbot.waitUntil(lambda: window.new_paper.dialog is not None)
    dialog = window.new_paper.dialog
    assert dialog is not None
    qtbot.waitExposed(dialog)
    return dialog


def test_new_paper_adds_the_paper_typed_and_selects_it(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    dialog = _form(qtbot, window)
    assert not dialog.add_button.isEnabled()  # no title yet
    qtbot.keyClicks(dialog.title, "The Art of Computer Programming")
    qtbot.keyClicks(dialog.authors, "Knuth, Donald E.")
    dialog.type.setCurrentIndex(dialog.type.findData("book"))
    qtbot.keyClicks(dialog.lines["year"], "1968")
    assert dialog.add_button.isEnabled()
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    settle(window.controller)
    assert library.count() == 4
    [added] = [p for p in library.paper_ids() if library.paper(p).type == "book"]
    paper = library.paper(added)
    assert (paper.title, paper.authors, paper.year) == (
        "The Art of Computer Programming",
        ("Donald E. Knuth",),
        1968,
    )
    qtbot.waitUntil(lambda: window.table.selected_ids() == [added])
    message = window.statusBar().currentMessage()
    assert message == f"Added #{added} “The Art of Computer Programming”."
    undo = window.actions_by_id[ActionId.UNDO]
    assert undo.text().replace("&", "") == "Undo Add “The Art of Computer Programming”"
    undo.trigger()
    settle(window.controller)
    assert library.count() == 3
    redo = window.actions_by_id[ActionId.REDO]
    assert redo.text().replace("&", "") == "Redo Add “The Art of Computer Programming”"


def test_a_bad_year_is_said_under_the_form_which_keeps_what_was_typed(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    dialog = _form(qtbot, window)
    qtbot.keyClicks(dialog.title, "A Report")
    qtbot.keyClicks(dialog.lines["year"], "MMXX")
    qtbot.keyClick(dialog.title, Qt.Key.Key_Return)
    assert dialog.isVisible() and dialog.problem.isVisible()
    assert dialog.problem.text().startswith("“MMXX” is not a year.")
    assert dialog.title.text() == "A Report" and library.count() == 3
    year = dialog.lines["year"]
    assert dialog.focusWidget() is year and year.selectedText() == "MMXX"  # type over it
    qtbot.keyClicks(year, "2020")  # mending it: the message has been read
    assert not dialog.problem.isVisible() and year.text() == "2020"
    qtbot.keyClick(dialog.title, Qt.Key.Key_Return)
    settle(window.controller)
    assert not dialog.isVisible() and library.count() == 4


def test_every_field_of_the_form_has_its_own_alt_key(qtbot: QtBot, window: MainWindow) -> None:
    """Alt and the underlined letter goes to each field: Year, Venue, DOI… too."""
    dialog = _form(qtbot, window)
    labels = [label.text() for label in dialog.findChildren(QLabel) if label.buddy()]
    assert len(labels) == 8
    keys = [label[label.index("&") + 1].casefold() for label in labels if "&" in label]
    assert len(keys) == len(labels) == len(set(keys)), labels
    qtbot.keyClicks(dialog.title, "A Report")
    qtbot.keyClicks(dialog.authors, "Smith, J. and 42")
    qtbot.keyClick(dialog.title, Qt.Key.Key_Return)
    assert dialog.focusWidget() is dialog.authors and dialog.problem.isVisible()


def test_a_paper_the_library_refuses_brings_the_form_back_with_what_was_typed(
    qtbot: QtBot,
    window: MainWindow,
    library: LibraryService,
    monkeypatch: pytest.MonkeyPatch,
    shown_errors: list[str],
) -> None:
    real_apply = library.apply

    def refusing(op: Operation[Any], **kwargs: Any) -> Outcome[Any]:
        if isinstance(op, ImportPages):
            raise RefmanError("The library is being changed elsewhere.", "Try again.")
        return real_apply(op, **kwargs)

    monkeypatch.setattr(library, "apply", refusing)
    dialog = _form(qtbot, window)
    qtbot.keyClicks(dialog.title, "A Paper Refused")
    qtbot.keyClicks(dialog.authors, "Ann Smith")
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    settle(window.controller)
    assert shown_errors == ["The library is being changed elsewhere. Try again."]
    qtbot.waitUntil(dialog.isVisible)  # back, with what was typed
    assert (dialog.title.text(), dialog.authors.text()) == ("A Paper Refused", "Ann Smith")
    assert library.count() == 3
    monkeypatch.setattr(library, "apply", real_apply)
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    settle(window.controller)
    assert library.count() == 4 and not dialog.isVisible()
