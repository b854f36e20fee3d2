"""Background threads that outlive their window's objects (a window closed, a test torn
down while a file is read or a page drawn) stop quietly: no error in the log, no exception
in the thread."""

from __future__ import annotations

import shiboken6
from pytestqt.qtbot import QtBot

from refman.core.file_index import IndexProgress

from refman.ui.controller import LibraryController
from refman.ui.file_indexer import FileIndexer
from refman.ui.file_preview import PreviewRenderer


def test_the_file_reader_stops_once_its_window_is_gone(
    qtbot: QtBot, controller: LibraryController
) -> None:
    indexer = FileIndexer(controller)
    told: list[object] = []
    indexer.progress.connect(told.append)
    indexer._tell_progress(IndexProgress(1, 3))
    assert len(told) == 1 and not indexer._stopping
    shiboken6.delete(indexer)  # as the window's teardown deletes its children
    indexer._tell_progress(IndexProgress(2, 3))  # from the reading thread: no exception
    assert indexer._stopping  # the next file is not read


def test_the_page_drawer_stops_once_its_window_is_gone(
    qtbot: QtBot, controller: LibraryController
) -> None:
    renderer = PreviewRenderer(controller)
    key = ("paper.pdf", 10, 1.0)
    assert renderer._tell(key, None)
    shiboken6.delete(renderer)
    assert not renderer._tell(key, None)  # nobody left to draw for: the thread ends
