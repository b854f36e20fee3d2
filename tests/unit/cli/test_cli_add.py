"""``refman add``: a paper by hand from the command line, said in words or as JSON; a bad
value is exit status 2 with why, and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from refman.__main__ import main
from refman.core.library import LibraryService
from tests.helpers.cli import Cli


def test_add_makes_a_paper_and_says_so(cli: Cli, library: LibraryService) -> None:
    done = cli(
        "add",
        "The Art of Computer Programming",
        "--author",
        "Knuth, Donald E.",
        "--year",
        "1968",
        "--type",
        "book",
        "--tag",
        "classics",
    )
    assert done.code == 0, done.err
    [paper_id] = library.paper_ids()
    assert done.out == f"Added #{paper_id} “The Art of Computer Programming”.\n"
    paper = library.paper(paper_id)
    assert (paper.authors, paper.year, paper.type) == (("Donald E. Knuth",), 1968, "book")
    assert [tag.name for tag in paper.tags] == ["classics"]
    again = cli("add", "The Art of Computer Programming", "--volume", "1", "--json")
    assert json.loads(again.out) == {
        "changed": [paper_id],
        "unchanged": [],
        "id": paper_id,
        "created": False,
        "resembles": None,
    }
    assert library.paper(paper_id).volume == "1" and library.count() == 1


def test_add_refuses_a_bad_value_with_exit_status_2(cli: Cli, library: LibraryService) -> None:
    done = cli("add", "A Paper", "--year", "MMXX")
    assert done.code == 2 and done.out == ""
    assert "“MMXX” is not a year" in done.err
    assert cli("add", "  ").code == 2
    assert library.count() == 0


def test_add_starts_a_library_that_does_not_exist_yet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A paper added by hand is an import of one record: like ``refman import``, it starts
    the library named, where every other command says there is none."""
    new = tmp_path / "new.sqlite"
    assert main(["--db", str(new), "add", "On Growth and Form", "--year", "1917"]) == 0
    assert capsys.readouterr().out.startswith("Added #")
    assert main(["--db", str(new), "list", "--json"]) == 0
    [paper] = json.loads(capsys.readouterr().out)
    assert (paper["title"], paper["year"]) == ("On Growth and Form", 1917)


def test_a_paper_added_without_a_type_is_a_journal_article_as_in_the_window(
    cli: Cli, library: LibraryService
) -> None:
    """The window's form starts at *Journal article*: ``refman add`` without ``--type``
    gives the same type, not *Preprint*."""
    assert cli("add", "Deep Residual Learning", "--venue", "CVPR").code == 0
    [paper_id] = library.paper_ids()
    assert library.paper(paper_id).type == "article-journal"
