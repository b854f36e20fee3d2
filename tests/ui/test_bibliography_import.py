"""Bibliographies and HTML pages through the window: a .bib dropped on the main window, the
wizard's review of a bibliography, damaged entries, BibTeX pasted as text, and links kept
from dropped or pasted HTML."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QLabel, QWidget, QWizard
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from tests.helpers.fixtures import settle, sourced_file
from tests.helpers.mendeley import NAME as MENDELEY_NAME
from tests.helpers.mendeley import make_mendeley_library
from tests.helpers.zotero import make_zotero_library

from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.settings import WindowSettings
from refman.ui.wizard import ImportWizard
from refman.ui.wizard.review_model import Column, ReviewModel

pytestmark = pytest.mark.qt_log_ignore(
    "does not support propagateSizeHints", "does not support raise", "grabbing the keyboard"
)

BIB = Path(__file__).parents[1] / "fixtures" / "bib"
PAGES = Path(__file__).parents[1] / "fixtures" / "pages"
Button = QWizard.WizardButton


@pytest.fixture
def window(qtbot: QtBot, controller: LibraryController, tmp_path: Path) -> Iterator[MainWindow]:
    made = MainWindow(controller, WindowSettings(tmp_path / "settings.ini"))
    qtbot.add_widget(made)
    made.show()
    qtbot.wait_exposed(made)
    yield made
    wizard = getattr(made, "wizard", None)
    if wizard is not None and wizard.isVisible():
        wizard.reject()


@pytest.fixture
def wizard(qtbot: QtBot, controller: LibraryController) -> Iterator[ImportWizard]:
    made = ImportWizard(controller)
    qtbot.add_widget(made)
    made.show()
    yield made
    if made.isVisible():
        made.reject()


def drop_on(widget: QWidget, mime: QMimeData) -> None:
    """Drag ``mime`` over the middle of a widget and drop it, as the window system does."""
    where = QPointF(widget.rect().center())
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(where.toPoint(), Qt.DropAction.CopyAction, mime, buttons, mods)
    QApplication.sendEvent(widget, enter)
    QApplication.sendEvent(widget, QDropEvent(where, Qt.DropAction.CopyAction, mime, buttons, mods))


def files(*paths: Path) -> QMimeData:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    return mime


def labels(widget: QWidget, name: str) -> list[str]:
    QApplication.processEvents()
    return [w.text() for w in widget.findChildren(QLabel, name) if w.isVisibleTo(widget)]


def click(qtbot: QtBot, wizard: ImportWizard, which: QWizard.WizardButton) -> None:
    button = wizard.button(which)
    assert button.isVisible() and button.isEnabled(), f"{which} is not clickable"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def review(qtbot: QtBot, wizard: ImportWizard) -> ReviewModel:
    click(qtbot, wizard, Button.NextButton)
    model = wizard.review_page.model
    qtbot.waitUntil(lambda: model.rowCount() > 0, timeout=10_000)
    return model


def statuses(model: ReviewModel) -> list[str]:
    return [model.index(r, Column.STATUS).data() for r in range(model.rowCount())]


def finish(qtbot: QtBot, wizard: ImportWizard) -> None:
    click(qtbot, wizard, Button.NextButton)
    click(qtbot, wizard, Button.CommitButton)
    qtbot.waitUntil(lambda: not wizard.result_page.running, timeout=20_000)


def citekeys(library: LibraryService) -> set[str]:
    return {
        key
        for i in library.paper_ids(PaperQuery())
        if (key := library.paper(i).citekey) is not None
    }


def test_dropping_a_bib_on_the_window_imports_it_in_one_undo_step(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    drop_on(window.table.viewport(), files(BIB / "zotero.bib"))
    qtbot.waitUntil(lambda: hasattr(window, "wizard") and window.wizard.isVisible())
    wizard = window.wizard
    assert wizard.source_page.wait_until_read()
    assert labels(wizard.source_page, "sourceFormat") == ["BibTeX bibliography · zotero.bib"]
    assert labels(wizard.source_page, "sourceCount") == ["✓  8 records found"]
    assert set(statuses(review(qtbot, wizard))) == {"New"}
    finish(qtbot, wizard)
    assert {"smith_deep_2019", "vaswani_attention_2023", "knuth_art_1997"} <= citekeys(library)
    assert len(library.paper_ids(PaperQuery())) == 8
    window.controller.undo()
    settle(window.controller)
    assert library.paper_ids(PaperQuery()) == []


def test_dropping_a_zotero_database_imports_the_zotero_library(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    zotero = make_zotero_library(tmp_path / "Zotero")
    drop_on(window.table.viewport(), files(zotero))
    qtbot.waitUntil(lambda: hasattr(window, "wizard") and window.wizard.isVisible())
    wizard = window.wizard
    assert wizard.source_page.wait_until_read()
    assert labels(wizard.source_page, "sourceFormat") == [
        "Zotero library (its items, tags, collections, notes and files) · zotero.sqlite"
    ]
    assert labels(wizard.source_page, "sourceCount") == ["✓  3 records found"]
    assert "⚠  1 item in Zotero's trash is not imported." in labels(
        wizard.source_page, "sourceWarning"
    )
    assert set(statuses(review(qtbot, wizard))) == {"New"}
    finish(qtbot, wizard)
    titles = {library.paper(i).title for i in library.paper_ids(PaperQuery())}
    assert titles == {"Sparse Lattices for Retrieval", "Lattices at Scale", "Quiet Lattices"}


def test_dropping_a_mendeley_database_imports_the_mendeley_library(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    mendeley = make_mendeley_library(tmp_path / "Mendeley Desktop")
    drop_on(window.table.viewport(), files(mendeley))
    qtbot.waitUntil(lambda: hasattr(window, "wizard") and window.wizard.isVisible())
    wizard = window.wizard
    assert wizard.source_page.wait_until_read()
    assert labels(wizard.source_page, "sourceFormat") == [
        "Mendeley library (its documents, tags, folders, notes and files) · " + MENDELEY_NAME
    ]
    assert labels(wizard.source_page, "sourceCount") == ["✓  3 records found"]
    assert "⚠  1 document in Mendeley's trash is not imported." in labels(
        wizard.source_page, "sourceWarning"
    )
    assert set(statuses(review(qtbot, wizard))) == {"New"}
    finish(qtbot, wizard)
    papers = [library.paper(i) for i in library.paper_ids(PaperQuery())]
    assert {p.title for p in papers} == {
        "Sparse Lattices for Retrieval",
        "Lattices at Scale",
        "Quiet Lattices",
    }
    [read] = [p for p in papers if p.status == "read"]
    assert (read.title, read.rating) == ("Sparse Lattices for Retrieval", 5)


def test_the_same_bib_again_would_only_merge(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService
) -> None:
    library.import_pages([sourced_file(BIB / "zotero.bib")])
    wizard.add_files([BIB / "zotero.bib"])
    assert wizard.source_page.wait_until_read()
    model = review(qtbot, wizard)
    assert model.rowCount() == 8
    assert all(
        s.startswith("Already in library (#") and s.endswith(" — nothing new to add")
        for s in statuses(model)
    )


def test_damaged_entries_are_named_and_the_whole_ones_come_in(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService
) -> None:
    wizard.add_files([BIB / "damaged.bib"])
    assert wizard.source_page.wait_until_read()
    warnings = labels(wizard.source_page, "sourceWarning")
    assert "⚠  Skipped the entry ‘unclosed’ on line 7: a ‘{’ is never closed." in warnings
    assert sum(w.startswith("⚠  Skipped the entry") for w in warnings) == 4
    model = review(qtbot, wizard)
    finish(qtbot, wizard)
    titles = {library.paper(i).title for i in library.paper_ids(PaperQuery())}
    assert len(titles) == model.rowCount() == 5
    assert "A whole first entry" in titles
    assert not any("broken" in t or "year" in t for t in titles)


def test_a_json_that_is_no_bibliography_is_refused_plainly(
    qtbot: QtBot, wizard: ImportWizard
) -> None:
    wizard.add_files([BIB / "not-csl.json"])
    assert wizard.source_page.wait_until_read()
    [error] = labels(wizard.source_page, "sourceError")
    assert error.startswith("✗  Not a bibliography.") and "not-csl.json" not in error[:3]
    assert not labels(wizard.source_page, "pageExample")
    assert not wizard.button(Button.NextButton).isEnabled()


def test_bibtex_pasted_as_text_is_read_as_bibtex(qtbot: QtBot, wizard: ImportWizard) -> None:
    text = (BIB / "jabref.bib").read_text(encoding="utf-8")
    wizard.source_page.paste_area.setFocus()
    mime = QMimeData()
    mime.setText(text)
    wizard.source_page.paste_area.insertFromMimeData(mime)
    qtbot.waitUntil(lambda: bool(labels(wizard.source_page, "sourceFormat")), timeout=5_000)
    assert labels(wizard.source_page, "sourceFormat") == ["BibTeX bibliography · pasted text"]


def html_mime(with_plain_text: bool) -> QMimeData:
    html = (PAGES / "list_links.html").read_text(encoding="utf-8")
    mime = QMimeData()
    mime.setHtml(html)
    if with_plain_text:  # a browser's copy carries its own plain text beside the HTML
        mime.setText((PAGES / "list_links.html").with_suffix(".txt").read_text(encoding="utf-8"))
    return mime


@pytest.mark.parametrize("how", ["drop", "paste"])
def test_links_of_dropped_or_pasted_html_reach_the_library(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService, how: str
) -> None:
    if how == "drop":
        drop_on(wizard.source_page, html_mime(with_plain_text=True))
    else:
        wizard.source_page.paste_area.insertFromMimeData(html_mime(with_plain_text=True))
    qtbot.waitUntil(lambda: bool(labels(wizard.source_page, "sourceCount")), timeout=5_000)
    review(qtbot, wizard)
    finish(qtbot, wizard)
    papers = {library.paper(i).title: library.paper(i) for i in library.paper_ids(PaperQuery())}
    tidewater = papers["Tidewater: Streaming Joins over Unbounded Sensor Logs"]
    assert tidewater.arxiv_id == "2502.01234v2"
    assert tidewater.url == "https://arxiv.org/abs/2502.01234v2"
    assert papers["2019: A Year of Quiet Progress in Tensor Sketching"].doi == (
        "10.5555/iclr.2024.0042"
    )


def test_a_merged_entrys_key_is_shown_and_found_by_typing_it(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    entry = "@{kind}{{{key},\n  title = {{Language Models are Few-Shot Learners}},\n{more}}}\n"
    bib = tmp_path / "zotero-export.bib"
    bib.write_text(
        entry.format(kind="misc", key="brown_language_2020", more="  eprint = {2005.14165},\n")
        + entry.format(kind="inproceedings", key="brown_language_2020-1", more="  year = 2020,\n"),
        encoding="utf-8",
    )
    drop_on(window.table.viewport(), files(bib))
    qtbot.waitUntil(lambda: hasattr(window, "wizard") and window.wizard.isVisible())
    assert window.wizard.source_page.wait_until_read()
    review(qtbot, window.wizard)
    finish(qtbot, window.wizard)
    qtbot.waitUntil(lambda: window.model.rowCount() == 1)
    qtbot.keyClicks(window.search_box, "brown_language_2020-2")  # no paper's key
    qtbot.waitUntil(lambda: window.model.rowCount() == 0)
    qtbot.keyClick(window.search_box, Qt.Key.Key_Backspace)
    qtbot.keyClicks(window.search_box, "1")  # the key of the entry merged in
    qtbot.waitUntil(lambda: window.model.rowCount() == 1)
    assert window.model.query.text == "brown_language_2020-1"
    window.table.selectRow(0)
    aliases = window.detail_pane.findChild(QLabel, "citekeyAliases")
    assert aliases is not None
    qtbot.waitUntil(aliases.isVisible)
    assert aliases.text() == "Also cited as brown_language_2020-1"


def test_entries_whose_abstract_only_says_there_is_none_are_each_a_paper(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService
) -> None:
    """Scopus writes "[No abstract available]" for every entry without one: two papers of
    the same authors, one such placeholder, are two papers (the placeholder kept as given)."""
    wizard.add_files([BIB / "scopus-no-abstract.ris"])
    assert wizard.source_page.wait_until_read()
    model = review(qtbot, wizard)
    assert statuses(model) == ["New", "New", "New"]
    finish(qtbot, wizard)
    papers = [library.paper(i) for i in library.paper_ids(PaperQuery())]
    assert len(papers) == 3
    assert [p.abstract for p in papers].count("[No abstract available]") == 2


def test_the_review_lists_an_edited_books_editors_as_its_authors(
    qtbot: QtBot, wizard: ImportWizard, tmp_path: Path
) -> None:
    bib = tmp_path / "edited.bib"
    bib.write_text(
        "@book{rossi2018, editor = {Rossi, Luca and Mensah, Kofi},\n"
        "  title = {Coastal Processes}, year = {2018}}\n"
        "@book{okafor2017, editor = {Okafor, Ngozi}, title = {Tides}, year = {2017}}\n"
        "@incollection{baker2018, author = {Baker, Tom}, editor = {Rossi, Luca},\n"
        "  title = {Sediment budgets}, booktitle = {Coastal Processes}, year = {2018}}\n",
        encoding="utf-8",
    )
    wizard.source_page.add_files([str(bib)])
    qtbot.waitUntil(wizard.source_page.isComplete, timeout=5_000)
    wizard.next()
    model = wizard.review_page.model
    qtbot.waitUntil(lambda: model.rowCount() == 3, timeout=10_000)
    authors = [model.index(r, Column.AUTHORS).data() for r in range(3)]
    assert authors == ["Luca Rossi, Kofi Mensah (eds.)", "Ngozi Okafor (ed.)", "Tom Baker"]
