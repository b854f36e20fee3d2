"""The list worker: answers arrive on the GUI thread; a newer generation drops the older
questions and interrupts the one being read; lists never drop each other's questions; and a
search typed quickly shows the newest answer only."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QThread
from PySide6.QtWidgets import QLabel, QWidget
from pytestqt.qtbot import QtBot
from sqlalchemy import text

from refman.common.errors import ServerUnreachableError
from refman.core.library import LibraryService
from refman.core.listing import ListReader
from refman.core.values import PaperQuery
from tests.helpers.fixtures import seed_files, settle, sourced_file
from tests.helpers.postgres import server_away

from refman.ui.controller import LibraryController
from refman.ui.list_worker import LATER, SOON, ListWorker
from refman.ui.paper_model import PaperTableModel

ENDLESS = text(
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
)


@pytest.fixture
def worker(library: LibraryService, qapp: object) -> Iterator[ListWorker]:
    made = ListWorker(lambda: ListReader(library.db))
    yield made
    made.shutdown()


def test_answers_arrive_on_the_gui_thread(
    qtbot: QtBot, worker: ListWorker, library: LibraryService
) -> None:
    library.import_pages([sourced_file(seed_files()[0])])
    got: list[tuple[int, bool]] = []
    channel = worker.channel()
    channel.ask(
        lambda reader: reader.count(PaperQuery()),
        lambda n: got.append((n, QThread.currentThread() is qtbot_thread())),
    )
    assert worker.wait()
    assert got == [(library.count(), True)]


def qtbot_thread() -> QThread:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    assert app is not None
    return app.thread()


def test_a_new_generation_interrupts_the_read_and_drops_the_waiting(
    qtbot: QtBot, worker: ListWorker
) -> None:
    channel = worker.channel()
    got: list[str] = []
    started = threading.Event()

    def endless(reader: ListReader) -> str:
        started.set()
        return str(reader._read(lambda s: s.execute(ENDLESS).scalar()))

    channel.ask(endless, got.append)
    channel.ask(lambda _r: "waiting, now stale", got.append)
    assert started.wait(5)
    time.sleep(0.1)  # well inside the endless read
    begun = time.perf_counter()
    channel.new_generation()
    channel.ask(lambda _r: "newest", got.append)
    assert worker.wait(5000)
    assert got == ["newest"]
    assert time.perf_counter() - begun < 2.0


def test_lists_do_not_drop_each_others_questions(qtbot: QtBot, worker: ListWorker) -> None:
    first, second = worker.channel(), worker.channel()
    got: list[str] = []
    first.ask(lambda _r: "first", got.append)
    second.new_generation()
    second.ask(lambda _r: "second", got.append)
    assert worker.wait()
    assert sorted(got) == ["first", "second"]


def test_a_closed_list_gets_no_answer(qtbot: QtBot, worker: ListWorker) -> None:
    channel = worker.channel()
    got: list[str] = []
    channel.ask(lambda _r: "late", got.append)
    channel.close()
    assert worker.wait()
    assert got == []


def test_quick_typing_shows_only_the_newest_search(
    qtbot: QtBot, controller: LibraryController, library: LibraryService
) -> None:
    for path in seed_files():
        library.import_pages([sourced_file(path)])
    model = PaperTableModel(library, controller.lists)
    shown: list[str] = []
    model.modelReset.connect(lambda: shown.append(model.query.text))
    for typed in ("m", "mo", "mod", "mode", "model"):
        model.set_query(PaperQuery(text=typed))
    settle(controller)
    assert shown == ["model"]  # the older keystrokes' answers were dropped, never shown
    assert model.total() == library.count(PaperQuery(text="model"))


def test_at_its_first_pause_the_worker_loads_the_latex_reader_rows_may_need(
    qtbot: QtBot, worker: ListWorker, library: LibraryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The LaTeX reader (pylatexenc, about 40 ms to load) is loaded while the person looks at
    the first list, not in the middle of the first row that needs it."""
    from refman.common import text as common_text

    monkeypatch.setattr(common_text, "_converter", None)
    got: list[int] = []
    worker.channel().ask(lambda reader: reader.count(PaperQuery()), got.append)
    assert worker.wait()
    qtbot.waitUntil(lambda: common_text._converter is not None, timeout=5000)
    assert got == [0]
    assert common_text.latex_to_text(r"\emph{Fast} $x^2$") == "Fast x²"


def test_an_answer_never_reaches_a_widget_that_is_gone(
    qtbot: QtBot, worker: ListWorker, library: LibraryService
) -> None:
    library.import_pages([sourced_file(seed_files()[0])])
    window = QWidget()
    owner = QLabel(window)  # deleted with its window, as a pane's parts are
    channel = worker.channel(owner)
    started = threading.Event()
    got: list[int] = []

    def slow(reader: ListReader) -> int:
        started.set()
        time.sleep(0.2)  # the widget is deleted while its answer is read
        return reader.count(PaperQuery())

    def show(n: int) -> None:
        owner.setText(str(n))
        got.append(n)

    channel.ask(slow, show)
    assert started.wait(5)
    window.deleteLater()  # as a closed pane goes: deleted by Qt, its parts with it
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not shiboken6.isValid(owner)
    assert worker.wait()
    qtbot.wait(50)
    assert got == []  # filling the deleted label would have raised (or crashed)
    other = worker.channel(QLabel())
    other.ask(lambda reader: reader.count(PaperQuery()), got.append)
    assert worker.wait()
    assert got == [library.count()]  # the worker goes on answering the others


def test_the_list_is_read_before_the_navigation_counts_asked_first(
    qtbot: QtBot, worker: ListWorker
) -> None:
    """After a change the counts (a later channel) are asked first, then the status bar's
    total, then the list: the list's rows come first all the same, then the total."""
    lists, counts = worker.channel(), worker.channel(rank=LATER)
    total = worker.channel(rank=SOON)
    gate = threading.Event()
    got: list[str] = []
    lists.ask(lambda _r: str(gate.wait(5)), lambda _v: None)  # the worker is busy
    counts.ask(lambda _r: "counts", got.append)
    total.ask(lambda _r: "total", got.append)
    lists.ask(lambda _r: "rows", got.append)
    gate.set()
    assert worker.wait()
    assert got == ["rows", "total", "counts"]


def test_a_count_being_read_gives_way_to_the_list_and_is_read_again(
    qtbot: QtBot, worker: ListWorker
) -> None:
    counts, lists = worker.channel(rank=LATER), worker.channel()
    started = threading.Event()
    runs: list[int] = []
    got: list[str] = []

    def count(reader: ListReader) -> str:
        runs.append(1)
        if len(runs) == 1:
            started.set()
            reader._read(lambda s: s.execute(ENDLESS).scalar())  # until interrupted
        return "counts"

    counts.ask(count, got.append)
    assert started.wait(5)
    time.sleep(0.1)  # well inside the long read
    begun = time.perf_counter()
    lists.ask(lambda _r: "rows", got.append)
    qtbot.wait_until(lambda: got[:1] == ["rows"], timeout=5000)
    assert time.perf_counter() - begun < 2.0  # the list did not wait for the count
    assert worker.wait()
    assert got == ["rows", "counts"] and len(runs) == 2


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
@pytest.mark.logs_warnings("refman.ui")
def test_a_worker_whose_first_connection_fails_connects_with_the_next_question(
    qtbot: QtBot, library: LibraryService, library_location: str
) -> None:
    library.import_pages([sourced_file(seed_files()[0])])
    worker = ListWorker(lambda: ListReader(library.db))
    try:
        channel = worker.channel()
        got: list[object] = []
        with server_away(library_location):
            library.db.engine.dispose()  # (no connection left to lend: the list must connect)
            channel.ask(lambda r: r.count(PaperQuery()), got.append, got.append)
            assert worker.wait()
        [error] = got
        assert isinstance(error, ServerUnreachableError)  # said, as any read that fails
        channel.ask(lambda r: r.count(PaperQuery()), got.append, got.append)
        assert worker.wait()
        assert got[1:] == [library.count()]  # (it stopped for good before)
    finally:
        worker.shutdown()
