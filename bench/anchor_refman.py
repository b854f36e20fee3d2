"""The refman side of the anchor benchmark (``bench/anchor_bench.py``, issue 10).

Two things live here and nowhere else, so that a change of the library service's API (paging,
async search) means editing this file only:

* :func:`build_library` imports the anchor's generated papers into a refman library through
  ``LibraryService.import_pages``, with the records made directly from the generator's values
  (no text is written or parsed).
* :class:`RefmanSide` is the one adapter through which the benchmark times refman: every
  call to the service that the benchmark makes is one of its methods.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperQuery, PaperRow, SortKey, TagView
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord, PersonName

#: Records per ``import_pages`` call while building.
CHUNK = 20_000
#: Rows of a first page (the anchor's FTS5 side fetches 100 too).
PAGE = 100
#: The window's list order when nothing is sorted by hand (refman/ui/paper_model.py).
LIST_ORDER = PaperQuery(sort=SortKey.ADDED, descending=True)


def tree_state() -> str:
    """The refman code measured: the commit, and how many files under refman/ differ from it."""
    root = Path(__file__).resolve().parents[1]

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else "?"

    dirty = [line for line in git("status", "--porcelain", "--", "refman").splitlines() if line]
    return f"{git('rev-parse', '--short', 'HEAD')} + {len(dirty)} changed file(s) under refman/"


class AnchorPaper(Protocol):
    """What the anchor's generator gives for one paper (its ``Paper`` dataclass)."""

    title: str
    abstract: str
    year: int
    venue: str
    authors: list[tuple[str, str]]
    tags: list[tuple[str, int]]
    note: str | None


def record_of(index: int, paper: AnchorPaper) -> ParsedRecord:
    """The import record of one generated paper.

    Every record carries a distinct DOI: the generator repeats titles now and then (its
    titles come from templates), and refman would merge papers of the same title into one;
    different DOIs keep them apart, so refman holds exactly the papers the other sides hold.
    """
    return ParsedRecord(
        title=paper.title,
        title_provisional=False,
        abstract=paper.abstract,
        year=paper.year,
        venue=paper.venue,
        authors=tuple(f"{first} {last}" for first, last in paper.authors),
        author_names=tuple(PersonName(family=last, given=first) for first, last in paper.authors),
        authors_complete=True,
        type="article-journal",
        doi=f"10.5555/anchor.{index}",
        tags=tuple(name for name, _type in paper.tags),
        notes=(paper.note,) if paper.note else (),
    )


def build_library(
    path: str, papers: Sequence[AnchorPaper], log: Callable[[str], None], chunk: int = CHUNK
) -> dict[str, Any]:
    """Import the generated papers into a new refman library at ``path``.

    Tags and notes come in with the records (``ParsedRecord.tags`` / ``.notes``: the import's
    own bulk path for a bibliography's keywords and notes), so there is no second pass of
    ``tag`` and ``add_note`` calls.

    Returns:
        Seconds, records per second (overall and per chunk), papers, tags and notes made.
    """
    started = time.perf_counter()
    service = LibraryService.open(path)
    chunk_rates: list[float] = []
    try:
        for start in range(0, len(papers), chunk):
            t0 = time.perf_counter()
            part = papers[start : start + chunk]
            records = [record_of(start + i, p) for i, p in enumerate(part)]
            page = ParsedPage("", PageFormat.BIBTEX, None, records)
            service.import_pages([SourcedPage(page, f"anchor-{start // chunk + 1}.bib")])
            seconds = time.perf_counter() - t0
            chunk_rates.append(len(part) / seconds)
            done = start + len(part)
            elapsed = time.perf_counter() - started
            log(
                f"refman import: {done:,}/{len(papers):,} papers, this chunk "
                f"{chunk_rates[-1]:,.0f} rec/s, overall {done / elapsed:,.0f} rec/s"
            )
        seconds = time.perf_counter() - started
        count = service.paper_count()
        tags = service.tags()
    finally:
        service.close()
    return {
        "seconds": seconds,
        "records_per_s": len(papers) / seconds,
        "chunk_records_per_s": chunk_rates,
        "papers": count,
        "tags_rows": len(tags),
        "tag_links": sum(t.count for t in tags),
        "notes": sum(1 for p in papers if p.note),
        "file_mb": Path(path).stat().st_size / 1e6,
    }


class RefmanSide:
    """Every call the benchmark makes to refman, through the library service.

    A search, a tag click or a sort is timed as the window's list reads it
    (``refman/ui/paper_model.py`` ``set_query``): the first page of rows (``papers``, one SQL
    window) and the count (``count``). Neither reads every id of the list.
    """

    def __init__(self, path: str) -> None:
        self.service = LibraryService.open(path)

    def close(self) -> None:
        """Close the library."""
        self.service.close()

    def _first_page(self, query: PaperQuery) -> tuple[int, list[PaperRow]]:
        rows = self.service.papers(query, 0, PAGE)
        return self.service.count(query), rows

    def search_count(self, q: str) -> int:
        """How many papers a search shows (counted in the database)."""
        return self.service.count(replace(LIST_ORDER, text=q))

    def search_first_page(self, q: str, relevance: bool = False) -> tuple[int, list[PaperRow]]:
        """The count and the first page of a search, in the list's order or by relevance."""
        query = PaperQuery(text=q) if relevance else replace(LIST_ORDER, text=q)
        return self._first_page(query)

    def list_first_page(self) -> list[PaperRow]:
        """The first page of the whole list sorted by title."""
        return self.service.papers(PaperQuery(sort=SortKey.TITLE), 0, PAGE)

    def sorted_ids(self) -> list[int]:
        """Every id of the list sorted by title (what Select All and Export read), with no
        cached id list (as after any change)."""
        fresh = LibraryService(self.service.db)
        return fresh.paper_ids(PaperQuery(sort=SortKey.TITLE))

    def tag_filter(self, tag: str) -> int:
        """How many papers the list shows when one tag is clicked (counted in the database)."""
        return self.service.count(replace(LIST_ORDER, tags=(tag,)))

    def tag_filter_page(self, tag: str) -> tuple[int, list[PaperRow]]:
        """The count and the first page when one tag is clicked."""
        return self._first_page(replace(LIST_ORDER, tags=(tag,)))

    def tag_counts(self) -> list[TagView]:
        """Every tag with its paper count (the tag pane)."""
        return self.service.tags()

    def section_counts(self) -> Any:
        """The counts of the library sections (the navigation pane)."""
        return self.service.section_counts()
