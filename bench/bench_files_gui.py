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

from bench_files import write_pdf  # noqa: E402
from gui_child import GapProbe  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from refman.core.importing.values import SourcedPage  # noqa: E402
from refman.core.library import LibraryService  # noqa: E402
from refman.importers.author_page import parse  # noqa: E402
from tests.helpers.pages import generated_page  # noqa: E402

from refman.ui.app import build_window, create_app  # noqa: E402
from refman.ui.settings import WindowSettings  # noqa: E402


def build(folder: Path, papers: int, pdfs: int, pages: int) -> LibraryService:
    service = LibraryService.open(folder / "library.sqlite")
    service.import_pages([SourcedPage(parse(generated_page(papers)), "bench.txt")])
    ids = service.paper_ids()
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
    window.controller.shutdown()
    window.close()


if __name__ == "__main__":
    main()
