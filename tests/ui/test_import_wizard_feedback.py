"""What the import wizard tells the user, and how the keyboard goes through it: sources
that cannot be imported are left out with a word each, the review names the paper a record
merges into and gives the titles the room, an unchecked row says it is left out, and the tags
page takes Tab, Enter and its tags as a user expects. Found by a QA pass."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QWidget,
    QWizard,
)
from pytestqt.qtbot import QtBot

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperQuery, SortKey
from refman.importers import parse
from refman.importers.bibtex import parse_bibtex
from tests.helpers.fixtures import sourced_file
from tests.helpers.pages import abstracts_page, publication_page

from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.settings import WindowSettings
from refman.ui.wizard import ImportWizard
from refman.ui.wizard.review_model import Column, ReviewModel

pytestmark = pytest.mark.qt_log_ignore(
    "does not support propagateSizeHints", "does not support raise", "grabbing the keyboard"
)

Button = QWizard.WizardButton
ATTENTION = "Attention Is All You Need"
TIDE = "Tide Transformers: forecasting coastal water levels from tide gauges"
#: A bibliography of two entries; the first carries two keywords.
RIS = """TY  - JOUR
AU  - Okafor, Chidi
TI  - Tidal flat erosion under storms: a field study
T2  - Journal of Coastal Research
PY  - 2020
KW  - coastal
KW  - erosion
ER  -

TY  - CPAPER
AU  - Dubois, Élodie
TI  - Re-reading old gauges with modern eyes
T2  - Proceedings of the General Assembly
PY  - 2018
ER  -
"""
PROSE = "Dear all,\n\nthe seminar moves to Thursday at noon. Bring your own lunch.\n"


@pytest.fixture
def wizard(qtbot: QtBot, controller: LibraryController) -> Iterator[ImportWizard]:
    """An import wizard, shown and active (the keyboard is its)."""
    made = ImportWizard(controller)
    qtbot.add_widget(made)
    made.show()
    made.activateWindow()
    qtbot.waitUntil(made.isActiveWindow)
    yield made
    if made.isVisible():
        made.reject()


def labels(widget: QWidget, name: str) -> list[str]:
    QApplication.processEvents()
    return [w.text() for w in widget.findChildren(QLabel, name) if w.isVisibleTo(widget)]


def click(qtbot: QtBot, wizard: ImportWizard, which: QWizard.WizardButton) -> None:
    button = wizard.button(which)
    assert button.isVisible() and button.isEnabled(), f"{which} is not clickable"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def to_review(qtbot: QtBot, wizard: ImportWizard) -> ReviewModel:
    click(qtbot, wizard, Button.NextButton)
    assert wizard.currentPage() is wizard.review_page
    return wizard.review_page.model


def statuses(model: ReviewModel) -> list[str]:
    return [model.index(r, Column.STATUS).data() for r in range(model.rowCount())]


def write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# -- the sources page ----------------------------------------------------------------------------


def test_a_file_that_is_no_page_is_left_out_and_the_good_ones_go_on(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService, tmp_path: Path
) -> None:
    page = write(tmp_path, "okafor.txt", publication_page("Chidi Okafor", [(TIDE, 2024, "arXiv")]))
    ris = write(tmp_path, "small.ris", RIS)
    prose = write(tmp_path, "prose.txt", PROSE)
    empty = write(tmp_path, "empty.txt", "")
    wizard.add_files([page, ris, prose, empty])
    assert wizard.source_page.wait_until_read()
    source = wizard.source_page
    errors = labels(source, "sourceError")
    assert len(errors) == 2 and all(e.startswith("✗  Not an author page.") for e in errors)
    # What an author page looks like is shown once, not on every card that is none.
    assert len(labels(source, "pageExample")) == 1
    assert not any("An author page starts with" in e for e in errors)
    assert labels(source, "sourcesNote") == [
        "⚠  2 files cannot be imported and will be left out (prose.txt and empty.txt). "
        "Next goes on with the other 2."
    ]
    model = to_review(qtbot, wizard)
    assert labels(wizard.review_page, "pageSummary") == [
        "Chidi Okafor — okafor.txt: 1 record (the page says 1); 1 new",
        "small.ris (RIS bibliography): 2 records; 2 new",  # (a bibliography has no owner)
    ]
    assert model.rowCount() == 3
    click(qtbot, wizard, Button.NextButton)
    click(qtbot, wizard, Button.CommitButton)
    qtbot.waitUntil(lambda: not wizard.result_page.running, timeout=20_000)
    assert labels(wizard.result_page, "resultDetails") == [
        "Chidi Okafor — okafor.txt: 1 new\nsmall.ris (RIS bibliography): 2 new"
    ]
    assert library.count() == 3


def test_tab_leaves_the_paste_box_and_a_pasted_tab_stays(
    qtbot: QtBot, wizard: ImportWizard
) -> None:
    area = wizard.source_page.paste_area
    area.setFocus()
    qtbot.waitUntil(area.hasFocus)
    pasted = "Chidi Okafor\n\nVenue\tYear\n"
    mime = QMimeData()
    mime.setText(pasted)
    area.insertFromMimeData(mime)  # as Ctrl+V does
    qtbot.keyClick(area, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is wizard.source_page.open_button
    assert area.toPlainText() == pasted  # no tab typed in, the pasted one kept
    qtbot.keyClick(wizard.source_page.open_button, Qt.Key.Key_Backtab)
    assert QApplication.focusWidget() is area
    assert area.toPlainText() == pasted


# -- the review ------------------------------------------------------------------------------------


def ris_entry(title: str, doi: str, year: int, abstract: str = "") -> str:
    more = f"AB  - {abstract}\n" if abstract else ""
    return (
        f"TY  - JOUR\nAU  - Okafor, Chidi\nTI  - {title}\nPY  - {year}\nDO  - {doi}\n{more}ER  -\n"
    )


def test_the_review_names_the_paper_a_record_merges_into_and_gives_the_title_room(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService, tmp_path: Path
) -> None:
    known = ris_entry(ATTENTION, "10.5555/attention", 2017) + ris_entry(
        "Gauge records revisited", "10.5555/gauges", 2021
    )
    library.import_pages([sourced_file(write(tmp_path, "known.ris", known))])
    attention, gauges = library.paper_ids(PaperQuery(sort=SortKey.TITLE))
    # The first record gives the DOI of another paper (its dataset's, say): it is taken for
    # that paper, whose title the review shows; the second is the paper it says it is.
    new = (
        ris_entry(TIDE, "10.5555/attention", 2024, "We forecast water levels from gauges.")
        + ris_entry("Gauge records revisited", "10.5555/gauges", 2021)
        + ris_entry("Sediment transport in estuaries", "10.5555/sediment", 2022)
        + ris_entry("Sediment transport in estuaries", "10.5555/sediment", 2022)
    )
    wizard.add_files([write(tmp_path, "new.ris", new)])
    assert wizard.source_page.wait_until_read()
    model = to_review(qtbot, wizard)
    assert statuses(model) == [
        f"Already in library as “{ATTENTION}” (#{attention}) — will merge: adds the abstract",
        f"Already in library (#{gauges}) — nothing new to add",
        "New",
        "Same paper as row 3 — will merge into “Sediment transport in estuaries”",
    ]
    table = wizard.review_page.table
    header = table.horizontalHeader()
    assert header.sectionResizeMode(Column.TITLE) == QHeaderView.ResizeMode.Stretch
    assert header.sectionResizeMode(Column.STATUS) == QHeaderView.ResizeMode.Interactive
    qtbot.waitUntil(lambda: table.columnWidth(Column.TITLE) >= table.columnWidth(Column.STATUS))
    assert table.columnWidth(Column.TITLE) > 250
    # The whole status of the row clicked, under the table (the column may cut it short).
    cell = table.visualRect(model.index(0, Column.TITLE)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    assert labels(wizard.review_page, "recordStatus") == [f"Row 1: {statuses(model)[0]}."]
    cell = table.visualRect(model.index(3, Column.TITLE)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    assert labels(wizard.review_page, "recordStatus") == [
        f"Row 4: {statuses(model)[3]}. The paper is imported once, with the details of both "
        "records."
    ]


def test_a_status_that_fits_is_shown_whole(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService
) -> None:
    page = publication_page("Chidi Okafor", [(TIDE, 2024, "arXiv"), (ATTENTION, 2017, "arXiv")])
    library.import_pages([SourcedPage(parse(page))])
    wizard.resize(1000, 700)
    wizard.add_text(page)
    model = to_review(qtbot, wizard)
    first, second = library.paper_ids(PaperQuery(sort=SortKey.ADDED))
    assert sorted(statuses(model)) == [
        f"Already in library (#{n}) — nothing new to add" for n in sorted((first, second))
    ]
    table = wizard.review_page.table
    widest = max(table.fontMetrics().horizontalAdvance(s) for s in statuses(model))
    qtbot.waitUntil(lambda: table.columnWidth(Column.STATUS) > widest + 30)  # dot, margins
    assert table.columnWidth(Column.TITLE) >= table.columnWidth(Column.STATUS)


def test_an_unchecked_row_says_it_is_left_out(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService
) -> None:
    authors = "Chidi Okafor, Wei Chen"
    abstract = "We measure erosion of tidal flats during storms with gauges along the coast."
    wizard.add_text(abstracts_page("Chidi Okafor", [(authors, abstract)]))
    model = to_review(qtbot, wizard)
    assert statuses(model) == ["Needs a title"]
    table = wizard.review_page.table
    table.setCurrentIndex(model.index(0, Column.IMPORT))
    qtbot.keyClick(table, Qt.Key.Key_Space)  # unchecks the row
    assert statuses(model) == ["Left out — will not be imported"]
    assert labels(wizard.review_page, "recordStatus") == [
        "Row 1: Left out — will not be imported. Check the row to import the record."
    ]
    assert not wizard.button(Button.NextButton).isEnabled()
    qtbot.keyClick(table, Qt.Key.Key_Space)
    assert statuses(model) == ["Needs a title"]
    assert library.count() == 0


def test_an_unchecked_possible_duplicate_offers_no_choice_until_checked_again(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService
) -> None:
    title = "Graph networks at scale for molecular property prediction on large benchmarks"
    library.import_pages(
        [SourcedPage(parse(publication_page("Ada Lovelace", [(title, 2024, "arXiv")])))]
    )
    near = title.replace("networks", "network")
    wizard.add_text(publication_page("Ada Lovelace", [(near, 2024, "arXiv")]))
    model = to_review(qtbot, wizard)
    assert statuses(model) == [f"Merge — possible duplicate of “{title}”"]
    page = wizard.review_page
    assert len(page.findChildren(QComboBox, "duplicateChoice")) == 1
    page.table.setCurrentIndex(model.index(0, Column.IMPORT))
    qtbot.keyClick(page.table, Qt.Key.Key_Space)
    assert statuses(model) == ["Left out — will not be imported"]
    qtbot.waitUntil(lambda: not page.findChildren(QComboBox, "duplicateChoice"))
    qtbot.keyClick(page.table, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: len(page.findChildren(QComboBox, "duplicateChoice")) == 1)


# -- the tags page ---------------------------------------------------------------------------------


def to_tags(qtbot: QtBot, wizard: ImportWizard) -> None:
    to_review(qtbot, wizard)
    click(qtbot, wizard, Button.NextButton)
    assert wizard.currentPage() is wizard.tags_page


def test_the_tags_page_starts_at_its_top_and_tab_goes_down_it(
    qtbot: QtBot, wizard: ImportWizard
) -> None:
    wizard.add_text(publication_page("Chidi Okafor", [(TIDE, 2024, "arXiv")]))
    to_tags(qtbot, wizard)
    page = wizard.tags_page
    [owner] = page.findChildren(QCheckBox, "ownerTagCheck")
    qtbot.waitUntil(lambda: QApplication.focusWidget() is owner)
    qtbot.keyClick(owner, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is page.subject_check
    qtbot.keyClick(page.subject_check, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is page.tags_edit
    qtbot.keyClick(page.tags_edit, Qt.Key.Key_Backtab)
    assert QApplication.focusWidget() is page.subject_check


def test_enter_in_the_tags_field_takes_the_tag_and_imports_nothing(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService
) -> None:
    wizard.add_text(publication_page("Chidi Okafor", [(TIDE, 2024, "arXiv")]))
    to_tags(qtbot, wizard)
    edit = wizard.tags_page.tags_edit
    edit.setFocus()
    qtbot.waitUntil(edit.hasFocus)
    qtbot.keyClicks(edit, "rivers, to re")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert wizard.currentPage() is wizard.tags_page  # no import
    assert library.count() == 0
    assert edit.text() == "rivers, to re, "  # the tag closed, the next one can be typed
    qtbot.keyClicks(edit, "ad")
    assert labels(wizard.tags_page, "tagsPreview") == [
        "Each imported paper will be tagged: rivers, to re, ad."
    ]
    # Enter elsewhere on the page (or the Import button) runs the import.
    wizard.tags_page.subject_check.setFocus()
    qtbot.keyClick(wizard.tags_page.subject_check, Qt.Key.Key_Return)
    assert wizard.currentPage() is wizard.result_page
    qtbot.waitUntil(lambda: not wizard.result_page.running, timeout=20_000)
    assert {t.name for t in library.tags()} == {"rivers", "to re", "ad"}


def test_enter_in_the_open_list_of_tags_completes_the_tag(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService
) -> None:
    library.import_pages(
        [SourcedPage(parse(publication_page("Grace Hopper", [(ATTENTION, 2017, "NeurIPS")])))]
    )
    library.tag(library.paper_ids(), ["to read"])
    wizard.add_text(publication_page("Chidi Okafor", [(TIDE, 2024, "arXiv")]))
    to_tags(qtbot, wizard)
    edit = wizard.tags_page.tags_edit
    edit.setFocus()
    qtbot.waitUntil(edit.hasFocus)
    qtbot.keyClicks(edit, "rivers, to re")
    popup = edit.completer().popup()
    assert popup is not None
    qtbot.waitUntil(popup.isVisible)
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert edit.text() == "rivers, to read"
    assert wizard.currentPage() is wizard.tags_page
    assert library.count() == 1


def test_the_tags_page_says_that_keywords_become_tags(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService, tmp_path: Path
) -> None:
    wizard.add_files([write(tmp_path, "small.ris", RIS)])
    assert wizard.source_page.wait_until_read()
    to_tags(qtbot, wizard)
    assert labels(wizard.tags_page, "tagsPreview") == [
        "No tag will go on every paper.\n"
        "The entries' own keywords become tags of their papers: coastal, erosion."
    ]
    qtbot.keyClicks(wizard.tags_page.tags_edit, "rivers")
    assert labels(wizard.tags_page, "tagsPreview") == [
        "Each imported paper will be tagged: rivers.\n"
        "The entries' own keywords become tags of their papers: coastal, erosion."
    ]
    click(qtbot, wizard, Button.CommitButton)
    qtbot.waitUntil(lambda: not wizard.result_page.running, timeout=20_000)
    assert len(library.paper_ids(PaperQuery(tags=("rivers",)))) == 2
    assert len(library.paper_ids(PaperQuery(tags=("coastal", "erosion")))) == 1


# -- a drop on the main window -------------------------------------------------------------------


def test_a_good_file_dropped_with_a_binary_one_is_imported_and_the_other_named(
    qtbot: QtBot,
    controller: LibraryController,
    library: LibraryService,
    tmp_path: Path,
    shown_errors: list[str],
) -> None:
    window = MainWindow(controller, WindowSettings(tmp_path / "settings.ini"))
    qtbot.add_widget(window)
    window.show()
    qtbot.wait_exposed(window)
    binary = write(tmp_path, "random.bin", bytes(range(256)) * 8)
    ris = write(tmp_path, "small.ris", RIS)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(binary)), QUrl.fromLocalFile(str(ris))])
    where = QPointF(window.rect().center())
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(where.toPoint(), Qt.DropAction.CopyAction, mime, buttons, mods)
    QApplication.sendEvent(window, enter)
    QApplication.sendEvent(window, QDropEvent(where, Qt.DropAction.CopyAction, mime, buttons, mods))
    qtbot.waitUntil(lambda: hasattr(window, "wizard") and window.wizard.isVisible())
    wizard = window.wizard
    qtbot.waitUntil(lambda: len(wizard.source_page.sources()) == 2)
    assert wizard.source_page.wait_until_read()
    assert shown_errors == []  # no "Nothing was imported" box
    source = wizard.source_page
    assert labels(source, "sourceOwner") == ["random.bin", "small.ris"]
    [error] = labels(source, "sourceError")
    assert error.startswith("✗  Cannot be imported. ‘random.bin’ contains binary data, not text.")
    assert labels(source, "sourceCount") == ["✓  2 records found"]
    click(qtbot, wizard, Button.NextButton)
    click(qtbot, wizard, Button.NextButton)
    click(qtbot, wizard, Button.CommitButton)
    qtbot.waitUntil(lambda: not wizard.result_page.running, timeout=20_000)
    assert library.count() == 2
    wizard.accept()


def test_after_an_import_the_keyboard_is_on_show_these_papers(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService
) -> None:
    """The keyboard was left on the hidden *Cancel import*: nothing had it that the person
    could see. Enter through the wizard now ends with the papers shown; an import of
    nothing new ends on Finish."""
    page = publication_page("Chidi Okafor", [(TIDE, 2024, "arXiv")])
    wizard.add_text(page)
    to_tags(qtbot, wizard)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)  # Import
    result = wizard.result_page
    qtbot.waitUntil(lambda: not result.running, timeout=20_000)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is result.show_button)
    with qtbot.wait_signal(wizard.show_papers_requested) as shown:
        qtbot.keyClick(result.show_button, Qt.Key.Key_Return)
    assert shown.args == [library.paper_ids()]

    again = ImportWizard(wizard.controller)
    qtbot.add_widget(again)
    again.show()
    again.add_text(page)
    to_tags(qtbot, again)
    click(qtbot, again, Button.CommitButton)
    qtbot.waitUntil(lambda: not again.result_page.running, timeout=20_000)
    finish = again.button(Button.FinishButton)
    assert not again.result_page.show_button.isEnabled()  # (no paper changed)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is finish)
    qtbot.keyClick(finish, Qt.Key.Key_Return)
    assert not again.isVisible()


def test_a_tag_too_long_is_said_on_the_tags_page_and_import_waits(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService
) -> None:
    """A tag of more than 100 characters was refused only once Import had been clicked,
    on the last page."""
    wizard.add_text(publication_page("Chidi Okafor", [(TIDE, 2024, "arXiv")]))
    to_tags(qtbot, wizard)
    edit = wizard.tags_page.tags_edit
    edit.setText(f"rivers, {'x' * 101}")
    assert labels(wizard.tags_page, "tagsPreview") == [
        "✗  A tag name can be at most 100 characters long. Nothing can be imported with it."
    ]
    assert not wizard.button(Button.CommitButton).isEnabled()
    edit.setText(f"rivers, {'x' * 100}")
    assert labels(wizard.tags_page, "tagsPreview") == [
        f"Each imported paper will be tagged: rivers, {'x' * 100}."
    ]
    click(qtbot, wizard, Button.CommitButton)
    qtbot.waitUntil(lambda: not wizard.result_page.running, timeout=20_000)
    assert {t.name for t in library.tags()} == {"rivers", "x" * 100}


def test_a_web_address_pasted_is_said_to_be_one(qtbot: QtBot, wizard: ImportWizard) -> None:
    """A profile's address pasted (as Zotero takes a URL) was "no line looks like the start
    of a paper"; a link dragged in was already told what to do."""
    address = "https://scholar.google.com/citations?user=abc123"
    area = wizard.source_page.paste_area
    area.setPlainText(f"  {address}\n")
    qtbot.waitUntil(lambda: bool(labels(wizard.source_page, "sourceError")))
    assert labels(wizard.source_page, "sourceError") == [
        f"✗  Not an author page. No publication records found: ‘{address}’ is a web address; "
        "refman cannot download pages. Open the page in your browser, select the publication "
        "list and drag or paste the text."
    ]
    assert not wizard.button(Button.NextButton).isEnabled()


def test_f2_types_the_title_of_a_row_that_needs_one_and_space_still_checks_it(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService
) -> None:
    """The keyboard's cell is the row's checkbox (Space leaves a record out): F2 there did
    nothing, so a title could only be typed after a double-click."""
    abstract = "We introduce a family of tide models that learn from gauges."
    wizard.add_text(abstracts_page("Chidi Okafor", [("Chidi Okafor, Ada Lindqvist", abstract)]))
    model = to_review(qtbot, wizard)
    assert statuses(model) == ["Needs a title"]
    table = wizard.review_page.table
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    assert table.currentIndex().column() == Column.IMPORT
    qtbot.keyClick(table, Qt.Key.Key_F2)
    editor = table.findChild(QLineEdit)
    assert editor is not None and editor.isVisible()
    editor.selectAll()
    qtbot.keyClicks(editor, "Tide Models from Gauges")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: statuses(model) == ["New — title typed by you"])
    assert model.index(0, Column.TITLE).data() == "Tide Models from Gauges"
    assert wizard.currentPage() is wizard.review_page  # (Enter took the title, no more)
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_Space)
    assert statuses(model) == ["Left out — will not be imported"]


# -- a list of references pasted ---------------------------------------------------------------

#: A lab member's page, as copied from the browser: a heading, then references in two styles.
REFERENCES = (
    "Nadia Okafor — Publications\n\n"
    '[1] N. Okafor, E. Lindqvist, and R. Baptiste, "Tidal models of estuary sediment," '
    "Mar. Geol., vol. 441, no. 3, pp. 106–121, 2022, doi: 10.1016/j.margeo.2022.106.\n"
    "[2] Okafor N, Lindqvist E. Salt wedges in tidal rivers. Estuar Coast. 2019;42(4):1013-40.\n"
)
#: The same first paper as a coauthor's BibTeX gives it.
REFERENCES_BIB = """@article{okafor2022tidal,
  title = {Tidal Models of Estuary Sediment},
  author = {Okafor, Nadia and Lindqvist, Elsa and Baptiste, René},
  journal = {Marine Geology},
  year = {2022},
  doi = {10.1016/j.margeo.2022.106},
}
"""


def test_a_pasted_list_of_references_is_imported_with_its_authors_and_venues(
    qtbot: QtBot, wizard: ImportWizard, library: LibraryService
) -> None:
    QApplication.clipboard().setText(REFERENCES)
    area = wizard.source_page.paste_area
    area.setFocus()
    qtbot.keyClick(area, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: bool(labels(wizard.source_page, "sourceCount")), timeout=10_000)
    assert labels(wizard.source_page, "sourceFormat") == [
        "list of references (authors, title, venue, year) · pasted text"
    ]
    assert labels(wizard.source_page, "sourceWarning") == []
    click(qtbot, wizard, Button.NextButton)  # the review
    assert wizard.review_page.model.rowCount() == 2
    table = wizard.review_page.table
    qtbot.mouseClick(
        table.viewport(),
        Qt.MouseButton.LeftButton,
        pos=table.visualRect(wizard.review_page.model.index(0, Column.TITLE)).center(),
    )
    shown = wizard.review_page.abstract  # (not "Select a record…" with a record selected)
    assert (shown.toPlainText(), shown.placeholderText()) == ("", "This record has no abstract.")
    click(qtbot, wizard, Button.NextButton)  # the tags
    click(qtbot, wizard, Button.CommitButton)
    qtbot.waitUntil(lambda: not wizard.result_page.running, timeout=20_000)

    papers = {library.paper(pid).title: library.paper(pid) for pid in library.paper_ids()}
    tidal = papers["Tidal models of estuary sediment"]
    assert (tidal.authors, tidal.year, tidal.venue, tidal.doi) == (
        ("N. Okafor", "E. Lindqvist", "R. Baptiste"),
        2022,
        "Mar. Geol.",
        "10.1016/j.margeo.2022.106",
    )
    salt = papers["Salt wedges in tidal rivers"]
    assert (salt.authors, salt.venue, salt.volume, salt.pages) == (
        ("N. Okafor", "E. Lindqvist"),
        "Estuar Coast",
        "42",
        "1013–40",
    )

    # The coauthor's BibTeX of the first paper merges into it: no duplicate.
    result = library.import_pages([SourcedPage(parse_bibtex(REFERENCES_BIB), "okafor.bib")])
    assert result.new_ids == ()
    assert library.count() == 2
