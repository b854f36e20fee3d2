"""Benchmark: parse a 50,000-record author page and print records per second (best of 3).

Run from the repository root::

    .venv/bin/python bench/bench_parse.py [--records N] [--format list|abstracts]

The goal is at least 20,000 records/s for the publication-list format.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.pagegen import make_author_abstracts_page, make_page
from refman.importers import parse

GOAL = 20_000


def measure(text: str, expected: int, repeats: int = 3) -> float:
    """Return the best records-per-second figure over ``repeats`` parses of ``text``.

    Args:
        text: The page to parse.
        expected: Number of records the page holds (checked after each run).
        repeats: How many timed runs.

    Returns:
        Records per second of the fastest run.
    """
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        page = parse(text)
        elapsed = time.perf_counter() - started
        if len(page.records) != expected:
            raise SystemExit(f"expected {expected} records, parsed {len(page.records)}")
        best = min(best, elapsed)
    return expected / best


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figure.

    Args:
        argv: Command-line arguments (default: ``sys.argv[1:]``).

    Returns:
        0 when the goal is met (publication-list format), 1 otherwise.
    """
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--records", type=int, default=50_000)
    options.add_argument("--format", choices=("list", "abstracts"), default="list")
    args = options.parse_args(argv)
    maker = make_page if args.format == "list" else make_author_abstracts_page
    text = maker(args.records, seed=0)
    rate = measure(text, args.records)
    size = len(text.encode("utf-8")) / 1e6
    print(
        f"parse ({args.format}): {args.records:,} records, {size:.1f} MB: "
        f"{rate:,.0f} records/s (best of 3; goal {GOAL:,})"
    )
    return 0 if args.format != "list" or rate >= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
