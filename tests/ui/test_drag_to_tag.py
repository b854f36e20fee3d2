"""Dragging papers from the list onto a tag, in the window: a selection of rows not read yet
starts its drag at once and is tagged once the list worker has read its ids."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import ClassVar

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDragMoveEvent, QDropEvent
from pytestqt.qtbot import QtBot

from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from tests.helpers.fixtures import settle, sourced
from tests.helpers.pages import generated_page
from tests.helpers.panes import make_window

from refman.ui import paper_drag
from refman.ui.controller import LibraryController
from refman.ui.main_window import MainWindow
from refman.ui.paper_drag import (
    PAPER_IDS_MIME,
    PAPER_SELECTION_MIME,
    carries_papers,
    when_dropped,
)
from refman.ui.sidebar import COUNT_ROLE

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")

PAPERS = 650  # several pages of the list: most rows are never read on the GUI thread


@pytest.fixture
def window(
    qtbot: QtBot, controller: LibraryController, library: LibraryService, tmp_path: Path
) -> Iterator[MainWindow]:
    """The window over a library of :data:`PAPERS` papers, one of them tagged "later"."""
    library.import_pages([sourced(generated_page(PAPERS))])
    first = library.paper_ids(PaperQuery())[0]
    library.tag([first], ["later"])
    yield make_window(qtbot, controller, tmp_path / "settings.ini")


def tagged(library: LibraryService, name: str) -> set[int]:
    return set(library.paper_ids(PaperQuery(tags=(name,))))


class DropOnTag:
    """Stands in for QDrag: its ``exec`` moves the drag over a tag and drops it there, as
    the person's mouse would (``drops`` keeps what each drag carried)."""

    drops: ClassVar[list[QMimeData]] = []
    window: ClassVar[MainWindow]

    def __init__(self, _source: object) -> None:
        self.data = QMimeData()

    def setMimeData(self, data: QMimeData) -> None:
        self.data = data

    def exec(self, *_args: object) -> Qt.DropAction:
        tags = self.window.tag_pane.tag_list
        item = tags.find_row("tag", "later")
        assert item is not None
        centre = QPointF(tags.visualItemRect(item).center())
        buttons, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
        move = QDragMoveEvent(centre.toPoint(), Qt.DropAction.CopyAction, self.data, buttons, none)
        tags.dragMoveEvent(move)
        assert move.isAccepted()  # the tag lights up under the drag
        drop = QDropEvent(centre, Qt.DropAction.CopyAction, self.data, buttons, none)
        tags.dropEvent(drop)
        assert drop.isAccepted()
        self.drops.append(self.data)
        return Qt.DropAction.CopyAction


@pytest.fixture
def drop_on_tag(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> type[DropOnTag]:
    monkeypatch.setattr(paper_drag, "QDrag", DropOnTag)
    monkeypatch.setattr(DropOnTag, "window", window, raising=False)
    monkeypatch.setattr(DropOnTag, "drops", [])
    return DropOnTag


@pytest.mark.filterwarnings("ignore:Function.*QDragMoveEvent:DeprecationWarning")
def test_a_whole_library_dragged_onto_a_tag_is_tagged_without_reading_it_on_the_gui_thread(
    qtbot: QtBot,
    window: MainWindow,
    library: LibraryService,
    drop_on_tag: type[DropOnTag],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settle(window.controller)
    assert window.model.rowCount() == PAPERS
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    # Rows not read yet are never read on the GUI thread for a drag.
    monkeypatch.setattr(
        window.model.service, "list_ids", lambda *_a: pytest.fail("ids read on the GUI thread")
    )
    window.table.startDrag(Qt.DropAction.CopyAction)
    (carried,) = drop_on_tag.drops
    assert carried.hasFormat(PAPER_SELECTION_MIME) and not carried.hasFormat(PAPER_IDS_MIME)
    qtbot.wait_until(lambda: len(tagged(library, "later")) == PAPERS, timeout=10_000)
    settle(window.controller)
    item = window.tag_pane.tag_list.find_row("tag", "later")
    assert item is not None and item.data(COUNT_ROLE) == PAPERS  # the tag pane's count
    window.controller.undo()
    settle(window.controller)
    assert len(tagged(library, "later")) == 1  # one undo step takes the drop back


@pytest.mark.filterwarnings("ignore:Function.*QDragMoveEvent:DeprecationWarning")
def test_a_few_papers_dragged_onto_a_tag_carry_their_ids(
    qtbot: QtBot, window: MainWindow, library: LibraryService, drop_on_tag: type[DropOnTag]
) -> None:
    settle(window.controller)
    first, second = (window.model.paper_id(row) for row in (1, 2))
    assert first is not None and second is not None
    window.table.select_papers([first, second])
    window.table.startDrag(Qt.DropAction.CopyAction)
    (carried,) = drop_on_tag.drops
    assert carried.hasFormat(PAPER_IDS_MIME)  # read rows: any window can take them
    settle(window.controller)
    assert tagged(library, "later") >= {first, second}
    assert len(tagged(library, "later")) == 3


def test_a_drop_of_another_process_s_selection_is_refused(qapp: object) -> None:
    data = QMimeData()
    data.setData(PAPER_SELECTION_MIME, b'{"ticket": 987654, "papers": 3}')
    got: list[Sequence[int]] = []
    assert not carries_papers(data)
    assert not when_dropped(data, got.append)
    assert got == []
