"""Load test of a shared library: many people editing the same papers while others import
overlapping pages, then a check that nothing was lost and nothing duplicated.

Run from the repository root (a throwaway PostgreSQL server is started unless --url names a
database refman may empty)::

    .venv/bin/python bench/bench_shared.py [--editors 8] [--importers 2] [--seconds 120]
                                           [--papers 200] [--pace 250]
                                           [--url postgresql+psycopg://...]

Each editor process loops for the given time over the same papers: tags one, adds a note to
one, or retitles one (based on the title it saw, as the window does), and records every
change the library acknowledged, every change refused as a conflict, and how long each took.
An editor starts a change every ``--pace`` milliseconds (250: four changes a second each,
thirty-two a second in all, far more than eight people make), or back to back with
``--pace 0``, which measures how many changes the machine can take rather than how long a
person waits for one (ten busy processes and the server then queue for two cores).
Each importer imports pages that overlap the library and each other. Afterwards every
acknowledged tag and note must be in the library, every title must be one an editor set (or
the first one), no paper may exist twice, and no error of another kind may have happened.
Issue 12's goals: 0 lost, 0 duplicates, edit p95 <= 50 ms on the development machine.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from refman.common.errors import ConflictError, EditConflictError
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import EditPaper
from refman.core.rules import FieldEdits
from refman.importers import parse


def page(numbers: list[int], owner: str = "Shared Bench") -> str:
    """A publication-list page of the papers with these numbers (the same number is the
    same paper on every page)."""
    lines = [
        "arXiv subjects",
        owner,
        f"Publications and source records attributed to {owner}.",
        f"{len(numbers)} recordsLinked to original sources",
    ]
    for n in numbers:
        lines += [
            f"arXiv{2000 + n % 25}",
            f"Shared Bench Paper {n}: On the Load of Paper Number {n}",
            f"We study paper number {n} under load {n * 7919 % 10007} with editors and importers.",
            "cs.DC↗",
        ]
    return "\n\n".join(lines) + "\n"


def _editor(url: str, name: str, seconds: float, pace: float, out: str) -> None:
    service = LibraryService.open(url)
    rng = random.Random(name)
    ids = service.paper_ids()[:200]
    done: list[dict[str, Any]] = []
    try:
        deadline = time.monotonic() + seconds
        n = 0
        due = time.monotonic() + rng.random() * pace
        while time.monotonic() < deadline:
            time.sleep(max(0.0, due - time.monotonic()))
            due = max(due + pace, time.monotonic())
            n += 1
            paper = rng.choice(ids)
            kind = rng.choice(("tag", "note", "title"))
            value = f"{name}-{n}"
            started = time.perf_counter()
            try:
                if kind == "tag":
                    service.tag([paper], [value])
                elif kind == "note":
                    service.add_note(paper, value)
                else:
                    seen = service.paper(paper).title
                    started = time.perf_counter()  # the edit, as the window saves it
                    service.apply(
                        EditPaper(paper, FieldEdits(title=value), based_on=(("title", seen),))
                    )
                outcome = "ok"
            except (EditConflictError, ConflictError):
                outcome = "conflict"
            except Exception as exc:  # any other kind is a failure of the test
                outcome = f"error: {type(exc).__name__}: {exc}"
            took = time.perf_counter() - started
            done.append(
                {
                    "kind": kind,
                    "paper": paper,
                    "value": value,
                    "outcome": outcome,
                    "ms": took * 1000,
                }
            )
    finally:
        service.close()
        Path(out).write_text(json.dumps(done))


def _importer(url: str, name: str, seconds: float, papers: int, out: str) -> None:
    service = LibraryService.open(url)
    rng = random.Random(name)
    done: list[dict[str, Any]] = []
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            numbers = sorted(rng.sample(range(papers * 2), 60))  # half already there
            started = time.perf_counter()
            try:
                service.import_pages([SourcedPage(parse(page(numbers, name)), f"{name}.txt")])
                outcome = "ok"
            except Exception as exc:
                outcome = f"error: {type(exc).__name__}: {exc}"
            done.append(
                {
                    "numbers": numbers,
                    "outcome": outcome,
                    "ms": (time.perf_counter() - started) * 1000,
                }
            )
    finally:
        service.close()
        Path(out).write_text(json.dumps(done))


def _check(url: str, edits: list[dict[str, Any]], imports: list[dict[str, Any]]) -> dict[str, Any]:
    service = LibraryService.open(url)
    try:
        details = {d.id: d for d in service.all_details(service.paper_ids())}
    finally:
        service.close()
    lost = 0
    set_titles: dict[int, set[str]] = {}
    for e in edits:
        if e["outcome"] != "ok":
            continue
        d = details[e["paper"]]
        if e["kind"] == "tag":
            lost += e["value"] not in {t.name for t in d.tags}
        elif e["kind"] == "note":
            lost += e["value"] not in {n.text for n in d.notes}
        else:
            set_titles.setdefault(e["paper"], set()).add(e["value"])
    lost += sum(1 for pid, titles in set_titles.items() if details[pid].title not in titles)
    # a paper's number is in its abstract, which nobody edits (titles are retitled)
    numbers = Counter(
        int(d.abstract.split("paper number ", 1)[1].split(" ", 1)[0])
        for d in details.values()
        if "paper number " in d.abstract
    )
    retitled = sum(1 for d in details.values() if not d.title.startswith("Shared Bench Paper"))
    expected = {n for i in imports if i["outcome"] == "ok" for n in i["numbers"]}
    return {
        "lost": lost,
        "duplicates": sum(c - 1 for c in numbers.values() if c > 1),
        "papers": len(details),
        "retitled": retitled,
        "imported_numbers": len(expected),
    }


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main() -> int:
    """Run the load test and print its figures; exit 1 when a goal of correctness failed."""
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--editors", type=int, default=8)
    options.add_argument("--importers", type=int, default=2)
    options.add_argument("--seconds", type=float, default=120.0)
    options.add_argument("--papers", type=int, default=200)
    options.add_argument("--pace", type=float, default=250.0, help="ms between an editor's changes")
    options.add_argument("--url", help="a database refman may empty (default: a new server)")
    args = options.parse_args()
    server = None
    url = args.url
    if url is None:
        from tests.helpers import postgres

        server = postgres.start()
        url = server.address()
    try:
        setup = LibraryService.open(url)
        setup.import_pages([SourcedPage(parse(page(list(range(args.papers)))), "start.txt")])
        setup.close()
        work = Path(tempfile.mkdtemp(prefix="refman-bench-shared-"))
        ctx = multiprocessing.get_context("spawn")
        procs = [
            ctx.Process(
                target=_editor,
                args=(url, f"e{i}", args.seconds, args.pace / 1000, str(work / f"e{i}.json")),
            )
            for i in range(args.editors)
        ] + [
            ctx.Process(
                target=_importer,
                args=(url, f"i{i}", args.seconds, args.papers, str(work / f"i{i}.json")),
            )
            for i in range(args.importers)
        ]
        started = time.monotonic()
        for p in procs:
            p.start()
        for p in procs:
            p.join()
        wall = time.monotonic() - started
        edits = [
            e for i in range(args.editors) for e in json.loads((work / f"e{i}.json").read_text())
        ]
        imports = [
            x for i in range(args.importers) for x in json.loads((work / f"i{i}.json").read_text())
        ]
        result = _check(url, edits, imports)
    finally:
        if server is not None:
            from tests.helpers import postgres

            postgres.stop(server.folder)
    ok = [e["ms"] for e in edits if e["outcome"] == "ok"]
    errors = [e["outcome"] for e in [*edits, *imports] if e["outcome"].startswith("error")]
    conflicts = sum(e["outcome"] == "conflict" for e in edits)
    p95 = _p95(ok) if len(ok) > 20 else float("nan")
    who = f"{args.editors} editors and {args.importers} importers"
    rhythm = f"a change every {args.pace:.0f} ms each" if args.pace else "changes back to back"
    print(f"{who} for {wall:.0f} s on {args.papers} papers ({rhythm})")
    rate = len(ok) / wall
    print(f"edits acknowledged: {len(ok):,} ({rate:.0f}/s); refused as conflicts: {conflicts:,}")
    print(f"edit latency: median {statistics.median(ok):.1f} ms, p95 {p95:.1f} ms (goal <= 50)")
    for kind in ("tag", "note", "title"):
        took = [e["ms"] for e in edits if e["outcome"] == "ok" and e["kind"] == kind]
        if len(took) > 20:
            print(f"  {kind}: median {statistics.median(took):.1f} ms, p95 {_p95(took):.1f} ms")
    done_imports = [i["ms"] for i in imports if i["outcome"] == "ok"]
    if done_imports:
        median_import = statistics.median(done_imports)
        print(f"imports: {len(done_imports)} of 60 records each, median {median_import:.0f} ms")
    print(
        f"lost: {result['lost']} (goal 0); duplicates: {result['duplicates']} (goal 0); "
        f"other errors: {len(errors)} (goal 0); papers: {result['papers']:,}"
    )
    for e in errors[:5]:
        print("  ", e)
    return 0 if result["lost"] == 0 and result["duplicates"] == 0 and not errors else 1


if __name__ == "__main__":
    raise SystemExit(main())
