"""``refman searches``, ``save-search``, ``delete-search`` and ``list --saved``."""

from __future__ import annotations

import json
from pathlib import Path

from refman.cli.saved_cmd import SAVED_KEYS
from refman.core.library import LibraryService
from tests.helpers.cli import Cli
from tests.helpers.pages import THREE_PAPERS as RECORDS
from tests.helpers.pages import publication_page


def test_saved_searches_are_saved_listed_used_changed_and_deleted(cli: Cli, tmp_path: Path) -> None:
    page = tmp_path / "zhuo.txt"
    page.write_text(publication_page("Zhuo Jiang", RECORDS), encoding="utf-8")
    assert cli("import", page).code == 0
    assert cli("tag", "1", "to read", "systems").code == 0
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
    assert "refman searches" in missing.err  # the command that lists them


def test_save_search_json_prints_the_search_as_searches_does(cli: Cli, tmp_path: Path) -> None:
    page = tmp_path / "zhuo.txt"
    page.write_text(publication_page("Zhuo Jiang", RECORDS), encoding="utf-8")
    assert cli("import", page).code == 0
    saved = cli("save-search", "Recent work", "--search", "year:2024..", "--json")
    assert saved.code == 0, saved.err
    assert json.loads(saved.out) == json.loads(cli("searches", "--json").out)[0]
    changed = json.loads(cli("save-search", "Recent work", "--search", "year:2025", "--json").out)
    assert (changed["search"], changed["count"]) == ("year:2025", 1)


def test_a_search_saved_under_a_number_is_a_new_search_not_the_one_with_that_id(
    cli: Cli, tmp_path: Path
) -> None:
    page = tmp_path / "zhuo.txt"
    page.write_text(publication_page("Zhuo Jiang", RECORDS), encoding="utf-8")
    assert cli("import", page).code == 0
    assert cli("save-search", "Recent", "--search", "year:2024..").code == 0
    assert cli("tag", "1", "to read").code == 0
    assert cli("save-search", "Reading", "--tag", "to read").code == 0
    reading = json.loads(cli("searches", "--json").out)[1]
    numbered = cli("save-search", str(reading["id"]), "--search", "tidewater")
    assert numbered.code == 0 and f"Saved the search “{reading['id']}”" in numbered.out
    found = {v["name"]: v for v in json.loads(cli("searches", "--json").out)}
    assert set(found) == {"Recent", "Reading", str(reading["id"])}
    assert found["Reading"]["tags"] == ["to read"] and found["Reading"]["search"] == ""
    # Named as a number, it is changed by that name; an id still finds the others.
    again = cli("save-search", str(reading["id"]), "--search", "megascale")
    assert again.code == 0 and "Changed the search" in again.out
    assert cli("list", "--saved", str(found["Recent"]["id"])).code == 0


def test_a_search_for_a_tag_the_library_does_not_hold_is_not_saved(
    cli: Cli, tmp_path: Path
) -> None:
    """It would find nothing, ever: the mistyped tag is named, with the tags like it."""
    page = tmp_path / "zhuo.txt"
    page.write_text(publication_page("Zhuo Jiang", RECORDS), encoding="utf-8")
    assert cli("import", page).code == 0
    assert cli("tag", "1", "to read").code == 0
    refused = cli("save-search", "Reading", "--tag", "to read", "--tag", "to raed")
    assert (refused.code, refused.out) == (2, "")
    assert refused.err == "refman: There is no tag “to raed”. Tags like it: to read.\n"
    assert json.loads(cli("searches", "--json").out) == []
    termed = cli("save-search", "Reading", "--search", 'scale tag:"to raed"')  # (a term)
    assert (termed.code, termed.err) == (2, refused.err)
    assert json.loads(cli("searches", "--json").out) == []
    assert cli("save-search", "Reading", "--search", 'scale tag:"TO READ"').code == 0


def test_a_saved_search_whose_tag_was_deleted_says_so(
    cli: Cli, tmp_path: Path, library: LibraryService
) -> None:
    page = tmp_path / "zhuo.txt"
    page.write_text(publication_page("Zhuo Jiang", RECORDS), encoding="utf-8")
    assert cli("import", page).code == 0
    assert cli("tag", "1", "systems").code == 0
    assert cli("save-search", "Systems", "--tag", "systems").code == 0
    library.delete_tag("systems")  # (in the window)
    listed = cli("searches")
    assert (
        "Systems: tagged systems — 0 papers (its tag “systems” is no longer in the library)"
        in listed.out
    )
    papers = cli("list", "--saved", "Systems")
    assert papers.code == 0 and "No paper matches." in papers.out
    assert "saved search “Systems”: its tag “systems” is no longer in the library" in papers.err
    assert library.saved_search("systems").gone == ("systems",)


def test_a_saved_search_whose_words_name_a_deleted_tag_says_so(
    cli: Cli, tmp_path: Path, library: LibraryService
) -> None:
    """A tag in the saved search's words (``tag:systems``) is one it names too: deleted, the
    search says so as for a tag among its tags (it said only "No paper matches.")."""
    page = tmp_path / "zhuo.txt"
    page.write_text(publication_page("Zhuo Jiang", RECORDS), encoding="utf-8")
    assert cli("import", page).code == 0
    assert cli("tag", "1", "Systems").code == 0
    assert cli("save-search", "Mine", "--search", "tag:systems").code == 0  # (any case)
    assert library.saved_search("Mine").gone == ()
    library.delete_tag("Systems")
    listed = cli("searches")
    assert "(its tag “systems” is no longer in the library)" in listed.out
    papers = cli("list", "--saved", "Mine")
    assert papers.code == 0 and "No paper matches." in papers.out
    assert "saved search “Mine”: its tag “systems” is no longer in the library" in papers.err
