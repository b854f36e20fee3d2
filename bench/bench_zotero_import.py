"""Benchmark: a whole Zotero library brought in from its database, ``zotero.sqlite``.

Run from the repository root::

    .venv/bin/python bench/bench_zotero_import.py [--items 20000] [--runs 2]

The database is the anchor's (``bench/anchor_bench.py``: Zotero's own schema, generated
papers with authors, tags, notes, PDFs as child items and a trashed share), written into a
temporary data folder. Timed, as a person waits for it: (a) reading the library
(``load_source(...).parse()``: the items, their fields, creators, tags, notes), and (b) the
command ``refman --db LIBRARY import zotero.sqlite`` into a new library, from its start to
its exit (start-up, the reading, the backup refman makes before a large import, the import
in one transaction, its report), best of ``--runs``; and the machine it ran on.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import anchor_bench
from bench.bench_import import machine
from refman.importers.sources import load_source


def make_library(folder: Path, items: int) -> Path:
    """A Zotero data folder of ``items`` generated papers (the anchor's database)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "zotero.sqlite"
    papers = anchor_bench.Generator(items, 42).papers(0.1)
    anchor_bench.build_zotero_db(str(path), papers, 0.3, 0.02, 42)
    return path


def command_once(zotero: Path, folder: Path) -> tuple[float, int]:
    """``refman import`` of the database into a new library: seconds, papers after."""
    library = folder / f"library-{time.monotonic_ns()}.sqlite"
    env = {**os.environ, "REFMAN_HOME": str(folder / "home")}
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "refman", "--db", str(library), "import", str(zotero)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    spent = time.perf_counter() - started
    with sqlite3.connect(library) as counted:
        papers = int(counted.execute("SELECT count(*) FROM papers").fetchone()[0])
    return spent, papers


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--items", type=int, default=20_000)
    options.add_argument("--runs", type=int, default=2)
    args = options.parse_args(argv)
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="refman-zotero-") as name:
        folder = Path(name)
        started = time.perf_counter()
        zotero = make_library(folder / "Zotero", args.items)
        size = zotero.stat().st_size / 1e6
        made = time.perf_counter() - started
        print(f"Zotero library: {args.items:,} items, {size:.0f} MB (made in {made:.1f} s)")
        started = time.perf_counter()
        page = load_source(zotero).parse()
        read = time.perf_counter() - started
        count = len(page.records)
        print(f"(a) read: {count:,} records in {read:.2f} s ({count / read:,.0f} records/s)")
        runs = [command_once(zotero, folder) for _ in range(args.runs)]
        best, papers = min(runs)
        print(
            f"(b) refman import zotero.sqlite, whole process: {best:.1f} s (best of {args.runs}; "
            f"{', '.join(f'{s:.1f}' for s, _ in runs)}), {count / best:,.0f} records/s; "
            f"the library holds {papers:,} papers (the generated titles that are near "
            "duplicates merged)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
