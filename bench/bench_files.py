"""Benchmark: attaching PDFs, reading their text into the search, searching it.

Run from the repository root::

    .venv/bin/python bench/bench_files.py [--papers 2000] [--pdfs 100] [--pages 20]

It makes a library of ``--papers`` generated papers, writes ``--pdfs`` PDFs of ``--pages``
pages each with reportlab (a title, then paragraphs of generated words, a rare marker word on
one page of each), and times, as a person waits for each:

* attaching one 20 MB PDF (``refman attach``'s service call: the copy and its pages), and
  drawing its first page (the detail pane's preview: in the worker process, started or not);
* reading the PDFs' text into the search (``LibraryService.index_files``, one worker
  process): pages per second;
* an Everything search for a word inside the PDFs and for a common word (p95 of 20 runs);
* with ``--window``: the same library in the real window (offscreen, ``gui_child.py
  --everything``): Everything searches typed one key at a time, each timed from the key
  press to the new rows painted, and the longest block of the GUI thread meanwhile.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from refman.core.extraction import Extractor
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from refman.importers.author_page import parse
from tests.helpers.pages import generated_page

WORDS = (
    "gradient pipeline stage tensor shard replica latency throughput scheduler kernel "
    "optimizer checkpoint memory bandwidth cluster accelerator dataset token attention "
    "layer batch model training inference cache network storage failure recovery"
).split()


def write_pdf(path: Path, pages: int, marker: str, rng: random.Random) -> None:
    canvas = Canvas(str(path), pagesize=A4)
    _, height = A4
    for page in range(pages):
        canvas.setFont("Helvetica", 10)
        for line in range(50):
            words = rng.choices(WORDS, k=12)
            if page == pages // 2 and line == 10:
                words[3] = marker
            canvas.drawString(60, height - 60 - 14 * line, " ".join(words) + ".")
        canvas.showPage()
    canvas.save()


def write_big_pdf(path: Path, megabytes: int, rng: random.Random) -> None:
    """A PDF of ``megabytes`` MB, as a scanned or figure-heavy paper is: 20 pages, each a
    line of text and a photograph (noise: it does not compress)."""
    canvas = Canvas(str(path), pagesize=A4)
    _, height = A4
    side = int((megabytes * 1024 * 1024 / 20 / 3 / 1.25) ** 0.5)  # ASCII85 adds a quarter
    for page in range(20):
        canvas.setFont("Helvetica", 10)
        canvas.drawString(60, height - 60, " ".join(rng.choices(WORDS, k=12)) + f" {page}.")
        noise = Image.frombytes("RGB", (side, side), rng.randbytes(side * side * 3))
        canvas.drawImage(ImageReader(noise), 60, 120, 440, 440)
        canvas.showPage()
    canvas.save()


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[max(int(len(ordered) * 0.95) - 1, 0)]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=2000)
    parser.add_argument("--pdfs", type=int, default=100)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--window", action="store_true", help="type searches in the window")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-files-"))
    service = LibraryService.open(folder / "library.sqlite")
    service.import_pages([SourcedPage(parse(generated_page(args.papers)), "bench.txt")])
    ids = service.paper_ids()
    rng = random.Random(3)
    started = time.perf_counter()
    for n in range(args.pdfs):
        path = folder / "pdfs" / f"paper-{n}.pdf"
        path.parent.mkdir(exist_ok=True)
        write_pdf(path, args.pages, f"zqmarker{n}", rng)
        service.attach(ids[n % len(ids)], [path], link=True)
    made = time.perf_counter() - started
    big = folder / "big.pdf"
    write_big_pdf(big, 20, rng)
    drawer = Extractor()
    drawer.start()  # as the window starts it, a moment after it opens
    time.sleep(2)
    started = time.perf_counter()
    (attached,) = service.attach(ids[0], [big])
    attach_s = time.perf_counter() - started
    drawer.preview(Path(attached.path), 200)
    shown_s = time.perf_counter() - started
    drawer.close()
    with Extractor() as drawer:
        started = time.perf_counter()
        drawer.preview(big, 200)
        cold_s = time.perf_counter() - started
        started = time.perf_counter()
        drawer.preview(big, 200)
        warm_s = time.perf_counter() - started
    started = time.perf_counter()
    read = service.index_files()
    index_s = time.perf_counter() - started
    pages = read * args.pages
    searches = {"a word inside one PDF": "zqmarker7", "a common word": "gradient"}
    machine = f"{platform.machine()}, {os.cpu_count()} cores"
    print(f"machine: {machine}, Python {platform.python_version()}")
    print(f"library: {args.papers:,} papers, {args.pdfs} PDFs of {args.pages} pages")
    print(f"  (PDFs written in {made:.0f} s)")
    mb = big.stat().st_size / 1024 / 1024
    print(f"  attach a {mb:.0f} MB PDF (copy, pages counted)      {attach_s * 1000:8.0f} ms")
    print(f"  … and its first page drawn (worker running)   {shown_s * 1000:8.0f} ms")
    print(
        f"  its first page drawn: {cold_s * 1000:.0f} ms (worker started), {warm_s * 1000:.0f} ms"
    )
    rate = pages / index_s
    print(f"  read {read} PDFs into the search, one worker  {index_s:8.1f} s = {rate:.0f} pages/s")
    for label, word in searches.items():
        query = PaperQuery(text=word, everything=True)
        times = []
        for _ in range(20):
            t = time.perf_counter()
            service.count(query)
            service.papers(query, 0, 100)
            times.append((time.perf_counter() - t) * 1000)
        print(
            f"  Everything search, {label:<22} count + first 100: median "
            f"{statistics.median(times):.1f} ms, p95 {p95(times):.1f} ms"
        )
    service.close()
    if args.window:
        in_the_window(folder)


def in_the_window(folder: Path) -> None:
    """Type Everything searches in the real window, one key at a time (``gui_child.py``)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", REFMAN_HOME=str(folder / "home"))
    env["REFMAN_BENCH_T0"] = str(time.time())
    child = Path(__file__).resolve().parent / "gui_child.py"
    library = str(folder / "library.sqlite")
    out = subprocess.run(
        [sys.executable, str(child), library, "--everything"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(out.stdout.strip().splitlines()[-1])
    for label, key in (("new rows painted", "search_rows_shown"), ("list and count", "search")):
        times = found[key]
        print(
            f"  in the window, Everything, key press to {label:<16}: median "
            f"{times['median_ms']:.0f} ms, p95 {times['p95_ms']:.0f} ms, "
            f"max {times['max_ms']:.0f} ms (n={times['n']})"
        )
    print(f"  slowest keystrokes: {found['slowest_keystrokes']}")
    print(f"  longest block of the GUI thread while typing: {found['longest_block_ms']:.0f} ms")


if __name__ == "__main__":
    main()
