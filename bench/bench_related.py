"""Benchmark: the detail pane's related papers on a library of realistic size.

Run from the repository root::

    .venv/bin/python bench/bench_related.py [--papers 100000] [--keep FILE]

It makes (or reuses, with ``--keep``) a library of ``--papers`` papers from the anchor
benchmark's generator (``anchor_bench.Generator``: titles from templates, abstracts of
120–180 words drawn with Zipf weights from function words, academic words, technical terms
and 20,000 rare coined words), then times the related papers of 50 papers picked at random:

* the service call (``LibraryService.related``: the words looked up, the papers scored);
* as the window waits for them: from the detail pane's Related block being asked for a
  paper (``RelatedView.show_paper``) to the related papers filled in on the GUI thread, the
  read on the list reader's thread (the two thread hops included).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from anchor_bench import Generator
from anchor_refman import build_library

from refman.core.library import LibraryService

SAMPLE = 50


def build(path: Path, papers: int) -> None:
    started = time.perf_counter()
    generated = Generator(papers, 42).papers(0.0)
    build_library(str(path), generated, lambda line: print(line, file=sys.stderr))
    print(f"built {papers:,} papers in {time.perf_counter() - started:.0f} s")


def spread(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[max(int(len(times) * 0.95) - 1, 0)]
    return f"median {statistics.median(times):6.1f} ms, p95 {p95:6.1f} ms, max {times[-1]:6.1f} ms"


def timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return (time.perf_counter() - started) * 1000


def in_window(service: LibraryService, sample: list[int]) -> list[float]:
    """Each paper's related papers as the detail pane gets them (thread hops included)."""
    from PySide6.QtWidgets import QApplication

    from refman.ui.controller import LibraryController
    from refman.ui.related_view import RelatedView

    app = QApplication.instance() or QApplication([])
    controller = LibraryController(service)
    view = RelatedView(controller)
    try:
        view.show_paper(sample[-1])  # the reader's connection opened and warmed up
        controller.lists.wait()
        times = []
        for pid in sample:
            started = time.perf_counter()
            view.show_paper(pid)
            controller.lists.wait()
            times.append((time.perf_counter() - started) * 1000)
            assert view.paper_id == pid and view.status.text() != "Finding related papers…"
        return times
    finally:
        controller.shutdown()
        del app


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, help="build the library here once and reuse it")
    args = parser.parse_args()
    path = args.keep or Path(tempfile.mkdtemp(prefix="bench-related-")) / "related.sqlite"
    if not path.exists():
        build(path, args.papers)
    service = LibraryService.open(path)
    try:
        sample = random.Random(7).sample(service.paper_ids(), SAMPLE)
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, ", end="")
        print(f"Python {platform.python_version()}")
        print(f"library: {service.count():,} papers; related papers of {SAMPLE} papers")
        service.related(sample[0])  # warm the cache as a person's first look does
        direct = [timed(lambda pid=pid: service.related(pid)) for pid in sample]
        print(f"  service call (LibraryService.related)    {spread(direct)}")
        print(f"  detail pane, asked to filled in          {spread(in_window(service, sample))}")
        found = [len(service.related(pid)) for pid in sample[:10]]
        print(f"  related papers found for the first ten: {found}")
        shown = service.paper(sample[0])
        print(f"  e.g. “{shown.title}”:")
        for paper in service.related(sample[0]):
            print(f"    {paper.title[:60]:<60}  shares: {', '.join(paper.shares)}")
    finally:
        service.close()


if __name__ == "__main__":
    main()
