"""Bulk operations on a generated library: tag, untag, trash and restore every paper, and
undo an import of 100,000 records, each timed as the library service runs it (one
transaction each, the way the window's worker and the command line run them); then the
deleting for good of what the undo withdrew, which follows in the background.

Issue 10's goal: each <= 2 s at 100,000 and at 1,000,000 papers.

Run from the repository root::

    .venv/bin/python bench/bench_bulk.py [--papers 100000] [--selected 100000]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_import import machine  # noqa: E402
from biglib import big_library, fresh_copy  # noqa: E402
from pagegen import make_page  # noqa: E402

from refman.core.importing.values import ImportChoices, SourcedPage  # noqa: E402
from refman.core.library import LibraryService  # noqa: E402
from refman.core.operations import ImportPages  # noqa: E402
from refman.importers import parse  # noqa: E402


def timed(label: str, work: Callable[[], object]) -> float:
    """Run ``work`` once and print how long it took."""
    started = time.perf_counter()
    work()
    took = time.perf_counter() - started
    print(f"{label:<44} {took:6.2f} s")
    return took


def main() -> None:
    """Copy the generated library, run each bulk operation once, print the times."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--selected", type=int, default=100_000)
    args = parser.parse_args()
    library = big_library(args.papers)
    copy = HERE / "out" / f"bulk-{library.name}"
    fresh_copy(library, copy)
    print(f"machine: {machine()}")
    service = LibraryService.open(copy)
    try:
        ids = service.paper_ids()[: args.selected]
        print(f"library: {service.count():,} papers; {len(ids):,} selected")
        # Before its first change in a session, a library not known to be whole is checked
        # (refman remembers the libraries it checked; this copy is new to it).
        timed("quick check of the library file", service.file.check)
        timed(f"tag {len(ids):,} papers", lambda: service.tag(ids, ["bulk"]))
        timed(f"untag {len(ids):,} papers", lambda: service.untag(ids, "bulk"))
        timed(f"move {len(ids):,} papers to the Trash", lambda: service.trash(ids))
        timed(f"restore {len(ids):,} papers", lambda: service.restore(ids))
        page = parse(make_page(100_000, seed=777_001))
        done = service.apply(ImportPages((SourcedPage(page, "bulk-import.txt"),), ImportChoices()))
        print(f"(imported {len(done.value.new_ids):,} new papers, to undo)")
        inverse = done.inverse
        assert inverse is not None
        timed(f"undo the import of {len(page.records):,} records", lambda: service.apply(inverse))
        # What the undo withdrew is deleted for good afterwards, in steps between the
        # person's own changes (the window runs them on its worker): nobody waits for it.
        timed("  then, in the background: delete them", service.purge)
    finally:
        service.close()
        for suffix in ("", "-wal", "-shm"):
            Path(str(copy) + suffix).unlink(missing_ok=True)


if __name__ == "__main__":
    main()
