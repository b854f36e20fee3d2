"""Benchmark: the window while it reads PDFs into the search (issue 14: the GUI thread never
blocked over 50 ms while PDFs are read).

Run from the repository root::

    .venv/bin/python bench/bench_files_gui.py [--papers 10000] [--pdfs 200] [--pages 20]

It makes a library of ``--papers`` generated papers with ``--pdfs`` PDFs attached (linked,
their text not read yet), opens the real window (offscreen), and lets it read them as it
does after it opens, while a probe timer on the GUI thread records the longest gap between
its ticks; meanwhile it types an Everything search now and then and selects papers (the
detail pane draws their first pages). It prints the pages read per second, the longest block
of the GUI thread, and the keystroke-to-list times of the Everything searches.

Then it attaches a 20 MB PDF (20 pages of text and photographs) to a paper shown in the
detail pane, as Attach File… does, and times how long the window takes to answer (the call
returns) and until the copy is in the storage folder and its first page is shown in the
pane, with the longest block of the GUI thread meanwhile.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_files import write_big_pdf, write_pdf  # noqa: E402
from gui_child import GapProbe  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from refman.core import extraction  # noqa: E402
from refman.core.importing.values import SourcedPage  # noqa: E402
from refman.core.library import LibraryService  # noqa: E402
from refman.importers.author_page import parse  # noqa: E402
from tests.helpers.pages import generated_page  # noqa: E402

from refman.ui.app import build_window, create_app  # noqa: E402
from refman.ui.main_window import MainWindow  # noqa: E402
from refman.ui.settings import WindowSettings  # noqa: E402


def build(folder: Path, papers: int, pdfs: int, pages: int) -> LibraryService:
    service = LibraryService.open(folder / "library.sqlite")
    service.import_pages([SourcedPage(parse(generated_page(papers)), "bench.txt")])
    ids = service.paper_ids()  # the newest first: the list's first rows have PDFs
    rng = random.Random(5)
    (folder / "pdfs").mkdir()
    for n in range(pdfs):
        path = folder / "pdfs" / f"paper-{n}.pdf"
        write_pdf(path, pages, f"zqmarker{n}", rng)
        service.attach(ids[n % len(ids)], [path], link=True)
    return service


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--pdfs", type=int, default=200)
    parser.add_argument("--pages", type=int, default=20)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-files-gui-"))
    service = build(folder, args.papers, args.pdfs, args.pages)
    app = create_app()
    assert isinstance(app, QApplication)
    window = build_window(service, WindowSettings(folder / "settings.ini"))
    window.resize(1400, 900)
    window.show()
    window.controller.wait()
    probe = GapProbe()
    indexer = window.files.indexer
    box = window.search_box
    box.set_everything(True)
    probe.start("reading PDFs")
    started = time.perf_counter()
    indexer.start()
    searches: list[float] = []
    n = 0
    while indexer.running:
        n += 1
        if n % 50 == 0:  # a search now and then, as a person goes on working
            t = time.perf_counter()
            box.set_text_now(f"zqmarker{n % args.pdfs}")
            while not window.controller.lists.idle:
                app.processEvents()
            searches.append((time.perf_counter() - t) * 1000)
            window.table.selectRow(0)  # its first page drawn in the detail pane
        app.processEvents()
        time.sleep(0.005)
    seconds = time.perf_counter() - started
    probe.stop()
    done = service.index_progress()
    print(f"library: {args.papers:,} papers, {args.pdfs} PDFs of {args.pages} pages")
    rate = done.done * args.pages / seconds
    block = probe.longest * 1000
    print(f"  read {done.done} PDFs in the window's background: {rate:.0f} pages/s")
    print(f"  longest block of the GUI thread meanwhile: {block:.0f} ms (goal <= 50 ms)")
    if searches:
        print(
            f"  Everything searches meanwhile ({len(searches)}): median "
            f"{statistics.median(searches):.0f} ms, max {max(searches):.0f} ms"
        )
    attach_20mb(app, window, folder)
    window.controller.shutdown()
    window.close()


def attach_20mb(app: QApplication, window: MainWindow, folder: Path) -> None:
    """Attach a 20 MB PDF to a paper shown, twice: the first attach since the window opened
    (its worker that counts pages started, as the window starts it once the person pauses),
    then another."""
    big = folder / "big.pdf"
    write_big_pdf(big, 20, random.Random(9))
    window.search_box.set_text_now("")
    window.controller.wait()
    oldest = sorted(window.controller.service.paper_ids())[:2]  # papers with no file
    print("attach a 20 MB PDF in the window (copied into the storage folder):")
    for paper, when in zip(oldest, ("the first since the window opened", "another"), strict=True):
        if when.startswith("the first"):  # as the window is a moment after it opens
            counter, extraction._counter = extraction._counter, None
            if counter is not None:
                counter.close()
            extraction.start_counter()
            time.sleep(1)
        answered, shown, block = _attach_one(app, window, paper, big)
        print(
            f"  {when}: the window answered in {answered * 1000:.0f} ms; copied and its first "
            f"page shown {shown * 1000:.0f} ms after (goal <= 1 s); longest block of the GUI "
            f"thread meanwhile {block * 1000:.0f} ms"
        )


def _attach_one(
    app: QApplication, window: MainWindow, paper: int, big: Path
) -> tuple[float, float, float]:
    pane = window.detail_pane
    window.table.select_paper(paper)  # found further down the list off the GUI thread
    while (on_screen := pane.shown_paper()) is None or on_screen.id != paper:
        app.processEvents()
    window.controller.wait()
    assert pane.current_paper() == paper and not pane.files.preview.isVisible()
    probe = GapProbe()
    probe.start("attaching")
    started = time.perf_counter()
    pane.files.attach([str(big)], paper)
    answered = time.perf_counter() - started
    while not pane.files.preview.isVisible():
        app.processEvents()
        time.sleep(0.001)
    shown = time.perf_counter() - started
    probe.stop()
    (file,) = window.controller.service.paper(paper).files
    assert Path(file.path).stat().st_size == big.stat().st_size and not file.linked
    return answered, shown, probe.longest


if __name__ == "__main__":
    main()
