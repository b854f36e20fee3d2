"""What a person does in the detail pane to a paper another member (another process on the
same library) merged into another paper meanwhile: a tag put on or taken off, the reading
status, the stars, a file attached, a note added go to the paper kept, where the merge took
the paper's notes and files, and the status bar says so. They went to the merged paper
waiting in the Trash, where the person would never see them."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from refman.core.paper_merge import MergePapers
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page
from tests.helpers.panes import make_window

from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow

pytestmark = [
    pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True),
    # (the tag field's completer pops up)
    pytest.mark.qt_log_ignore(
        "does not support propagateSizeHints", "does not support raise", "grabbing the keyboard"
    ),
]


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> MainWindow:
    library.import_pages([sourced(generated_page(3))])
    library.tag(library.paper_ids()[:1], ["to read"])
    return make_window(qtbot, controller, tmp_path / "settings.ini")


def _merged_while_shown(qtbot: QtBot, window: MainWindow, library_location: str) -> tuple[int, int]:
    """The first paper shown, the keyboard in its tag field, merged into the second by a
    colleague; the pane keeps it (the person is writing in it), as the window heard."""
    controller, pane = window.controller, window.detail_pane
    merged, kept = controller.service.paper_ids()[:2]
    window.go_to_paper(merged)
    settle(controller)
    pane.tag_chips.field.setFocus()
    with closing(LibraryService.open(library_location)) as colleague:
        colleague.apply(MergePapers(keep=kept, other=merged))
    qtbot.waitUntil(lambda: pane.kept.paper_id == merged, timeout=5000)
    settle(controller)
    return merged, kept


def _said(window: MainWindow, merged: int, kept: int, done: str) -> None:
    message = window.statusBar().currentMessage()
    assert (
        message == f"Paper #{merged} was merged into paper #{kept} elsewhere: {done} paper #{kept}."
    )


def _tags(window: MainWindow, paper_id: int) -> list[str]:
    return [t.name for t in window.controller.service.paper(paper_id).tags]


def test_a_tag_typed_or_removed_goes_to_the_paper_kept(
    qtbot: QtBot, window: MainWindow, library_location: str, shown_errors: list[str]
) -> None:
    merged, kept = _merged_while_shown(qtbot, window, library_location)
    pane, controller = window.detail_pane, window.controller
    qtbot.keyClicks(pane.tag_chips.field, "deep learning")
    qtbot.keyClick(pane.tag_chips.field, Qt.Key.Key_Return)
    settle(controller)
    assert _tags(window, kept) == ["deep learning", "to read"]
    assert _tags(window, merged) == ["to read"]
    _said(window, merged, kept, "your tag “deep learning” was put on")
    qtbot.mouseClick(pane.tag_chips.remove_button("to read"), Qt.MouseButton.LeftButton)
    settle(controller)
    assert _tags(window, kept) == ["deep learning"]
    assert _tags(window, merged) == ["to read"]
    _said(window, merged, kept, "your tag “to read” was taken off")
    controller.undo()
    settle(controller)
    assert _tags(window, kept) == ["deep learning", "to read"]
    assert shown_errors == []


def test_the_reading_status_and_stars_go_to_the_paper_kept(
    qtbot: QtBot, window: MainWindow, library_location: str, shown_errors: list[str]
) -> None:
    merged, kept = _merged_while_shown(qtbot, window, library_location)
    bar, controller = window.detail_pane.reading, window.controller
    qtbot.mouseClick(bar.status_buttons["read"], Qt.MouseButton.LeftButton)
    settle(controller)
    _said(window, merged, kept, "your reading status (read) was set on")
    qtbot.mouseClick(bar.star_buttons[3], Qt.MouseButton.LeftButton)
    settle(controller)
    _said(window, merged, kept, "your rating (4 stars) was given to")
    paper, gone = controller.service.paper(kept), controller.service.paper(merged)
    assert (paper.status, paper.rating) == ("read", 4)
    assert (gone.status, gone.rating) == ("unread", 0)
    assert shown_errors == []


def test_a_file_attached_goes_to_the_paper_kept(
    qtbot: QtBot,
    window: MainWindow,
    library_location: str,
    shown_errors: list[str],
    tmp_path: Path,
) -> None:
    merged, kept = _merged_while_shown(qtbot, window, library_location)
    pdf = tmp_path / "supplement.pdf"
    pdf.write_bytes(b"%PDF-1.4 a short supplement")
    window.detail_pane.files.link = True  # (a shared library may have no storage folder)
    window.detail_pane.files.attach([str(pdf)])
    settle(window.controller)
    assert [f.name for f in window.controller.service.paper(kept).files] == ["supplement.pdf"]
    assert window.controller.service.paper(merged).files == ()
    _said(window, merged, kept, "“supplement.pdf” was attached to")
    assert shown_errors == []


def test_a_note_added_goes_to_the_paper_kept_shown_open(
    qtbot: QtBot, window: MainWindow, library_location: str, shown_errors: list[str]
) -> None:
    merged, kept = _merged_while_shown(qtbot, window, library_location)
    pane, controller = window.detail_pane, window.controller
    with qtbot.wait_signal(pane.notes.note_opened, timeout=5000) as opened:
        qtbot.mouseClick(pane.add_note_button, Qt.MouseButton.LeftButton)
    (card,) = opened.args
    assert pane.shown_paper() is not None and pane.shown_paper().id == kept  # type: ignore[union-attr]
    _said(window, merged, kept, "your new note was added to")
    qtbot.keyClicks(card.editor, "check the appendix")
    card.save()
    settle(controller)
    assert [n.text for n in controller.service.paper(kept).notes] == ["check the appendix"]
    assert controller.service.paper(merged).notes == ()
    assert shown_errors == []
