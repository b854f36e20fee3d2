"""The import wizard on real libraries: what the user sees on each page and what the DB holds."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from PySide6.QtCore import QDir, QMimeData, QModelIndex, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QWidget,
    QWizard,
)
from pytestqt.qtbot import QtBot

from refman.core.importing.values import ImportChoices, ImportResult, SourcedPage
from refman.core.importing.wording import result_headline, result_page_line
from refman.core.library import LibraryService
from refman.core.operations import ImportPages, Operation, Outcome
from refman.core.values import PaperQuery
from refman.importers import parse
from refman.importers.records import PageLink
from refman.importers.sources import load_source
from tests.helpers.fixtures import dump, read_page, seed_files, settle, sourced, sourced_file
from tests.helpers.pages import abstracts_page, generated_page

from refman.ui.controller import LibraryController
from refman.ui.runner import Job
from refman.ui.wizard import ImportWizard, review_page, source_page, source_reading
from refman.ui.wizard import wizard as wizard_module
from refman.ui.wizard.review_model import LEFT_OUT, Column, ReviewModel
from refman.ui.wizard.source_card import Source

# The offscreen platform warns when top-level widgets and completer popups show.
pytestmark = pytest.mark.qt_log_ignore(
    "does not support propagateSizeHints", "does not support raise", "grabbing the keyboard"
)

Button = QWizard.WizardButton
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"


def page_text(owner: str, records: list[tuple[str, str]], subjects: str = "cs.LG↗") -> str:
    """A publication-list page with (title, abstract) records."""
    lines = [
        "arXiv subjects",
        owner,
        f"Publications and source records attributed to {owner}.",
        f"{len(records)} recordsLinked to original sources",
    ]
    for title, abstract in records:
        lines += ["arXiv2024", title, abstract, subjects]
    return "\n\n".join(lines)


@pytest.fixture
def make_wizard(
    qtbot: QtBot, controller: LibraryController
) -> Iterator[Callable[[], ImportWizard]]:
    """Opens import wizards (shown, closed after the test)."""
    made: list[ImportWizard] = []

    def make() -> ImportWizard:
        wizard = ImportWizard(controller)
        qtbot.add_widget(wizard)
        wizard.show()
        made.append(wizard)
        return wizard

    yield make
    for wizard in made:
        if wizard.isVisible():
            wizard.reject()


def click(qtbot: QtBot, wizard: ImportWizard, which: QWizard.WizardButton) -> None:
    button = wizard.button(which)
    assert button.isVisible() and button.isEnabled(), f"{which} is not clickable"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def labels(widget: QWidget, name: str) -> list[str]:
    """The texts of the visible labels of that name (after pending shows are processed)."""
    QApplication.processEvents()
    return [w.text() for w in widget.findChildren(QLabel, name) if w.isVisibleTo(widget)]


def statuses(model: ReviewModel) -> list[str]:
    return [model.index(r, Column.STATUS).data() for r in range(model.rowCount())]


def to_review(qtbot: QtBot, wizard: ImportWizard) -> ReviewModel:
    click(qtbot, wizard, Button.NextButton)
    assert wizard.currentPage() is wizard.review_page
    return wizard.review_page.model


def run_import(qtbot: QtBot, wizard: ImportWizard) -> None:
    """From the review page: Next to tags, Import, wait for the end."""
    click(qtbot, wizard, Button.NextButton)
    assert wizard.currentPage() is wizard.tags_page
    click(qtbot, wizard, Button.CommitButton)
    assert wizard.currentPage() is wizard.result_page
    qtbot.waitUntil(lambda: not wizard.result_page.running, timeout=20_000)


def import_seed_directly(library: LibraryService, n: int) -> None:
    library.import_pages([sourced_file(seed_files()[n])])


def merged_into(library: LibraryService, model: ReviewModel, row: int) -> str:
    """ "Already in library (#7)": how a review row whose paper is in the library under the
    title the row shows names that paper."""
    target = model.plan_at(row).target_id
    assert target is not None
    assert model.index(row, Column.TITLE).data() == library.paper(target).title
    return f"Already in library (#{target})"


def tagged(library: LibraryService, name: str) -> set[int]:
    """The papers that carry a tag."""
    return set(library.paper_ids(PaperQuery(tags=(name,))))


# -- walking the wizard ----------------------------------------------------------------------


def test_three_seed_pages_one_wizard_each(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], library: LibraryService
) -> None:
    expected_totals = [12, 17, 20]
    expected_summaries = [
        "12 new papers, 0 already in library",
        "5 new papers, 1 already in library (updated)",
        "3 new papers, 1 already in library (updated)",
    ]
    for n, seed in enumerate(seed_files()):
        page = read_page(seed)
        wizard = make_wizard()
        wizard.add_files([seed])
        assert wizard.source_page.wait_until_read()
        src = wizard.source_page
        assert labels(src, "sourceOwner") == [page.owner]
        said = f" (the page says {page.claimed})" if page.claimed is not None else ""
        assert labels(src, "sourceCount") == [f"✓  {len(page.records)} records found{said}"]

        model = to_review(qtbot, wizard)
        shown = statuses(model)
        if n == 0:
            assert shown == ["New"] * 12
        elif n == 1:
            assert shown.count("New") == 5
            [merge] = [s for s in shown if s != "New"]
            into = merged_into(library, model, shown.index(merge))
            assert merge.startswith(f"{into} — will merge: adds attribution to")
        else:
            assert shown.count("Needs a title") == 3
            [merge] = [s for s in shown if s != "Needs a title"]
            into = merged_into(library, model, shown.index(merge))
            assert merge.startswith(f"{into} — will merge: adds ")
            assert f"attribution to {page.owner}" in merge
        assert labels(wizard.review_page, "pageSummary")[0].startswith(
            f"{page.owner} — {seed.name}"
        )

        run_import(qtbot, wizard)
        result = wizard.result
        assert result is not None
        assert labels(wizard.result_page, "resultSummary") == [expected_summaries[n]]
        assert (len(result.new_ids), len(result.merged_ids)) == ((12, 5, 3)[n], min(n, 1))
        assert library.count() == expected_totals[n]
        assert wizard.controller.undo_stack.count() == n + 1
        wizard.accept()
    assert library.count() == 20


def test_show_these_papers_emits_the_ids_and_closes(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], library: LibraryService
) -> None:
    import_seed_directly(library, 0)
    wizard = make_wizard()
    wizard.add_files([seed_files()[1]])
    assert wizard.source_page.wait_until_read()
    to_review(qtbot, wizard)
    run_import(qtbot, wizard)
    assert wizard.result is not None
    button = wizard.result_page.show_button
    assert button.objectName() == "showPapersButton" and button.isVisible()
    with qtbot.wait_signal(wizard.show_papers_requested) as signal:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert sorted(signal.args[0]) == sorted(wizard.result.paper_ids)
    assert len(signal.args[0]) == 6
    assert not wizard.isVisible()


# -- the source page -------------------------------------------------------------------------


def test_not_a_page_keeps_next_disabled_and_explains(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard]
) -> None:
    wizard = make_wizard()
    area = wizard.findChild(QPlainTextEdit, "pasteArea")
    assert area is not None
    qtbot.keyClicks(area, "Dear all, lunch is at noon.")
    qtbot.waitUntil(lambda: bool(labels(wizard.source_page, "sourceError")))
    [error] = labels(wizard.source_page, "sourceError")
    assert "Not an author page" in error and "No publication records found" in error
    assert "Publications and source records" in labels(wizard.source_page, "pageExample")[0]
    assert not wizard.source_page.isComplete()
    assert not wizard.button(Button.NextButton).isEnabled()
    assert labels(wizard.source_page, "sourcesNote") == [  # (why Next is greyed)
        "✗  Nothing here can be imported, so Next is not possible yet. Paste, open or drop an "
        "author page or a bibliography."
    ]

    area.setPlainText(seed_files()[0].read_text(encoding="utf-8"))
    assert not wizard.button(Button.NextButton).isEnabled()  # until the typing pause
    qtbot.waitUntil(lambda: wizard.button(Button.NextButton).isEnabled())
    assert labels(wizard.source_page, "sourceError") == []
    assert labels(wizard.source_page, "sourceOwner") == [read_page(seed_files()[0]).owner]


def test_several_sources_each_with_its_line_and_remove(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard]
) -> None:
    seeds = seed_files()
    wizard = make_wizard()
    wizard.add_files([seeds[0], seeds[1]])
    assert wizard.source_page.wait_until_read()
    wizard.add_text(seeds[2].read_text(encoding="utf-8"))
    wizard.add_text("not a page at all")
    src = wizard.source_page
    counts = labels(src, "sourceCount")
    assert len(counts) == 3 and len(labels(src, "sourceError")) == 1
    assert [s.name for s in src.sources()][2:] == ["pasted text", "pasted text (2)"]
    assert wizard.button(Button.NextButton).isEnabled()  # (the text that is no page stays out)
    assert labels(src, "sourcesNote") == [
        "⚠  1 source cannot be imported and will be left out (pasted text (2)). "
        "Next goes on with the other 3."
    ]
    cards = src.findChildren(QWidget, "sourceCard")
    qtbot.mouseClick(cards[-1].findChild(QWidget, "removeSourceButton"), Qt.MouseButton.LeftButton)
    assert labels(src, "sourceError") == [] and labels(src, "sourcesNote") == []
    assert wizard.button(Button.NextButton).isEnabled()
    model = to_review(qtbot, wizard)
    assert model.rowCount() == 12 + 6 + 4
    assert len(labels(wizard.review_page, "pageSummary")) == 3
    owner = read_page(seeds[0]).owner
    repeats = [s for s in statuses(model) if s.startswith(f"Also on {owner}'s page (row ")]
    assert len(repeats) == 2  # page 2 and page 3 each repeat one paper of page 1
    refs = [model.plan_at(r).ref for r in range(model.rowCount())]
    for row, status in enumerate(statuses(model)):
        if status.startswith("Also on "):
            target = model.plan_at(row).target_ref
            assert target is not None and target[0] == 0
            joined = model.index(refs.index(target), Column.TITLE).data()
            row = refs.index(target) + 1
            assert status == f"Also on {owner}'s page (row {row}) — will merge into “{joined}”"


def test_open_file_button_reads_files_and_shows_an_image_on_a_card_of_its_own(
    qtbot: QtBot,
    make_wizard: Callable[[], ImportWizard],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    shown_errors: list[str],
) -> None:
    png = tmp_path / "cover.png"
    png.write_bytes(PNG)
    picked = [str(seed_files()[0]), str(png)]
    monkeypatch.setattr(source_page, "choose_files", lambda _parent: picked)
    wizard = make_wizard()
    qtbot.mouseClick(wizard.source_page.open_button, Qt.MouseButton.LeftButton)
    assert wizard.source_page.wait_until_read()  # (read off the GUI thread)
    assert labels(wizard.source_page, "sourceReading") == []
    owner = read_page(seed_files()[0]).owner
    assert labels(wizard.source_page, "sourceOwner") == [owner, "cover.png"]
    # Like every source that is no page: a card saying what is wrong and what to do, no box.
    assert shown_errors == []
    assert labels(wizard.source_page, "sourceError") == [
        "✗  Cannot be imported. ‘cover.png’ is an image (PNG), not text. refman imports "
        "bibliographies (BibTeX, RIS, CSL-JSON), papers' PDFs, Zotero and Mendeley libraries "
        "(their database file) and the text of author pages: save the page as text or HTML, "
        "or copy its text in the browser and paste it."
    ]
    assert labels(wizard.source_page, "sourcesNote") == [
        "⚠  1 file cannot be imported and will be left out (cover.png). "
        "Next goes on with the other one."
    ]
    model = to_review(qtbot, wizard)  # the page goes on; the image is left out
    assert model.rowCount() == 12
    assert [p.source for p in wizard.source_page.sourced_pages()] == [seed_files()[0].name]


def test_the_open_dialog_shows_every_file_refman_imports_at_first(tmp_path: Path) -> None:
    """The dialog of *Open file…* hid papers' PDFs (and .ciw, .bibtex…) until the person
    chose "All files", though the wizard imports them."""
    imported = [
        "page.txt",
        "page.md",
        "page.html",
        "refs.bib",
        "refs.bibtex",
        "refs.ris",
        "pubmed.nbib",
        "savedrecs.ciw",
        "zotero.json",
        "paper.pdf",
    ]
    for name in [*imported, "photo.png", "notes.docx"]:
        (tmp_path / name).write_bytes(b"x")
    first = source_page.file_filter().split(";;")[0]
    patterns = first[first.index("(") + 1 : first.index(")")].split()
    shown = QDir(str(tmp_path)).entryList(patterns, QDir.Filter.Files)
    assert sorted(shown) == sorted(imported)


def test_files_are_read_while_the_wizard_answers_and_one_removed_meanwhile_stays_out(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A long page or a PDF takes a while to read: the window must not stop answering.
    release = threading.Event()
    load = load_source

    def slow(path: Path) -> object:
        assert release.wait(30)
        return load(path)

    monkeypatch.setattr(source_reading, "load_source", slow)
    wizard = make_wizard()
    first, second = seed_files()[0], seed_files()[1]
    wizard.add_files([first, second])
    qtbot.keyClicks(wizard.source_page.paste_area, "notes")  # typed while they are read
    assert wizard.source_page.paste_area.toPlainText() == "notes"
    assert labels(wizard.source_page, "sourceOwner") == [first.name, second.name]
    assert labels(wizard.source_page, "sourceReading") == ["Reading…", "Reading…"]
    assert not wizard.button(wizard.WizardButton.NextButton).isEnabled()
    removes = wizard.source_page.cards.findChildren(QPushButton, "removeSourceButton")
    qtbot.mouseClick(removes[1], Qt.MouseButton.LeftButton)
    release.set()
    assert wizard.source_page.wait_until_read()
    assert [s.path for s in wizard.source_page.sources() if s.path] == [first]
    assert labels(wizard.source_page, "sourceOwner")[0] == read_page(first).owner


def test_a_long_text_pasted_or_dropped_is_read_while_the_wizard_answers(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bibliography of thousands of entries pasted (or dropped as text) was read on the
    GUI thread: the window froze for seconds, and again after each change to the text."""
    entry = (
        "@article{{key{0},\n  title = {{Tide gauge records number {0} revisited}},\n"
        "  author = {{Lindqvist, Ada and Haddad, Bram}},\n  journal = {{Coastal Records}},\n"
        "  year = {{2021}},\n  abstract = {{We revisit the records of gauge {0} and find "
        "that the sea rose faster there than the nearest stations suggested.}}\n}}\n"
    )
    bib = "\n".join(entry.format(i) for i in range(1_200))
    assert len(bib) > source_reading.READ_IN_WORKER_ABOVE
    release, readers = threading.Event(), []
    parse = source_reading.parsed

    def slow(name: str, text: str, links: Sequence[PageLink] = ()) -> Source:
        readers.append(threading.current_thread())
        assert release.wait(30)
        return parse(name, text, links)

    monkeypatch.setattr(source_reading, "parsed", slow)
    wizard = make_wizard()
    src = wizard.source_page
    wizard.add_text(bib, "dropped text")
    src.paste_area.setPlainText(bib)
    qtbot.waitUntil(lambda: labels(src, "sourceReading") == ["Reading…", "Reading…"])
    assert not wizard.button(Button.NextButton).isEnabled()
    release.set()
    assert src.wait_until_read()
    qtbot.waitUntil(lambda: not labels(src, "sourceReading"))
    assert labels(src, "sourceCount") == ["✓  1200 records found"] * 2
    assert readers and threading.main_thread() not in readers
    assert wizard.button(Button.NextButton).isEnabled()


# -- the review page -------------------------------------------------------------------------


def test_review_model_passes_the_model_tester(
    qtmodeltester: object, library: LibraryService
) -> None:
    import_seed_directly(library, 0)
    model = ReviewModel()
    pages = [sourced_file(s) for s in seed_files()]
    model.set_plan(library.plan_import(pages))
    qtmodeltester.check(model)  # type: ignore[attr-defined]


def test_skip_and_typed_title_reach_the_library(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], library: LibraryService
) -> None:
    import_seed_directly(library, 0)
    wizard = make_wizard()
    wizard.add_files([seed_files()[2]])
    assert wizard.source_page.wait_until_read()
    model = to_review(qtbot, wizard)
    rows = [r for r, s in enumerate(statuses(model)) if s == "Needs a title"]
    typed_row, skipped_row, kept_row = rows
    skipped_title = model.plan_at(skipped_row).record.title
    kept_title = model.plan_at(kept_row).record.title

    model.setData(
        model.index(skipped_row, Column.IMPORT),
        Qt.CheckState.Unchecked.value,
        Qt.ItemDataRole.CheckStateRole,
    )
    table = wizard.review_page.table
    index = model.index(typed_row, Column.TITLE)
    table.setCurrentIndex(index)
    table.edit(index)
    editor = table.findChild(QLineEdit)
    assert editor is not None and editor.text() == model.plan_at(typed_row).record.title
    editor.selectAll()
    qtbot.keyClicks(editor, "A Title Typed by Hand")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: model.index(typed_row, Column.STATUS).data() == "New — title typed by you"
    )
    assert labels(wizard.review_page, "selectionSummary") == ["3 of 4 records will be imported."]

    run_import(qtbot, wizard)
    assert labels(wizard.result_page, "resultSummary") == [
        "2 new papers, 1 already in library (updated), 1 record skipped"
    ]
    [line] = labels(wizard.result_page, "resultDetails")
    assert line.endswith(": 2 new, 1 already in library, 1 skipped")
    titles = {row.title: row.title_provisional for row in library.papers(limit=100)}
    assert titles["A Title Typed by Hand"] is False
    assert titles[kept_title] is True
    assert skipped_title not in titles
    assert library.count() == 14


def test_abstract_is_shown_as_plain_text(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard]
) -> None:
    abstract = "We show that <b>bold</b> &amp; <i>markup</i> stays text, across many words here."
    wizard = make_wizard()
    wizard.add_text(page_text("Ada Lovelace", [("Engines of symbols", abstract)]))
    to_review(qtbot, wizard)
    view = wizard.findChild(QTextEdit, "abstractView")
    assert view is not None and view.toPlainText() == abstract


def test_select_none_and_all(qtbot: QtBot, make_wizard: Callable[[], ImportWizard]) -> None:
    wizard = make_wizard()
    wizard.add_files([seed_files()[0]])
    assert wizard.source_page.wait_until_read()
    to_review(qtbot, wizard)
    page = wizard.review_page
    qtbot.mouseClick(page.select_none_button, Qt.MouseButton.LeftButton)
    assert not wizard.button(Button.NextButton).isEnabled()
    assert "check at least one" in labels(page, "selectionSummary")[0]
    qtbot.mouseClick(page.select_all_button, Qt.MouseButton.LeftButton)
    assert wizard.button(Button.NextButton).isEnabled()
    assert labels(page, "selectionSummary") == ["12 of 12 records will be imported."]


def test_a_page_already_in_the_library_says_importing_adds_nothing(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], library: LibraryService
) -> None:
    library.import_pages([sourced_file(seed_files()[0])])
    wizard = make_wizard()
    wizard.add_files([seed_files()[0]])
    assert wizard.source_page.wait_until_read()
    to_review(qtbot, wizard)
    assert labels(wizard.review_page, "selectionSummary") == [
        "All 12 records are in the library already: nothing new to add."
    ]


def choose_duplicate(wizard: ImportWizard, index: int) -> None:
    """Pick Merge (0) or Keep separate (1) in the review's one possible-duplicate choice."""
    [combo] = wizard.review_page.findChildren(QComboBox, "duplicateChoice")
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


@pytest.mark.parametrize("keep_separate", [False, True])
def test_possible_duplicate_merged_or_kept_separate(
    qtbot: QtBot,
    make_wizard: Callable[[], ImportWizard],
    library: LibraryService,
    keep_separate: bool,
) -> None:
    title = "Graph networks at scale for molecular property prediction on large benchmarks"
    abstract = (
        "We train graph networks on molecules at a scale not seen before and report the "
        "accuracy of property prediction across many public benchmarks and settings."
    )
    library.import_pages([SourcedPage(parse(page_text("Ada Lovelace", [(title, abstract)])))])
    [known] = library.paper_ids()
    near = page_text(
        "Ada Lovelace",
        [(title.replace("networks", "network"), abstract.replace("many public", "many open"))],
    )
    wizard = make_wizard()
    wizard.add_text(near)
    model = to_review(qtbot, wizard)
    assert statuses(model) == [f"Merge — possible duplicate of “{title}”"]
    if keep_separate:
        choose_duplicate(wizard, 1)
        assert statuses(model) == [f"Keep separate — possible duplicate of “{title}”"]
    run_import(qtbot, wizard)
    result = wizard.result
    assert result is not None
    if keep_separate:
        assert library.count() == 2 and known not in result.paper_ids
        assert labels(wizard.result_page, "resultSummary") == ["1 new paper, 0 already in library"]
        assert labels(wizard.result_page, "resultDetails") == [
            "Ada Lovelace — pasted text: 1 new (1 possible duplicate kept separate)"
        ]
    else:
        # The same owner's page again: the look-alike joins the paper and adds nothing to it.
        assert library.count() == 1 and result.new_ids == ()
        assert (result.merged_ids, result.unchanged_ids) == ((), (known,))
        assert labels(wizard.result_page, "resultSummary") == [
            "0 new papers, 1 already in library (nothing new about it)"
        ]
        assert labels(wizard.result_page, "resultDetails") == [
            "Ada Lovelace — pasted text: 0 new, 1 already in library (1 possible duplicate merged)"
        ]


def test_a_look_alike_worded_apart_starts_kept_separate_and_can_be_merged(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], library: LibraryService
) -> None:
    title = "Deep residual learning for image recognition with convolutional networks"
    first = "We train very deep convolutional networks for image recognition with shortcuts."
    library.import_pages([SourcedPage(parse(page_text("Ada Lovelace", [(title, first)])))])
    [known] = library.paper_ids()
    second = "We show that image recognition needs no convolutions at all, only attention."
    third = "Videos are recognised frame by frame by the same residual networks, and faster."
    for other, abstract, merge in (
        (title.replace("with", "without"), second, False),
        (title.replace("image", "video"), third, True),
    ):
        wizard = make_wizard()
        wizard.add_text(page_text("Ada Lovelace", [(other, abstract)]))
        model = to_review(qtbot, wizard)
        assert statuses(model) == [f"Keep separate — possible duplicate of “{title}”"]
        if merge:
            choose_duplicate(wizard, 0)
            assert statuses(model) == [f"Merge — possible duplicate of “{title}”"]
        run_import(qtbot, wizard)
        assert wizard.result is not None
        if merge:
            assert library.count() == 2 and wizard.result.new_ids == ()
            assert other not in [library.paper(i).title for i in library.paper_ids()]
        else:
            [new] = wizard.result.new_ids
            assert library.paper(new).possible_duplicate_of == known and library.count() == 2


def test_the_review_menu_skips_imports_and_keeps_duplicates_apart(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], library: LibraryService
) -> None:
    title = "Graph networks at scale for molecular property prediction on large benchmarks"
    abstract = (
        "We train graph networks on molecules at a scale not seen before and report the "
        "accuracy of property prediction across many public benchmarks and settings."
    )
    library.import_pages([SourcedPage(parse(page_text("Ada Lovelace", [(title, abstract)])))])
    other = ("Sparse kernels for attention", "A second abstract, long enough to be a record.")
    near = (title.replace("networks", "network"), abstract + " More.")
    wizard = make_wizard()
    wizard.add_text(page_text("Ada Lovelace", [other, near]))
    model = to_review(qtbot, wizard)
    page = wizard.review_page

    page.table.selectRow(0)
    menu = page.build_context_menu()
    assert menu is not None
    assert [a.text() for a in menu.actions() if a.text()] == ["Import", "Skip"]
    next(a for a in menu.actions() if a.text() == "Skip").trigger()
    assert model.index(0, Column.IMPORT).data(Qt.ItemDataRole.CheckStateRole) == (
        Qt.CheckState.Unchecked
    )
    assert labels(page, "selectionSummary") == ["1 of 2 records will be imported."]

    page.table.selectRow(1)
    menu = page.build_context_menu()
    assert menu is not None
    texts = [a.text() for a in menu.actions() if a.text()]
    assert texts == [
        "Import",
        "Skip",
        "Merge with the paper in the library",
        "Keep as a separate paper",
    ]
    next(a for a in menu.actions() if a.text() == "Keep as a separate paper").trigger()
    assert statuses(model)[1] == f"Keep separate — possible duplicate of “{title}”"
    run_import(qtbot, wizard)
    assert library.count() == 2  # the skipped record stayed out; the look-alike is its own


def test_large_pages_are_planned_off_the_gui_thread(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(review_page, "PLAN_IN_WORKER_ABOVE", 5)
    wizard = make_wizard()
    wizard.add_files([seed_files()[0]])
    assert wizard.source_page.wait_until_read()
    click(qtbot, wizard, Button.NextButton)
    qtbot.waitUntil(lambda: wizard.review_page.plan is not None)
    assert wizard.review_page.model.rowCount() == 12
    qtbot.waitUntil(lambda: wizard.button(Button.NextButton).isEnabled())


def test_a_page_of_thousands_is_planned_with_a_helper_process_and_imported(
    qtbot: QtBot,
    make_wizard: Callable[[], ImportWizard],
    library: LibraryService,
    tmp_path: Path,
) -> None:
    """6,000 records: the window's worker plans them with a forked helper working out half of
    the match keys (a Qt program forking); what the person sees and gets is every paper once."""
    page = tmp_path / "prolific.txt"
    page.write_text(generated_page(6_000), encoding="utf-8")
    wizard = make_wizard()
    wizard.add_files([page])
    assert wizard.source_page.wait_until_read()
    model = to_review(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.review_page.plan is not None, timeout=30_000)
    assert model.rowCount() == 6_000
    assert set(statuses(model)) == {"New"}
    run_import(qtbot, wizard)
    assert labels(wizard.result_page, "resultSummary") == ["6,000 new papers, 0 already in library"]
    assert library.count() == 6_000


def test_going_back_while_planning_is_harmless(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(review_page, "PLAN_IN_WORKER_ABOVE", 5)
    wizard = make_wizard()
    wizard.add_files([seed_files()[0]])
    assert wizard.source_page.wait_until_read()
    click(qtbot, wizard, Button.NextButton)
    wizard.back()
    wizard.add_files([seed_files()[1]])
    assert wizard.source_page.wait_until_read()
    click(qtbot, wizard, Button.NextButton)
    qtbot.waitUntil(lambda: wizard.review_page.plan is not None)
    assert wizard.review_page.model.rowCount() == 18
    assert len(labels(wizard.review_page, "pageSummary")) == 2


# -- the tags page ---------------------------------------------------------------------------


def test_tag_options_reach_the_library(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], library: LibraryService
) -> None:
    library.import_pages([SourcedPage(parse(page_text("Grace Hopper", [("Old", "x" * 40)])))])
    library.tag([1], ["reading list"])
    seed = seed_files()[0]
    page = read_page(seed)
    wizard = make_wizard()
    wizard.add_files([seed])
    assert wizard.source_page.wait_until_read()
    to_review(qtbot, wizard)
    click(qtbot, wizard, Button.NextButton)
    tags = wizard.tags_page
    [owner_box] = tags.findChildren(QCheckBox, "ownerTagCheck")
    assert owner_box.text() == f"Tag with “{page.owner}”" and not owner_box.isChecked()
    owner_box.setChecked(True)
    subject_box = tags.findChild(QCheckBox, "subjectTagsCheck")
    assert subject_box is not None and subject_box.isEnabled() and not subject_box.isChecked()
    subject_box.setChecked(True)
    edit = tags.findChild(QLineEdit, "tagsEdit")
    assert edit is not None
    assert tags.completer_model.stringList() == ["reading list"]
    assert edit.completer().model() is tags.completer_model
    qtbot.keyClicks(edit, "to read,  Systems ")
    assert labels(tags, "tagsPreview") == [
        f"Each imported paper will be tagged: {page.owner}, to read, Systems"
        " and its arXiv subjects."
    ]
    click(qtbot, wizard, Button.CommitButton)
    qtbot.waitUntil(lambda: not wizard.result_page.running, timeout=20_000)
    ids = set(wizard.result.paper_ids)  # type: ignore[union-attr]
    assert len(ids) == 12
    for name in (page.owner, "to read", "Systems"):
        assert tagged(library, name) == ids
    subjects = {s for r in page.records for s in r.subjects}
    names = {t.name for t in library.tags()}
    assert subjects <= names
    assert tagged(library, "reading list") == {1}


# -- cancel, undo, redo ----------------------------------------------------------------------


def test_cancel_on_the_review_page_changes_nothing(
    qtbot: QtBot,
    make_wizard: Callable[[], ImportWizard],
    library: LibraryService,
    library_path: Path,
) -> None:
    import_seed_directly(library, 0)
    before = dump(library_path)
    wizard = make_wizard()
    wizard.add_files([seed_files()[1]])
    assert wizard.source_page.wait_until_read()
    to_review(qtbot, wizard)
    click(qtbot, wizard, Button.CancelButton)
    assert not wizard.isVisible()
    assert wizard.result is None
    assert dump(library_path) == before
    assert wizard.controller.undo_stack.count() == 0


def test_closing_with_pasted_text_asks_before_the_text_is_lost(
    qtbot: QtBot,
    make_wizard: Callable[[], ImportWizard],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[bool] = []
    answer = {"discard": False}

    def ask(_parent: object) -> bool:
        asked.append(True)
        return answer["discard"]

    monkeypatch.setattr(wizard_module, "confirm_discard", ask)
    wizard = make_wizard()
    click(qtbot, wizard, Button.CancelButton)  # nothing typed: closes at once
    assert not wizard.isVisible() and asked == []
    wizard = make_wizard()
    wizard.source_page.paste_area.setPlainText(generated_page(3))
    qtbot.keyClick(wizard.source_page.paste_area, Qt.Key.Key_Escape)  # "Cancel": text stays
    assert wizard.isVisible() and asked == [True]
    assert wizard.source_page.paste_area.toPlainText() == generated_page(3)
    answer["discard"] = True
    click(qtbot, wizard, Button.CancelButton)
    assert not wizard.isVisible() and asked == [True, True]


@pytest.fixture
def slow_import(library: LibraryService, monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Hold the first import (run by the wizard, through the runner) at its first progress
    report until the job is cancelled; the event is set once the import is held."""
    held_at_progress = threading.Event()
    cancel_asked = threading.Event()
    real_cancel = Job.cancel

    def cancel(job: Job[object]) -> None:
        real_cancel(job)
        cancel_asked.set()

    real_apply = library.apply

    def apply(
        op: Operation[object],
        *,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Outcome[object]:
        if not isinstance(op, ImportPages) or progress is None or held_at_progress.is_set():
            return real_apply(op, progress=progress, cancelled=cancelled)
        told = progress

        def held(done: int, total: int) -> None:
            held_at_progress.set()
            cancel_asked.wait(timeout=10)  # the worker thread waits for the user's Cancel
            told(done, total)

        return real_apply(op, progress=held, cancelled=cancelled)

    monkeypatch.setattr(Job, "cancel", cancel)
    monkeypatch.setattr(library, "apply", apply)
    return held_at_progress


@pytest.mark.parametrize("how", ["cancel import button", "wizard cancel button"])
def test_cancel_while_importing_changes_nothing(
    qtbot: QtBot,
    make_wizard: Callable[[], ImportWizard],
    library: LibraryService,
    library_path: Path,
    slow_import: threading.Event,
    how: str,
) -> None:
    import_seed_directly(library, 0)
    before = dump(library_path)
    wizard = make_wizard()
    wizard.add_files([seed_files()[2]])
    assert wizard.source_page.wait_until_read()
    to_review(qtbot, wizard)
    click(qtbot, wizard, Button.NextButton)
    click(qtbot, wizard, Button.CommitButton)
    qtbot.waitUntil(slow_import.is_set)
    page = wizard.result_page
    assert page.running and page.progress.isVisible()
    if how == "cancel import button":
        qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not page.running, timeout=10_000)
        assert labels(page, "importStatus") == [
            "The import was cancelled; the library is unchanged."
        ]
        assert labels(page, "resultSummary") == ["Nothing was imported."]
        assert not page.show_button.isVisible()
    else:
        click(qtbot, wizard, Button.CancelButton)
        assert not wizard.isVisible()
    assert wizard.result is None
    assert dump(library_path) == before
    assert wizard.controller.undo_stack.count() == 0


def test_enter_while_importing_does_not_cancel_the_import(
    qtbot: QtBot,
    make_wizard: Callable[[], ImportWizard],
    library: LibraryService,
    slow_import: threading.Event,
) -> None:
    """Import took the keyboard to *Cancel import*: Enter pressed again (for Import, or to
    hurry it) cancelled the import."""
    wizard = make_wizard()
    wizard.add_files([seed_files()[0]])
    assert wizard.source_page.wait_until_read()
    to_review(qtbot, wizard)
    click(qtbot, wizard, Button.NextButton)
    click(qtbot, wizard, Button.CommitButton)
    qtbot.waitUntil(slow_import.is_set)
    page = wizard.result_page
    job = page.job
    assert job is not None
    focused = QApplication.focusWidget() or wizard
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
        qtbot.keyClick(focused, key)
    assert not job.cancel_requested and page.running
    qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)  # (the person's own)
    qtbot.waitUntil(lambda: not page.running, timeout=10_000)
    assert library.count() == 0


def test_undo_and_redo_of_a_wizard_import(
    qtbot: QtBot,
    make_wizard: Callable[[], ImportWizard],
    library: LibraryService,
    library_path: Path,
) -> None:
    import_seed_directly(library, 0)
    before, kept = dump(library_path), library.paper_ids()
    wizard = make_wizard()
    wizard.add_files([seed_files()[2]])
    assert wizard.source_page.wait_until_read()
    model = to_review(qtbot, wizard)
    row = statuses(model).index("Needs a title")
    model.setData(model.index(row, Column.TITLE), "Typed", Qt.ItemDataRole.EditRole)
    click(qtbot, wizard, Button.NextButton)
    wizard.tags_page.tags_edit.setText("imported")
    click(qtbot, wizard, Button.CommitButton)
    qtbot.waitUntil(lambda: not wizard.result_page.running, timeout=20_000)
    after = dump(library_path)
    assert after != before and library.count() == 15
    controller = wizard.controller
    stack = controller.undo_stack
    assert stack.count() == 1 and stack.undoText().startswith("Import")
    controller.undo()
    settle(controller)
    assert library.paper_ids() == kept  # out of sight at once; deleted for good afterwards
    qtbot.waitUntil(lambda: dump(library_path) == before, timeout=10_000)
    assert library.purge_pending() == 0
    assert stack.index() == 0 and stack.redoText().startswith("Import")
    controller.redo()
    settle(controller)
    assert dump(library_path) == after
    assert stack.index() == 1


def test_the_wizard_adds_no_parsing_of_its_own(library: LibraryService) -> None:
    """The review shows exactly what the service plans for exactly what the importer parsed."""
    import_seed_directly(library, 0)
    pages = [sourced_file(s) for s in seed_files()]
    plan = library.plan_import(pages)
    model = ReviewModel()
    model.set_plan(plan)
    shown = [
        model.index(r, Column.TITLE).data(Qt.ItemDataRole.EditRole) for r in range(model.rowCount())
    ]
    assert shown == [p.record.title for p in plan.records]
    assert model.data(QModelIndex()) is None


# -- several pages at once: counts that agree ------------------------------------------------


def three_seeds_report() -> tuple[str, list[str]]:
    """The headline and page lines of the three seed pages imported at once into an empty
    library: a paper two pages list is new on the first and "also on" it on the other."""
    seeds = seed_files()
    owners = [read_page(s).owner for s in seeds]
    first = f"{owners[0]}'s page"
    return "20 new papers (2 of them on two pages), 0 already in library", [
        f"{owners[0]} — {seeds[0].name}: 12 new",
        f"{owners[1]} — {seeds[1].name}: 5 new, 1 also on {first}",
        f"{owners[2]} — {seeds[2].name}: 3 new, 1 also on {first}",
    ]


def test_three_seed_pages_at_once_into_an_empty_library(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], library: LibraryService
) -> None:
    """Repeats within the import are not "already in library"; headline and page lines agree."""
    seeds = seed_files()
    owners = [read_page(s).owner for s in seeds]
    wizard = make_wizard()
    wizard.add_files(seeds)
    assert wizard.source_page.wait_until_read()
    model = to_review(qtbot, wizard)
    first = f"{owners[0]}'s page"
    assert labels(wizard.review_page, "pageSummary") == [
        f"{owners[0]} — {seeds[0].name}: 12 records (the page says 12); 12 new",
        f"{owners[1]} — {seeds[1].name}: 6 records (the page says 6); 5 new, 1 also on {first}",
        f"{owners[2]} — {seeds[2].name}: 4 records; 3 new, 1 also on {first}",
    ]
    shown = statuses(model)
    assert not any("already in library" in s.casefold() for s in shown)
    refs = [model.plan_at(r).ref for r in range(model.rowCount())]
    repeats = [r for r in range(model.rowCount()) if model.plan_at(r).target_ref is not None]
    assert [model.plan_at(r).ref[0] for r in repeats] == [1, 2]  # one on each later page
    for row in repeats:
        target = model.plan_at(row).target_ref
        assert target is not None and target[0] == 0
        status = shown[row]
        joined = model.index(refs.index(target), Column.TITLE).data()
        assert status == (
            f"Also on {first} (row {refs.index(target) + 1}) — will merge into “{joined}”"
        )
        tooltip = model.index(row, Column.STATUS).data(Qt.ItemDataRole.ToolTipRole)
        assert tooltip == f"{status}\nThe paper is imported once, with the details of both records."
    # The last page's repeat has no title of its own: it shows the title of the paper it joins.
    row = repeats[1]
    repeat = model.plan_at(row)
    assert repeat.record.title_provisional and repeat.target_ref is not None
    target_title = model.plan_at(refs.index(repeat.target_ref)).record.title
    assert model.index(row, Column.TITLE).data() == target_title
    assert model.index(row, Column.TITLE).data(Qt.ItemDataRole.FontRole) is None

    run_import(qtbot, wizard)
    result = wizard.result
    assert result is not None
    headline, lines = three_seeds_report()
    assert labels(wizard.result_page, "resultSummary") == [headline]
    [details] = labels(wizard.result_page, "resultDetails")
    assert details.split("\n") == lines
    assert "merged" not in headline + details
    assert (len(result.new_ids), result.merged_ids, result.unchanged_ids) == (20, (), ())
    assert library.count() == 20
    titles = [row.title for row in library.papers(limit=100)]
    assert len(set(titles)) == 20
    joined = [library.paper(i) for i in result.new_ids if library.paper(i).title == target_title]
    assert [set(p.attributed_to) >= {owners[0], owners[2]} for p in joined] == [True]


def mixed_pages() -> tuple[str, list[str]]:
    """A library page with paper A, and two pages: Ada's [A, B], Alan's [A, B, C, C]."""
    a = ("Sparse attention for long documents", "We study sparse attention patterns " * 3)
    b = ("Counting lattice paths with symmetry", "Lattice paths are enumerated by reflection " * 3)
    c = ("Compilers for tiny microcontrollers", "Small devices need compilers that fit in " * 3)
    library_page = page_text("Grace Hopper", [a])
    return library_page, [page_text("Ada Lovelace", [a, b]), page_text("Alan Turing", [a, b, c, c])]


@pytest.mark.parametrize("skip_ada_b", [False, True])
def test_repeats_within_the_import_and_library_papers_count_apart(
    qtbot: QtBot,
    make_wizard: Callable[[], ImportWizard],
    library: LibraryService,
    skip_ada_b: bool,
) -> None:
    library_page, pages = mixed_pages()
    library.import_pages([SourcedPage(parse(library_page))])
    wizard = make_wizard()
    for text in pages:
        wizard.add_text(text)
    model = to_review(qtbot, wizard)
    assert labels(wizard.review_page, "pageSummary") == [
        "Ada Lovelace — pasted text: 2 records (the page says 2); 1 new, 1 already in library",
        "Alan Turing — pasted text (2): 4 records (the page says 4); 1 new, 1 also on "
        "Ada Lovelace's page, 1 repeated on this page, 1 already in library",
    ]
    shown = statuses(model)
    lattice, compilers = (
        "“Counting lattice paths with symmetry”",
        "“Compilers for tiny microcontrollers”",
    )
    [known] = library.paper_ids()
    into = f"Already in library (#{known}) — will merge: adds attribution to"
    assert shown[0] == f"{into} Ada Lovelace"
    assert shown[1] == "New"
    assert shown[2] == f"{into} Alan Turing"
    assert shown[3:] == [
        f"Also on Ada Lovelace's page (row 2) — will merge into {lattice}",
        "New",
        f"Same paper as row 5 — will merge into {compilers}",
    ]
    if skip_ada_b:
        model.setData(
            model.index(1, Column.IMPORT),
            Qt.CheckState.Unchecked.value,
            Qt.ItemDataRole.CheckStateRole,
        )
    run_import(qtbot, wizard)
    result = wizard.result
    assert result is not None
    [headline] = labels(wizard.result_page, "resultSummary")
    [details] = labels(wizard.result_page, "resultDetails")
    if skip_ada_b:
        # Alan's B no longer joins Ada's (skipped) record: it is new on Alan's page.
        assert headline == (
            "2 new papers, 1 already in library (updated; on two pages), 1 record skipped"
        )
        assert details.split("\n") == [
            "Ada Lovelace — pasted text: 0 new, 1 already in library, 1 skipped",
            "Alan Turing — pasted text (2): 2 new, 1 already in library",
        ]
    else:
        assert headline == (
            "2 new papers (1 of them on two pages), 1 already in library (updated; on two pages)"
        )
        assert details.split("\n") == [
            "Ada Lovelace — pasted text: 1 new, 1 already in library",
            "Alan Turing — pasted text (2): 1 new, 1 also on Ada Lovelace's page, "
            "1 already in library",
        ]
    assert len(result.new_ids) == 2 and len(result.merged_ids) == 1
    assert library.count() == 3
    [known] = result.merged_ids
    assert {"Grace Hopper", "Ada Lovelace", "Alan Turing"} <= set(
        library.paper(known).attributed_to
    )


# -- cancelling, then going back -------------------------------------------------------------


def test_after_a_cancel_back_keeps_every_choice_and_imports_again(
    qtbot: QtBot,
    make_wizard: Callable[[], ImportWizard],
    library: LibraryService,
    library_path: Path,
    slow_import: threading.Event,
) -> None:
    import_seed_directly(library, 0)
    before = dump(library_path)
    wizard = make_wizard()
    wizard.add_files([seed_files()[2]])
    assert wizard.source_page.wait_until_read()
    model = to_review(qtbot, wizard)
    typed_row, skipped_row, _ = [r for r, s in enumerate(statuses(model)) if s == "Needs a title"]
    skipped_title = model.plan_at(skipped_row).record.title
    model.setData(model.index(typed_row, Column.TITLE), "Typed Title", Qt.ItemDataRole.EditRole)
    model.setData(
        model.index(skipped_row, Column.IMPORT),
        Qt.CheckState.Unchecked.value,
        Qt.ItemDataRole.CheckStateRole,
    )
    click(qtbot, wizard, Button.NextButton)
    wizard.tags_page.tags_edit.setText("retry")
    click(qtbot, wizard, Button.CommitButton)
    qtbot.waitUntil(slow_import.is_set)
    page = wizard.result_page
    assert not wizard.button(Button.BackButton).isVisible()  # not while it runs
    qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not page.running, timeout=10_000)

    assert labels(page, "importStatus") == ["The import was cancelled; the library is unchanged."]
    assert labels(page, "resultSummary") == ["Nothing was imported."]
    [hint] = labels(page, "retryHint")
    assert "choices are kept" in hint and "Back" in hint
    assert labels(page, "resultDetails") == []
    assert not page.show_button.isVisible() and not page.undo_hint.isVisible()
    assert not wizard.button(Button.CancelButton).isVisible()
    assert wizard.button(Button.FinishButton).text() == "Close"
    assert dump(library_path) == before

    click(qtbot, wizard, Button.BackButton)
    assert wizard.currentPage() is wizard.tags_page
    assert wizard.tags_page.tags_edit.text() == "retry"
    assert wizard.button(Button.CommitButton).isVisible()
    assert wizard.button(Button.CommitButton).text() == "Import"
    click(qtbot, wizard, Button.BackButton)
    assert wizard.currentPage() is wizard.review_page
    assert statuses(model)[typed_row] == "New — title typed by you"
    assert model.index(typed_row, Column.TITLE).data() == "Typed Title"
    assert labels(wizard.review_page, "selectionSummary") == ["3 of 4 records will be imported."]

    run_import(qtbot, wizard)
    assert wizard.result is not None
    assert labels(page, "importStatus") == ["The import is done."]
    assert labels(page, "resultSummary") == [
        "2 new papers, 1 already in library (updated), 1 record skipped"
    ]
    assert labels(page, "retryHint") == []
    assert not wizard.button(Button.BackButton).isVisible()
    assert wizard.button(Button.FinishButton).text() == "Finish"
    titles = {row.title for row in library.papers(limit=100)}
    assert "Typed Title" in titles and skipped_title not in titles
    assert tagged(library, "retry") == set(wizard.result.paper_ids)
    assert library.count() == 14
    assert wizard.controller.undo_stack.count() == 1


def test_going_back_to_add_or_remove_a_page_keeps_the_choices_made_on_the_others(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], library: LibraryService
) -> None:
    """Back to add another page (or take one away) made every record checked again, typed
    titles and duplicates kept apart forgotten: records the person had left out were
    imported."""
    import_seed_directly(library, 0)
    title = "Graph networks at scale for molecular property prediction on large benchmarks"
    abstract = (
        "We train graph networks on molecules at a scale not seen before and report the "
        "accuracy of property prediction across many public benchmarks and settings."
    )
    library.import_pages([SourcedPage(parse(page_text("Ada Lovelace", [(title, abstract)])))])
    near = page_text(
        "Ada Lovelace",
        [(title.replace("networks", "network"), abstract.replace("many public", "many open"))],
    )
    wizard = make_wizard()
    wizard.add_text(seed_files()[2].read_text(encoding="utf-8"))
    wizard.add_text(near)
    model = to_review(qtbot, wizard)
    typed_row, skipped_row, _ = [r for r, s in enumerate(statuses(model)) if s == "Needs a title"]
    skipped_title = model.plan_at(skipped_row).record.title
    model.setData(model.index(typed_row, Column.TITLE), "Typed Title", Qt.ItemDataRole.EditRole)
    model.setData(
        model.index(skipped_row, Column.IMPORT),
        Qt.CheckState.Unchecked.value,
        Qt.ItemDataRole.CheckStateRole,
    )
    choose_duplicate(wizard, 1)

    def shown() -> list[str]:
        """The statuses of the rows of the pasted pages, in their order."""
        return [s for r, s in enumerate(statuses(model)) if model.plan_at(r).ref[0] >= first]

    first = 0
    chosen = shown()
    assert chosen.count(LEFT_OUT) == 1 and "New — title typed by you" in chosen
    assert f"Keep separate — possible duplicate of “{title}”" in chosen

    click(qtbot, wizard, Button.BackButton)
    wizard.add_files([seed_files()[1]])  # (a file comes first: the pages are numbered anew)
    assert wizard.source_page.wait_until_read()
    click(qtbot, wizard, Button.NextButton)
    first = 1
    assert shown() == chosen
    assert model.index(model.rowCount() - 1, Column.TITLE).data() != "Typed Title"
    assert labels(wizard.review_page, "selectionSummary") == [
        f"{model.rowCount() - 1} of {model.rowCount()} records will be imported."
    ]

    click(qtbot, wizard, Button.BackButton)
    src = wizard.source_page
    cards = src.findChildren(QWidget, "sourceCard")
    qtbot.mouseClick(cards[0].findChild(QWidget, "removeSourceButton"), Qt.MouseButton.LeftButton)
    click(qtbot, wizard, Button.NextButton)
    first = 0
    assert shown() == chosen

    run_import(qtbot, wizard)
    titles = {row.title for row in library.papers(limit=100)}
    assert "Typed Title" in titles and skipped_title not in titles
    assert library.count() == 12 + 1 + 2 + 1  # (the look-alike kept as a paper of its own)


# -- how alike a possible duplicate is -------------------------------------------------------


def test_possible_duplicate_tooltip_rounds_the_similarity_down(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], library: LibraryService
) -> None:
    abstract = (
        "We measure how quickly glaciers retreat in a warming climate, using satellite images "
        "taken every month over three decades, and relate the retreat to local temperature, "
        "snowfall and the slope of the valley floor beneath each glacier we follow."
    )
    title = "Retreat of valley glaciers in three decades of satellite images"
    library.import_pages([SourcedPage(parse(page_text("Ada Lovelace", [(title, abstract)])))])
    near = abstract.replace(" a warming", " an warming")  # one letter more
    other_title = "Monthly glacier retreat measured from orbit"
    wizard = make_wizard()
    wizard.add_text(page_text("Alan Turing", [(other_title, near)]))
    model = to_review(qtbot, wizard)
    plan = model.plan_at(0)
    assert plan.similarity is not None and 99.5 <= plan.similarity < 100  # "100" when rounded
    tooltip = model.index(0, Column.STATUS).data(Qt.ItemDataRole.ToolTipRole)
    assert tooltip == (
        f"Merge — possible duplicate of “{title}”\n"
        "The paper in the library is 99% alike.\n"
        "Choose whether to merge it or keep it as a separate paper."
    )
    [combo] = wizard.review_page.findChildren(QComboBox, "duplicateChoice")
    assert combo.toolTip() == tooltip
    combo.setCurrentIndex(1)
    combo.activated.emit(1)
    assert combo.toolTip().startswith(f"Keep separate — possible duplicate of “{title}”\n")
    assert "100%" not in combo.toolTip()


def test_a_similarity_of_exactly_100_says_what_is_the_same(library: LibraryService) -> None:
    title = "Graph networks at scale for molecular property prediction on large benchmarks"
    abstract = "We train graph networks on molecules at a scale not seen before, across many tasks."
    library.import_pages([SourcedPage(parse(page_text("Ada Lovelace", [(title, abstract)])))])
    near = page_text("Ada Lovelace", [(title.replace("networks", "network"), abstract + " More.")])
    plan = library.plan_import([SourcedPage(parse(near))])
    [record] = plan.records
    assert record.status.value == "possible-duplicate"
    model = ReviewModel()
    for same, expected in (
        ("title", "100% alike: the same title, a different abstract"),
        ("abstract", "100% alike: the same abstract, a different title"),
    ):
        shown_title = title if same == "title" else record.record.title
        exact = dataclasses.replace(
            record,
            similarity=100.0,
            record=dataclasses.replace(record.record, title=shown_title),
        )
        model.set_plan(dataclasses.replace(plan, records=(exact,)))
        tooltip = model.index(0, Column.STATUS).data(Qt.ItemDataRole.ToolTipRole)
        assert f"The paper in the library is {expected}." in tooltip
    for similarity, shown in ((95.0, "95%"), (96.99, "96%"), (99.999, "99%")):
        model.set_plan(
            dataclasses.replace(plan, records=(dataclasses.replace(record, similarity=similarity),))
        )
        tooltip = model.index(0, Column.STATUS).data(Qt.ItemDataRole.ToolTipRole)
        assert f"is {shown} alike." in tooltip


def test_a_page_with_only_the_start_of_an_abstract_says_so(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], library: LibraryService
) -> None:
    first = (
        "We measure how quickly glaciers retreat in a warming climate, using satellite images "
        "taken every month over three decades."
    )
    rest = "The retreat follows local temperature, snowfall and the slope of each valley floor."
    authors = "Ada Lovelace, Alan Turing"
    library.import_pages(
        [sourced(abstracts_page("Ada Lovelace", [(authors, f"{first}\n\n{rest}")]))]
    )
    wizard = make_wizard()
    wizard.add_text(abstracts_page("Alan Turing", [(authors, first)]))
    model = to_review(qtbot, wizard)
    assert model.plan_at(0).cut_short
    tooltip = model.index(0, Column.STATUS).data(Qt.ItemDataRole.ToolTipRole)
    assert (
        "The paper in the library is alike as far as the shorter abstract goes (one is the "
        "start of the other).\nChoose whether to merge it or keep it as a separate paper."
    ) in tooltip


# -- the report's words, from the service's record outcomes ----------------------------------


def report_of(result: ImportResult) -> tuple[str, list[str]]:
    """What the result page (and the command line) say about a finished import."""
    return result_headline(result), [result_page_line(result, i) for i in range(len(result.pages))]


def test_the_report_comes_from_the_service_result_alone(library: LibraryService) -> None:
    """No plan, no wizard: the record outcomes the service returns word the same report the
    wizard shows, and the headline counts each paper once however many pages list it."""
    result = library.import_pages([sourced_file(s) for s in seed_files()])
    assert report_of(result) == three_seeds_report()
    assert sum(page.new for page in result.pages) == len(result.new_ids) == 20
    on_two_pages = [
        paper
        for paper in result.new_ids
        if len({r.ref[0] for r in result.records if r.paper_id == paper}) == 2
    ]
    assert len(on_two_pages) == 2  # "2 of them on two pages", "1 also on …" twice
    assert sum(page.repeats for page in result.pages) == 2


def test_the_report_says_which_possible_duplicates_were_merged_or_kept(
    library: LibraryService,
) -> None:
    graphs = (
        "Graph networks at scale for molecular property prediction on large benchmarks",
        "We train graph networks on molecules at a scale not seen before and report the "
        "accuracy of property prediction across many public benchmarks and settings.",
    )
    glaciers = (
        "Retreat of valley glaciers in three decades of satellite images",
        "We measure how quickly glaciers retreat in a warming climate, using satellite images "
        "taken every month over three decades, and relate the retreat to local temperature.",
    )
    library.import_pages([SourcedPage(parse(page_text("Ada Lovelace", [graphs, glaciers])))])
    known = library.paper_ids()
    near = [
        (graphs[0].replace("networks", "network"), graphs[1] + " More."),
        (glaciers[0].replace("glaciers", "glacier"), glaciers[1] + " More."),
        ("Something else entirely", "An abstract about something else entirely, long enough."),
    ]
    pages = [SourcedPage(parse(page_text("Alan Turing", near)))]
    plan = library.plan_import(pages)
    assert [r.status.value for r in plan.records] == [
        "possible-duplicate",
        "possible-duplicate",
        "new",
    ]
    result = library.import_pages(pages, ImportChoices(keep_separate=frozenset({(0, 1)})))
    merged, kept, new = result.records
    assert merged.paper_id is not None and merged.paper_id in known
    assert not merged.created and merged.in_library
    assert kept.paper_id not in known and kept.created
    assert new.paper_id not in known and new.created
    assert report_of(result) == (
        "2 new papers, 1 already in library (updated)",
        [
            "Alan Turing — pasted text: 2 new, 1 already in library "
            "(1 possible duplicate merged; 1 possible duplicate kept separate)"
        ],
    )
    assert library.count() == 4
    assert "Alan Turing" in library.paper(merged.paper_id).attributed_to


def test_the_review_says_when_the_paper_found_is_in_the_trash() -> None:
    from refman.core.importing.values import RecordPlan, RecordStatus
    from refman.core.importing.wording import merge_text
    from refman.importers.records import ParsedRecord

    record = ParsedRecord("A title", False, "An abstract of some length here.")
    plan = RecordPlan((0, 0), record, RecordStatus.MERGE, target_id=7, adds=("the year",))
    assert merge_text(plan) == "Already in library (#7) — will merge: adds the year"
    trashed = RecordPlan((0, 0), record, RecordStatus.MERGE, 7, "A Title", target_in_trash=True)
    assert merge_text(trashed) == "Already in the Trash (#7) — nothing new to add"
    # A paper the record was taken for under another title is named: it may be a mistake.
    other = RecordPlan((0, 0), record, RecordStatus.MERGE, 7, "Attention Is All You Need")
    assert merge_text(other) == (
        "Already in library as “Attention Is All You Need” (#7) — nothing new to add"
    )


def _html_page(owner: str, records: list[tuple[str, str]]) -> str:
    """A browser's copy of an author page whose records each end in a link named "DOI"."""
    body = [f"<h1>{owner}</h1><p>Publications and source records attributed to {owner}.</p>"]
    body.append(f"<p>{len(records)} records</p>")
    for title, doi in records:
        body.append(
            f"<div><p>arXiv2024</p><h3>{title}</h3><p>We study {title.lower()} at length and "
            f'report what we found. <a href="https://doi.org/{doi}">DOI</a></p>'
            "<p>cs.LG↗</p></div>"
        )
    return "<html><body>" + "".join(body) + "</body></html>"


def _paste_html(qtbot: QtBot, area: QWidget, html: str) -> None:
    data = QMimeData()
    data.setHtml(html)
    data.setText("(the browser's plain text)")
    QApplication.clipboard().setMimeData(data)
    qtbot.keyClick(area, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


def _dois(library: LibraryService) -> dict[str, str | None]:
    return {library.paper(i).title: library.paper(i).doi for i in library.paper_ids()}


def test_pasted_links_go_with_their_text_pasted_over_or_deleted(
    qtbot: QtBot, make_wizard: Callable[[], ImportWizard], library: LibraryService
) -> None:
    """A page pasted over another leaves none of the other's links; deleting a record's
    lines takes its links with them: no paper is given another's DOI."""
    wizard = make_wizard()
    area = wizard.source_page.paste_area
    area.setFocus()
    wrong = [("Wrong Engines", "10.1111/wrong.1"), ("Wrong Looms", "10.1111/wrong.2")]
    _paste_html(qtbot, area, _html_page("Ada Lovelace", wrong))
    qtbot.keyClick(area, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert area.toPlainText() == "" and area.links == []  # one paste, one undo step
    _paste_html(qtbot, area, _html_page("Ada Lovelace", wrong))
    qtbot.keyClick(area, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    right = [
        ("Compilers for Everyone", "10.2222/right.1"),
        ("Debugging with Moths", "10.2222/right.2"),
        ("Cobol for the Masses", "10.2222/right.3"),
    ]
    _paste_html(qtbot, area, _html_page("Grace Hopper", right))
    qtbot.keyClicks(area, " (end)")  # typed after the last link: not the link's text
    assert [(link.text, link.href) for link in area.links] == [
        ("DOI", f"https://doi.org/{d}") for _, d in right
    ]
    # delete the first record's lines (its venue line to its subjects)
    text = area.toPlainText()
    start, end = text.index("arXiv2024"), text.index("cs.LG↗") + len("cs.LG↗\n")
    cursor = area.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    area.setTextCursor(cursor)
    qtbot.keyClick(area, Qt.Key.Key_Delete)
    assert "Compilers" not in area.toPlainText()
    qtbot.waitUntil(lambda: labels(wizard.source_page, "sourceCount") != [], timeout=5000)
    to_review(qtbot, wizard)
    run_import(qtbot, wizard)
    settle(wizard.controller)
    assert _dois(library) == {
        "Debugging with Moths": "10.2222/right.2",
        "Cobol for the Masses": "10.2222/right.3",
    }
