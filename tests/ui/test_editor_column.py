"""The paper list's First author column names an edited book's editors ("Luca Rossi et al.
(eds.)") and its tooltip says they are editors; a paper's authors have no such tooltip."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced_file
from tests.helpers.panes import make_window
from tests.unit.core.test_editor_lines import BIB

from refman.ui.author_cells import AuthorCells
from refman.ui.controller import LibraryController
from refman.ui.paper_columns import AUTHOR

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


def test_the_list_names_an_edited_books_editors_and_says_so(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> None:
    bib = tmp_path / "edited.bib"
    bib.write_text(BIB, encoding="utf-8")
    library.import_pages([sourced_file(bib)])
    ids = {d.citekey: d.id for d in library.details(library.paper_ids())}
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    settle(controller)
    model = window.model

    def cell(key: str, role: Qt.ItemDataRole) -> object:
        row = model.row_of(ids[key])
        assert row is not None
        return model.index(row, AUTHOR).data(role)

    qtbot.wait_until(lambda: cell("rossi2018", Qt.ItemDataRole.DisplayRole) != "")
    assert cell("rossi2018", Qt.ItemDataRole.DisplayRole) == "Luca Rossi et al. (eds.)"
    assert cell("okafor2017", Qt.ItemDataRole.DisplayRole) == "Ngozi Okafor (ed.)"
    assert cell("rossi2018", Qt.ItemDataRole.ToolTipRole) == (
        "Luca Rossi et al. (eds.) — the book’s editors: it names no authors"
    )
    assert cell("baker2018", Qt.ItemDataRole.DisplayRole) == "Tom Baker"
    assert cell("baker2018", Qt.ItemDataRole.ToolTipRole) is None


def test_a_narrow_author_column_cuts_the_editors_names_not_their_mark(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> None:
    bib = tmp_path / "edited.bib"
    bib.write_text(BIB, encoding="utf-8")
    library.import_pages([sourced_file(bib)])
    ids = {d.citekey: d.id for d in library.details(library.paper_ids())}
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    settle(controller)
    table = window.table
    delegate = table.itemDelegateForColumn(AUTHOR)
    assert isinstance(delegate, AuthorCells)

    def shown(key: str, width: int) -> str:
        row = window.model.row_of(ids[key])
        assert row is not None
        option = QStyleOptionViewItem()
        option.initFrom(table.viewport())
        option.rect = QRect(0, 0, width, 24)
        delegate.initStyleOption(option, window.model.index(row, AUTHOR))
        return option.text

    qtbot.wait_until(lambda: shown("rossi2018", 400) == "Luca Rossi et al. (eds.)")
    narrow = shown("rossi2018", 110)
    assert narrow.endswith("… (eds.)") and narrow.startswith("Luca"), narrow
    assert shown("lund2019", 60) == "Kari Lund et al."  # an author: Qt cuts it as ever
