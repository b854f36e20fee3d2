"""Benchmark: parse a 50,000-record author page, then parse and import it into a new library.

Run from the repository root::

    .venv/bin/python bench/bench_import.py [--records N] [--import-runs 1] [--unique]
                                           [--into LIBRARY] [--profile FILE] [--top 30]

Prints records per second for (a) parsing alone (best of 3), (b) parsing plus importing
into a fresh temporary library inside this process (best of ``--import-runs``), and (c) the
command ``refman --db LIBRARY import PAGE`` from its start to its exit, the whole process as
a person waits for it (its start, reading the page, the backup refman makes before a large
import, the import, its report), and the machine it ran on.

Goals: parse >= 20,000 records/s; the whole process >= 10,000 records/s (issue 10).

The page comes from ``bench/pagegen.py`` (``make_page``), or from a small generator here when
that module is absent. Records whose titles repeat are merged rather than created, so the
output says how many distinct titles the page has and how many papers the library holds;
``--unique`` adds a distinct suffix to every title (a real page lists distinct papers).
``--into LIBRARY`` imports into a copy of that library instead of a new one (for example the
million papers of ``bench/biglib.py``: ``bench/out/library-1000000.sqlite``); the copy is
checked first, as refman checks a library it did not leave whole, and that is not timed.
``--profile FILE`` runs the first import under cProfile, saves the statistics to FILE and
prints the top functions by cumulative and by own time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from refman.core.importing.values import ImportResult, SourcedPage
from refman.core.library import LibraryService
from refman.importers import ParsedPage, parse

PARSE_GOAL = 20_000
IMPORT_GOAL = 10_000

_TITLE_AFTER_VENUE = re.compile(r"^((?:[^\n]*\D)?(?:19|20)\d\d\n\n)([^\n]+)$", re.MULTILINE)


def _fallback_page(n: int, seed: int = 0) -> str:
    """A publication-list page of ``n`` invented records (used if bench/pagegen.py is absent)."""
    rng = random.Random(seed)
    text = (
        "lattice quorum kernel beacon vector cipher glacier harbor meadow orbit prism rivet "
        "saddle timber umbra velvet willow yonder zenith anchor bramble cobalt dune ember "
        "fjord garnet hollow inlet juniper kestrel lagoon marble nectar onyx pylon quartz"
    )
    words = text.split()
    lines = [
        "arXiv subjects",
        "Maren Solvik",
        "Publications and source records attributed to Maren Solvik.",
        f"{n} recordsLinked to original sources",
    ]
    for i in range(n):
        name = "".join(rng.choice(words).title() for _ in range(2))
        lines.append(f"arXiv{2026 - i * 30 // max(n, 1)}")
        lines.append(f"{name}: {' '.join(rng.choice(words) for _ in range(6)).title()}")
        sentences = [
            " ".join(rng.choice(words) for _ in range(rng.randint(10, 18))).capitalize() + "."
            for _ in range(rng.randint(5, 8))
        ]
        lines.append(f"We present {name}. " + " ".join(sentences))
        lines.append("cs.LG↗")
    return "\n\n".join(lines) + "\n"


def page_maker() -> tuple[Callable[[int], str], str]:
    """``make_page`` from bench/pagegen.py, or the fallback generator."""
    try:
        from bench.pagegen import make_page
    except ImportError:
        return _fallback_page, "bench_import fallback generator"
    return make_page, "bench/pagegen.py make_page"


def make_unique(text: str) -> str:
    """Give every record's title a distinct suffix (the line after each venue+year line)."""
    counter = iter(range(1, 10**9))
    return _TITLE_AFTER_VENUE.sub(lambda m: f"{m.group(1)}{m.group(2)} (No. {next(counter)})", text)


def machine() -> str:
    """CPU model, core count and Python version."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{model}; {os.cpu_count()} cores; Python {platform.python_version()} "
        f"({platform.python_implementation()}) on {platform.system()}"
    )


def measure_parse(text: str, expected: int, repeats: int = 3) -> tuple[float, ParsedPage]:
    """Best records-per-second figure of ``repeats`` parses, and the parsed page."""
    best = float("inf")
    page: ParsedPage | None = None
    for _ in range(repeats):
        started = time.perf_counter()
        page = parse(text)
        best = min(best, time.perf_counter() - started)
        if len(page.records) != expected:
            raise SystemExit(f"expected {expected} records, parsed {len(page.records)}")
    assert page is not None
    return expected / best, page


def import_once(
    text: str,
    expected: int,
    profile: cProfile.Profile | None = None,
    into: Path | None = None,
) -> tuple[float, float, ImportResult, int]:
    """Parse and import ``text`` into a new temporary library (or a copy of ``into``).

    Returns:
        Total seconds (parse + import), import seconds, the result, and papers in the library.
    """
    with tempfile.TemporaryDirectory(prefix="refman-bench-", dir=_beside(into)) as folder:
        path = Path(folder) / "library.sqlite"
        if into is not None:
            shutil.copyfile(into, path)
        library = LibraryService.open(path)
        if into is not None:
            library.file.check()  # as before a session's first change: not timed
        try:
            started = time.perf_counter()
            page = parse(text)
            parsed = time.perf_counter()
            if profile is not None:
                profile.enable()
            result = library.import_pages([SourcedPage(page, "bench.txt")])
            if profile is not None:
                profile.disable()
            finished = time.perf_counter()
            papers = library.count()
        finally:
            library.close()
    if len(page.records) != expected:
        raise SystemExit(f"expected {expected} records, parsed {len(page.records)}")
    return finished - started, finished - parsed, result, papers


def command_once(text: str, into: Path | None = None) -> tuple[float, int]:
    """Import ``text`` with the command, ``refman --db LIBRARY import PAGE``, in a process of
    its own, into a new library (or a copy of ``into``), timed from its start to its exit:
    the whole process, as a person waits for it, with refman's settings (a backup before an
    import of over a thousand papers included). The copy is checked first by ``refman
    check`` (not timed), so that refman knows it whole, as after its first session.

    Returns:
        Seconds, and the papers in the library after.
    """
    with tempfile.TemporaryDirectory(prefix="refman-bench-", dir=_beside(into)) as folder:
        path, page = Path(folder) / "library.sqlite", Path(folder) / "page.txt"
        page.write_text(text, encoding="utf-8")
        env = {**os.environ, "REFMAN_HOME": str(Path(folder) / "home")}
        refman = [sys.executable, "-m", "refman", "--db", str(path)]
        if into is not None:
            shutil.copyfile(into, path)
            subprocess.run([*refman, "check"], env=env, check=True, capture_output=True)
        started = time.perf_counter()
        subprocess.run(
            [*refman, "import", str(page)], env=env, check=True, stdout=subprocess.DEVNULL
        )
        spent = time.perf_counter() - started
        counted = sqlite3.connect(path)
        try:
            papers = int(counted.execute("SELECT count(*) FROM papers").fetchone()[0])
        finally:
            counted.close()
        return spent, papers


def _beside(into: Path | None) -> str | None:
    """Where the copy of a library goes: beside it (a large file stays on its disk)."""
    return str(into.parent) if into is not None else None


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures.

    Args:
        argv: Command-line arguments (default: ``sys.argv[1:]``).

    Returns:
        0 when both goals are met, 1 otherwise.
    """
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--records", type=int, default=50_000)
    options.add_argument("--import-runs", type=int, default=1, choices=(1, 2))
    options.add_argument("--unique", action="store_true", help="make every title distinct")
    options.add_argument("--into", type=Path, help="import into a copy of this library")
    options.add_argument("--profile", type=Path, help="save cProfile statistics of the import")
    options.add_argument("--top", type=int, default=30, help="functions to print when profiling")
    args = options.parse_args(argv)

    maker, origin = page_maker()
    started = time.perf_counter()
    text = maker(args.records)
    if args.unique:
        text = make_unique(text)
    generated = time.perf_counter() - started
    size = len(text.encode("utf-8")) / 1e6
    print(f"machine: {machine()}")
    print(
        f"page: {args.records:,} records, {size:.1f} MB, from {origin}"
        f"{' with distinct titles' if args.unique else ''} (generated in {generated:.1f} s)"
    )

    parse_rate, page = measure_parse(text, args.records)
    titles = len({r.title for r in page.records})
    print(
        f"(a) parse:          {parse_rate:>9,.0f} records/s (best of 3; goal {PARSE_GOAL:,}) "
        f"{'OK' if parse_rate >= PARSE_GOAL else 'BELOW GOAL'}"
    )

    profile = cProfile.Profile() if args.profile else None
    best_total = best_import = float("inf")
    result: ImportResult | None = None
    papers = 0
    for run in range(args.import_runs):
        total, spent, result, papers = import_once(
            text, args.records, profile if run == 0 else None, args.into
        )
        best_total, best_import = min(best_total, total), min(best_import, spent)
    assert result is not None
    rate = args.records / best_total
    print(
        f"(b) parse + import: {rate:>9,.0f} records/s (best of {args.import_runs}; "
        f"goal {IMPORT_GOAL:,}) {'OK' if rate >= IMPORT_GOAL else 'BELOW GOAL'}"
    )
    print(
        f"    import alone {best_import:.1f} s ({args.records / best_import:,.0f} records/s); "
        f"{titles:,} distinct titles; the library holds {papers:,} papers; "
        f"{len(result.possible_duplicates):,} possible duplicates"
    )
    whole = [command_once(text, args.into) for _ in range(args.import_runs)]
    seconds, in_library = min(whole)
    command_rate = args.records / seconds
    print(
        f"(c) the command, whole process: {command_rate:,.0f} records/s (best of "
        f"{args.import_runs}; goal {IMPORT_GOAL:,}) "
        f"{'OK' if command_rate >= IMPORT_GOAL else 'BELOW GOAL'}"
    )
    print(
        f"    refman --db LIBRARY import PAGE: {seconds:.1f} s from start to exit; "
        f"the library holds {in_library:,} papers"
    )
    if profile is not None and args.profile is not None:
        profile.dump_stats(str(args.profile))
        print(f"\nprofile of the first import run (saved to {args.profile}):")
        stats = pstats.Stats(profile)
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.sort_stats("tottime").print_stats(args.top)
    return 0 if parse_rate >= PARSE_GOAL and command_rate >= IMPORT_GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
