"""``refman history`` and ``refman revert``: the imports listed, a dry run that changes
nothing, a revert, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

from refman.cli.history_cmd import HISTORY_KEYS, REVERT_KEYS
from tests.helpers.cli import Cli
from tests.helpers.fixtures import dump
from tests.helpers.pages import generated_page, publication_page

FIRST = [("Rebalancing pipelines around stragglers", 2024, "arXiv")]
SECOND = [*FIRST, ("Overlapped checkpoint writes", 2025, "arXiv")]


def _imported(cli: Cli, tmp_path: Path) -> list[dict[str, object]]:
    for name, records in (("old.txt", FIRST), ("new.txt", SECOND)):
        path = tmp_path / name
        path.write_text(publication_page("Zhuo Jiang", records), encoding="utf-8")
        assert cli("import", path).code == 0
    run = cli("history", "--json")
    assert run.code == 0
    history: list[dict[str, object]] = json.loads(run.out)
    return history


def test_history_lists_the_imports_newest_first(
    cli: Cli, tmp_path: Path, library_location: str
) -> None:
    history = _imported(cli, tmp_path)
    assert all(tuple(h) == HISTORY_KEYS for h in history)
    assert [(h["records"], h["new"]) for h in history] == [(2, 1), (1, 1)]
    assert history[0]["pages"] == [
        {
            "batch": history[0]["import"],
            "source": "new.txt",  # the file name
            "owner": "Zhuo Jiang",
            "format": "publication-list",
            "records": 2,
        }
    ]
    text = cli("history").out
    by = " by postgres" if "://" in library_location else ""  # (who, on a shared library)
    assert f"new.txt (Zhuo Jiang){by} — 2 records: 1 new, 0 merged" in text


def test_a_dry_run_changes_nothing_and_a_revert_reverts(
    cli: Cli, tmp_path: Path, library_location: str
) -> None:
    history = _imported(cli, tmp_path)
    older = history[1]["import"]
    before = dump(Path(library_location)) if "://" not in library_location else None
    dry = cli("revert", older, "--dry-run", "--json")
    assert dry.code == 0
    plan = json.loads(dry.out)
    assert tuple(plan) == REVERT_KEYS and plan["dry_run"] is True
    assert plan["removed"] == []
    assert [k["reason"] for k in plan["kept"]] == ["a later import also brought it"]
    if before is not None:
        assert dump(Path(library_location)) == before
    newer = history[0]["import"]
    done = cli("revert", newer)
    assert done.code == 0
    assert "Removed 1 paper." in done.out and "removed: #" in done.out
    assert len(json.loads(cli("list", "--json").out)) == 1
    assert [h["import"] for h in json.loads(cli("history", "--json").out)] == [older]


def test_an_unknown_import_is_a_users_problem(cli: Cli) -> None:
    run = cli("revert", 42)
    assert run.code == 2
    assert "There is no import #42" in run.err and "refman history" in run.err
    assert cli("revert", "x").code == 2


def test_counts_of_thousands_are_grouped_alike(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "prolific.txt"
    path.write_text(generated_page(1200), encoding="utf-8")
    imported = cli("import", path)
    assert "1,200 new, 0 merged" in imported.out
    assert "1,200 records: 1,200 new, 0 merged" in cli("history").out


def test_a_large_revert_names_twenty_papers_and_counts_the_rest(cli: Cli, tmp_path: Path) -> None:
    """It printed a line for each of the import's papers (4,000 for a large bibliography);
    ``--json`` still lists them all."""
    path = tmp_path / "prolific.txt"
    path.write_text(generated_page(45), encoding="utf-8")
    assert cli("import", path).code == 0
    [entry] = json.loads(cli("history", "--json").out)
    dry = cli("revert", entry["import"], "--dry-run")
    lines = dry.out.splitlines()
    assert sum(line.startswith("  would go: #") for line in lines) == 20
    assert "  … and 25 more (--json lists them all)" in lines
    plan = json.loads(cli("revert", entry["import"], "--dry-run", "--json").out)
    assert len(plan["removed"]) == 45
