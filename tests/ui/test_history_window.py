"""File ▸ Import History… on a real library: the imports listed, what reverting one would do
shown before anything changes, the revert, and Edit ▸ Undo bringing it back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from refman.core.importing.revert_ops import RevertImport
from refman.core.library import LibraryService
from refman.core.operations import Operation, Outcome
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import publication_page
from tests.helpers.panes import make_window

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.history_dialog import REPLAN_DELAY_MS, HistoryDialog
from refman.ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(
    "does not support propagateSizeHints", "does not support raise"
)

FIRST = [("Rebalancing pipelines around stragglers", 2024, "arXiv")]
SECOND = [*FIRST, ("Overlapped checkpoint writes", 2025, "arXiv")]


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> MainWindow:
    library.import_pages([sourced(publication_page("Zhuo Jiang", FIRST), "old.txt")])
    library.import_pages([sourced(publication_page("Zhuo Jiang", SECOND), "new.txt")])
    return make_window(qtbot, controller, tmp_path / "settings.ini")


def _open(qtbot: QtBot, window: MainWindow, controller: LibraryController) -> HistoryDialog:
    window.actions_by_id[ActionId.IMPORT_HISTORY].trigger()
    dialog = window.history.dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible)
    settle(controller)
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 2)
    return dialog


def _click_row(qtbot: QtBot, dialog: HistoryDialog, row: int) -> None:
    item = dialog.table.item(row, 1)
    assert item is not None
    centre = dialog.table.visualItemRect(item).center()
    qtbot.mouseClick(dialog.table.viewport(), Qt.MouseButton.LeftButton, pos=centre)


def test_the_history_shows_what_a_revert_would_do_then_reverts_and_undoes(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    dialog = _open(qtbot, window, controller)
    assert dialog.table.item(0, 1).text() == "new.txt (Zhuo Jiang)"  # type: ignore[union-attr]
    assert not dialog.revert_button.isEnabled()
    _click_row(qtbot, dialog, 0)
    settle(controller)
    qtbot.waitUntil(dialog.revert_button.isEnabled)
    preview = dialog.preview.toPlainText()
    assert "Would remove 1 paper." in preview
    assert "would go: #" in preview and "Overlapped checkpoint writes" in preview
    assert library.count() == 2  # nothing changed yet
    [added] = [p for p in library.paper_ids() if library.paper(p).title.startswith("Overlapped")]

    qtbot.mouseClick(dialog.revert_button, Qt.MouseButton.LeftButton)
    settle(controller)
    assert library.count() == 1
    assert [h.label for h in library.history()] == ["old.txt"]
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1)
    qtbot.waitUntil(lambda: window.model.rowCount() == 1)
    assert window.undo_action.text() == "&Undo Revert import of new.txt"
    # It says what it did, and the import left is not picked in the reverted one's place.
    assert dialog.preview.toPlainText().splitlines() == [
        "Import #2 (new.txt): Removed 1 paper.",
        f"  removed: #{added} Overlapped checkpoint writes",
    ]
    assert dialog.selected_import() is None and not dialog.table.selectedItems()
    assert not dialog.revert_button.isEnabled()

    window.undo_action.trigger()
    settle(controller)
    assert library.count() == 2
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 2)


def test_reverting_an_older_import_says_what_stays_and_why(
    qtbot: QtBot, window: MainWindow, controller: LibraryController
) -> None:
    dialog = _open(qtbot, window, controller)
    _click_row(qtbot, dialog, 1)
    settle(controller)
    qtbot.waitUntil(dialog.revert_button.isEnabled)
    preview = dialog.preview.toPlainText()
    assert preview.startswith("Import #")
    assert "Would keep 1 paper." in preview
    assert "Rebalancing pipelines around stragglers — a later import also brought it" in preview


def test_enter_in_the_list_of_imports_closes_the_window_and_reverts_nothing(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    dialog = _open(qtbot, window, controller)
    _click_row(qtbot, dialog, 0)
    settle(controller)
    qtbot.waitUntil(dialog.revert_button.isEnabled)
    dialog.table.setFocus()
    qtbot.keyClick(dialog.table, Qt.Key.Key_Return)
    settle(controller)
    assert [h.label for h in library.history()] == ["new.txt", "old.txt"]
    assert library.count() == 2
    assert not dialog.isVisible()  # (Close is the default button, as Escape closes it too)


def test_what_a_revert_would_do_is_worked_out_again_after_a_change(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, library: LibraryService
) -> None:
    dialog = _open(qtbot, window, controller)
    _click_row(qtbot, dialog, 0)
    settle(controller)
    qtbot.waitUntil(dialog.revert_button.isEnabled)
    assert "Would remove 1 paper." in dialog.preview.toPlainText()
    [added] = [p for p in library.paper_ids() if library.paper(p).title.startswith("Overlapped")]

    controller.tag([added], ["mine"])  # (the dialog stays open beside the window)
    settle(controller)
    assert not dialog.revert_button.isEnabled()  # (what it said no longer holds)
    qtbot.waitUntil(dialog.revert_button.isEnabled)
    settle(controller)
    preview = dialog.preview.toPlainText()
    assert "Would keep 1 paper." in preview and "it was tagged since" in preview
    assert "would go" not in preview

    dialog.close()
    controller.untag([added], "mine")
    settle(controller)
    window.actions_by_id[ActionId.IMPORT_HISTORY].trigger()
    qtbot.waitUntil(dialog.isVisible)
    settle(controller)
    qtbot.waitUntil(dialog.revert_button.isEnabled)
    assert "Would remove 1 paper." in dialog.preview.toPlainText()  # (as it is now again)

    qtbot.mouseClick(dialog.revert_button, Qt.MouseButton.LeftButton)
    settle(controller)
    assert added not in library.paper_ids()


def test_only_the_import_the_keyboard_stops_on_is_worked_out(
    qtbot: QtBot,
    window: MainWindow,
    controller: LibraryController,
    library: LibraryService,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Working out a revert of a large import takes seconds (1.5 s at 20,000 papers): one
    for every import passed with the arrow keys, or for every change to papers the revert
    does not name, held up the person's own changes behind them."""
    dry_runs: list[int] = []
    apply = library.apply

    def counted(op: Operation[Any], **kwargs: Any) -> Outcome[Any]:
        if isinstance(op, RevertImport) and op.dry_run:
            dry_runs.append(op.import_id)
        return apply(op, **kwargs)

    monkeypatch.setattr(library, "apply", counted)
    dialog = _open(qtbot, window, controller)
    dialog.table.setFocus()
    for key in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_Down):  # (Down picks the first)
        qtbot.keyClick(dialog.table, key)
    qtbot.waitUntil(dialog.revert_button.isEnabled)
    settle(controller)
    [old] = [h.import_id for h in library.history() if h.label == "old.txt"]
    assert dialog.selected_import() == old and dry_runs == [old]
    assert "Would keep 1 paper." in dialog.preview.toPlainText()

    [added] = [p for p in library.paper_ids() if library.paper(p).title.startswith("Overlapped")]
    controller.tag([added], ["mine"])  # (a paper the older import's revert does not name)
    settle(controller)
    qtbot.wait(2 * REPLAN_DELAY_MS)
    settle(controller)
    assert dry_runs == [old] and dialog.revert_button.isEnabled()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_the_history_says_who_made_each_import_on_a_shared_library(
    qtbot: QtBot, window: MainWindow, controller: LibraryController, backend: str
) -> None:
    """As the detail pane says who added a paper: on a library file, nobody's name."""
    dialog = _open(qtbot, window, controller)
    when = dialog.table.item(0, 0).text()  # type: ignore[union-attr]
    if backend == "postgres":
        assert when.endswith(" by postgres")
    else:
        assert " by " not in when
