"""Dropping author pages: what a drag carries, the overlay, refusals, and the wizard's page."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDragLeaveEvent, QDragMoveEvent, QDropEvent, QImage
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QWidget
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from refman.importers import parse
from refman.importers.mendeley_db import ENCRYPTED_HINT
from refman.importers.records import PageLink
from refman.importers.sources import MAX_FILE_BYTES
from tests.helpers.fixtures import seed_files
from tests.helpers.panes import make_window

from refman.ui.controller import LibraryController
from refman.ui.drop import (
    DROP_MESSAGE,
    LOCKED_HINT,
    DropInputs,
    inputs_from_mime,
    install_drop_target,
)
from refman.ui.wizard import ImportWizard

# The offscreen platform warns when a top-level widget is shown; nothing to do with us.
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"

#: The hint shown with every refused file that is not text (how to get an author page's text).
TEXT_HINT = "save the page as text or HTML, or copy its text in the browser and paste it."


@pytest.fixture
def wizard(qtbot: QtBot, controller: LibraryController) -> Iterator[ImportWizard]:
    """An import wizard on a fresh library, shown."""
    wiz = ImportWizard(controller)
    qtbot.add_widget(wiz)
    wiz.show()
    yield wiz
    wiz.reject()


def _as_html(text: str) -> str:
    body = "".join(f"<p>{html.escape(line)}</p>\n" for line in text.splitlines() if line)
    return f"<html><head><title>x</title></head><body>{body}</body></html>"


def _files_mime(*paths: Path) -> QMimeData:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    return mime


def _page_files(tmp_path: Path) -> dict[str, Path]:
    """The first seed page saved as .txt, .md and .html."""
    text = seed_files()[0].read_text(encoding="utf-8")
    files = {"txt": tmp_path / "page.txt", "md": tmp_path / "page.md"}
    files["html"] = tmp_path / "page.html"
    files["txt"].write_text(text, encoding="utf-8")
    files["md"].write_text(text, encoding="utf-8")
    files["html"].write_text(_as_html(text), encoding="utf-8")
    return files


def _drag(widget: QWidget, mime: QMimeData) -> None:
    """Drag over a widget, as the window system would."""
    pos = QPointF(widget.width() / 2, widget.height() / 2)
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(pos.toPoint(), Qt.DropAction.CopyAction, mime, buttons, mods)
    QApplication.sendEvent(widget, enter)
    move = QDragMoveEvent(pos.toPoint(), Qt.DropAction.CopyAction, mime, buttons, mods)
    QApplication.sendEvent(widget, move)


def _drop(widget: QWidget, mime: QMimeData) -> QDropEvent:
    """Drag over a widget and drop."""
    _drag(widget, mime)
    pos = QPointF(widget.width() / 2, widget.height() / 2)
    event = QDropEvent(
        pos,
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, event)
    return event


def _texts(widget: QWidget, name: str) -> list[str]:
    QApplication.processEvents()
    return [label.text() for label in widget.findChildren(QLabel, name) if label.isVisible()]


# -- inputs_from_mime ------------------------------------------------------------------------


def test_file_urls_become_files_and_win_over_text(tmp_path: Path) -> None:
    files = _page_files(tmp_path)
    mime = _files_mime(files["txt"], files["md"], files["html"])
    mime.setText("\n".join(str(p) for p in files.values()))
    inputs = inputs_from_mime(mime)
    assert inputs == DropInputs(files=(files["txt"], files["md"], files["html"]))
    assert inputs.problems() == []


def test_plain_text_becomes_dropped_text() -> None:
    mime = QMimeData()
    mime.setText("Zhuo Jiang\n\nsome text")
    mime.setHtml('<p>text from <a href="https://example.org/p">the HTML</a></p>')
    [text] = inputs_from_mime(mime).texts
    assert (text.text, text.source) == ("Zhuo Jiang\n\nsome text", "dropped text")
    assert text.links == (PageLink("the HTML", "https://example.org/p"),)  # kept all the same


def test_html_only_becomes_its_visible_text() -> None:
    mime = QMimeData()
    mime.setHtml("<style>p{}</style><h1>Zhuo&nbsp;Jiang</h1><p>Papers &amp; notes</p>")
    [text] = inputs_from_mime(mime).texts
    assert (text.text, text.source, text.links) == (
        "Zhuo Jiang\n\nPapers & notes\n",
        "dropped text",
        (),
    )


def test_a_bare_web_link_is_refused_with_advice() -> None:
    mime = QMimeData()
    mime.setUrls([QUrl("https://example.org/people/zj")])
    mime.setText("https://example.org/people/zj")
    inputs = inputs_from_mime(mime)
    assert inputs.texts == () and inputs.links == ("https://example.org/people/zj",)
    [problem] = inputs.problems()
    assert "web address" in problem.message and "paste" in problem.hint


def test_an_image_from_a_browser_is_refused() -> None:
    mime = QMimeData()
    mime.setImageData(QImage(2, 2, QImage.Format.Format_RGB32))
    [problem] = inputs_from_mime(mime).problems()
    assert "image" in problem.message


def test_empty_drag_is_refused() -> None:
    inputs = inputs_from_mime(QMimeData())
    assert inputs.is_empty
    assert "no text" in inputs.problems()[0].message


# -- a window with a drop target -------------------------------------------------------------


@pytest.fixture
def window(qtbot: QtBot) -> tuple[QMainWindow, list[DropInputs]]:
    """A main window with a drop target that records what it is given."""
    win = QMainWindow()
    win.setCentralWidget(QWidget())
    qtbot.add_widget(win)
    win.resize(600, 400)
    received: list[DropInputs] = []
    win.drop_target = install_drop_target(win, received.append)  # type: ignore[attr-defined]
    win.show()
    return win, received


def test_overlay_shows_while_dragging_and_hides_on_leave(
    qtbot: QtBot, window: tuple[QMainWindow, list[DropInputs]], tmp_path: Path
) -> None:
    win, _ = window
    overlay = win.drop_target.overlay  # type: ignore[attr-defined]
    _drag(win, _files_mime(_page_files(tmp_path)["txt"]))
    assert overlay.isVisible()
    assert overlay.message == DROP_MESSAGE and "page.txt" in overlay.detail
    assert overlay.geometry() == win.rect()
    win.resize(700, 500)
    assert overlay.geometry() == win.rect()
    QApplication.sendEvent(win, QDragLeaveEvent())
    qtbot.waitUntil(lambda: not overlay.isVisible())


def test_dropping_files_calls_back_after_the_drop(
    qtbot: QtBot,
    window: tuple[QMainWindow, list[DropInputs]],
    tmp_path: Path,
    shown_errors: list[str],
) -> None:
    win, received = window
    files = _page_files(tmp_path)
    event = _drop(win, _files_mime(files["txt"], files["html"]))
    assert event.isAccepted()
    assert not win.drop_target.overlay.isVisible()  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: bool(received))
    assert received == [DropInputs(files=(files["txt"], files["html"]))]
    assert shown_errors == []


FALSE_PDF_HINT = "Check that the download finished, or open the file to see what it is."


BAD_FILES = [
    ("photo.png", PNG, "is an image (PNG)", TEXT_HINT),
    ("renamed.txt", PNG, "is a PNG image", TEXT_HINT),
    ("paper.pdf", b"not a pdf", "is named .pdf but is not a PDF document", FALSE_PDF_HINT),
    ("blob.bin", bytes(range(256)) * 4, "contains binary data", TEXT_HINT),
    (  # Mendeley Desktop 1.19 and later encrypt their database: no SQLite file
        "you@www.mendeley.com.sqlite",
        bytes(range(256)) * 4,
        "is Mendeley Desktop's database encrypted",
        ENCRYPTED_HINT,
    ),
]


@pytest.mark.parametrize(("name", "data", "reason", "hint"), BAD_FILES)
def test_images_false_pdfs_and_binaries_alone_are_refused_with_a_message(
    qtbot: QtBot,
    window: tuple[QMainWindow, list[DropInputs]],
    tmp_path: Path,
    shown_errors: list[str],
    name: str,
    data: bytes,
    reason: str,
    hint: str,
) -> None:
    win, received = window
    path = tmp_path / name
    path.write_bytes(data)
    mime = _files_mime(path)
    _drag(win, mime)
    overlay = win.drop_target.overlay  # type: ignore[attr-defined]
    assert overlay.refused and name in overlay.message and reason in overlay.message
    event = _drop(win, mime)
    assert not event.isAccepted()
    [shown] = shown_errors
    assert shown.startswith("Nothing was imported.") and f"‘{name}’ {reason}" in shown
    assert shown.endswith(hint)
    # A drop that is accepted afterwards is the first (and only) one handed on.
    good = _page_files(tmp_path)["txt"]
    _drop(win, _files_mime(good))
    qtbot.waitUntil(lambda: bool(received))
    assert received == [DropInputs(files=(good,))]


@pytest.mark.parametrize(("name", "data", "reason", "hint"), BAD_FILES)
def test_a_bad_file_dropped_with_good_ones_goes_along_to_be_named_and_left_out(
    qtbot: QtBot,
    window: tuple[QMainWindow, list[DropInputs]],
    tmp_path: Path,
    shown_errors: list[str],
    name: str,
    data: bytes,
    reason: str,
    hint: str,
) -> None:
    win, received = window
    path = tmp_path / name
    path.write_bytes(data)
    good = _page_files(tmp_path)["txt"]
    mime = _files_mime(path, good)
    _drag(win, mime)
    overlay = win.drop_target.overlay  # type: ignore[attr-defined]
    assert not overlay.refused and overlay.message == DROP_MESSAGE
    files_line, left_out = overlay.detail.split("\n")
    assert files_line == f"2 files: {name}, page.txt"
    assert left_out.startswith(f"‘{name}’ {reason}") and left_out.endswith(". It will be left out.")
    event = _drop(win, mime)
    assert event.isAccepted()
    qtbot.waitUntil(lambda: bool(received))
    assert received == [DropInputs(files=(path, good))]  # (the receiver names the bad one)
    assert shown_errors == []


def test_oversized_file_is_refused(
    window: tuple[QMainWindow, list[DropInputs]], tmp_path: Path, shown_errors: list[str]
) -> None:
    win, received = window
    path = tmp_path / "dump.txt"
    with path.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    _drop(win, _files_mime(path))
    assert "‘dump.txt’ is larger than 512 MB" in shown_errors[0]
    assert received == []


# -- the wizard's source page ----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["txt", "md", "html"])
def test_dropping_a_file_on_the_wizard_adds_the_page(
    qtbot: QtBot, wizard: ImportWizard, tmp_path: Path, kind: str
) -> None:
    path = _page_files(tmp_path)[kind]
    expected = parse(seed_files()[0].read_text(encoding="utf-8"))
    _drop(wizard.source_page, _files_mime(path))
    qtbot.waitUntil(lambda: bool(_texts(wizard.source_page, "sourceCount")))
    assert _texts(wizard.source_page, "sourceOwner") == [expected.owner]
    n = len(expected.records)
    assert _texts(wizard.source_page, "sourceCount") == [
        f"✓  {n} records found (the page says {expected.claimed})"
    ]
    assert f"· {path.name}" in _texts(wizard.source_page, "sourceFormat")[0]
    assert wizard.button(wizard.WizardButton.NextButton).isEnabled()


@pytest.mark.parametrize("kind", ["plain", "html"])
def test_dropping_text_on_the_wizard_adds_the_page(
    qtbot: QtBot, wizard: ImportWizard, kind: str
) -> None:
    seed = seed_files()[2]
    text = seed.read_text(encoding="utf-8")
    expected = parse(text)
    mime = QMimeData()
    if kind == "plain":
        mime.setText(text)
    else:
        mime.setHtml(_as_html(text))
    _drop(wizard.source_page, mime)
    qtbot.waitUntil(lambda: bool(_texts(wizard.source_page, "sourceCount")))
    assert _texts(wizard.source_page, "sourceOwner") == [expected.owner]
    assert _texts(wizard.source_page, "sourceCount") == [
        f"✓  {len(expected.records)} records found"
    ]
    assert wizard.source_page.sourced_pages()[0].source == "dropped text"


def test_files_dropped_on_the_wizard_that_cannot_be_read_get_a_card_each(
    qtbot: QtBot, wizard: ImportWizard, tmp_path: Path, shown_errors: list[str]
) -> None:
    png = tmp_path / "shot.png"
    png.write_bytes(PNG)
    blob = tmp_path / "data.dat"
    blob.write_bytes(b"\x00\x01\x02\x03" * 100)
    _drop(wizard.source_page, _files_mime(png, blob))
    qtbot.waitUntil(lambda: len(wizard.source_page.sources()) == 2)
    assert wizard.source_page.wait_until_read()
    page = wizard.source_page
    assert shown_errors == []  # no box over the wizard: each file says what is wrong on its card
    assert _texts(page, "sourceOwner") == ["shot.png", "data.dat"]
    first, second = _texts(page, "sourceError")
    assert first.startswith("✗  Cannot be imported. ‘shot.png’ is an image (PNG), not text.")
    assert second.startswith("✗  Cannot be imported. ‘data.dat’ contains binary data, not text.")
    assert first.endswith(TEXT_HINT) and second.endswith(TEXT_HINT)
    assert _texts(page, "pageExample") == []  # (they are no text: no example of a page)
    assert not wizard.button(wizard.WizardButton.NextButton).isEnabled()
    assert _texts(page, "sourcesNote") == [
        "✗  Nothing here can be imported, so Next is not possible yet. Paste, open or drop an "
        "author page or a bibliography."
    ]
    # A page dropped afterwards can be imported: the two others are left out.
    good = _page_files(tmp_path)["txt"]
    _drop(wizard.source_page, _files_mime(good))
    qtbot.waitUntil(lambda: len(wizard.source_page.sources()) == 3)
    assert wizard.source_page.wait_until_read()
    qtbot.waitUntil(wizard.button(wizard.WizardButton.NextButton).isEnabled)
    assert _texts(page, "sourcesNote") == [
        "⚠  2 files cannot be imported and will be left out (shot.png and data.dat). "
        "Next goes on with the other one."
    ]
    assert [p.source for p in wizard.source_page.sourced_pages()] == [good.name]


@pytest.mark.logs_warnings("refman.ui")
def test_a_library_that_can_only_be_read_refuses_drops_and_opens_no_wizard(
    qtbot: QtBot,
    controller: LibraryController,
    library: LibraryService,
    tmp_path: Path,
    shown_errors: list[str],
) -> None:
    """File ▸ Import… was disabled with the reason, but a page dropped on the window (or the
    welcome page's button) opened the wizard, and the import was refused only at its end."""
    window = make_window(qtbot, controller, tmp_path / "settings.ini")
    reason = "This library can only be read: a test."
    window.safety._read_only(reason)
    page = _page_files(tmp_path)["txt"]
    overlay = window.drops.overlay
    _drag(window, _files_mime(page))
    assert overlay.isVisible() and overlay.refused
    assert (overlay.message, overlay.detail) == (reason, LOCKED_HINT)

    event = _drop(window, _files_mime(page))
    assert not event.isAccepted()
    qtbot.waitUntil(lambda: bool(shown_errors))
    assert shown_errors == [f"{reason} {LOCKED_HINT}"]

    assert window.paper_panel.is_welcome_shown()  # (an empty library)
    welcome = window.paper_panel.welcome.import_button
    qtbot.mouseClick(welcome, Qt.MouseButton.LeftButton)
    assert shown_errors[1:] == [reason]
    assert not window.findChildren(ImportWizard)
    assert library.count() == 0
