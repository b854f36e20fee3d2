"""The measured process of the GUI benchmark (started by ``bench_gui.py``).

It starts refman's window on a library the way ``refman`` does, notes when the paper list is
first painted, then works the real widgets as a person would: it types searches one key at
a time into the search field, clicks tags in the tag pane, clicks column headers to sort,
presses Ctrl+End in the list, tags every paper of a selection, then moves the first 100,000
rows to the Trash with the Delete key and takes that back with Undo. Each step is timed from
the input event to the repainted list showing the answer. A probe timer on the GUI thread
records the longest gap between its ticks: the longest time the window could not react.
It prints one JSON object.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable

T0 = float(os.environ.get("REFMAN_BENCH_T0", time.time()))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import (  # noqa: E402
    QEvent,
    QEventLoop,
    QItemSelection,
    QItemSelectionModel,
    QObject,
    QPoint,
    Qt,
    QTimer,
)
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from refman.ui.app import build_window, create_app, open_service, settle_start_up  # noqa: E402
from refman.ui.main_window import MainWindow  # noqa: E402
from refman.ui.settings import WindowSettings  # noqa: E402

#: What is typed, one key at a time, each into an empty field: common and rare words, word
#: prefixes, two-word searches and a phrase (82 keystrokes, each one timed).
TYPED = [
    "sparse",
    "graph",
    "diffusion",
    "robust",
    "sparse graph",
    "language model",
    "query",
    "photonic",
    '"protein folds"',
]
#: What is typed in Everything mode (``--everything``): words inside the PDFs of
#: ``bench_files.py`` (in every PDF, in one PDF, two words) and words of titles.
TYPED_EVERYTHING = [
    "gradient",
    "zqmarker7",
    "checkpoint",
    "tensor shard",
    "sparse",
    "recovery",
    "graph",
    "zqmarker4321",
    "attention layer",
]
#: Probe tick (ms): a gap longer than this is time the GUI thread was busy.
TICK_MS = 2
#: How many of the list's rows go to the Trash and come back (issue 10: ≤ 2 s each).
TRASHED = 100_000


class FirstPaint(QObject):
    """Notes the time of the first paint of the paper list."""

    def __init__(self) -> None:
        super().__init__()
        self.at: float | None = None

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self.at is None:
            self.at = time.time()
        return False


class GapProbe(QObject):
    """A timer on the GUI thread that keeps the longest gap between two of its ticks."""

    def __init__(self) -> None:
        super().__init__()
        self.longest = 0.0
        self.where = ""
        self.by_phase: dict[str, float] = {}
        self.phase = ""
        self._last: float | None = None
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def start(self, phase: str) -> None:
        self.phase = phase
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> None:
        self._tick()
        self._timer.stop()
        self._last = None

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            gap = now - self._last
            if gap > self.by_phase.get(self.phase, 0.0):
                self.by_phase[self.phase] = gap
            if gap > self.longest:
                self.longest, self.where = gap, self.phase
        self._last = now


class Paints(QObject):
    """Counts the paints of the paper list, and notes when the first paint after the list's
    newest answer ended (the moment the new rows are on screen)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self.answered: float | None = None
        self.shown: float | None = None

    def answer(self) -> None:
        self.answered, self.shown = time.perf_counter(), None

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
            if self.answered is not None and self.shown is None:
                # the paint runs after this filter: note its end at the next turn
                QTimer.singleShot(0, self._painted)
        return False

    def _painted(self) -> None:
        if self.shown is None:
            self.shown = time.perf_counter()


PAINTS = Paints()


def _pump(app: QApplication, window: MainWindow, probe: GapProbe) -> None:
    """Run the window's event loop, as on screen, until the list shows its answer and has
    painted it (the window paints on its own). The probe ticks inside the same loop."""
    controller = window.controller
    painted = PAINTS.count
    started = time.perf_counter()

    def done() -> bool:
        idle = controller.runner.idle and controller.lists.idle
        late = time.perf_counter() - started > 0.5  # nothing needed painting
        return idle and (PAINTS.count > painted or late)

    _loop_until(done)
    if not (controller.runner.idle and controller.lists.idle):  # a paint asked for rows
        _pump(app, window, probe)


def _loop_until(done: Callable[[], bool]) -> None:
    """Run the window's event loop, as on screen, until ``done()`` (asked every 1 ms)."""
    loop = QEventLoop()
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(1)
    timer.timeout.connect(lambda: loop.quit() if done() else None)
    timer.start()
    loop.exec()
    timer.stop()


def _stats(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return {
        "median_ms": statistics.median(ordered) * 1000,
        "p95_ms": p95 * 1000,
        "max_ms": ordered[-1] * 1000,
        "n": len(ordered),
    }


def _type(
    app: QApplication, window: MainWindow, probe: GapProbe, typed: list[str]
) -> tuple[list[float], list[float], list[tuple[float, str]]]:
    box = window.search_box
    samples = []
    shown = []
    slowest: list[tuple[float, str]] = []
    for text in typed:
        box.set_text_now("")
        _pump(app, window, probe)
        for char in text:
            PAINTS.answered = PAINTS.shown = None
            start = time.perf_counter()
            QTest.keyClicks(box, char)
            _pump(app, window, probe)
            samples.append(time.perf_counter() - start)
            shown.append((PAINTS.shown or time.perf_counter()) - start)
            slowest.append((samples[-1] * 1000, box.text()))
    box.set_text_now("")
    _pump(app, window, probe)
    return shown, samples, sorted(slowest, reverse=True)[:5]


def _click_tags(app: QApplication, window: MainWindow, probe: GapProbe) -> list[float]:
    tags = window.tag_pane.tag_list
    samples = []
    rows = tags.count()
    for i in range(50):
        item = tags.item(i % rows)
        tags.scrollToItem(item)
        centre = tags.visualItemRect(item).center()
        start = time.perf_counter()
        QTest.mouseClick(tags.viewport(), Qt.MouseButton.LeftButton, pos=centre)
        _pump(app, window, probe)
        samples.append(time.perf_counter() - start)
    window.tag_pane.clear_tags()
    _pump(app, window, probe)
    return samples


def _click_headers(app: QApplication, window: MainWindow, probe: GapProbe) -> list[float]:
    header = window.table.horizontalHeader()
    samples = []
    for _round in range(2):
        for logical in range(header.count()):
            if header.isSectionHidden(logical):
                continue
            x = header.sectionViewportPosition(logical) + header.sectionSize(logical) // 2
            start = time.perf_counter()
            QTest.mouseClick(
                header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2)
            )
            _pump(app, window, probe)
            samples.append(time.perf_counter() - start)
    return samples


def _scroll_to_end(app: QApplication, window: MainWindow, probe: GapProbe) -> float:
    table = window.table
    first_row = table.visualRect(window.model.index(0, 0)).center()
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=first_row)
    _pump(app, window, probe)
    start = time.perf_counter()
    QTest.keyClick(table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    _pump(app, window, probe)
    last = window.model.paper_row(window.model.rowCount() - 1)
    assert last is not None, "the last row was not loaded"
    return time.perf_counter() - start


def _tag_all(app: QApplication, window: MainWindow, probe: GapProbe) -> float:
    table = window.table
    table.setFocus()
    start = time.perf_counter()
    QTest.keyClick(table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    tagged: list[int] = []

    def tag(ids: list[int]) -> None:
        tagged.append(len(ids))
        window.controller.tag(ids, ["bench-all"])

    # As a command on the selection runs: the ids of rows not read yet come from the list
    # worker, then the change runs on the change worker.
    table.with_selected_ids(tag)
    while not tagged:
        _pump(app, window, probe)
    _pump(app, window, probe)
    return time.perf_counter() - start


def _until_rows(app: QApplication, window: MainWindow, rows: int) -> None:
    """Run the window's event loop until the list shows ``rows`` rows, then once more for
    their paint (at most 60 s). The navigation pane's counts may still be read."""
    deadline = time.perf_counter() + 60
    _loop_until(lambda: window.model.rowCount() == rows or time.perf_counter() > deadline)
    assert window.model.rowCount() == rows, f"the list never showed {rows:,} rows"
    app.processEvents()  # the paint the new rows asked for


def _trash_and_undo(
    app: QApplication, window: MainWindow, probe: GapProbe, papers: int = TRASHED
) -> tuple[float, float]:
    """Select the list's first ``papers`` rows (as a Shift+click does), press Delete, and time
    it to the list painted without them; then Undo (Ctrl+Z's action), timed to the list
    painted with them again. Each figure holds the thread hops and the list's reload; the
    navigation pane's counts follow (the probe keeps watching the GUI thread meanwhile)."""
    table, model = window.table, window.model
    before = model.rowCount()
    papers = min(papers, before)
    rows = QItemSelection(model.index(0, 0), model.index(papers - 1, model.columnCount() - 1))
    flags = QItemSelectionModel.SelectionFlag
    table.setFocus()
    table.selectionModel().select(rows, flags.ClearAndSelect | flags.Rows)
    _pump(app, window, probe)
    start = time.perf_counter()
    QTest.keyClick(table, Qt.Key.Key_Delete)
    _until_rows(app, window, before - papers)
    trashed = time.perf_counter() - start
    _pump(app, window, probe)  # the navigation pane's counts too, before the Undo
    start = time.perf_counter()
    window.undo_action.trigger()
    _until_rows(app, window, before)
    restored = time.perf_counter() - start
    _pump(app, window, probe)
    return trashed, restored


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    """``gui_child.py LIBRARY [--typing-only | --everything]``: every step, or only the
    typing (of titles and abstracts, or Everything: the PDFs' words too)."""
    library = sys.argv[1]
    flags = sys.argv[2:]
    app = create_app()
    assert isinstance(app, QApplication)
    service = open_service(library)
    window = build_window(service, WindowSettings(None))
    first = FirstPaint()
    window.table.viewport().installEventFilter(first)
    window.table.viewport().installEventFilter(PAINTS)
    window.model.modelReset.connect(PAINTS.answer)
    window.resize(1400, 900)
    window.show()
    settle_start_up()  # as refman's window does once shown
    while first.at is None:
        app.processEvents()
    first_paint = first.at - T0
    probe = GapProbe()
    controller = window.controller
    while not (controller.runner.idle and controller.lists.idle):
        app.processEvents()

    peaks = {"start": _peak_mb()}
    probe.start("typing")
    everything = "--everything" in flags
    window.search_box.set_everything(everything)
    shown, search, slowest = _type(app, window, probe, TYPED_EVERYTHING if everything else TYPED)
    peaks["typing"] = _peak_mb()
    if flags:  # only the typing (a library not to be changed: a shared one)
        probe.stop()
        typing = {
            "search_rows_shown": _stats(shown),
            "search": _stats(search),
            "slowest_keystrokes": slowest,
            "longest_block_ms": probe.longest * 1000,
        }
        print(json.dumps({"papers": service.count(), "first_paint_s": first_paint, **typing}))
        controller.shutdown()
        window.close()
        service.close()  # as refman does: the library's log copied in, one file again
        return
    probe.phase = "tag clicks"
    tags = _click_tags(app, window, probe)
    probe.phase = "sorting"
    sorts = _click_headers(app, window, probe)
    probe.phase = "scrolling to the end"
    scroll = _scroll_to_end(app, window, probe)
    peaks["sorting, scrolling"] = _peak_mb()
    probe.phase = "tagging every paper"
    tag_all = _tag_all(app, window, probe)
    peaks["tagging every paper"] = _peak_mb()
    probe.phase = f"trashing {TRASHED:,} papers and Undo"
    trashed, restored = _trash_and_undo(app, window, probe)
    probe.stop()
    peaks["trashing and Undo"] = _peak_mb()
    print(
        json.dumps(
            {
                "papers": service.count(),
                "first_paint_s": first_paint,
                "search_rows_shown": _stats(shown),
                "search": _stats(search),
                "slowest_keystrokes": slowest,
                "tag_filter": _stats(tags),
                "sort": _stats(sorts),
                "scroll_to_end_ms": scroll * 1000,
                "tag_all_ms": tag_all * 1000,
                "trash_ms": trashed * 1000,
                "undo_trash_ms": restored * 1000,
                "longest_block_ms": probe.longest * 1000,
                "longest_block_during": probe.where,
                "longest_block_ms_by_phase": {k: v * 1000 for k, v in probe.by_phase.items()},
                "peak_rss_mb": max(peaks.values()),
                "peak_rss_mb_after": peaks,
            }
        )
    )
    controller.shutdown()
    window.close()
    service.close()


if __name__ == "__main__":
    main()
