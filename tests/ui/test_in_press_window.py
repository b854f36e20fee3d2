"""A paper not out yet says so where its year goes in the window: the list's Year column and
the detail pane's Year field (its citations print it there too)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced
from tests.helpers.panes import make_window, row_id

from refman.ui.controller import LibraryController
from refman.ui.paper_columns import YEAR
from refman.ui.wizard.review_model import Column, ReviewModel

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")

CV = """Nadia Okafor

Publications

Okafor, N. (in press). Tidal mixing in deltas. Marine Geology.
Okafor, N. (2021). Sediment budgets of small estuaries. Marine Geology, 4(2), 1–9.
"""


def test_a_paper_in_press_shows_in_press_in_the_year_column_and_the_detail_pane(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> None:
    library.import_pages([sourced(CV, "cv.txt")])
    titles = {d.title: d.id for d in library.details(library.paper_ids())}
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    model = window.model
    qtbot.wait_until(lambda: model.rowCount() == 2)
    years = {
        row_id(model, row): model.data(model.index(row, YEAR), Qt.ItemDataRole.DisplayRole)
        for row in range(2)
    }
    assert years == {
        titles["Tidal mixing in deltas"]: "in press",
        titles["Sediment budgets of small estuaries"]: "2021",
    }

    year_field = window.detail_pane.year_field
    window.table.select_paper(titles["Tidal mixing in deltas"])
    settle(controller)
    qtbot.wait_until(lambda: window.detail_pane.current_paper() == titles["Tidal mixing in deltas"])
    assert (year_field.text(), year_field.placeholderText()) == ("", "in press")
    window.table.select_paper(titles["Sediment budgets of small estuaries"])
    settle(controller)
    qtbot.wait_until(lambda: year_field.text() == "2021")
    window.table.select_paper(titles["Tidal mixing in deltas"])
    settle(controller)
    qtbot.wait_until(lambda: year_field.text() == "")
    assert year_field.placeholderText() == "in press"


def test_the_wizards_review_shows_in_press_where_the_year_goes(library: LibraryService) -> None:
    model = ReviewModel()
    model.set_plan(library.plan_import([sourced(CV, "cv.txt")]))
    years = {
        model.index(row, Column.TITLE).data(): model.index(row, Column.YEAR).data()
        for row in range(model.rowCount())
    }
    assert years == {
        "Tidal mixing in deltas": "in press",
        "Sediment budgets of small estuaries": "2021",
    }
