"""Benchmark: the People window and a person's page on a library of many authors.

Run from the repository root::

    .venv/bin/python bench/bench_people.py [--papers 100000] [--keep FILE]

It makes (or reuses, with ``--keep``) a library of ``--papers`` BibTeX entries written by
1 to 8 of about ``papers / 2`` people (a few write a great many papers, most write one or
two, as in a real field), plus two author pages whose owners are one person under two
spellings. Then it times, best of 3, the reads the window makes (on the list's reader
thread; timed here as calls of the library service in this thread, so the hop to the GUI
thread, a few milliseconds, is not included):

* the People window's list: everyone, the most papers first, and the number of people;
* the list narrowed by typing a name (p95 over 20 names);
* a person's page (papers, pages imported, co-authors ranked, other spellings) for the most
  prolific author and for a page owner;
* the People section of the sidebar, and the name-variant proposals.
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
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_bib_import import entry_title as bib_title
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.listing import ListReader
from refman.importers.author_page import parse
from refman.importers.bibtex import parse_bibtex

GIVEN = [
    f"{a}{b}"
    for a in ("Al", "Be", "Ca", "Da", "El", "Fa", "Ga", "Ha")
    for b in ("an", "ex", "ia", "on", "us", "ra", "ko", "mi", "yo", "el", "ta", "ru")
]
FAMILY = [
    f"{a}{b}{c}"
    for a in ("Ka", "Lo", "Mu", "Ne", "Or", "Pi", "Qu", "Ro", "Sa", "Tu")
    for b in ("ber", "dan", "fel", "gor", "han", "kin", "lor", "mar", "nov", "per")
    for c in ("", "son", "ez", "ski", "ova")
]


def make_bib(papers: int, seed: int = 1) -> str:
    """BibTeX entries by people drawn with a long tail (Pareto) from about papers / 2."""
    rng = random.Random(seed)
    pool = [f"{f}, {g}" for f in FAMILY for g in GIVEN][: max(papers // 2, 10)]
    entries = []
    for i in range(papers):
        n = rng.randint(1, 8)
        names = {pool[min(int(rng.paretovariate(1.2)) - 1, len(pool) - 1) * 7919 % len(pool)]}
        while len(names) < n:
            names.add(rng.choice(pool))
        entries.append(
            f"@article{{k{i},\n  author = {{{' and '.join(sorted(names))}}},\n"
            f"  title = {{{bib_title(rng, i)}}},\n"
            f"  journal = {{Journal {i % 50}}},\n  year = {{{1990 + i % 35}}}\n}}\n"
        )
    return "\n".join(entries)


def owner_page(owner: str) -> str:
    """An abstracts page of ``owner`` with two papers."""
    return (
        f"{owner}\n\nZhuo Jiang, Mira Okafor\n\nPipeline training around stragglers with a "
        "simple rule that recovers the throughput.\n\nMira Okafor, Lars Berg\n\nOverlapped "
        "checkpoint writes that cut the stall of training to a few seconds.\n"
    )


def build(path: Path, papers: int) -> None:
    started = time.perf_counter()
    service = LibraryService.open(path)
    try:
        page = parse_bibtex(make_bib(papers))
        service.import_pages([SourcedPage(page, "bench.bib")])
        for owner in ("Z. Jiang", "Zhuo Jiang"):
            service.import_pages([SourcedPage(parse(owner_page(owner)), f"{owner}.txt")])
    finally:
        service.close()
    print(f"built {papers:,} papers in {time.perf_counter() - started:.0f} s")


def best(work: Callable[[], object], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, help="build the library here once and reuse it")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-people-"))
    path = args.keep or folder / "people.sqlite"
    if not path.exists():
        build(path, args.papers)
    service = LibraryService.open(path)
    reader = ListReader(service.db)
    try:
        everyone, total = reader.everyone("")
        machine = f"{platform.machine()}, {os.cpu_count()} cores"
        print(f"machine: {machine}, Python {platform.python_version()}")
        print(f"library: {service.count():,} papers, {total:,} people")
        top = everyone[0]
        owner = next(p for p in service.people() if p.name == "Z. Jiang")
        rows = [
            ("People window: everyone, most papers first", lambda: reader.everyone("")),
            (
                f"person's page: {top.name} ({top.count:,} papers)",
                lambda: reader.person_page(top.id),
            ),
            (f"person's page: {owner.name} (page owner)", lambda: reader.person_page(owner.id)),
            ("sidebar People (followed, with new badges)", service.people),
            ("name-variant proposals", reader.name_variants),
        ]
        for label, work in rows:
            print(f"  {label:<55} {best(work):8.1f} ms")
        names = [p.name.split(",")[0][:4].lower() for p in everyone[:: max(len(everyone) // 20, 1)]]
        typed = sorted(best(partial(reader.everyone, n), 1) for n in names[:20])
        p95 = typed[max(int(len(typed) * 0.95) - 1, 0)]
        print(
            f"  {'People window: typing a name (20 names)':<55} "
            f"median {statistics.median(typed):.1f} ms, p95 {p95:.1f} ms"
        )
    finally:
        reader.close()
        service.close()


if __name__ == "__main__":
    main()
