"""Benchmark: formatted citations of many papers, in each of the six styles.

Run from the repository root::

    .venv/bin/python bench/bench_cite.py [--papers 1000] [--runs 3]

It imports ``--papers`` invented CSL-JSON items (journal articles, conference papers,
preprints, books and chapters by 1 to 12 authors, some with von particles, organisations
or accented names, with DOIs, pages and volumes) into a new library through the library
service, then times ``LibraryService.cite`` — what Copy Citation, Export Bibliography and
``refman cite`` call — for all of them and for one paper, best of ``--runs``, in every style,
as text. The first citation of a process also loads citeproc-py and the style: that start
is timed on its own.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_import import machine

from refman.core.citations import DEFAULT_STYLE, STYLES
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.importers import parse_text

_FAMILIES = "Okafor Berg Jiang Müller Ødegård Tanaka Rossi Dubois Novak Kowalski Silva Haddad"
_GIVEN = "Mira Lars Zhuo Jürgen Åsa Wei Giulia Léa Petr Anna Ana Omar"
_WORDS = (
    "scalable robust adaptive sparse neural causal distributed federated efficient learning "
    "inference graphs attention memory storage networks compilers languages proofs systems "
    "models data training retrieval streams"
).split()
_VENUES = ["Nature Methods", "Journal of Systems Research", "Communications of the ACM"]


def _name(rng: random.Random) -> dict[str, str]:
    if rng.random() < 0.03:
        return {"literal": f"{rng.choice(['ATLAS', 'CMS', 'LIGO'])} Collaboration"}
    name = {"family": rng.choice(_FAMILIES.split()), "given": rng.choice(_GIVEN.split())}
    if rng.random() < 0.05:
        name["non-dropping-particle"] = "van der"
    return name


def make_items(count: int, seed: int = 7) -> list[dict[str, Any]]:
    """Invented CSL-JSON items of the usual kinds."""
    rng = random.Random(seed)
    items = []
    for n in range(count):
        kind = rng.choice(["article-journal", "paper-conference", "article", "book", "chapter"])
        title = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(4, 9))).capitalize()
        item: dict[str, Any] = {
            "id": f"p{n}",
            "type": kind,
            "title": f"{title} {n}",
            "author": [_name(rng) for _ in range(rng.randint(1, 12))],
            "issued": {"date-parts": [[rng.randint(1990, 2026)]]},
        }
        if kind == "article-journal":
            item.update(
                {
                    "container-title": rng.choice(_VENUES),
                    "volume": str(rng.randint(1, 80)),
                    "issue": str(rng.randint(1, 12)),
                    "page": f"{(p := rng.randint(1, 900))}-{p + rng.randint(5, 20)}",
                    "DOI": f"10.5555/bench.{n}",
                }
            )
        elif kind == "paper-conference":
            item.update({"container-title": f"Proceedings of SYS {rng.randint(2000, 2026)}"})
        elif kind == "article":
            item.update({"number": f"arXiv:{rng.randint(1000, 2599)}.{n:05d}"})
        elif kind in ("book", "chapter"):
            item.update({"publisher": "MIT Press", "publisher-place": "Cambridge, MA"})
            if kind == "chapter":
                item.update({"container-title": "Handbook of systems", "editor": [_name(rng)]})
        items.append(item)
    return items


def best(runs: int, call: Any) -> float:
    """The shortest of ``runs`` timings of ``call()``, in seconds."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--papers", type=int, default=1000)
    options.add_argument("--runs", type=int, default=3)
    args = options.parse_args(argv)
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="refman-bench-cite-") as folder:
        library = LibraryService.open(Path(folder) / "library.sqlite")
        try:
            page = parse_text(json.dumps(make_items(args.papers)), "bench.json")
            ids = list(library.import_pages([SourcedPage(page, "bench.json")]).new_ids)
            started = time.perf_counter()
            library.cite(ids[:1], DEFAULT_STYLE)
            print(
                f"first citation of the process (loads citeproc-py): "
                f"{time.perf_counter() - started:.2f} s"
            )
            print(f"{'style':<40}{len(ids):>7,} papers{'one paper':>12}")
            for style in STYLES:
                whole = best(args.runs, lambda s=style: library.cite(ids, s))
                one = best(args.runs, lambda s=style: library.cite(ids[:1], s))
                print(f"{style:<40}{whole:>9.2f} s{one * 1000:>9.0f} ms")
        finally:
            library.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
