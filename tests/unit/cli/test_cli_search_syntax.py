"""The search syntax on the command line: ``refman search`` and ``refman list --search``."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import Cli
from tests.helpers.pages import THREE_PAPERS as RECORDS
from tests.helpers.pages import publication_page


def _titles(cli: Cli, *args: str) -> set[str]:
    run = cli(*args, "--json")
    assert run.code == 0, run.err
    return {p["title"] for p in json.loads(run.out)}


def test_fields_ranges_and_exclusions_on_the_command_line(cli: Cli, tmp_path: Path) -> None:
    page = tmp_path / "zhuo.txt"
    page.write_text(publication_page("Zhuo Jiang", RECORDS), encoding="utf-8")
    assert cli("import", page).code == 0
    assert _titles(cli, "search", "year:2024..") == {
        "Rebalancing pipelines around stragglers",
        "Overlapped checkpoint writes",
    }
    assert _titles(cli, "search", "-venue:arxiv", "year:2024..") == {"Overlapped checkpoint writes"}
    assert _titles(cli, "list", "--search", 'owner:"zhuo jiang" OR year:1990') == {
        t for t, _, _ in RECORDS
    }
    assert _titles(cli, "search", "stragglers", "OR", "checkpoint") == {
        "Rebalancing pipelines around stragglers",
        "Overlapped checkpoint writes",
    }
    assert _titles(cli, "search", "colour:blue") == set()  # plain words, no error


def test_note_and_venue_ignore_the_case_of_any_letter(cli: Cli, tmp_path: Path) -> None:
    page = tmp_path / "zhuo.txt"
    page.write_text(publication_page("Zhuo Jiang", RECORDS), encoding="utf-8")
    assert cli("import", page).code == 0
    run = cli("search", "stragglers", "--json")
    (paper,) = json.loads(run.out)
    assert cli("note", paper["id"], "Été").code == 0
    assert cli("edit", paper["id"], "--venue", "Études Informatiques").code == 0
    title = paper["title"]
    for typed in ("note:Été", "note:été", "note:ÉTÉ", "venue:Études", "venue:études"):
        assert _titles(cli, "search", typed) == {title}, typed
    assert _titles(cli, "search", "venue:ÉTUDES", "year:2024") == {title}
    assert title not in _titles(cli, "search", "-venue:études")
    text = cli("search", "venue:études")
    assert text.code == 0 and text.out.splitlines()[-1] == "1 of 1 paper"


def test_a_line_of_no_searchable_word_filters_nothing(cli: Cli, tmp_path: Path) -> None:
    # A lone quote or dash is the start of what is being typed: the list stays whole (and
    # "refman search", given nothing to search for, says so).
    page = tmp_path / "page.txt"
    page.write_text(publication_page("Zhuo Jiang", RECORDS), encoding="utf-8")
    assert cli("import", page).code == 0

    def found(typed: str) -> set[str]:
        run = cli("list", "--json", "--search", typed)
        assert run.code == 0, run.err
        return {p["title"] for p in json.loads(run.out)}

    every = _titles(cli, "list")
    assert len(every) == len(RECORDS)
    for typed in ('"', '""', "-", "'", '" -'):
        assert found(typed) == every, typed
        refused = cli("search", "--json", "--", typed)
        assert refused.code == 2 and refused.err.startswith("refman: Nothing to search for.")
    assert len(found('"rebalancing')) == 1  # an unclosed phrase still searches
