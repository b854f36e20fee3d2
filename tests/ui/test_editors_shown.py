"""The detail pane names an edited book's editors where its authors go ("Edited by Luca Rossi
and Kofi Mensah", not "Authors not given on the page"), and a chapter's book's editors under
its authors."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import settle, sourced_file
from tests.helpers.panes import make_window
from tests.unit.cli.test_cli_editors import BIB

from refman.ui.controller import LibraryController

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


def test_the_detail_pane_shows_editors_where_authors_go(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> None:
    bib = tmp_path / "edited.bib"
    bib.write_text(BIB, encoding="utf-8")
    library.import_pages([sourced_file(bib)])
    ids = {d.citekey: d.id for d in library.details(library.paper_ids())}
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    authors = window.detail_pane.authors

    def shown(key: str) -> tuple[list[str], str]:
        window.table.select_paper(ids[key])
        settle(controller)
        qtbot.wait_until(lambda: window.detail_pane.current_paper() == ids[key])
        names = [b.accessibleName() for b in authors.author_buttons()]
        return names, authors.editors.text() if authors.editors.isVisible() else ""

    assert shown("rossi2018") == ([], "Edited by Luca Rossi and Kofi Mensah")
    assert "Authors not given on the page" not in [
        label.text() for label in authors.findChildren(type(authors.editors))
    ]
    assert shown("okafor2018") == (
        ["Ngozi Okafor"],
        "In a book edited by Luca Rossi and Kofi Mensah",
    )
    assert shown("lund2019") == (["Kari Lund"], "")
