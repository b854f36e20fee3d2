"""``refman list``, ``search``, ``show`` and ``tags`` through :func:`refman.__main__.main`."""

from __future__ import annotations

import json
from itertools import takewhile
from pathlib import Path
from typing import Any

import pytest

from refman.__main__ import main
from refman.cli.output import PAPER_KEYS
from refman.cli.terminal import cells
from tests.helpers.cli import Cli, Run

LIST_PAGE = """arXiv subjects

Marisol Quintana

Publications and source records attributed to Marisol Quintana.

3 recordsLinked to original sources

arXiv2025

Tidewater: Streaming Joins over Unbounded Sensor Logs

Sensor networks emit logs faster than batch systems can join them. We present Tidewater, a \
streaming join engine that cuts join latency by $4.2$x over the best prior engine.

cs.DB↗ cs.DC↗

ICLR2019

Quiet Progress in Tensor Sketching

Tensor sketches compress multiway data while preserving inner products. This survey shows \
that most results follow from two lemmas on random projections.

cs.DS↗

2023

Orca-4 Technical Report

We introduce Orca-4, a family of open marine-acoustics models trained on hydrophone audio. \
Orca-4 detects whale calls with an F1 of 0.91 and runs on a single embedded board.

eess.AS↗
"""

ABSTRACTS_PAGE = """Ines Carvalho

Pavel Dunmore, Akiko Seppala, Ravi Castellane et al.

We describe the design and operation of GigaLoom, a production system that trains large \
language models on more than 20,000 accelerators. At this scale both efficiency and \
stability become first-order problems.
"""

TIDEWATER = "Tidewater: Streaming Joins over Unbounded Sensor Logs"
SKETCHING = "Quiet Progress in Tensor Sketching"
ORCA = "Orca-4 Technical Report"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], library_path: Path, tmp_path: Path) -> Cli:
    """Refman on a library holding three listed papers and one from an abstracts page."""

    def call(*args: str) -> Run:
        code = main(["--db", str(library_path), *args])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    (tmp_path / "list.txt").write_text(LIST_PAGE, encoding="utf-8")
    (tmp_path / "abstracts.txt").write_text(ABSTRACTS_PAGE, encoding="utf-8")
    result = call("import", str(tmp_path / "list.txt"), str(tmp_path / "abstracts.txt"))
    assert result.code == 0, result.err
    return call


def listed(cli: Cli, *args: str) -> list[dict[str, Any]]:
    result = cli("list", "--json", *args)
    assert result.code == 0, result.err
    return list(json.loads(result.out))


def titles(cli: Cli, *args: str) -> list[str]:
    return [p["title"] for p in listed(cli, *args)]


def paper_id(cli: Cli, title: str) -> str:
    return str(next(p["id"] for p in listed(cli) if p["title"] == title))


def test_list_prints_an_aligned_table_and_a_count(cli: Cli) -> None:
    result = cli("list")
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0].split() == ["ID", "YEAR", "AUTHOR", "TITLE"]
    assert lines[-1] == "4 of 4 papers"
    body = lines[1:-1]
    assert len(body) == 4
    starts = {line.index(t) for line in body for t in (TIDEWATER, SKETCHING, ORCA) if t in line}
    assert len(starts) == 1  # the title column is aligned
    gigaloom = next(line for line in body if "Pavel Dunmore et al." in line)
    assert "(provisional title)" in gigaloom
    # a page that gave no authors: its owner, in brackets, as the window shows it in grey
    tidewater = next(line for line in body if TIDEWATER in line)
    assert "(Marisol Quintana)" in tidewater


def test_list_cuts_titles_to_the_terminal_width(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    lines = cli("list").out.splitlines()
    assert all(len(line) <= 60 for line in lines)
    assert any(line.endswith("…") for line in lines)


def test_list_default_order_is_newest_first(cli: Cli) -> None:
    ids = [p["id"] for p in listed(cli)]
    assert ids == sorted(ids, reverse=True)


def test_list_json_has_full_paper_objects(cli: Cli) -> None:
    papers = listed(cli)
    assert all(tuple(p) == PAPER_KEYS for p in papers)
    tidewater = next(p for p in papers if p["title"] == TIDEWATER)
    assert tidewater["subjects"] == ["cs.DB", "cs.DC"]
    assert tidewater["venue"] == "arXiv"
    assert "$4.2$x" in tidewater["abstract"]  # raw, as imported
    assert next(p for p in papers if p["title"] == ORCA)["venue"] is None


def test_sort_limit_and_offset(cli: Cli) -> None:
    by_title = titles(cli, "--sort", "title")
    assert by_title == sorted(by_title, key=str.casefold)
    assert titles(cli, "--sort", "title", "--desc") == by_title[::-1]
    assert titles(cli, "--sort", "title", "--limit", "2", "--offset", "1") == by_title[1:3]
    years = [p["year"] for p in listed(cli, "--sort", "year")]
    assert years[:3] == [2019, 2023, 2025] and years[3] is None
    result = cli("list", "--limit", "2")
    assert result.out.splitlines()[-1] == "2 of 4 papers"


def test_search_finds_matching_papers_best_first(cli: Cli) -> None:
    assert titles(cli, "--search", "sensor") == [TIDEWATER]
    result = cli("search", "hydrophone", "--json")
    assert result.code == 0
    assert [p["title"] for p in json.loads(result.out)] == [ORCA]
    result = cli("search", "nothing-matches-this")
    assert result.out.splitlines()[-1] == "No paper matches."


def test_tag_filter_and_sections(cli: Cli) -> None:
    orca = paper_id(cli, ORCA)
    cli("tag", orca, "marine")
    assert titles(cli, "--tag", "marine") == [ORCA]
    assert ORCA not in titles(cli, "--section", "untagged")
    attention = listed(cli, "--section", "attention")
    assert [p["title_provisional"] for p in attention] == [True]
    cli("trash", orca)
    assert titles(cli, "--section", "trash") == [ORCA]
    assert ORCA not in titles(cli)


@pytest.mark.parametrize("command", [("list",), ("search", "orca"), ("list", "--json")])
def test_a_tag_the_library_does_not_hold_is_an_error_naming_the_tags_like_it(
    cli: Cli, command: tuple[str, ...]
) -> None:
    """A mistyped tag is not a list of no papers: exit status 2 and the tags it may be."""
    cli("tag", paper_id(cli, ORCA), "NeurIPS", "marine")
    run = cli(*command, "--tag", "marine", "--tag", "nuerips")
    assert (run.code, run.out) == (2, "")
    assert run.err == "refman: There is no tag “nuerips”. Tags like it: NeurIPS.\n"
    far = cli(*command, "--tag", "zebra")
    assert far.err == "refman: There is no tag “zebra”. Use “refman tags” to see the tags.\n"
    assert far.code == 2


def test_a_tag_term_of_the_search_naming_no_tag_is_the_same_error(cli: Cli) -> None:
    """``tag:nuerips`` in a search (alone, left out, in an alternative) is refused as
    ``--tag nuerips`` is, not a list of no papers (or of them all); a tag the term finds by
    its plain letters lists its papers."""
    cli("tag", paper_id(cli, ORCA), "NeurIPS", "Ødegaard")
    for search in ("tag:nuerips", "orca tag:nuerips", "-tag:nuerips", "tag:x OR tag:nuerips"):
        run = cli("list", f"--search={search}")
        assert (run.code, run.out) == (2, "")
        assert run.err.startswith("refman: There is no tag “")
    run = cli("search", "orca", "tag:nuerips")
    assert (run.code, run.err) == (2, "refman: There is no tag “nuerips”. Tags like it: NeurIPS.\n")
    far = cli("list", "--search", "tag:zebra")
    assert far.err == "refman: There is no tag “zebra”. Use “refman tags” to see the tags.\n"
    assert titles(cli, "--search", "tag:odegaard") == [ORCA]
    assert titles(cli, "--search", "TAG:neurips") == [ORCA]


def test_a_search_that_finds_papers_only_in_the_trash_says_so(cli: Cli) -> None:
    """A paper moved to the Trash is not lost: the search that finds it there says so."""
    orca = paper_id(cli, ORCA)
    cli("tag", orca, "marine")
    cli("trash", orca)
    run = cli("search", "orca")
    assert (run.code, run.out) == (
        0,
        "No paper matches. 1 paper in the Trash does (add --section trash to see it).\n",
    )
    assert cli("list", "--tag", "marine").out.endswith("(add --section trash to see it).\n")
    assert titles(cli, "--search", "orca", "--section", "trash") == [ORCA]
    assert cli("search", "nothing-matches-this").out == "No paper matches.\n"


def test_a_tag_that_no_paper_listed_carries_lists_no_paper(cli: Cli) -> None:
    """A tag of the library's that the papers asked for do not carry: no paper, no error."""
    orca = paper_id(cli, ORCA)
    cli("tag", orca, "marine")
    cli("trash", orca)
    run = cli("list", "--tag", "MARINE")
    assert (run.code, run.err) == (0, "")
    assert (
        run.out == "No paper matches. 1 paper in the Trash does (add --section trash to see it).\n"
    )
    assert titles(cli, "--tag", "marine", "--section", "trash") == [ORCA]


def test_show_text_has_everything_a_reader_needs(cli: Cli) -> None:
    tidewater = paper_id(cli, TIDEWATER)
    cli("tag", tidewater, "streams")
    cli("note", tidewater, "Compare with Flink.")
    result = cli("show", tidewater)
    assert result.code == 0
    out = result.out
    assert out.startswith(f"#{tidewater}  {TIDEWATER}\n")
    for expected in (
        "2025",
        "arXiv",
        "Databases (cs.DB)",
        "Distributed, Parallel, and Cluster Computing (cs.DC)",
        "streams",
        "Marisol Quintana",
        "list.txt",
        "by 4.2x over",  # readable abstract: LaTeX math turned into text
        "Compare with Flink.",
    ):
        assert expected in out, expected
    # the type as the window names it, with the value --type takes ("article" is a preprint)
    assert "\nType:          Preprint (article)\n" in out


def test_show_marks_provisional_titles_and_incomplete_authors(cli: Cli) -> None:
    paper = next(p for p in listed(cli) if p["title_provisional"])
    out = cli("show", str(paper["id"])).out
    assert "(provisional title)" in out.splitlines()[0]
    assert "Pavel Dunmore, Akiko Seppala, Ravi Castellane et al." in out
    assert "Ines Carvalho" in out


def test_show_json_is_the_paper_object(cli: Cli) -> None:
    paper = next(p for p in listed(cli) if p["title"] == ORCA)
    result = cli("show", str(paper["id"]), "--json")
    assert json.loads(result.out) == paper


def test_show_unknown_paper_is_one_line_and_exit_2(cli: Cli) -> None:
    result = cli("show", "999")
    assert result.code == 2
    assert result.out == ""
    assert result.err == "refman: There is no paper #999 in this library. " + (
        "Use “refman list” to see the ids.\n"
    )


def test_tags_lists_names_with_counts(cli: Cli) -> None:
    assert "No tags yet" in cli("tags").out
    cli("tag", paper_id(cli, ORCA), "marine", "audio")
    cli("tag", paper_id(cli, TIDEWATER), "audio")
    assert cli("tags").out.splitlines() == ["2  audio", "1  marine"]
    assert json.loads(cli("tags", "--json").out) == [
        {"name": "audio", "colour": None, "count": 2},
        {"name": "marine", "colour": None, "count": 1},
    ]


def test_empty_library_says_how_to_start(
    capsys: pytest.CaptureFixture[str], library_path: Path
) -> None:
    assert main(["--db", str(library_path), "list"]) == 0
    out = capsys.readouterr().out
    assert "refman import" in out
    assert out.splitlines()[-1] == "No papers."
    assert main(["--db", str(library_path), "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_tags_given_with_an_any_tag_saved_search_narrow_it(cli: Cli) -> None:
    """``--saved NAME --tag T``: a paper must match the saved search and carry T, also
    when the saved search takes papers with any of its tags."""
    tidewater, sketching, orca = (paper_id(cli, t) for t in (TIDEWATER, SKETCHING, ORCA))
    cli("tag", tidewater, "to read")
    cli("tag", sketching, "systems", "other")
    cli("tag", orca, "other")
    saved = cli("save-search", "Reading", "--tag", "to read", "--tag", "systems", "--any-tag")
    assert saved.code == 0, saved.err
    assert set(titles(cli, "--saved", "Reading")) == {TIDEWATER, SKETCHING}

    assert titles(cli, "--saved", "Reading", "--tag", "other") == [SKETCHING]
    run = cli("list", "--saved", "Reading", "--tag", "other")
    assert run.code == 0 and run.out.splitlines()[-1] == "1 of 1 paper"
    assert titles(cli, "--saved", "Reading", "--tag", "other", "--tag", "to read") == []
    assert titles(cli, "--saved", "Reading", "--tag", "to read") == [TIDEWATER]


def test_the_table_stays_aligned_with_names_in_chinese(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Chinese letter takes two columns of a terminal: the titles still start in one column
    and no line is wider than the terminal."""
    bib = tmp_path / "zh.bib"
    bib.write_text(
        "@article{zhang2021,\n  author = {欧阳, 修远 and 李, 明},\n  title = {黄河三角洲湿地的"
        "泥沙输移与碳储量的长期观测研究},\n  year = {2021},\n}\n",
        encoding="utf-8",
    )
    assert cli("import", str(bib)).code == 0
    monkeypatch.setenv("COLUMNS", "60")
    lines = cli("list").out.splitlines()[1:-1]
    columns = [
        line[: line.index(t)] for line in lines for t in (TIDEWATER[:20], "黄河") if t in line
    ]
    assert len({cells(before) for before in columns}) == 1
    assert all(cells(line) <= 60 for line in lines)


def test_the_summary_says_which_papers_a_page_of_the_list_holds(cli: Cli) -> None:
    """One paper is "number 4", not "numbers 4–4"; an --offset past the end says where the
    list ends rather than only "0 of 4 papers"."""
    assert cli("list", "--offset", "1", "--limit", "2").out.splitlines()[-1] == (
        "2 of 4 papers (numbers 2–3)"
    )
    assert cli("list", "--offset", "3").out.splitlines()[-1] == "1 of 4 papers (number 4)"
    assert cli("list", "--offset", "9").out.splitlines()[-1] == (
        "0 of 4 papers (--offset 9: the last is number 4)"
    )


def test_show_wraps_a_long_author_list_between_names(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forty authors are lines under the label, each name whole, not one line running
    across the screen many times."""
    given = ["Ann", "Bob", "Carol", "Dan", "Eve", "Fay", "Gus", "Hal"]
    family = ["Smith", "Jones", "White", "Brown", "Green", "Black", "Young", "Wright"]
    names = [f"{g} {f}" for g in given for f in family[:5]]
    added = cli("add", "A Large Collaboration", "--author", ", ".join(names) + " et al.", "--json")
    paper = str(json.loads(added.out)["id"])
    monkeypatch.setenv("COLUMNS", "60")
    lines = cli("show", paper).out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Authors:"))
    more = takewhile(lambda line: line.startswith(" " * 15), lines[start + 1 :])
    block = [lines[start], *more]
    assert all(len(line) <= 60 for line in block) and len(block) > 5
    assert [n.strip() for line in block for n in line[15:].split(",") if n.strip()] == [
        *names[:-1],
        f"{names[-1]} et al.",
    ]


def test_a_tag_merged_into_another_names_the_tag_it_went_into(cli: Cli) -> None:
    """``--tag ml`` after ``ml`` was merged into ``machine learning`` (by a colleague, say):
    the error said only that there is no tag “ml”; ``rename-tag ml …`` and ``tag:ml`` too."""
    orca = paper_id(cli, ORCA)
    cli("tag", orca, "ml")
    cli("tag", orca, "machine learning")
    assert cli("rename-tag", "ml", "machine learning").code == 0
    run = cli("list", "--tag", "ml")
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        "refman: There is no tag “ml”: it was merged into “machine learning”. "
        "Use the tag “machine learning”.\n"
    )
    assert "merged into “machine learning”" in cli("rename-tag", "ml", "deep").err
    assert "merged into “machine learning”" in cli("list", "--search", "tag:ml").err
