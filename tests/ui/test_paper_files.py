"""Files in the window: PDFs dropped on a paper of the list or on the detail pane are
attached to that paper (copied beside the library), Attach File… attaches to the current
paper, the Files block lists them with pages and size, a click opens one, its menu renames
and removes it, and Undo brings it back."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QObject, QPoint, QPointF, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot
from sqlalchemy import text

from refman.core.library import LibraryService
from refman.core.values import PaperRow
from refman.store.file_store import storage_beside
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import THREE_PAPERS, publication_page
from tests.helpers.panes import make_window
from tests.helpers.pdfs import make_pdf

from refman.ui import files_view, quiet_start
from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> MainWindow:
    library.import_pages([sourced(publication_page("Zhuo Jiang", THREE_PAPERS))])
    return make_window(qtbot, controller, tmp_path / "settings.ini")


def _drop_at(window: MainWindow, widget: QWidget, at: QPoint, *files: Path) -> str:
    """Drag files over a point of a widget and drop them, as the window system delivers
    it to the window; what the drop overlay said."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(f)) for f in files])
    pos = widget.mapTo(window, at)
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    QApplication.sendEvent(
        window, QDragEnterEvent(pos, Qt.DropAction.CopyAction, mime, buttons, mods)
    )
    QApplication.sendEvent(
        window, QDragMoveEvent(pos, Qt.DropAction.CopyAction, mime, buttons, mods)
    )
    said = window.findChild(QWidget, "dropOverlay").message  # type: ignore[union-attr]
    drop = QDropEvent(QPointF(pos), Qt.DropAction.CopyAction, mime, buttons, mods)
    QApplication.sendEvent(window, drop)
    return str(said)


def _show_first(window: MainWindow) -> PaperRow:
    """Select the list's first paper and wait until the detail pane shows it."""
    shown = window.model.paper_row(0)
    assert shown is not None
    window.table.select_paper(shown.id)
    settle(window.controller)
    return shown


def _file_names(window: MainWindow) -> list[str]:
    return [
        row.name.text() for row in window.detail_pane.files.file_rows() if row.isVisibleTo(window)
    ]


def test_a_pdf_dropped_on_a_row_is_attached_to_that_paper(
    qtbot: QtBot, window: MainWindow, library: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    table = window.table
    target = window.model.paper_row(1)
    assert target is not None
    centre = table.visualRect(window.model.index(1, 0)).center()
    pdf = make_pdf(tmp_path / "stragglers.pdf", pages=5)
    said = _drop_at(window, table.viewport(), centre, pdf)
    assert said == f"Drop to attach to “{target.title}”"
    qtbot.wait_until(lambda: len(library.paper(target.id).files) == 1)  # just after the drop
    settle(window.controller)
    (file,) = library.paper(target.id).files
    assert Path(file.path) == storage_beside(library_path) / str(target.id) / "stragglers.pdf"
    assert file.pages == 5 and Path(file.path).read_bytes() == pdf.read_bytes()
    assert window.controller.undo_stack.undoText() == "Attach “stragglers.pdf”"

    window.table.select_paper(target.id)
    settle(window.controller)
    qtbot.wait_until(lambda: _file_names(window) == ["stragglers.pdf"])
    (row,) = window.detail_pane.files.file_rows()
    assert row.about.text().startswith("5 pages · ")


def test_a_pdf_dropped_on_the_detail_pane_goes_to_the_paper_shown(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    shown = _show_first(window)
    pane = window.detail_pane
    pdf = make_pdf(tmp_path / "appendix.pdf", pages=2)
    said = _drop_at(window, pane, QPoint(pane.width() // 2, pane.height() // 2), pdf)
    assert said.startswith("Drop to attach to “")
    qtbot.wait_until(lambda: len(library.paper(shown.id).files) == 1)
    settle(window.controller)
    qtbot.wait_until(lambda: _file_names(window) == ["appendix.pdf"])
    assert [f.name for f in library.paper(shown.id).files] == ["appendix.pdf"]
    assert pane.files.empty.isHidden()


class _Opened(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


def test_attach_open_rename_remove_and_undo(
    qtbot: QtBot,
    window: MainWindow,
    library: LibraryService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown = _show_first(window)
    pdf = make_pdf(tmp_path / "draft.pdf", pages=3)
    monkeypatch.setattr(files_view, "ask_files", lambda parent: [str(pdf)])
    window.actions_by_id[ActionId.ATTACH_FILE].trigger()
    settle(window.controller)
    qtbot.wait_until(lambda: _file_names(window) == ["draft.pdf"])

    opened = _Opened()
    QDesktopServices.setUrlHandler("file", opened, "open")  # type: ignore[arg-type]
    try:
        (row,) = window.detail_pane.files.file_rows()
        qtbot.mouseClick(row.name, Qt.MouseButton.LeftButton)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    stored = library.paper(shown.id).files[0].path
    assert [u.toLocalFile() for u in opened.urls] == [stored]

    monkeypatch.setattr(files_view, "ask_file_name", lambda parent, old: "Jiang 2024.pdf")
    (row,) = window.detail_pane.files.file_rows()
    next(a for a in row.menu.actions() if a.text() == "Rename…").trigger()
    settle(window.controller)
    qtbot.wait_until(lambda: _file_names(window) == ["Jiang 2024.pdf"])
    assert Path(library.paper(shown.id).files[0].path).name == "Jiang 2024.pdf"

    (row,) = window.detail_pane.files.file_rows()
    next(a for a in row.menu.actions() if a.text() == "Remove").trigger()
    settle(window.controller)
    qtbot.wait_until(lambda: _file_names(window) == [])
    assert library.paper(shown.id).files == ()
    assert window.detail_pane.files.empty.isVisibleTo(window)
    window.controller.undo()
    settle(window.controller)
    qtbot.wait_until(lambda: _file_names(window) == ["Jiang 2024.pdf"])
    assert Path(library.paper(shown.id).files[0].path).is_file()
    labels = [w.text() for w in window.detail_pane.files.findChildren(QLabel, "fileAbout")]
    assert any(text.startswith("3 pages") for text in labels)


def test_a_missing_file_is_shown_so_and_located_from_its_menu(
    qtbot: QtBot,
    window: MainWindow,
    library: LibraryService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown = window.model.paper_row(0)
    assert shown is not None
    (tmp_path / "sync").mkdir()
    source = make_pdf(tmp_path / "sync" / "linked.pdf", pages=4)
    library.attach(shown.id, [source], link=True)
    moved = source.rename(tmp_path / "linked.pdf")
    window.table.select_paper(shown.id)
    settle(window.controller)
    qtbot.wait_until(lambda: _file_names(window) == ["linked.pdf"])
    (row,) = window.detail_pane.files.file_rows()
    assert row.about.text() == f"Missing: not at {source.resolve()}"
    monkeypatch.setattr(files_view, "ask_located", lambda parent, name: str(moved))
    next(a for a in row.menu.actions() if a.text() == "Locate…").trigger()
    settle(window.controller)

    def about() -> list[str]:
        return [r.about.text() for r in window.detail_pane.files.file_rows() if r.isVisible()]

    qtbot.wait_until(lambda: len(about()) == 1 and about()[0].startswith("4 pages · "))
    assert not library.paper(shown.id).files[0].missing
    assert window.controller.undo_stack.undoText() == "Locate a file"


def test_everything_mode_finds_words_inside_pdfs_and_shows_where(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    target = window.model.paper_row(2)
    assert target is not None
    pdf = make_pdf(tmp_path / "inside.pdf", lines=("Quetzalcoatlus had enormous wings.",))
    library.attach(target.id, [pdf], link=True)
    indexer = window.files.indexer
    with qtbot.wait_signal(indexer.finished, timeout=60_000):
        indexer.start()  # as when the window opens, or files are attached
    assert library.index_progress().done == 1
    box = window.search_box
    qtbot.keyClicks(box, "quetzalcoatlus")
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.counted)
    assert window.model.rowCount() == 0  # not in titles, authors, abstracts, tags or notes
    assert not box.everything_mark.isVisible()
    box.everything_mode.trigger()  # the magnifier's menu: Everything (PDFs Too)
    assert box.placeholderText().startswith("Search everything")
    assert box.everything_mark.isVisible()  # marked in the field while text is typed
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 1)
    assert window.model.paper_id(0) == target.id
    window.table.select_paper(target.id)
    settle(window.controller)
    found = window.detail_pane.files.found
    qtbot.wait_until(found.isVisible)
    assert found.text().startswith("Found in “inside.pdf”: “")
    assert "Quetzalcoatlus had enormous wings." in found.text()
    pdf.unlink()  # gone from its place: its text still matches, and the pane says why
    window.detail_pane.files.set_search("")
    window.detail_pane.files.set_search("quetzalcoatlus")
    qtbot.wait_until(lambda: "(missing: its text was read while it was there)" in found.text())
    assert found.text().startswith("Found in “inside.pdf” (missing: its text was read while it")
    box.everything_mark.trigger()  # a click on the mark: back to titles, authors and more
    assert not box.everything and box.fields_mode.isChecked()
    settle(window.controller)
    qtbot.wait_until(lambda: window.model.rowCount() == 0)
    qtbot.wait_until(lambda: not found.isVisible())


def test_a_pdf_dropped_off_the_papers_adds_its_paper_through_the_wizard(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    from tests.ui.test_import_wizard import run_import, to_review

    pdf = make_pdf(tmp_path / "new-paper.pdf", pages=3, title="Tiered Object Stores Revisited")
    before = library.count()
    empty = QPoint(window.table.viewport().width() // 2, window.table.viewport().height() - 5)
    said = _drop_at(window, window.table.viewport(), empty, pdf)
    assert said == "Drop to import author pages, bibliographies or PDFs"
    qtbot.wait_until(lambda: hasattr(window, "wizard") and window.wizard.isVisible())
    wizard = window.wizard
    assert wizard.windowTitle() == "Import papers"  # (it said "Import author pages")
    assert wizard.source_page.wait_until_read()
    review = to_review(qtbot, wizard)
    assert review.rowCount() == 1
    run_import(qtbot, wizard)
    settle(window.controller)
    assert library.count() == before + 1
    added = library.paper(library.paper_ids()[0])
    assert added.title == "Tiered Object Stores Revisited"
    assert [(f.name, f.pages) for f in added.files] == [("new-paper.pdf", 3)]


def test_the_first_page_of_the_pdf_is_drawn_and_a_click_opens_it(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    shown = window.model.paper_row(0)
    assert shown is not None
    library.attach(shown.id, [make_pdf(tmp_path / "paper.pdf", pages=2)], link=True)
    window.table.select_paper(shown.id)
    settle(window.controller)
    preview = window.detail_pane.files.preview
    qtbot.wait_until(preview.isVisible, timeout=30_000)
    pixmap = preview.pixmap()
    assert not pixmap.isNull()
    assert abs(pixmap.height() / pixmap.width() - 297 / 210) < 0.02  # an A4 page
    image = pixmap.toImage()
    assert image.pixelColor(5, 5).lightness() > 240  # white paper…
    top = [
        image.pixelColor(x, y).lightness()
        for y in range(image.height() // 5)
        for x in range(0, image.width() // 2, 2)
    ]
    assert min(top) < 128  # …with the title drawn near the top
    opened = _Opened()
    QDesktopServices.setUrlHandler("file", opened, "open")  # type: ignore[arg-type]
    try:
        qtbot.mouseClick(preview, Qt.MouseButton.LeftButton)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert [u.toLocalFile() for u in opened.urls] == [str((tmp_path / "paper.pdf").resolve())]
    window.table.select_paper(window.model.paper_id(1) or 0)
    settle(window.controller)
    qtbot.wait_until(lambda: not preview.isVisible())  # that paper has no PDF


def test_the_preferences_link_files_relative_to_a_base_folder(
    qtbot: QtBot,
    window: MainWindow,
    library: LibraryService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from refman.ui import preferences
    from refman.ui.preferences import PreferencesDialog

    base = tmp_path / "Sync"
    base.mkdir()
    monkeypatch.setattr(preferences, "ask_folder", lambda parent, current: str(base))
    dialog = PreferencesDialog(window.settings, {"apa": "APA"}, [], window)
    qtbot.add_widget(dialog)
    dialog.link_check.setChecked(True)
    dialog.on_choose_base()  # the Choose… button
    assert dialog.base_edit.text() == str(base)
    dialog.accept()
    shown = _show_first(window)
    pdf = make_pdf(base / "paper.pdf")
    window.detail_pane.files.attach([str(pdf)])
    settle(window.controller)
    (file,) = library.paper(shown.id).files
    assert file.linked and file.path == str(pdf)
    with library.db.reading() as session:  # kept relative to the base folder
        from refman.store.models_files import PaperFile

        assert session.get(PaperFile, file.id).path == "paper.pdf"  # type: ignore[union-attr]


def test_the_pdf_workers_start_only_once_the_person_pauses(
    qtbot: QtBot,
    controller: LibraryController,
    library: LibraryService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(quiet_start, "START_DELAY_MS", 100)
    monkeypatch.setattr(quiet_start, "QUIET_S", 0.5)
    library.import_pages([sourced(publication_page("Zhuo Jiang", THREE_PAPERS))])
    pid = library.paper_ids()[0]
    library.attach(pid, [make_pdf(tmp_path / "later.pdf", lines=("A wombat appears.",))])
    with library.db.transaction() as session:  # as a library whose PDFs are not read yet
        session.execute(text("DELETE FROM file_texts"))
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    window.search_box.setFocus()
    typing_until = time.monotonic() + 2.0  # longer than the window's start-up delay
    while time.monotonic() < typing_until:  # a key every 0.1 s: the window must answer
        qtbot.keyClicks(window.search_box, "w")
        qtbot.wait(100)
        assert not window.files.quiet.started
        assert library.index_progress().done == 0
    window.search_box.set_text_now("")
    qtbot.wait_until(lambda: window.files.quiet.started, timeout=3000)
    qtbot.wait_until(lambda: library.index_progress().done == 1, timeout=20_000)
    window.search_box.set_everything(True)
    window.search_box.set_text_now("wombat")
    settle(controller)
    assert window.model.rowCount() == 1 and window.model.paper_id(0) == pid


def test_the_workers_wait_while_a_change_or_read_is_under_way(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(quiet_start, "START_DELAY_MS", 10)
    monkeypatch.setattr(quiet_start, "QUIET_S", 0.05)
    started: list[str] = []
    working = [True]  # tagging a million papers, say: the person waits, the window works
    quiet = quiet_start.QuietStart([lambda: started.append("workers")], lambda: not working[0])
    qtbot.wait(400)
    assert started == [] and not quiet.started
    working[0] = False
    qtbot.wait_until(lambda: started == ["workers"], timeout=3000)
    qtbot.wait(300)
    assert started == ["workers"]  # once


def test_a_pdf_without_text_is_named_in_the_status_bar(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    from tests.helpers.pdfs import encrypted_pdf

    target = window.model.paper_row(0)
    assert target is not None
    library.attach(target.id, [encrypted_pdf(tmp_path / "locked.pdf")], link=True)
    indexer = window.files.indexer
    with qtbot.wait_signal(indexer.finished, timeout=60_000):
        indexer.start()
    said = window.statusBar().currentMessage()
    assert said.startswith("The text of “locked.pdf” could not be read: it is encrypted")
    assert "is in the search" not in said  # nothing was read


def test_a_pdf_dropped_twice_is_attached_once_and_the_status_bar_says_so(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    shown = _show_first(window)
    pane = window.detail_pane
    pdf = make_pdf(tmp_path / "appendix.pdf", pages=2)
    middle = QPoint(pane.width() // 2, pane.height() // 2)
    _drop_at(window, pane, middle, pdf)
    qtbot.wait_until(lambda: len(library.paper(shown.id).files) == 1)
    settle(window.controller)
    qtbot.wait_until(lambda: _file_names(window) == ["appendix.pdf"])
    copy = tmp_path / "appendix-v1.pdf"
    copy.write_bytes(pdf.read_bytes())
    _drop_at(window, pane, middle, copy)
    status = window.statusBar()  # (a drop is read off the GUI thread: under load, slowly)
    qtbot.wait_until(lambda: "already" in status.currentMessage(), timeout=20_000)
    said = window.statusBar().currentMessage()
    assert "“appendix.pdf”" in said and "not attached twice" in said
    settle(window.controller)
    assert _file_names(window) == ["appendix.pdf"]
    assert [f.name for f in library.paper(shown.id).files] == ["appendix.pdf"]
    assert window.controller.undo_stack.undoText() == "Attach “appendix.pdf”"  # the first only
    # its copy deleted outside refman, then dropped again: the status bar says how to put it back
    Path(library.paper(shown.id).files[0].path).unlink()
    window.statusBar().clearMessage()
    _drop_at(window, pane, middle, pdf)  # (a missing copy is known by its name and size)
    qtbot.wait_until(lambda: "missing from its place" in status.currentMessage(), timeout=20_000)
    assert "Locate… in the file's ⋯ menu puts it back" in window.statusBar().currentMessage()


def test_the_preview_draws_the_first_pdf_that_can_be_drawn(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    from tests.helpers.pdfs import encrypted_pdf

    shown = window.model.paper_row(0)
    assert shown is not None
    locked = encrypted_pdf(tmp_path / "locked.pdf")  # attached first: no page to draw
    book = make_pdf(tmp_path / "book.pdf", pages=500)
    library.attach(shown.id, [locked, book], link=True)
    window.table.select_paper(shown.id)
    settle(window.controller)
    qtbot.wait_until(lambda: _file_names(window) == ["locked.pdf", "book.pdf"])
    files = window.detail_pane.files
    preview = files.preview
    qtbot.wait_until(preview.isVisible, timeout=30_000)  # it stayed empty
    assert not preview.pixmap().isNull()
    opened = _Opened()
    QDesktopServices.setUrlHandler("file", opened, "open")  # type: ignore[arg-type]
    try:
        qtbot.mouseClick(preview, Qt.MouseButton.LeftButton)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert [u.toLocalFile() for u in opened.urls] == [str(book.resolve())]


def test_renaming_a_missing_file_says_to_locate_it_first(
    qtbot: QtBot,
    window: MainWindow,
    library: LibraryService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    shown_errors: list[str],
) -> None:
    shown = window.model.paper_row(0)
    assert shown is not None
    (file,) = library.attach(shown.id, [make_pdf(tmp_path / "draft.pdf")])
    Path(file.path).unlink()  # deleted outside refman
    window.table.select_paper(shown.id)
    settle(window.controller)
    qtbot.wait_until(lambda: _file_names(window) == ["draft.pdf"])
    monkeypatch.setattr(files_view, "ask_file_name", lambda parent, old: "final.pdf")
    (row,) = window.detail_pane.files.file_rows()
    next(a for a in row.menu.actions() if a.text() == "Rename…").trigger()
    settle(window.controller)  # (a crash dialog before: FileNotFoundError)
    assert shown_errors == [
        f"“draft.pdf” cannot be renamed: it is missing (not at {file.path}). "
        "Locate it first (Locate… in its menu), then rename it."
    ]
    assert [f.name for f in library.paper(shown.id).files] == ["draft.pdf"]


def test_reading_the_pdfs_leaves_what_the_status_bar_says_to_be_read(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    """The reading's progress replaced "The paper has “x.pdf” already…" at once (the person
    could not read it); its outcome is said once the status bar is free."""
    bar = window.statusBar()
    target = window.model.paper_row(0)
    assert target is not None
    library.attach(target.id, [make_pdf(tmp_path / "methods.pdf", pages=1)])
    said = "The paper has “methods.pdf” already: the same file is not attached twice."
    bar.showMessage(said, 60_000)
    indexer = window.files.indexer
    with qtbot.wait_signal(indexer.finished, timeout=60_000):
        indexer.start()
    assert bar.currentMessage() == said
    bar.clearMessage()
    qtbot.wait_until(lambda: "is in the search" in bar.currentMessage())


def test_enter_or_a_double_click_on_a_paper_opens_its_first_file(
    qtbot: QtBot, window: MainWindow, library: LibraryService, tmp_path: Path
) -> None:
    """Enter and a double-click on a paper in the list did nothing (``refman open ID`` opens
    its first file; so does Zotero's Enter)."""
    first, second = (window.model.paper_row(r) for r in (0, 1))
    assert first is not None and second is not None
    library.attach(first.id, [make_pdf(tmp_path / "paper.pdf"), make_pdf(tmp_path / "si.pdf")])
    settle(window.controller)
    opened = _Opened()
    QDesktopServices.setUrlHandler("file", opened, "open")  # type: ignore[arg-type]
    try:
        window.table.select_paper(first.id)
        settle(window.controller)
        window.table.setFocus()
        qtbot.keyClick(window.table, Qt.Key.Key_Return)
        stored = library.paper(first.id).files[0].path
        assert [u.toLocalFile() for u in opened.urls] == [stored]
        qtbot.keyClick(window.table, Qt.Key.Key_Down)  # a paper without a file: says so
        qtbot.wait_until(lambda: window.table.current_id() == second.id)
        qtbot.keyClick(window.table, Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier)
        said = window.statusBar().currentMessage()
        assert said.startswith(f"“{second.title}” has no file, DOI or link to open")
        assert "Attach" in said
        row = window.table.visualRect(window.model.index(0, 0)).center()
        qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=row)
        qtbot.mouseDClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=row)
        assert len(opened.urls) == 2 and opened.urls[1].toLocalFile() == stored
        assert window.actions_by_id[ActionId.OPEN_FILE].isEnabled()
        window.actions_by_id[ActionId.OPEN_FILE].trigger()  # Paper ▸ Open File
        assert len(opened.urls) == 3
    finally:
        QDesktopServices.unsetUrlHandler("file")


def test_enter_on_a_paper_without_a_file_opens_its_doi_or_its_link(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    """A paper without a file did nothing but say so: Zotero opens its DOI or its link."""
    rows = [window.model.paper_row(r) for r in range(3)]
    assert all(row is not None for row in rows)
    with_doi, with_link, bare = (row.id for row in rows if row is not None)
    library.edit_fields(with_doi, doi="10.1000/straggler.42")
    library.edit_fields(with_link, url="https://example.org/papers/balance")
    settle(window.controller)
    opened = _Opened()
    QDesktopServices.setUrlHandler("https", opened, "open")  # type: ignore[arg-type]
    bar = window.statusBar()
    try:
        window.table.setFocus()
        for paper_id, what, address in (
            (with_doi, "DOI", "https://doi.org/10.1000/straggler.42"),
            (with_link, "link", "https://example.org/papers/balance"),
        ):
            window.table.select_paper(paper_id)
            settle(window.controller)
            qtbot.keyClick(window.table, Qt.Key.Key_Return)
            assert opened.urls[-1].toString() == address
            said = bar.currentMessage()
            assert f"has no file: its {what} was opened in the browser ({address})" in said
        window.table.select_paper(bare)
        settle(window.controller)
        qtbot.keyClick(window.table, Qt.Key.Key_Return)
        assert len(opened.urls) == 2
        assert "has no file, DOI or link to open" in bar.currentMessage()
    finally:
        QDesktopServices.unsetUrlHandler("https")
