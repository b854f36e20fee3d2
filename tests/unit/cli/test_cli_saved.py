"""``refman searches``, ``save-search``, ``delete-search`` and ``list --saved``."""

from __future__ import annotations

import json
from pathlib import Path

from refman.cli.saved_cmd import SAVED_KEYS
from tests.helpers.cli import Cli
from tests.helpers.pages import THREE_PAPERS as RECORDS
from tests.helpers.pages import publication_page


def test_saved_searches_are_saved_listed_used_changed_and_deleted(cli: Cli, tmp_path: Path) -> None:
    page = tmp_path / "zhuo.txt"
    page.write_text(publication_page("Zhuo Jiang", RECORDS), encoding="utf-8")
    assert cli("import", page).code == 0
    assert cli("tag", "1", "to read").code == 0
    saved = cli("save-search", "Recent work", "--search", "year:2024..")
    assert saved.code == 0 and "Saved the search “Recent work”" in saved.out
    listed = json.loads(cli("searches", "--json").out)
    assert [tuple(v) for v in listed] == [SAVED_KEYS]
    assert (listed[0]["search"], listed[0]["count"]) == ("year:2024..", 2)
    papers = json.loads(cli("list", "--saved", "recent work", "--json").out)
    assert {p["year"] for p in papers} == {2024, 2025}

    changed = cli("save-search", "Recent work", "--tag", "to read", "--tag", "systems", "--any-tag")
    assert changed.code == 0 and "Changed the search" in changed.out
    text = cli("searches").out
    assert "Recent work: tagged to read or systems — 1 paper" in text

    assert cli("delete-search", "Recent work").code == 0
    assert json.loads(cli("searches", "--json").out) == []
    missing = cli("list", "--saved", "Recent work")
    assert missing.code == 2 and "no saved search “Recent work”" in missing.err
    assert cli("save-search", "  ").code == 2
