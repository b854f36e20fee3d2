"""The status bar says what a change the list shows only by its papers going or coming did:
moving papers to the Trash and back, undoing and redoing (an import, say)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from refman.core.importing.values import ImportChoices
from refman.core.library import LibraryService
from refman.core.operations import ImportPages
from refman.core.values import PaperQuery, Section
from tests.helpers.fixtures import seed_files, settle, sourced_file
from tests.helpers.panes import make_window, row_id

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow

# The offscreen platform warns when a top-level widget is shown; nothing to do with us.
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
SMALL_BIB = """@article{lindqvist2021gauges,
  title = {Gauge Records Revisited},
  author = {Lindqvist, Ada and Haddad, Bram},
  journal = {Journal of Coastal Records},
  year = {2021}
}

@inproceedings{moreau2022tides,
  title = {Tides Under Ice},
  author = {Moreau, Dana},
  booktitle = {Proceedings of the Polar Workshop},
  year = {2022}
}
"""


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> Iterator[MainWindow]:
    for path in seed_files():
        library.import_pages([sourced_file(path)])
    made = make_window(qtbot, controller, tmp_path / "settings.ini")
    made.activateWindow()
    qtbot.wait_until(made.isActiveWindow)
    yield made


def said(window: MainWindow) -> str:
    return window.statusBar().currentMessage()


def click_row(qtbot: QtBot, window: MainWindow, row: int, modifier: Qt.KeyboardModifier) -> None:
    table = window.table
    rect = table.visualRect(window.model.index(row, 0))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def test_delete_undo_and_redo_say_what_they_did(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    """The list lost three papers and nothing said so; nor did Ctrl+Z or Ctrl+Shift+Z."""
    click_row(qtbot, window, 0, Qt.KeyboardModifier.NoModifier)
    click_row(qtbot, window, 2, SHIFT)
    assert len(window.table.selected_ids()) == 3
    qtbot.keyClick(window.table, Qt.Key.Key_Delete)
    settle(window.controller)
    assert said(window) == "Moved 3 papers to the Trash."
    assert len(library.paper_ids(PaperQuery(section=Section.TRASH))) == 3
    qtbot.keyClick(window.table, Qt.Key.Key_Z, CTRL)
    settle(window.controller)
    assert said(window) == "Undid “Move 3 papers to Trash”."
    assert library.paper_ids(PaperQuery(section=Section.TRASH)) == []
    qtbot.keyClick(window.table, Qt.Key.Key_Z, CTRL | SHIFT)
    settle(window.controller)
    assert said(window) == "Redid “Move 3 papers to Trash”."
    assert len(library.paper_ids(PaperQuery(section=Section.TRASH))) == 3


def test_restoring_from_the_trash_says_how_many_came_back(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    library.trash(library.paper_ids()[:2])
    window.tag_pane.select_section(Section.TRASH)
    qtbot.wait_until(lambda: window.model.rowCount() == 2)
    settle(window.controller)
    window.table.select_paper(row_id(window.model, 0))
    window.actions_by_id[ActionId.RESTORE].trigger()  # Edit ▸ Restore from Trash
    settle(window.controller)
    assert said(window) == "Restored 1 paper from the Trash."


def test_delete_in_the_trash_says_what_moves_its_papers_on(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    """Delete on papers of the Trash did nothing and said nothing."""
    library.trash(library.paper_ids()[:2])
    window.tag_pane.select_section(Section.TRASH)
    qtbot.wait_until(lambda: window.model.rowCount() == 2)
    settle(window.controller)
    window.table.select_paper(row_id(window.model, 0))
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_Delete)
    settle(window.controller)
    assert said(window) == (
        "These papers are in the Trash already: Restore from Trash brings them back, "
        "Delete Permanently… (Shift+Delete) deletes them for good (both in the Edit menu)."
    )
    assert len(library.paper_ids(PaperQuery(section=Section.TRASH))) == 2  # nothing changed
    assert window.controller.undo_stack.count() == 0


def test_undoing_and_redoing_an_import_say_so(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    bib = tmp_path / "small.bib"
    bib.write_text(SMALL_BIB, encoding="utf-8")
    before = library.count(PaperQuery())
    window.controller.apply(ImportPages((sourced_file(bib),), ImportChoices()))
    settle(window.controller)
    assert library.count(PaperQuery()) == before + 2
    assert window.undo_action.text().replace("&", "") == "Undo Import small.bib"
    qtbot.keyClick(window.table, Qt.Key.Key_Z, CTRL)
    settle(window.controller)
    assert said(window) == "Undid “Import small.bib”."
    assert library.count(PaperQuery()) == before
    qtbot.keyClick(window.table, Qt.Key.Key_Y, CTRL)
    settle(window.controller)
    assert said(window) == "Redid “Import small.bib”."
    assert library.count(PaperQuery()) == before + 2


def test_an_import_through_the_wizard_says_what_it_did_once_the_wizard_closes(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    """Finish took the person back to the list, and nothing said what had come in."""
    from PySide6.QtWidgets import QWizard

    from refman.ui.wizard import ImportWizard

    bib = tmp_path / "small.bib"
    bib.write_text(SMALL_BIB, encoding="utf-8")
    for finish in (True, False):  # Finish; or Escape on the last page (the import stays)
        wizard = window.show_import_wizard([bib])
        assert isinstance(wizard, ImportWizard)
        assert wizard.source_page.wait_until_read()
        for button in (QWizard.WizardButton.NextButton, QWizard.WizardButton.NextButton):
            qtbot.mouseClick(wizard.button(button), Qt.MouseButton.LeftButton)
        qtbot.mouseClick(
            wizard.button(QWizard.WizardButton.CommitButton), Qt.MouseButton.LeftButton
        )
        page = wizard.result_page
        qtbot.waitUntil(lambda: not page.running, timeout=20_000)  # noqa: B023
        if finish:
            qtbot.mouseClick(
                wizard.button(QWizard.WizardButton.FinishButton), Qt.MouseButton.LeftButton
            )
            assert said(window) == "Imported: 2 new papers, 0 already in library."
        else:
            wizard.reject()
            assert said(window) == (
                "Imported: 0 new papers, 2 already in library (nothing new about them)."
            )
    window.statusBar().clearMessage()
    wizard = window.show_import_wizard([bib])
    assert isinstance(wizard, ImportWizard)
    assert wizard.source_page.wait_until_read()
    wizard.reject()  # (cancelled: nothing imported, nothing said)
    assert said(window) == ""
