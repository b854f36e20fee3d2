"""Text that cannot hurt: hostile characters never reach the library or the terminal, fields
keep to their limits, long searches stay fast, and a query may start with "-"."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from refman.__main__ import main
from refman.importers.safe_text import MAX_TITLE
from tests.helpers.cli import Cli, refman_process
from tests.helpers.disk import read_only, size_limit
from tests.helpers.pages import generated_page

ESC_CLEAR = "\x1b[2J"
OSC8_LINK = "\x1b]8;;file:///etc/passwd\x07click\x1b]8;;\x07"
#: A title a saved page may carry (a file holding NUL is refused as binary before parsing).
HOSTILE_TITLE = f"Lattice{ESC_CLEAR} engines {OSC8_LINK} for the \u202eanalytical\x9b age"
#: Whatever a terminal could act on.
ACTIVE = ("\x1b", "\x07", "\x00", "\x9b", "\u202e", "\r")


def page(title: str, owner: str = "Ada Lovelace", abstract: str = "") -> str:
    abstract = abstract or "We study lattice engines and their use in the analytical age."
    return (
        f"{owner}\n\nPublications and source records attributed to {owner}.\n\n"
        f"arXiv2021\n\n{title}\n\n{abstract}\n\ncs.LG↗\n"
    )


def _import(cli: Cli, folder: Path, title: str) -> None:
    source = folder / "page.txt"
    source.write_text(page(title), encoding="utf-8")
    assert cli("import", str(source)).code == 0


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
    _import(cli, tmp_path, "Plain lattice engines")
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
    _import(cli, tmp_path, "Recurrent rnn engines")
    # "-rnn" is a word of the query (leave out what matches rnn), not an option
    for query in (["-rnn"], ["--json", "-rnn"], ["engines", "-rnn", "--limit", "5"]):
        result = cli("search", *query)
        assert result.code == 0, result.err
        assert "Recurrent rnn engines" not in result.out
    assert "Recurrent rnn engines" in cli("search", "engines", "-gru").out
    result = cli("search", " ".join(["rnn"] * 3 + [f"w{i}" for i in range(800)]))
    assert result.code == 0
    assert "first 64 words and phrases" in result.err
    assert result.out.splitlines()[-1] == "No paper matches."
    result = cli("search", "rnn " * 70)
    assert "first 64 words" in result.err and "Recurrent rnn engines" in result.out
    assert cli("search").code == 2


def test_a_bare_double_dash_ends_the_options_of_a_search(cli: Cli, tmp_path: Path) -> None:
    """After "--" every word is the query's, even one that looks like an option; "--" alone
    is a search for nothing (it was an internal error: argparse reads a value "--" as none)."""
    _import(cli, tmp_path, "Recurrent rnn engines")
    assert cli("search", "--").code == 2
    assert "Recurrent rnn engines" in cli("search", "--", "engines").out
    result = cli("search", "engines", "--", "--json")  # "--json" is a word (leave out json)
    assert result.code == 0 and result.out.startswith("ID ") and "Recurrent rnn" in result.out
    listed = cli("search", "--json", "--", "recurrent")
    assert [p["title"] for p in json.loads(listed.out)] == ["Recurrent rnn engines"]


def test_a_number_larger_than_sqlite_holds_is_no_id_and_counts_as_all(
    cli: Cli, tmp_path: Path
) -> None:
    """An id past SQLite's largest integer is refused as the person's mistake (it was an
    internal error: the driver could not bind it); a limit past it lists everything."""
    _import(cli, tmp_path, "Recurrent rnn engines")
    huge = "9" * 20
    for command in (["show", huge], ["export", huge], ["open", huge], ["tag", huge, "x"]):
        result = cli(*command)
        assert result.code == 2 and "larger than any id" in result.err, (command, result)
    assert "1 of 1 paper" in cli("list", "--limit", huge).out
    assert "Recurrent rnn engines" in cli("search", "rnn", "--limit", huge).out
    assert cli("people", "--limit", huge).code == 0
    result = cli("delete-search", huge)  # a saved search is named or numbered
    assert result.code == 2 and f"no saved search “{huge}”" in result.err
    assert "is not an id" in cli("show", "١٢").err  # (digits, but not an id's)


def test_an_error_message_stays_on_one_line(cli: Cli, tmp_path: Path) -> None:
    result = cli("import", str(tmp_path / "gone\u2029\x1b[2Jpage.txt"))
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1
    _quiet(result.err)


def test_a_write_past_the_file_size_limit_fails_plainly_and_changes_nothing(
    tmp_path: Path,
) -> None:
    library = tmp_path / "library.sqlite"

    def refman(*args: str, limit: int | None = None) -> subprocess.CompletedProcess[str]:
        cap = size_limit(limit) if limit is not None else None
        return refman_process(library, tmp_path / "home", *args, preexec_fn=cap)

    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text(generated_page(300, owner="Ada Lovelace"), encoding="utf-8")
    second.write_text(generated_page(3_000, owner="Grace Hopper"), encoding="utf-8")
    assert refman("import", str(first)).returncode == 0
    size = library.stat().st_size
    result = refman("import", str(second), limit=size + 64 * 1024)
    assert result.returncode == 2, result.stderr
    assert "disk" in result.stderr and "internal error" not in result.stderr
    assert refman("check").returncode == 0
    assert json.loads(refman("list", "--json").stdout).__len__() == 300


def test_a_library_held_exclusively_by_another_program_is_named_as_locked(
    cli: Cli, library_path: Path, tmp_path: Path
) -> None:
    _import(cli, tmp_path, "Plain lattice engines")
    other = sqlite3.connect(library_path, isolation_level=None)
    try:
        other.execute("PRAGMA locking_mode = EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        for command in (["list"], ["tag", "1", "x"]):
            result = cli(*command)
            assert result.code == 2, result.err
            assert "locked by another program" in result.err
    finally:
        other.close()
    assert cli("list").code == 0


def test_arguments_that_are_not_utf8_text_are_refused_plainly(
    cli: Cli, library_path: Path, tmp_path: Path
) -> None:
    _import(cli, tmp_path, "Plain lattice engines")
    before = library_path.read_bytes()
    undecodable = os.fsdecode(b"caf\xe9")  # Latin-1 bytes from a misconfigured terminal
    for command in (["tag", "1", undecodable], ["note", "1", undecodable], ["search", undecodable]):
        result = cli(*command)
        assert result.code == 2, result.err
        assert "is not valid UTF-8 text" in result.err and "caf\\xe9" in result.err
    assert library_path.read_bytes() == before


def test_an_unknown_kind_of_library_address_is_refused_plainly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for address in ("mysql://me@host/refs", "nonsense://x"):
        assert main(["--db", address, "list"]) == 2
        err = capsys.readouterr().err
        assert "is not a kind of library it knows" in err or "nor an address" in err, err


def test_an_absurd_record_count_on_a_page_is_ignored(cli: Cli, tmp_path: Path) -> None:
    text = page("Plain lattice engines").replace(
        "Publications and source records attributed to Ada Lovelace.\n",
        "Publications and source records attributed to Ada Lovelace.\n\n"
        "99999999999999999999 recordsLinked to original sources\n",
    )
    source = tmp_path / "page.txt"
    source.write_text(text, encoding="utf-8")
    result = cli("import", str(source), "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out.splitlines()[0])["new"] == 1


def test_when_qt_cannot_start_refman_says_why_and_exits_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env |= {"QT_QPA_PLATFORM": "xcb", "REFMAN_HOME": str(tmp_path / "home")}
    result = subprocess.run(
        [sys.executable, "-m", "refman", "--db", str(tmp_path / "library.sqlite")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert "Qt cannot go on" in result.stderr and "platform plugin" in result.stderr
    assert "sudo apt install libxcb-cursor0" in result.stderr


@pytest.fixture(scope="module")
def fuzz_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small library the fuzz tests search and import into (they never need a fresh one:
    every outcome they accept leaves it whole)."""
    folder = tmp_path_factory.mktemp("fuzz")
    page_file = folder / "page.txt"
    page_file.write_text(generated_page(200, owner="Ada Lovelace"), encoding="utf-8")
    assert main(["--db", str(folder / "library.sqlite"), "import", str(page_file)]) == 0
    return folder / "library.sqlite"


_FUZZ = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@_FUZZ
@given(query=st.text(max_size=300))
def test_any_search_ends_plainly_and_prints_nothing_active(
    fuzz_library: Path, capsys: pytest.CaptureFixture[str], query: str
) -> None:
    code = main(["--db", str(fuzz_library), "search", query, "--limit", "5"])
    captured = capsys.readouterr()
    assert code in (0, 2), captured.err
    _quiet(captured.out)
    _quiet(captured.err)


@_FUZZ
@given(data=st.binary(max_size=3000))
def test_any_file_imports_or_is_refused_plainly(
    fuzz_library: Path,
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
    data: bytes,
) -> None:
    source = tmp_path_factory.mktemp("input") / "page.txt"
    source.write_bytes(data)
    code = main(["--db", str(fuzz_library), "import", str(source), "--dry-run"])
    captured = capsys.readouterr()
    assert code in (0, 2), captured.err
    _quiet(captured.out)
    _quiet(captured.err)


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_library_can_be_read_and_says_why_it_cannot_change(
    cli: Cli,
    library_path: Path,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    what: str,
) -> None:
    _import(cli, tmp_path, "Plain lattice engines")
    before, beside = library_path.read_bytes(), sorted(os.listdir(library_path.parent))
    copy = tmp_path_factory.mktemp("elsewhere") / "copy.sqlite"
    with read_only(library_path if what == "file" else library_path.parent):
        result = cli("list", "--json")
        assert result.code == 0, result.err
        assert [p["title"] for p in json.loads(result.out)] == ["Plain lattice engines"]
        result = cli("backup", "--to", str(copy))  # a backup reads it: one can be made
        assert result.code == 0, result.err
        assert cli("--db", str(copy), "list", "--json").out == cli("list", "--json").out
        beside_copy = sorted(os.listdir(copy.parent))
        result = cli("restore-backup", str(copy))  # but none is restored into it
        assert result.code == 2 and "cannot be changed" in result.err, result.err
        assert sorted(os.listdir(copy.parent)) == beside_copy  # (no -wal, no -shm left)
        for command in (["tag", "1", "x"], ["note", "1", "n"], ["trash", "1"]):
            result = cli(*command)
            assert result.code == 2, result.err
            assert f"its {what}" in result.err or f"the {what}" in result.err
            assert "read-only" in result.err and "internal error" not in result.err
    assert library_path.read_bytes() == before
    assert sorted(os.listdir(library_path.parent)) == beside
