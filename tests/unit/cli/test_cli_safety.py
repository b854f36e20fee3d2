"""Text that cannot hurt: hostile characters never reach the library or the terminal, fields
keep to their limits, long searches stay fast, and a query may start with "-"."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from refman.importers.safe_text import MAX_TITLE
from tests.helpers.cli import Cli, runner

ESC_CLEAR = "\x1b[2J"
OSC8_LINK = "\x1b]8;;file:///etc/passwd\x07click\x1b]8;;\x07"
#: A title a saved page may carry (a file holding NUL is refused as binary before parsing).
HOSTILE_TITLE = f"Lattice{ESC_CLEAR} engines {OSC8_LINK} for the \u202eanalytical\x9b age"
#: Whatever a terminal could act on.
ACTIVE = ("\x1b", "\x07", "\x00", "\x9b", "\u202e", "\r")


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], library_path: Path) -> Cli:
    return runner(capsys, library_path)


def page(title: str, owner: str = "Ada Lovelace", abstract: str = "") -> str:
    abstract = abstract or "We study lattice engines and their use in the analytical age."
    return (
        f"{owner}\n\nPublications and source records attributed to {owner}.\n\n"
        f"arXiv2021\n\n{title}\n\n{abstract}\n\ncs.LG↗\n"
    )


def _quiet(text: str) -> None:
    for char in ACTIVE:
        assert char not in text, f"{char!r} reached the terminal"


def test_import_removes_control_characters_and_says_how_many(cli: Cli, tmp_path: Path) -> None:
    source = tmp_path / "hostile.txt"
    source.write_text(page(HOSTILE_TITLE, owner="Ada\x1b[31m Lovelace"), encoding="utf-8")
    result = cli("import", str(source), "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out.splitlines()[0])
    assert any("Removed 8 control characters" in w for w in report["warnings"]), report
    shown = json.loads(cli("show", "1", "--json").out)
    assert (
        shown["title"]
        == "Lattice[2J engines ]8;;file:///etc/passwdclick]8;; for the analytical age"
    )
    assert shown["attributed_to"] == ["Ada[31m Lovelace"]
    for command in (["list"], ["show", "1"], ["search", "lattice"], ["list", "--json"]):
        result = cli(*command)
        assert result.code == 0
        _quiet(result.out)


def test_text_already_in_a_library_is_printed_escaped_and_round_trips_as_json(
    cli: Cli, tmp_path: Path, library_path: Path
) -> None:
    source = tmp_path / "page.txt"
    source.write_text(page("Plain lattice engines"), encoding="utf-8")
    assert cli("import", str(source)).code == 0
    with sqlite3.connect(library_path) as conn:  # as an older refman may have stored it
        conn.execute(
            "UPDATE papers SET title = ?, venue = ?", (HOSTILE_TITLE + "\x00", "Venue\u2029X")
        )
    for command in (["list"], ["show", "1"], ["search", "lattice"]):
        result = cli(*command)
        assert result.code == 0, result.err
        _quiet(result.out)
        assert "\u2029" not in result.out
    assert "\\u001b[2J" in cli("show", "1").out
    result = cli("show", "1", "--json")
    _quiet(result.out)
    assert json.loads(result.out)["title"] == HOSTILE_TITLE + "\x00"  # plain JSON, read back


def test_overlong_fields_are_cut_with_a_warning(cli: Cli, tmp_path: Path) -> None:
    source = tmp_path / "long.txt"
    source.write_text(page("Lattice " * 600_000), encoding="utf-8")  # a 4.8 MB title
    result = cli("import", str(source), "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out.splitlines()[0])
    assert any("Cut overlong text (title)" in w for w in report["warnings"]), report
    title = json.loads(cli("show", "1", "--json").out)["title"]
    assert len(title) == MAX_TITLE and title.endswith("…")


def test_a_query_may_start_with_a_dash_and_long_queries_use_their_first_words(
    cli: Cli, tmp_path: Path
) -> None:
    source = tmp_path / "page.txt"
    source.write_text(page("Recurrent rnn engines"), encoding="utf-8")
    assert cli("import", str(source)).code == 0
    for query in (["-rnn"], ["--json", "-rnn"], ["engines", "-rnn", "--limit", "5"]):
        result = cli("search", *query)
        assert result.code == 0, result.err
        assert "Recurrent rnn engines" in result.out
    result = cli("search", " ".join(["rnn"] * 3 + [f"w{i}" for i in range(800)]))
    assert result.code == 0
    assert "first 64 words and phrases" in result.err
    assert result.out.splitlines()[-1] == "0 of 0 papers"
    result = cli("search", "rnn " * 70)
    assert "first 64 words" in result.err and "Recurrent rnn engines" in result.out
    assert cli("search").code == 2


def test_an_error_message_stays_on_one_line(cli: Cli, tmp_path: Path) -> None:
    result = cli("import", str(tmp_path / "gone\u2029\x1b[2Jpage.txt"))
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1
    _quiet(result.err)
