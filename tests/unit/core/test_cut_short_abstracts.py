"""A page that lists only the start of an abstract (its first paragraph, or its first lines
and "…") finds the paper again: no second paper is made of it."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import text

from refman.core import stored_keys
from refman.core.importing.values import RecordStatus
from refman.core.importing.wording import likeness_text
from refman.core.library import LibraryService
from refman.core.matching import match_keys
from refman.importers import parse
from refman.store import schema
from tests.helpers.cli import Cli
from tests.helpers.fixtures import sourced
from tests.helpers.pages import abstracts_page

AUTHORS = "Zhuo Jiang, Mira Okafor"
FIRST = (
    "We present a scheduler for pipeline parallel training that tolerates straggling "
    "accelerators. It recovers most of the lost throughput with a simple rebalancing rule "
    "that moves layers between stages as they slow down."
)
SECOND = (
    "We evaluate it on clusters of up to two thousand accelerators over six months of "
    "production jobs, and report the failures it could not hide."
)
WHOLE = f"{FIRST}\n\n{SECOND}"
#: Another paper's abstract, of two paragraphs.
OTHER = (
    "Checkpointing large models to remote storage stalls training for minutes at a time. "
    "We overlap the writes with computation and keep a copy in the memory of a neighbour."
    "\n\nThe stall drops to a few seconds, and a lost node costs one step of work."
)


def _page(owner: str, abstract: str) -> str:
    return abstracts_page(owner, [(AUTHORS, abstract)])


def test_a_page_with_only_the_first_paragraph_finds_the_paper(library: LibraryService) -> None:
    paper = library.import_pages([sourced(_page("Zhuo Jiang", WHOLE))]).new_ids[0]

    plan = library.plan_import([sourced(_page("Mira Okafor", FIRST))])

    [record] = plan.records
    assert record.status is RecordStatus.POSSIBLE_DUPLICATE
    assert record.target_id == paper
    assert record.cut_short and record.similarity == 100
    assert likeness_text(record) == (
        "alike as far as the shorter abstract goes (one is the start of the other)"
    )


def test_lines_cut_in_a_word_and_the_whole_abstract_after_find_each_other(
    library: LibraryService,
) -> None:
    """The cut-short version first, the whole abstract later: the same paper either way."""
    cut = WHOLE[: WHOLE.index("rebalancing") + 7] + "…"
    first = library.import_pages([sourced(_page("Zhuo Jiang", cut))])
    again = library.import_pages([sourced(_page("Mira Okafor", WHOLE))])

    assert again.new_ids == ()
    assert [p.target_id for p in again.possible_duplicates] == list(first.new_ids)
    assert library.count() == 1
    paper = library.paper(first.new_ids[0])
    assert sorted(paper.attributed_to) == ["Mira Okafor", "Zhuo Jiang"]
    # the whole abstract replaces the one cut short
    assert paper.abstract == parse(_page("Mira Okafor", WHOLE)).records[0].abstract


def test_the_command_line_merges_it_and_says_why(cli: Cli, tmp_path: Path) -> None:
    whole, part = tmp_path / "jiang.txt", tmp_path / "okafor.txt"
    whole.write_text(_page("Zhuo Jiang", WHOLE), encoding="utf-8")
    part.write_text(_page("Mira Okafor", FIRST), encoding="utf-8")
    assert cli("import", whole).code == 0

    run = cli("import", part)

    assert run.code == 0
    assert "(one abstract is the start of the other) — merged" in run.out
    listed = cli("list", "--json")
    assert listed.out.count('"id":') == 1


def test_abstracts_that_only_begin_alike_stay_apart(library: LibraryService) -> None:
    """Eight words in common at the start, or a short abstract that is the start of a long
    one: too little to say it is the same paper."""
    library.import_pages([sourced(_page("Zhuo Jiang", WHOLE))])
    other = (
        "We present a scheduler for pipeline parallel training of recommendation models "
        "whose embedding tables do not fit in one accelerator's memory."
    )
    short = " ".join(FIRST.split()[:11])

    plan = library.plan_import([sourced(abstracts_page("Lars Berg", [(AUTHORS, other)]))])
    assert [r.status for r in plan.records] == [RecordStatus.NEW]
    plan = library.plan_import([sourced(_page("Lars Berg", short))])
    assert [r.status for r in plan.records] == [RecordStatus.NEW]


def test_within_one_page_the_cut_short_repeat_is_a_possible_duplicate(
    library: LibraryService,
) -> None:
    page = abstracts_page("Zhuo Jiang", [(AUTHORS, WHOLE), ("Mira Okafor", FIRST)])
    plan = library.plan_import([sourced(page)])
    assert [r.status for r in plan.records] == [RecordStatus.NEW, RecordStatus.POSSIBLE_DUPLICATE]
    assert plan.records[1].target_ref == (0, 0) and plan.records[1].cut_short


def test_a_library_from_before_finds_them_once_upgraded(
    library: LibraryService, library_location: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A library of revision 0013 holds no key of an abstract's opening words: the first open
    of the upgraded library writes them (here one paper at a time)."""
    abstracts = [WHOLE, OTHER]
    page = abstracts_page("Zhuo Jiang", [(AUTHORS, a) for a in abstracts])
    papers = library.import_pages([sourced(page)]).new_ids
    openings = [match_keys("", True, a).opening for a in abstracts]
    engine = library.db.engine
    cfg = schema._alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0013")
        # as the refman of revision 0013 leaves it: no opening key, no task waiting
        for key in openings:
            conn.execute(text("DELETE FROM match_blocks WHERE key = :key"), {"key": key})
        conn.execute(text("DELETE FROM library_tasks"))
    library.close()
    monkeypatch.setattr(stored_keys, "OPENING_BATCH", 1)

    upgraded = LibraryService.open(library_location)
    try:
        starts = [(AUTHORS, a.split("\n\n")[0]) for a in abstracts]
        plan = upgraded.plan_import([sourced(abstracts_page("Mira Okafor", starts))])
        assert [(r.status, r.cut_short) for r in plan.records] == [
            (RecordStatus.POSSIBLE_DUPLICATE, True)
        ] * 2
        assert [r.target_id for r in plan.records] == list(papers)
        with upgraded.db.engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM library_tasks")).scalar_one() == 0
    finally:
        upgraded.close()
