"""``refman people``, ``person``, ``merge-people``, ``not-same``, ``list --person`` and what
``refman import`` says about a page imported again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from refman.cli import people_cmd
from refman.cli.people_cmd import PERSON_KEYS
from refman.core.library import LibraryService
from refman.store.models import DistinctPeople
from tests.helpers.cli import Cli
from tests.helpers.pages import JIANG_PAPERS as PAPERS
from tests.helpers.pages import abstracts_page, publication_page


def _page(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _people(cli: Cli, *args: object) -> list[dict[str, object]]:
    run = cli("people", *args, "--json")
    assert run.code == 0, run.err
    found: list[dict[str, object]] = json.loads(run.out)
    return found


def test_people_lists_everyone_and_a_person_has_a_page(cli: Cli, tmp_path: Path) -> None:
    page = _page(tmp_path, "jiang.txt", abstracts_page("Z. Jiang", PAPERS))
    assert cli("import", page).code == 0
    people = _people(cli)
    assert all(tuple(p) == PERSON_KEYS for p in people)
    assert [(p["name"], p["papers"]) for p in people] == [
        ("Mira Okafor", 2),
        ("Z. Jiang", 2),
        ("Lars Berg", 1),
        ("Zhuo Jiang", 1),
    ]
    owner = next(p for p in people if p["name"] == "Z. Jiang")
    assert (owner["pages"], owner["new"]) == (1, 2)
    assert [p["name"] for p in _people(cli, "OKAF")] == ["Mira Okafor"]

    text = cli("people")
    assert text.code == 0
    assert "Mira Okafor" in text.out and "(1 page, 2 new)" in text.out

    shown = cli("person", owner["id"], "--json")
    assert shown.code == 0
    data = json.loads(shown.out)
    assert [i["source"] for i in data["imports"]] == ["jiang.txt"]
    assert data["coauthors"][0] == {
        "id": next(p["id"] for p in people if p["name"] == "Mira Okafor"),
        "name": "Mira Okafor",
        "shared": 2,
    }
    assert "Pages imported" in cli("person", owner["id"]).out
    listed = cli("list", "--person", owner["id"], "--json")
    assert len(json.loads(listed.out)) == 2

    missing = cli("person", 9999)
    assert missing.code == 2 and "no person #9999" in missing.err


def test_people_json_lists_everyone_where_the_table_stops(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A script reading ``people --json`` gets every person, not the first thousand the
    table shows (two here) with nothing to say that some are missing."""
    monkeypatch.setattr(people_cmd, "PEOPLE_SHOWN", 2)
    assert cli("import", _page(tmp_path, "jiang.txt", abstracts_page("Z. Jiang", PAPERS))).code == 0
    assert len(_people(cli)) == 4
    assert "… and 2 more (give a NAME or --limit)." in cli("people").out
    assert len(_people(cli, "--limit", 3)) == 3
    # a name typed, and more people so named than shown: it says so too
    assert (
        "… and 1 more named like “jiang” (give --limit)."
        in cli("people", "jiang", "--limit", 1).out
    )


def test_spellings_are_listed_merged_and_told_apart(cli: Cli, tmp_path: Path) -> None:
    assert cli("import", _page(tmp_path, "a.txt", abstracts_page("Z. Jiang", PAPERS))).code == 0
    variants = json.loads(cli("people", "--variants", "--json").out)
    assert [(v["first"]["name"], v["second"]["name"]) for v in variants] == [
        ("Z. Jiang", "Zhuo Jiang")
    ]
    text = cli("people", "--variants").out
    first, second = variants[0]["first"]["id"], variants[0]["second"]["id"]
    assert f"refman merge-people {first} {second}" in text

    apart = cli("not-same", first, second)
    assert apart.code == 0
    assert apart.out == (
        f"“Z. Jiang” and “Zhuo Jiang”: not the same person (#{first} and #{second}): "
        "never proposed as one again.\n"
    )
    assert json.loads(cli("people", "--variants", "--json").out) == []

    merged = cli("merge-people", first, second)
    assert merged.code == 0 and "Merge “Zhuo Jiang” into “Z. Jiang”" in merged.out
    names = [p["name"] for p in _people(cli)]
    assert "Zhuo Jiang" not in names and "Z. Jiang" in names
    refused = cli("merge-people", first, first)
    assert refused.code == 2 and "themselves" in refused.err
    went = (
        f"Person #{second} was merged into #{first} Z. Jiang. "
        f"See them with “refman person {first}”."
    )
    for args in (("person", second), ("list", "--person", second), ("merge-people", first, second)):
        gone = cli(*args)
        assert (gone.code, gone.err) == (2, f"refman: {went}\n")


def test_importing_a_page_again_reports_what_is_new_since(cli: Cli, tmp_path: Path) -> None:
    first = [("Rebalancing pipelines around stragglers", 2024, "arXiv")]
    both = [*first, ("Overlapped checkpoint writes", 2025, "arXiv")]
    old = _page(tmp_path, "old.txt", publication_page("Zhuo Jiang", first))
    new = _page(tmp_path, "new.txt", publication_page("Zhuo Jiang", both))
    run = cli("import", old, "--json")
    assert json.loads(run.out)["since_last"] is None  # one file: one object
    run = cli("import", new, "--json")
    since = json.loads(run.out)["since_last"]
    assert set(since) == {"date", "new", "real_titles", "updated", "unchanged"}
    assert (since["new"], since["real_titles"], since["unchanged"]) == (1, 0, 1)
    again = cli("import", new)
    assert again.code == 0
    assert "0 new papers since" in again.out and "2 unchanged" in again.out


def _variant(cli: Cli, tmp_path: Path) -> dict[str, Any]:
    """Import a page of "Z. Jiang", one of whose papers "Zhuo Jiang" wrote: the proposal."""
    assert cli("import", _page(tmp_path, "a.txt", abstracts_page("Z. Jiang", PAPERS))).code == 0
    (variant,) = json.loads(cli("people", "--variants", "--json").out)
    found: dict[str, Any] = variant
    return found


def test_people_of_a_name_variant_have_their_pages_and_new_papers(cli: Cli, tmp_path: Path) -> None:
    variant = _variant(cli, tmp_path)
    people = {p["id"]: p for p in _people(cli)}
    assert variant["first"] == people[variant["first"]["id"]]
    assert variant["second"] == people[variant["second"]["id"]]
    owner = variant["first"]
    assert (owner["name"], owner["pages"], owner["new"]) == ("Z. Jiang", 1, 2)
    page = json.loads(cli("person", variant["second"]["id"], "--json").out)
    assert page["variants"] == [variant]


def test_listing_the_papers_of_no_person_is_refused(cli: Cli, tmp_path: Path) -> None:
    variant = _variant(cli, tmp_path)
    said = (
        "refman: There is no person #99999 in this library. Use “refman people” to see the ids.\n"
    )
    for args in (("list",), ("list", "--json"), ("search", "pipeline")):
        run = cli(*args, "--person", 99999)
        assert (run.code, run.out, run.err) == (2, "", said)
    first, second = variant["first"]["id"], variant["second"]["id"]
    assert cli("merge-people", first, second).code == 0
    merged = cli("list", "--person", second)
    assert merged.code == 2 and merged.out == ""
    assert merged.err.startswith(f"refman: Person #{second} was merged into #{first} ")
    assert len(json.loads(cli("list", "--person", first, "--json").out)) == 2


def test_a_person_is_not_told_apart_from_themselves(
    cli: Cli, tmp_path: Path, library_location: str
) -> None:
    variant = _variant(cli, tmp_path)
    first = variant["first"]["id"]
    run = cli("not-same", first, first)
    assert (run.code, run.out) == (2, "")
    assert run.err == "refman: A person cannot be told apart from themselves. Pick two people.\n"
    service = LibraryService.open(library_location)
    try:
        with service.db.reading() as session:
            assert session.execute(select(DistinctPeople.first_id)).all() == []
    finally:
        service.close()
    assert json.loads(cli("people", "--variants", "--json").out) == [variant]


def test_a_better_spelling_names_the_person_until_its_import_is_reverted(
    cli: Cli, tmp_path: Path
) -> None:
    abstract = PAPERS[0][1]
    plain = abstracts_page("Mira Okafor", [("Jose Garcia, Mira Okafor", abstract)])
    own = abstracts_page("José García", [("Jose Garcia, Mira Okafor", abstract)])
    assert cli("import", _page(tmp_path, "okafor.txt", plain)).code == 0
    assert cli("import", _page(tmp_path, "garcia.txt", own)).code == 0
    assert [p["name"] for p in _people(cli, "garcia")] == ["José García"]
    assert "José García et al." in cli("list").out
    (paper,) = json.loads(cli("list", "--json").out)
    assert paper["authors"] == ["José García", "Mira Okafor"]
    assert "AU  - García, José" in cli("export", "--format", "ris").out

    newest = json.loads(cli("history", "--json").out)[0]["import"]
    assert cli("revert", newest).code == 0
    assert [p["name"] for p in _people(cli, "garcia")] == ["Jose Garcia"]
    assert "Jose Garcia et al." in cli("list").out
