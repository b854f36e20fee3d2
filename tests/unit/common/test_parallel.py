"""A long list's work split over two processes gives the answer computing it alone gives,
whatever happens to the helper process."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import pytest

from refman.common.parallel import can_fork, core_taken, cores, split_map
from refman.core.importing.values import RecordStatus, SourcedPage
from refman.core.library import LibraryService
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

needs_fork = pytest.mark.skipif(
    not can_fork() or cores() < 2, reason="a helper process needs Linux and a second core"
)
PARENT = os.getpid()


def _square_and_where(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


def _no_zombie_left() -> bool:
    """No child of this process has ended without being reaped."""
    try:
        return os.waitpid(-1, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        return True


@needs_fork
def test_the_tail_of_a_long_list_is_computed_by_another_process() -> None:
    found = split_map(_square_and_where, range(1000), min_items=10)
    assert [square for square, _ in found] == [n * n for n in range(1000)]
    where = [pid for _, pid in found]
    assert where[0] == os.getpid()
    assert where[-1] != os.getpid()  # the other core's share
    assert _no_zombie_left()


@needs_fork
def test_no_helper_while_the_other_cores_are_taken() -> None:
    """A thread busy outside Python (the backup's copy) keeps its core: no helper competes."""
    with ExitStack() as stack:
        for _ in range(cores() - 1):
            stack.enter_context(core_taken())
        found = split_map(_square_and_where, range(1000), min_items=10)
    assert found == [(n * n, os.getpid()) for n in range(1000)]
    again = split_map(_square_and_where, range(1000), min_items=10)
    assert again[-1][1] != os.getpid()  # the core is free again


def test_a_short_list_is_computed_here() -> None:
    found = split_map(_square_and_where, range(100))
    assert found == [(n * n, os.getpid()) for n in range(100)]


def _fails_in_the_helper(n: int) -> int:
    if os.getpid() != PARENT:
        raise RuntimeError("the helper failed")
    return n + 1


def _killed_in_the_helper(n: int) -> int:
    if os.getpid() != PARENT:
        os.kill(os.getpid(), signal.SIGKILL)
    return n + 1


@needs_fork
@pytest.mark.logs_warnings("refman.parallel")
@pytest.mark.parametrize("func", [_fails_in_the_helper, _killed_in_the_helper])
def test_when_the_helper_fails_this_process_computes_its_half(
    func: Callable[[int], int], caplog: pytest.LogCaptureFixture
) -> None:
    assert os.getpid() == PARENT
    assert split_map(func, list(range(500)), min_items=10) == [n + 1 for n in range(500)]
    assert _no_zombie_left()
    assert "computing its half here" in caplog.text  # said in the log file


def _fails_here(n: int) -> int:
    if os.getpid() == PARENT and n == 3:
        raise ValueError("bad item")
    return n


@needs_fork
def test_an_error_here_is_raised_and_the_helper_is_reaped() -> None:
    assert os.getpid() == PARENT
    with pytest.raises(ValueError, match="bad item"):
        split_map(_fails_here, list(range(500)), min_items=10)
    assert _no_zombie_left()


_WORDS = (
    "lattice quorum kernel beacon vector cipher glacier harbor meadow orbit prism rivet saddle "
    "timber umbra velvet willow yonder zenith anchor bramble cobalt dune ember fjord garnet"
).split()


def _record(i: int) -> ParsedRecord:
    rng = random.Random(i % 3000)
    return ParsedRecord(
        title=" ".join(rng.choice(_WORDS) for _ in range(9)).capitalize(),
        title_provisional=False,
        abstract="",
        year=2020,
        venue=None,
        subjects=(),
        authors=("Ines Varga",),
        authors_complete=True,
    )


def test_a_large_import_finds_repeats_across_the_halves(tmp_path: Path) -> None:
    """6,000 records, the last 3,000 repeating the first (their keys worked out in the
    helper, their twins' here): each lands on its twin's paper, no paper is made twice."""
    records = [_record(i) for i in range(6000)]
    page = ParsedPage("Ines Varga", PageFormat.PUBLICATION_LIST, None, records)
    library = LibraryService.open(tmp_path / "library.sqlite")
    try:
        result = library.import_pages([SourcedPage(page, "page.txt")])
        assert len(result.new_ids) == 3000
        assert library.count() == 3000
    finally:
        library.close()
    landed = {r.ref[1]: r.paper_id for r in result.pages[0].records}
    assert all(landed[i + 3000] == landed[i] for i in range(3000))


#: Records with a typo'd twin: more than a helper process is forked for.
TWINS = 6000


def _typo_record(i: int) -> ParsedRecord:
    """A record with a title of its own; record ``i + TWINS`` has record ``i``'s with one
    letter wrong."""
    rng = random.Random(i % TWINS)
    syllable = "bcdfghklmnprstvz"
    words = [
        "".join(rng.choice(syllable) + rng.choice("aeiou") for _ in range(3)) for _ in range(8)
    ]
    title = " ".join(words).capitalize()
    if i >= TWINS:
        title = title[:3] + ("x" if title[3] != "x" else "y") + title[4:]
    return replace(_record(i), title=title)


@needs_fork
def test_a_large_import_compares_look_alikes_across_the_halves(tmp_path: Path) -> None:
    """12,000 records, the last 6,000 with a typo in the title of one of the first (half of
    their comparisons made by the helper): each is planned as a possible duplicate of its
    twin."""
    records = [_typo_record(i) for i in range(2 * TWINS)]
    page = ParsedPage("Ines Varga", PageFormat.PUBLICATION_LIST, None, records)
    library = LibraryService.open(tmp_path / "library.sqlite")
    try:
        plan = library.plan_import([SourcedPage(page, "page.txt")])
    finally:
        library.close()
    statuses = [p.status for p in plan.records]
    assert statuses[:TWINS] == [RecordStatus.NEW] * TWINS
    assert statuses[TWINS:] == [RecordStatus.POSSIBLE_DUPLICATE] * TWINS
    assert [p.target_ref for p in plan.records[TWINS:]] == [(0, i) for i in range(TWINS)]
    assert all(p.similarity is not None and p.similarity < 100 for p in plan.records[TWINS:])
