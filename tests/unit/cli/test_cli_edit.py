"""The changing commands (tag, untag, note, edit, mark, rate, trash, restore, empty-trash)
persist."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from refman.core.library import LibraryService
from tests.helpers.cli import Cli, runner
from tests.helpers.fixtures import dump, sourced

PAGE = """Marisol Quintana

Publications and source records attributed to Marisol Quintana.

2 records

arXiv2025

Tidewater: Streaming Joins over Unbounded Sensor Logs

Sensor networks emit logs faster than batch systems can join them. We present Tidewater.

cs.DB↗

ICLR2024

Quiet Progress in Tensor Sketching

Tensor sketches compress multiway data while preserving inner products of the data.

cs.DS↗
"""


@pytest.fixture
def ids(library: LibraryService) -> list[int]:
    """Ids of the two papers of the page, imported through the service."""
    return list(library.import_pages([sourced(PAGE, "page.txt")]).new_ids)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], library_location: str) -> Cli:
    return runner(capsys, library_location)


def shown(cli: Cli, paper: int) -> dict[str, Any]:
    result = cli("show", paper, "--json")
    assert result.code == 0, result.err
    return dict(json.loads(result.out))


def test_tag_and_untag(cli: Cli, ids: list[int]) -> None:
    first = ids[0]
    result = cli("tag", first, "to read", "Systems")
    assert result.code == 0
    assert result.out == f"Tagged #{first} with “to read”, “Systems”.\n"
    assert shown(cli, first)["tags"] == ["Systems", "to read"]
    result = cli("tag", ids[1], "SYSTEMS")  # the library's tag, named as the library has it
    assert result.out == f"Tagged #{ids[1]} with “Systems”.\n"
    assert shown(cli, ids[1])["tags"] == ["Systems"]
    result = cli("untag", first, "systems", "unknown")
    assert result.code == 0
    assert "Removed “Systems”" in result.out
    assert "has no tag “unknown”" in result.out
    assert shown(cli, first)["tags"] == ["to read"]


def test_rename_tag_renames_or_merges_and_delete_tag_deletes_as_the_window_does(
    cli: Cli, ids: list[int]
) -> None:
    first, second = ids
    cli("tag", first, "to read", "systems")
    cli("tag", second, "to read")
    cli("save-search", "Queue", "--tag", "to read")
    result = cli("rename-tag", "TO READ", "Reading queue")
    assert (result.code, result.out) == (
        0,
        "Renamed the tag “to read” to “Reading queue” (2 papers).\n",
    )
    assert shown(cli, second)["tags"] == ["Reading queue"]
    (search,) = json.loads(cli("searches", "--json").out)
    assert (search["tags"], search["count"]) == (["Reading queue"], 2)  # it follows the tag
    merged = json.loads(cli("rename-tag", "systems", "READING QUEUE", "--json").out)
    assert merged == {
        "changed": [first],
        "unchanged": [],
        "tag": "systems",
        "to": "Reading queue",
        "merged": True,
    }
    assert shown(cli, first)["tags"] == ["Reading queue"]
    result = cli("delete-tag", "reading QUEUE")
    assert (result.code, result.out) == (
        0,
        "Deleted the tag “Reading queue” (it was on 2 papers).\n",
    )
    assert shown(cli, first)["tags"] == shown(cli, second)["tags"] == []
    assert cli("tags", "--json").out.strip() == "[]"


def test_rename_tag_and_delete_tag_refuse_a_tag_that_is_not_there(cli: Cli, ids: list[int]) -> None:
    cli("tag", ids[0], "neurips")
    result = cli("delete-tag", "nuerips")
    assert result.code == 2
    assert result.err == "refman: There is no tag “nuerips”. Tags like it: neurips.\n"
    result = cli("rename-tag", "neurips", "  ")
    assert result.code == 2
    assert "A tag needs a name" in result.err
    assert shown(cli, ids[0])["tags"] == ["neurips"]


def test_note_prints_its_id_and_is_kept(cli: Cli, ids: list[int]) -> None:
    result = cli("note", ids[1], "Read", "section 4 again")
    assert result.code == 0
    notes = shown(cli, ids[1])["notes"]
    assert [n["text"] for n in notes] == ["Read section 4 again"]
    assert result.out == f"Added note #{notes[0]['id']} to #{ids[1]}.\n"
    assert set(notes[0]) == {"id", "text", "modified", "created_by", "modified_by"}


def test_note_json_prints_the_note_as_show_does_with_its_paper(cli: Cli, ids: list[int]) -> None:
    """A script gets the new note's id without reading a sentence."""
    result = cli("note", ids[0], "Check the proof", "--json")
    assert result.code == 0, result.err
    added = json.loads(result.out)
    assert added == {**shown(cli, ids[0])["notes"][0], "paper": ids[0]}
    assert added["text"] == "Check the proof"


def test_edit_changes_title_year_and_venue(cli: Cli, ids: list[int]) -> None:
    paper = ids[0]
    result = cli("edit", paper, "--title", "Tidewater", "--year", "2021", "--venue", "VLDB")
    assert result.code == 0, result.err
    after = shown(cli, paper)
    assert (after["title"], after["year"], after["venue"]) == ("Tidewater", 2021, "VLDB")
    assert result.out == f"Changed the title, year and venue of #{paper}.\n"
    again = cli("edit", paper, "--year", "2021")
    assert again.out == f"The year of #{paper} is already so: nothing changed.\n"
    assert cli("edit", paper, "--year", "", "--venue", "").code == 0
    after = shown(cli, paper)
    assert (after["title"], after["year"], after["venue"]) == ("Tidewater", None, None)


def test_typed_text_keeps_no_control_characters_as_an_import_does(
    cli: Cli, ids: list[int], tmp_path: Path
) -> None:
    # An ESC sequence or a bidirectional override pasted into a title, a tag or a note would
    # act on a terminal or in a .bib written to a file; an import drops them, so do edits.
    paper = ids[0]
    assert cli("edit", paper, "--title", "Tide\x1b[2Jwater", "--venue", "VL\u202eDB").code == 0
    assert cli("tag", paper, "to\x07read").code == 0
    assert cli("note", paper, "line\x1b]8;;http://x\x1b\\one\nline two").code == 0
    after = shown(cli, paper)
    assert (after["title"], after["venue"], after["tags"]) == ("Tide[2Jwater", "VLDB", ["toread"])
    assert [n["text"] for n in after["notes"]] == ["line]8;;http://x\\one\nline two"]
    out = tmp_path / "refs.bib"
    assert cli("export", paper, "-o", out).code == 0
    assert "\x1b" not in out.read_text(encoding="utf-8")


def test_a_citation_key_that_differs_only_in_case_is_taken(
    cli: Cli, ids: list[int], tmp_path: Path
) -> None:
    # BibTeX ignores case in keys: two keys equal but for case are one key to it.
    first, second = (str(shown(cli, paper)["citekey"]) for paper in ids)
    refused = cli("edit", ids[1], "--citekey", first.upper())
    assert refused.code == 2
    assert f"differs only in case from “{first}”" in refused.err and "BibTeX" in refused.err
    assert shown(cli, ids[1])["citekey"] == second
    assert cli("edit", ids[0], "--citekey", "Quintana2025").code == 0
    assert cli("edit", ids[0], "--citekey", "QUINTANA2025").code == 0  # its own key: fine
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{quintana2025, title = {An Unrelated Paper on Tide Tables},"
        " author = {Quintana, Marisol}, year = 2025}\n",
        encoding="utf-8",
    )
    assert cli("import", bib).code == 0
    keys = sorted(str(p["citekey"]) for p in json.loads(cli("list", "--json").out))
    assert "QUINTANA2025" in keys and "quintana2025" not in keys
    assert len({k.lower() for k in keys}) == len(keys) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--year", "soon"], "“soon” is not a year."),
        (["--year", "20000"], "“20000” is not a year."),
        (["--title", "  "], "A title cannot be empty."),
        ([], "Nothing to change."),
    ],
)
def test_bad_edits_are_refused_in_one_line(
    cli: Cli, ids: list[int], library_path: Path, args: list[str], message: str
) -> None:
    before = dump(library_path)
    result = cli("edit", ids[0], *args)
    assert result.code == 2
    assert result.err.startswith(f"refman: {message}")
    assert result.err.count("\n") == 1
    assert dump(library_path) == before


def test_trash_restore_and_empty_trash(cli: Cli, ids: list[int]) -> None:
    first, second = ids
    result = cli("trash", first, second)
    assert result.code == 0
    assert result.out == f"Moved 2 papers to the Trash (#{first}, #{second}).\n"
    assert json.loads(cli("list", "--json").out) == []
    trashed = json.loads(cli("list", "--section", "trash", "--json").out)
    assert sorted(p["id"] for p in trashed) == [first, second]
    assert all(p["trashed"] is not None for p in trashed)  # (as show says "In the Trash")
    assert shown(cli, first)["trashed"] == trashed[0]["trashed"]
    assert cli("restore", first).code == 0
    assert [p["id"] for p in json.loads(cli("list", "--json").out)] == [first]
    assert shown(cli, first)["trashed"] is None
    cli("tag", second, "only the second", "both")
    cli("tag", first, "both")
    result = cli("empty-trash")
    assert result.out == (
        "Deleted 1 paper for good. The tag “only the second”, on no paper now, went with them.\n"
    )
    assert cli("tags").out.split() == ["1", "both"]
    assert cli("show", second).code == 2
    assert cli("empty-trash").out == "The Trash is already empty.\n"
    assert [p["id"] for p in json.loads(cli("list", "--json").out)] == [first]


def test_empty_trash_of_some_papers_deletes_only_those(cli: Cli, ids: list[int]) -> None:
    first, second = ids
    assert cli("trash", first).code == 0
    refused = cli("empty-trash", first, second)
    assert (refused.code, refused.out) == (2, "")
    assert refused.err == (
        f"refman: #{second} is not in the Trash: only papers in the Trash are deleted for "
        "good. Move them to the Trash first.\n"
    )
    assert cli("show", first).code == 0  # (nothing deleted)
    assert cli("trash", second).code == 0
    assert cli("empty-trash", first).out == f"Deleted 1 paper for good (#{first}).\n"
    assert cli("show", first).code == 2
    trashed = json.loads(cli("list", "--section", "trash", "--json").out)
    assert [p["id"] for p in trashed] == [second]
    assert json.loads(cli("empty-trash", second, "--json").out) == {
        "changed": [second],
        "unchanged": [],
        "tags_deleted": [],
    }


def test_mark_and_rate_set_the_reading_status_and_the_stars(cli: Cli, ids: list[int]) -> None:
    first, second = ids
    result = cli("mark", first, second, "READ")
    assert (result.code, result.out) == (0, f"Marked 2 papers as read (#{first}, #{second}).\n")
    assert cli("mark", first, "read").out == f"Already read: #{first}.\n"
    assert json.loads(cli("list", "--section", "unread", "--json").out) == []
    assert cli("rate", first, 4).out == f"Rated 1 paper ★★★★☆ (#{first}).\n"
    shown = json.loads(cli("show", first, "--json").out)
    assert (shown["status"], shown["rating"]) == ("read", 4)
    assert "Reading:       read  ★★★★☆" in cli("show", first).out
    rated = json.loads(cli("list", "--sort", "rating", "--desc", "--json").out)
    assert [p["id"] for p in rated] == [first, second]
    assert cli("rate", first, 0).out == f"Cleared the rating of 1 paper (#{first}).\n"
    assert cli("mark", second, "unread").code == 0
    unread = json.loads(cli("list", "--section", "unread", "--json").out)
    assert [(p["id"], p["status"], p["rating"]) for p in unread] == [(second, "unread", 0)]


@pytest.mark.parametrize("args", [("mark", 1, "done"), ("rate", 1, 6), ("rate", 1, "many")])
def test_a_status_or_rating_refman_does_not_know_is_a_usage_error(
    cli: Cli, ids: list[int], args: tuple[object, ...]
) -> None:
    result = cli(*args)
    assert result.code == 2
    assert "invalid" in result.err  # argparse names the argument and what it takes
    assert json.loads(cli("show", ids[0], "--json").out)["status"] == "unread"


def test_unknown_ids_change_nothing(cli: Cli, ids: list[int], library_path: Path) -> None:
    before = dump(library_path)
    for args in (
        ("trash", ids[0], 999),
        ("tag", 999, "x"),
        ("note", 999, "x"),
        ("mark", ids[0], 999, "read"),
    ):
        result = cli(*args)
        assert result.code == 2
        assert result.err.startswith("refman: There is no paper #999")
    assert dump(library_path) == before


def test_an_id_that_is_not_a_number_is_a_usage_error(cli: Cli, ids: list[int]) -> None:
    result = cli("show", "twelve")
    assert result.code == 2
    assert "“twelve” is not an id" in result.err
    assert "Traceback" not in result.err


def test_merge_keeps_one_paper_and_says_what_it_gained(cli: Cli, ids: list[int]) -> None:
    first, second = ids
    assert cli("tag", second, "sketching").code == 0
    assert cli("note", second, "Read the proofs first.").code == 0
    key = shown(cli, second)["citekey"]
    result = cli("merge", first, second)
    assert result.code == 0, result.err
    assert result.out == (
        f"Merged #{second} into #{first} “Tidewater: Streaming Joins over Unbounded Sensor "
        f"Logs”. It gained the type (paper-conference), the venue, the year of publication, "
        f"{key} as another citation key, subject cs.DS, 1 tag and 1 note. #{second} is in the "
        "Trash.\n"
    )
    assert [p["id"] for p in json.loads(cli("list", "--json").out)] == [first]
    kept = shown(cli, first)
    assert kept["tags"] == ["sketching"]
    assert [n["text"] for n in kept["notes"]] == ["Read the proofs first."]
    assert kept["title"].startswith("Tidewater")  # its own title stays
    # a preprint merged with a published version: its venue and year come in
    assert (kept["year"], kept["venue"]) == (2024, "ICLR")


def test_merge_json_and_refusals(cli: Cli, ids: list[int]) -> None:
    first, second = ids
    refused = cli("merge", first, first)
    assert (refused.code, refused.out) == (2, "")
    assert "cannot be merged with itself" in refused.err and "Traceback" not in refused.err
    assert cli("merge", first, 999).code == 2
    assert len(json.loads(cli("list", "--json").out)) == 2
    key = shown(cli, first)["citekey"]
    preview = cli("merge", second, first, "--dry-run")
    assert (preview.code, preview.out) == (
        0,
        f"Merging #{first} into #{second} “Quiet Progress in Tensor Sketching” would add "
        f"{key} as another citation key and subject cs.DB.\n",
    )
    dry = json.loads(cli("merge", second, first, "--dry-run", "--json").out)
    assert dry == {
        "kept": second,
        "merged": first,
        "added": [f"{key} as another citation key", "subject cs.DB"],
        "dry_run": True,
        "merged_all": [first],
    }
    assert len(json.loads(cli("list", "--json").out)) == 2  # nothing changed
    result = cli("merge", second, first, "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out) == {
        "kept": second,
        "merged": first,
        "added": [f"{key} as another citation key", "subject cs.DB"],
        "dry_run": False,
        "merged_all": [first],
    }
    trashed = json.loads(cli("list", "--section", "trash", "--json").out)
    assert [p["id"] for p in trashed] == [first]
    assert (trashed[0]["merged_into"], shown(cli, second)["merged_into"]) == (second, None)
    assert "Merged into:" in cli("show", first).out
    assert shown(cli, second)["citekey_aliases"] == [key]


THIRD = """Ines Duarte

Publications and source records attributed to Ines Duarte.

1 records

VLDB2025

Tidewater, a Streaming Join Engine

We typed this record in from the printed proceedings of the conference.

cs.DC↗
"""


def test_merge_several_papers_at_once(cli: Cli, ids: list[int], library: LibraryService) -> None:
    first, second = ids
    (third,) = library.import_pages([sourced(THIRD, "ines.txt")]).new_ids
    assert cli("tag", third, "engines").code == 0
    twice = cli("merge", first, second, second)
    assert twice.code == 2 and f"#{second} was named twice" in twice.err
    dry = json.loads(cli("merge", first, second, third, "--dry-run", "--json").out)
    assert (dry["merged"], dry["merged_all"], dry["dry_run"]) == (second, [second, third], True)
    result = cli("merge", first, second, third)
    assert result.code == 0, result.err
    assert result.out.startswith(f"Merged #{second} and #{third} into #{first} “Tidewater")
    assert result.out.endswith(f"#{second} and #{third} are in the Trash.\n")
    assert "1 tag" in result.out
    assert [p["id"] for p in json.loads(cli("list", "--json").out)] == [first]
    trashed = json.loads(cli("list", "--section", "trash", "--json").out)
    assert sorted(p["id"] for p in trashed) == [second, third]
    assert {p["merged_into"] for p in trashed} == {first}
    assert shown(cli, first)["tags"] == ["engines"]


def test_rename_tag_and_delete_tag_count_papers_as_refman_tags_does(
    cli: Cli, ids: list[int]
) -> None:
    """``refman tags`` counts the papers outside the Trash: "0  drafts" then "Renamed … (1
    paper)" would contradict it; the paper in the Trash is said to be there."""
    first, second = ids
    cli("tag", first, "drafts")
    cli("tag", second, "drafts")
    cli("trash", second)
    assert cli("tags").out.split() == ["1", "drafts"]
    result = cli("rename-tag", "drafts", "Drafts 2024")
    assert result.out == (
        "Renamed the tag “drafts” to “Drafts 2024” (1 paper, and 1 in the Trash).\n"
    )
    cli("trash", first)
    result = cli("delete-tag", "Drafts 2024")
    assert result.out == "Deleted the tag “Drafts 2024” (it was on 2 papers in the Trash).\n"


def test_tag_and_untag_take_several_papers(cli: Cli, ids: list[int]) -> None:
    first, second = ids
    result = cli("tag", first, second, "to read", "2024")
    assert (result.code, result.out) == (
        0,
        f"Tagged 2 papers with “to read”, “2024” (#{first}, #{second}).\n",
    )
    assert shown(cli, first)["tags"] == shown(cli, second)["tags"] == ["2024", "to read"]
    assert cli("tag", first, "2023").out == f"Tagged #{first} with “2023”.\n"  # (a tag, last)
    result = cli("tag", first, second, "--tag", "2025", "--json")
    assert json.loads(result.out) == {
        "changed": [first, second],
        "unchanged": [],
        "tags": ["2025"],
    }
    misread = cli("untag", first, second, "2023", "nope")  # 2023 reads as a paper
    assert misread.err.startswith("refman: There is no paper #2023 in this library.")
    result = cli("untag", first, second, "nope", "--tag", "2023", "--json")
    assert json.loads(result.out) == {
        "changed": [first],
        "unchanged": [second],
        "tags": ["2023"],
        "absent": ["nope"],
    }
    result = cli("untag", f"#{first}", second, "to read")
    assert result.out == f"Removed “to read” from #{first}, #{second}.\n"
    refused = cli("tag", first, 999, "x")
    assert (refused.code, refused.err) == (
        2,
        "refman: There is no paper #999 in this library. Use “refman list” to see the ids.\n",
    )
    assert cli("tag", first).err == (
        "refman: No tag was given. Tags after the ids: refman tag 12 15 to-read\n"
    )
    assert shown(cli, first)["tags"] == ["2024", "2025"]
