"""What the person works on in the detail pane stays in view: the note just added and the
lines typed in it, and a paper's year, venue, tags and reading controls below a long list
of authors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from tests.helpers.fixtures import seed_files, settle, sourced_file
from tests.helpers.panes import make_window

from refman.ui.author_links import FIRST_AUTHORS
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.notes_editor import NoteCard

# The offscreen platform warns when a top-level widget is shown; nothing to do with us.
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")

SURNAMES = ("Okafor", "Lindqvist", "Haddad", "Moreau", "Tanaka", "Kowalski", "Silva", "Novak")
GIVEN = ("Ada", "Bram", "Chidi", "Dana", "Emil", "Farah", "Goran", "Hana")
#: Sixty authors, as a large collaboration's paper lists them.
AUTHORS = [f"{s}, {g}" for g in GIVEN for s in SURNAMES][:60]
#: Their names as the detail pane shows them.
NAMES = [f"{g} {s}" for g in GIVEN for s in SURNAMES][:60]
COLLABORATION = f"""@article{{collab2024,
  title = {{Sea-Level Records From Sixty Tide Gauges}},
  author = {{{" and ".join(AUTHORS)}}},
  journal = {{Journal of Coastal Records}},
  year = {{2024}},
  abstract = {{We gather sixty tide gauges' records and reconcile their datums.}}
}}
"""


@pytest.fixture
def collaboration(library: LibraryService, tmp_path: Path) -> int:
    """The seed pages, and a paper with sixty authors."""
    for path in seed_files():
        library.import_pages([sourced_file(path)])
    bib = tmp_path / "collaboration.bib"
    bib.write_text(COLLABORATION, encoding="utf-8")
    (paper,) = library.import_pages([sourced_file(bib)]).new_ids
    return paper


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, collaboration: int, tmp_path: Path
) -> Iterator[MainWindow]:
    """A shown, active window of 1400 × 900."""
    made = make_window(qtbot, controller, tmp_path / "settings.ini")
    made.resize(1400, 900)
    qtbot.wait_until(lambda: made.width() == 1400)
    made.activateWindow()
    qtbot.wait_until(made.isActiveWindow)
    yield made


def in_view(area: QScrollArea, widget: QWidget, rect: QRect | None = None) -> bool:
    """True when ``widget`` (or ``rect`` of it) shows whole in the scroll area's viewport."""
    shown = rect if rect is not None else widget.rect()
    top_left = widget.mapTo(area.viewport(), shown.topLeft())
    return area.viewport().rect().contains(QRect(top_left, shown.size()))


def caret_in_view(area: QScrollArea, card: NoteCard) -> bool:
    editor = card.editor
    caret = editor.cursorRect()
    return in_view(area, editor.viewport(), caret)


def test_a_note_added_is_in_view_and_so_are_the_lines_typed_in_it(
    qtbot: QtBot, window: MainWindow, library: LibraryService
) -> None:
    """The editor stayed below the visible part: the person typed without seeing the text."""
    paper = next(i for i in library.paper_ids() if library.paper(i).abstract)
    window.table.select_paper(paper)
    pane = window.detail_pane
    qtbot.wait_until(lambda: pane.current_paper() == paper and pane.add_note_button.isVisible())
    area = pane.scroll_area
    area.ensureWidgetVisible(pane.add_note_button)  # scrolled to, at the foot of the pane
    with qtbot.wait_signal(pane.notes.note_opened) as opened:
        qtbot.mouseClick(pane.add_note_button, Qt.MouseButton.LeftButton)
    settle(window.controller)
    card = opened.args[0]
    assert isinstance(card, NoteCard)
    assert QApplication.focusWidget() is card.editor
    qtbot.wait_until(lambda: in_view(area, card.editor))
    for line in range(30):  # longer than the pane is high: the editor grows, then scrolls
        qtbot.keyClicks(card.editor, f"line {line} of the note")
        qtbot.keyClick(card.editor, Qt.Key.Key_Return)
        qtbot.wait_until(lambda: caret_in_view(area, card), timeout=1000)  # (laid out)
    assert card.text().count("\n") == 30
    bar = area.verticalScrollBar()
    bar.setValue(0)  # the person scrolls back up to read the abstract, the note still typed in
    settle(window.controller)  # the note is saved, the pane read again: the view stays
    qtbot.wait(100)
    assert bar.value() == 0


def test_a_long_author_list_shows_its_first_authors_and_the_fields_below_stay_in_view(
    qtbot: QtBot, window: MainWindow, collaboration: int
) -> None:
    """Sixty authors filled the pane and pushed the year, venue, tags and reading out of
    sight."""
    window.table.select_paper(collaboration)
    pane = window.detail_pane
    authors = pane.authors
    qtbot.wait_until(lambda: authors.more_button is not None)
    more = authors.more_button
    assert more is not None
    assert more.text() == "… and 50 more"
    assert [b.accessibleName() for b in authors.author_buttons()] == NAMES[:FIRST_AUTHORS]
    area = pane.scroll_area
    for shown in (pane.year_field, pane.venue_field, pane.tag_chips.field, pane.reading):
        assert in_view(area, shown), shown.objectName()
    assert pane.venue_field.text() == "Journal of Coastal Records"

    last = authors.author_buttons()[-1]  # the keyboard reaches "… and 50 more" after it
    last.setFocus()
    qtbot.wait_until(last.hasFocus)
    qtbot.keyClick(last, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is more
    qtbot.keyClick(more, Qt.Key.Key_Space)
    qtbot.wait_until(lambda: len(authors.author_buttons()) == 60)
    assert authors.more_button is None
    eleventh = authors.author_buttons()[FIRST_AUTHORS]
    assert QApplication.focusWidget() is eleventh  # the keyboard goes on where it was
    assert eleventh.accessibleName() == NAMES[FIRST_AUTHORS]
    window.table.select_paper(collaboration)  # shown again: still all of them
    settle(window.controller)
    assert len(authors.author_buttons()) == 60


def test_a_click_on_and_n_more_shows_every_author(
    qtbot: QtBot, window: MainWindow, collaboration: int
) -> None:
    window.table.select_paper(collaboration)
    authors = window.detail_pane.authors
    qtbot.wait_until(lambda: authors.more_button is not None)
    more = authors.more_button
    assert more is not None
    qtbot.mouseClick(more, Qt.MouseButton.LeftButton, pos=QPoint(4, more.height() // 2))
    qtbot.wait_until(lambda: len(authors.author_buttons()) == 60)
    assert [b.text() for b in authors.author_buttons()] == [f"{n}," for n in NAMES[:-1]] + [
        NAMES[-1]
    ]
