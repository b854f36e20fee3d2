"""Build (once, then reuse) a generated library of N papers with tags, for benchmarks.

The library is made through the library service, like any user's: generated author pages
are imported, then every tenth paper gets one of ten tags.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pagegen import make_page

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.importers import parse

OUT = Path(__file__).resolve().parent / "out"
TAGS = [f"topic-{i}" for i in range(10)]
PAGE_SIZE = 20_000


def big_library(n: int = 100_000) -> Path:
    """The file of a library with ``n`` generated papers (built on first use)."""
    OUT.mkdir(exist_ok=True)
    path = OUT / f"library-{n}.sqlite"
    if path.exists():
        return path
    tmp = path.with_suffix(".building")
    for stale in OUT.glob(tmp.name + "*"):
        stale.unlink()
    started = time.perf_counter()
    service = LibraryService.open(tmp)
    seed = 1000
    # Generated records now and then repeat a title (as real pages do); those merge, so
    # keep importing pages until the library holds n distinct papers.
    while (have := service.count()) < n:
        page = parse(make_page(min(PAGE_SIZE, n - have), seed=seed))
        service.import_pages([SourcedPage(page, f"generated-{seed}.txt")])
        seed += 1
    ids = service.paper_ids()
    for t, name in enumerate(TAGS):
        service.tag(ids[t::10], [name])
    count = service.count()
    service.close()
    for suffix in ("-wal", "-shm"):
        Path(str(tmp) + suffix).unlink(missing_ok=True)
    tmp.rename(path)
    print(f"built {path.name}: {count} papers in {time.perf_counter() - started:.1f} s")
    return path


def fresh_copy(library: Path, copy: Path) -> None:
    """Copy a library file over ``copy``, first removing the write-ahead log and its index
    an earlier run may have left beside ``copy`` (SQLite would read that log as the new
    copy's: pages of another file)."""
    for suffix in ("-wal", "-shm"):
        Path(f"{copy}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(library, copy)


if __name__ == "__main__":
    big_library(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
