"""Acceptance: importing the three example author pages, in any order, gives one library.

The same assertions run over the real seed pages (skipped when /work/shared/seeds is absent)
and over the project's own stand-ins in tests/fixtures/seedlike (never skipped).
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from refman.core.library import LibraryService
from refman.core.values import PaperDetail, PaperQuery, Section
from tests.helpers.fixtures import FIXTURES, SEEDS, dump, sourced_file


@dataclass(frozen=True)
class PageSet:
    """Three pages and what importing them must give."""

    name: str
    files: tuple[Path, ...]
    #: The paper of page 1 that page 3 repeats without a title (it gains owner and authors).
    shared_title: str
    shared_year: int
    shared_owners: tuple[str, ...]
    shared_authors: tuple[str, ...]
    #: The paper that pages 1 and 2 both list.
    both_title_start: str
    both_owners: tuple[str, ...]
    #: Provisional titles that must be present (the page-3 papers that introduce a name).
    provisional: tuple[str, ...]
    exact_provisional: bool


def _files(folder: Path) -> tuple[Path, ...]:
    return tuple(sorted(folder.glob("*.txt"))) if folder.is_dir() else ()


REAL = PageSet(
    name="seeds",
    files=_files(SEEDS),
    shared_title="MegaScale: Scaling Large Language Model Training to More Than 10,000 GPUs",
    shared_year=2024,
    shared_owners=("Liang Xiang", "Zhuo Jiang"),
    shared_authors=("Ziheng Jiang", "Haibin Lin", "Yinmin Zhong"),
    both_title_start="Efficient Pre-Training of LLMs via Topology-Aware Communication Alignment",
    both_owners=("Kaihua Jiang", "Zhuo Jiang"),
    provisional=("BAMBOO", "Balanced Actor Initialization (BAI)"),
    exact_provisional=False,
)
STAND_INS = PageSet(
    name="seedlike",
    files=_files(FIXTURES / "seedlike"),
    shared_title="GigaLoom: Training Large Language Models on More Than 20,000 Accelerators",
    shared_year=2024,
    shared_owners=("Ines Carvalho", "Maren Solvik"),
    shared_authors=("Pavel Dunmore", "Akiko Seppala", "Ravi Castellane"),
    both_title_start="Placement-Aware Job Scheduling for Training Across More Than 8000",
    both_owners=("Maren Solvik", "Tobias Ferreira"),
    provisional=("HALCYON", "Loomis", "Staged Reward Warmup (SRW)"),
    exact_provisional=True,
)

PAGE_SETS = [
    pytest.param(
        REAL,
        id="seeds",
        marks=pytest.mark.skipif(len(REAL.files) != 3, reason="the seed pages are not here"),
    ),
    pytest.param(STAND_INS, id="seedlike"),
]

Summary = tuple[object, ...]


def summary(d: PaperDetail) -> Summary:
    """What must not depend on the order of the imports."""
    return (
        d.title,
        d.title_provisional,
        d.year,
        d.venue,
        d.subjects,
        d.authors,
        d.authors_complete,
        tuple(sorted(d.attributed_to)),
    )


def library_summary(library: LibraryService) -> list[Summary]:
    return sorted((summary(d) for d in library.details(library.paper_ids())), key=repr)


@pytest.fixture
def new_library(
    tmp_path: Path, _template_library: Path
) -> Iterator[Callable[[], tuple[LibraryService, Path]]]:
    """Makes fresh, empty libraries (closed at the end of the test)."""
    opened: list[LibraryService] = []

    def make() -> tuple[LibraryService, Path]:
        path = tmp_path / f"library-{len(opened)}.sqlite"
        shutil.copy(_template_library, path)
        library = LibraryService.open(path)
        opened.append(library)
        return library, path

    yield make
    for library in opened:
        library.close()


def import_one_by_one(library: LibraryService, files: tuple[Path, ...]) -> list[tuple[int, int]]:
    """Import each page on its own; (new, merged) per page."""
    counts = []
    for path in files:
        result = library.import_pages([sourced_file(path)])
        counts.append((len(result.new_ids), len(result.merged_ids)))
    return counts


@pytest.mark.parametrize("pages", PAGE_SETS)
def test_pages_in_order(pages: PageSet, library: LibraryService) -> None:
    assert len(pages.files) == 3
    parsed = [sourced_file(f).page for f in pages.files]
    assert [len(p.records) for p in parsed] == [12, 6, 4]
    assert [p.claimed for p in parsed] == [12, 6, None]
    assert [p.warnings for p in parsed] == [[], [], []]

    assert import_one_by_one(library, pages.files) == [(12, 0), (5, 1), (3, 1)]

    assert library.count() == 20
    counts = library.section_counts()
    # Attention: three provisional titles and the paper whose author list ends "et al.".
    assert (counts.all, counts.attention, counts.recent, counts.trash) == (20, 4, 4, 0)
    provisional = sorted(
        d.title for d in library.details(library.paper_ids()) if d.title_provisional
    )
    assert len(provisional) == 3
    if pages.exact_provisional:
        assert provisional == sorted(pages.provisional)
    else:
        assert set(pages.provisional) <= set(provisional)
    assert sorted(p.name for p in library.people()) == sorted(
        {*pages.shared_owners, *pages.both_owners}
    )


@pytest.mark.parametrize("pages", PAGE_SETS)
def test_the_paper_on_all_kinds_of_page(pages: PageSet, library: LibraryService) -> None:
    import_one_by_one(library, pages.files)
    details = {d.title: d for d in library.details(library.paper_ids())}

    shared = details[pages.shared_title]
    assert not shared.title_provisional
    assert shared.year == pages.shared_year
    assert tuple(sorted(shared.attributed_to)) == pages.shared_owners
    assert shared.authors == pages.shared_authors
    assert shared.authors_complete is False
    assert len(shared.sources) == 2
    assert shared.id in library.paper_ids(PaperQuery(section=Section.ATTENTION))

    (both,) = [d for t, d in details.items() if t.startswith(pages.both_title_start)]
    assert tuple(sorted(both.attributed_to)) == pages.both_owners
    assert not both.title_provisional
    assert len(both.sources) == 2


@pytest.mark.parametrize("pages", PAGE_SETS)
def test_every_order_gives_the_same_library(
    pages: PageSet, new_library: Callable[[], tuple[LibraryService, Path]]
) -> None:
    results: dict[str, list[Summary]] = {}
    for order in itertools.permutations(pages.files):
        library, _ = new_library()
        import_one_by_one(library, order)
        assert library.count() == 20
        results[" then ".join(p.name[:2] for p in order)] = library_summary(library)
    first = next(iter(results.values()))
    for label, got in results.items():
        assert got == first, f"importing in the order {label} gives another library"
    assert sum(1 for s in first if s[1]) == 3


@pytest.mark.parametrize("pages", PAGE_SETS)
def test_all_pages_in_one_import(
    pages: PageSet, new_library: Callable[[], tuple[LibraryService, Path]]
) -> None:
    together, _ = new_library()
    result = together.import_pages([sourced_file(f) for f in pages.files])
    assert len(result.new_ids) == 20
    assert [r.new for r in result.pages] == [12, 5, 3]
    one_by_one, _ = new_library()
    import_one_by_one(one_by_one, pages.files)
    assert library_summary(together) == library_summary(one_by_one)


@pytest.mark.parametrize("pages", PAGE_SETS)
def test_importing_the_pages_again_changes_nothing(
    pages: PageSet, library: LibraryService, library_path: Path
) -> None:
    import_one_by_one(library, pages.files)
    before = dump(library_path)
    for order in (pages.files, tuple(reversed(pages.files))):
        result = library.import_pages([sourced_file(f) for f in order])
        assert result.new_ids == ()
        assert result.batch_ids == ()
    assert dump(library_path) == before


@pytest.mark.parametrize("pages", PAGE_SETS)
def test_undoing_each_import_in_turn(
    pages: PageSet, library: LibraryService, library_path: Path
) -> None:
    dumps = [dump(library_path)]
    batches = []
    for path in pages.files:
        batches.append(library.import_pages([sourced_file(path)]).batch_ids)
        dumps.append(dump(library_path))
    for batch_ids, expected in zip(reversed(batches), reversed(dumps[:-1]), strict=True):
        library.undo_import(batch_ids)
        assert dump(library_path) == expected
    assert library.count() == 0
