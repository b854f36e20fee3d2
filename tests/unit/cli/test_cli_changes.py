"""What the commands that change the library print with ``--json``: one object that starts
with ``changed`` and ``unchanged`` (papers), then the command's own keys; a paper that was
already so (in the Trash, read, tagged) is in ``unchanged``, and what is printed is what the
library holds afterwards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from refman.cli.output import CHANGE_KEYS, FILE_KEYS
from refman.core.library import LibraryService
from tests.helpers.cli import Cli, runner
from tests.helpers.fixtures import sourced
from tests.helpers.pages import JIANG_PAPERS, abstracts_page, publication_page
from tests.helpers.pdfs import make_pdf

RECORDS = [
    ("Tidewater: Streaming Joins over Unbounded Sensor Logs", 2025, "arXiv"),
    ("Quiet Progress in Tensor Sketching", 2024, "ICLR"),
]


@pytest.fixture
def ids(library: LibraryService) -> list[int]:
    """The two papers of a page, imported through the service."""
    page = sourced(publication_page("Marisol Quintana", RECORDS), "page.txt")
    return sorted(library.import_pages([page]).new_ids)


def changed(cli: Cli, *args: object) -> dict[str, Any]:
    """What a changing command printed with ``--json`` (it printed nothing else)."""
    run = cli(*args, "--json")
    assert (run.code, run.err) == (0, ""), run.err
    printed: dict[str, Any] = json.loads(run.out)
    assert tuple(printed)[:2] == CHANGE_KEYS
    return printed


def shown(cli: Cli, paper: int) -> dict[str, Any]:
    run = cli("show", paper, "--json")
    assert run.code == 0, run.err
    return dict(json.loads(run.out))


def test_tag_and_untag_say_which_paper_changed_and_which_tags(cli: Cli, ids: list[int]) -> None:
    first = ids[0]
    tagged = changed(cli, "tag", first, "to read", "Systems")
    assert tagged == {"changed": [first], "unchanged": [], "tags": ["to read", "Systems"]}
    again = changed(cli, "tag", first, "TO READ")  # it has it already, in any case
    assert again == {"changed": [], "unchanged": [first], "tags": ["to read"]}  # its name
    untagged = changed(cli, "untag", first, "systems", "unknown")
    assert untagged == {
        "changed": [first],
        "unchanged": [],
        "tags": ["Systems"],  # as the library names it
        "absent": ["unknown"],
    }
    assert shown(cli, first)["tags"] == ["to read"]
    nothing = changed(cli, "untag", first, "unknown")
    assert nothing == {"changed": [], "unchanged": [first], "tags": [], "absent": ["unknown"]}


def test_edit_says_whether_the_paper_changed_and_which_fields(cli: Cli, ids: list[int]) -> None:
    first = ids[0]
    edited = changed(cli, "edit", first, "--year", "2023", "--arxiv", "2402.15627")
    assert edited == {"changed": [first], "unchanged": [], "fields": ["year", "arxiv_id"]}
    paper = shown(cli, first)
    assert (paper["year"], paper["arxiv_id"]) == (2023, "2402.15627")
    again = changed(cli, "edit", first, "--year", "2023")  # the user's value already
    assert again == {"changed": [], "unchanged": [first], "fields": ["year"]}


def test_mark_and_rate_list_the_papers_that_already_were_so(cli: Cli, ids: list[int]) -> None:
    first, second = ids
    assert changed(cli, "mark", first, "read") == {
        "changed": [first],
        "unchanged": [],
        "status": "read",
    }
    marked = changed(cli, "mark", second, first, "READ")
    assert marked == {"changed": [second], "unchanged": [first], "status": "read"}
    rated = changed(cli, "rate", first, second, 4)
    assert rated == {"changed": [first, second], "unchanged": [], "rating": 4}
    cleared = changed(cli, "rate", second, 0)
    assert cleared == {"changed": [second], "unchanged": [], "rating": 0}
    assert [(shown(cli, p)["status"], shown(cli, p)["rating"]) for p in ids] == [
        ("read", 4),
        ("read", 0),
    ]


def test_trash_restore_and_empty_trash_say_what_moved_and_what_was_there(
    cli: Cli, ids: list[int]
) -> None:
    first, second = ids
    assert changed(cli, "trash", first) == {"changed": [first], "unchanged": []}
    trashed = changed(cli, "trash", second, first)  # the first is in the Trash already
    assert trashed == {"changed": [second], "unchanged": [first]}
    restored = changed(cli, "restore", first, first)
    assert restored == {"changed": [first], "unchanged": []}
    assert changed(cli, "restore", first) == {"changed": [], "unchanged": [first]}
    cli("tag", second, "second only")  # (on no paper once it is deleted: it goes with it)
    emptied = changed(cli, "empty-trash")  # the papers deleted for good, the tags with them
    assert emptied == {"changed": [second], "unchanged": [], "tags_deleted": ["second only"]}
    assert cli("show", second).code == 2
    assert changed(cli, "empty-trash") == {"changed": [], "unchanged": [], "tags_deleted": []}
    assert [p["id"] for p in json.loads(cli("list", "--json").out)] == [first]


def test_a_refused_change_prints_no_json(cli: Cli, ids: list[int]) -> None:
    """A paper that is not there is an error on stderr, as without ``--json``."""
    for args in (("trash", ids[0], 999), ("tag", 999, "x"), ("mark", 999, "read")):
        run = cli(*args, "--json")
        assert (run.code, run.out) == (2, "")
        assert run.err.startswith("refman: There is no paper #999")
    assert shown(cli, ids[0])["tags"] == []


def test_detach_says_which_file_it_took_off(
    capsys: pytest.CaptureFixture[str], library_path: Path, tmp_path: Path
) -> None:
    cli = runner(capsys, library_path)
    page = tmp_path / "page.txt"
    page.write_text(publication_page("Marisol Quintana", RECORDS), encoding="utf-8")
    assert cli("import", page).code == 0
    assert cli("attach", 1, make_pdf(tmp_path / "tidewater.pdf", pages=2)).code == 0
    (file,) = shown(cli, 1)["files"]
    detached = changed(cli, "detach", 1, "tidewater.pdf")
    assert detached == {"changed": [1], "unchanged": [], "file": file}
    assert tuple(detached["file"]) == FILE_KEYS
    assert shown(cli, 1)["files"] == []


def test_merge_people_and_not_same_name_the_people(cli: Cli, tmp_path: Path) -> None:
    page = tmp_path / "jiang.txt"
    page.write_text(abstracts_page("Z. Jiang", JIANG_PAPERS), encoding="utf-8")
    assert cli("import", page).code == 0
    (variant,) = json.loads(cli("people", "--variants", "--json").out)
    first, second = variant["first"]["id"], variant["second"]["id"]
    apart = changed(cli, "not-same", first, second)
    assert apart == {"changed": [], "unchanged": [], "people": [first, second]}
    assert json.loads(cli("people", "--variants", "--json").out) == []
    written_by_second = [p["id"] for p in json.loads(cli("list", "--person", second, "--json").out)]
    merged = changed(cli, "merge-people", first, second)
    assert merged == {
        "changed": sorted(written_by_second),
        "unchanged": [],
        "kept": first,
        "merged": second,
    }
    assert cli("person", second).code == 2


def test_delete_search_names_the_search_it_deleted(cli: Cli, ids: list[int]) -> None:
    saved = cli("save-search", "Recent", "--search", "year:2025..", "--json")
    assert saved.code == 0, saved.err
    search_id = json.loads(saved.out)["id"]
    deleted = changed(cli, "delete-search", "recent")
    assert deleted == {"changed": [], "unchanged": [], "id": search_id, "name": "Recent"}
    assert json.loads(cli("searches", "--json").out) == []
