"""What every command does the same way, as a script sees it: usage errors in refman's own
words, help texts, JSON that a console cannot show, output that cannot be written, Ctrl+C,
and a library that is not there."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

from refman.__main__ import main
from refman.cli.parser import build_parser
from tests.helpers.cli import refman_process
from tests.helpers.fixtures import REPO, dump
from tests.helpers.pages import publication_page

#: A page whose names and titles a Latin-1 or ASCII console cannot all show.
WORLDLY = publication_page(
    "José Ángel Ortega",
    [("Küstenmoore speichern Kohlenstoff: 李明 und Zoë", 2024, "arXiv")],
)


def _commands() -> dict[str, argparse.ArgumentParser]:
    """Every command's parser, by name."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


@pytest.mark.parametrize(
    ("argv", "help_of"),
    [
        (["show", "twelve"], "refman show"),
        (["list", "--sort", "colour"], "refman list"),
        (["search", "x", "--sort", "colour"], "refman search"),
        (["tag"], "refman tag"),
        (["related", "1", "--limit", "0"], "refman related"),
        (["list", "--no-such-option"], "refman list"),
        (["no-such-command"], "refman"),
    ],
)
def test_a_usage_error_is_one_line_in_refmans_words(
    capsys: pytest.CaptureFixture[str], argv: list[str], help_of: str
) -> None:
    """Like every other error: "refman: " and what is wrong, on one line, then where the
    command's options are told (not argparse's usage block and "error:")."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1, captured.err
    assert captured.err.startswith("refman: ") and "error:" not in captured.err
    assert captured.err.endswith(f" See “{help_of} --help”.\n")


@pytest.mark.parametrize("command", sorted(_commands()))
def test_every_command_has_help_with_examples_that_fits_the_terminal(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: refman {command}")
    assert "examples:" in out
    too_wide = [line for line in out.splitlines() if len(line) > 100]
    assert too_wide == []  # a description is wrapped as the options are
    # The window's Edit ▸ Undo takes back the window's own changes, not a command's.
    assert "Undo it in the window" not in " ".join(out.split())


@pytest.mark.parametrize("command", sorted(_commands()))
def test_every_argument_is_named_in_capitals_in_the_help(command: str) -> None:
    """``refman related ID``, ``refman merge-people KEEP OTHER``: as the descriptions name
    them, never ``id`` or ``keep``."""
    parser = _commands()[command]
    for action in parser._actions:
        if action.option_strings or action.choices is not None:
            continue
        shown = action.metavar if isinstance(action.metavar, str) else action.dest
        assert shown[:1].isupper(), (command, shown)


@pytest.fixture
def worldly_library(tmp_path: Path) -> Path:
    library = tmp_path / "library.sqlite"
    page = tmp_path / "ortega.txt"
    page.write_text(WORLDLY, encoding="utf-8")
    done = refman_process(library, tmp_path / "home", "import", str(page))
    assert done.returncode == 0, done.stderr
    return library


def test_json_escapes_what_the_console_cannot_show_instead_of_losing_it(
    worldly_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONIOENCODING", "latin-1")
    home = tmp_path / "home"
    shown = refman_process(worldly_library, home, "show", "1", "--json")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.isascii()
    paper = json.loads(shown.stdout)
    assert paper["title"] == "Küstenmoore speichern Kohlenstoff: 李明 und Zoë"
    assert paper["attributed_to"] == ["José Ángel Ortega"]
    page = tmp_path / "ortega.txt"
    again = refman_process(worldly_library, home, "import", "--json", "--dry-run", str(page))
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["owner"] == "José Ángel Ortega"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [["show", "1", "--json"], ["list"], ["export"]])
def test_output_that_cannot_be_written_is_said_not_lost(
    worldly_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    """``refman list --json > out.json`` on a full disk: exit status 2 and a message, not 0
    and an empty file (nor an internal error)."""
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)  # the output is kept until the end
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = refman_process(worldly_library, tmp_path / "home", *args, stdout=full)
    assert done.returncode == 2
    assert done.stderr == (
        "refman: The output could not be written (No space left on device); what was printed "
        "is incomplete. Free some space, or send the output somewhere else.\n"
    )


def test_ctrl_c_while_the_command_line_loads_is_one_line_and_status_130(tmp_path: Path) -> None:
    """Ctrl+C comes while Python loads refman's modules (the first half second of every
    command): a short line, no traceback."""
    interrupting = (
        "import sys, types\n"
        "class Loading(types.ModuleType):\n"
        "    def __getattr__(self, name):\n"
        "        raise KeyboardInterrupt\n"
        "sys.modules['refman.cli'] = Loading('refman.cli')\n"
        "from refman.__main__ import console\n"
        "console()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", interrupting, "list"],
        env={**os.environ, "REFMAN_HOME": str(tmp_path / "home")},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (130, "refman: interrupted\n")


@pytest.fixture
def ctrl_c_in_an_insert() -> Iterator[None]:
    """Ctrl+C arrives while SQLite writes an import's papers (as a signal does: in the
    middle of the statement)."""

    def interrupt(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.startswith('INSERT INTO "papers"'):
            raise KeyboardInterrupt

    event.listen(Engine, "before_cursor_execute", interrupt)
    try:
        yield
    finally:
        event.remove(Engine, "before_cursor_execute", interrupt)


@pytest.mark.usefixtures("ctrl_c_in_an_insert")
def test_ctrl_c_during_an_import_leaves_the_library_as_it_was(
    library_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "ortega.txt"
    page.write_text(WORLDLY, encoding="utf-8")
    before = dump(library_path)
    assert main(["--db", str(library_path), "import", str(page)]) == 130
    assert capsys.readouterr().err == "refman: interrupted\n"  # no internal error
    assert dump(library_path) == before


@pytest.mark.parametrize(
    "args", [["list"], ["search", "x"], ["show", "1"], ["tags"], ["check"], ["tag", "1", "x"]]
)
def test_a_library_that_does_not_exist_is_refused_not_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    """A mistyped library name would list no papers, pass its check, and leave an empty
    library behind; only an import starts a library."""
    typo = tmp_path / "libary.sqlite"
    assert main(["--db", str(typo), *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"refman: There is no library “{typo}”.")
    assert f"refman --db {typo} import FILE" in captured.err
    assert sorted(tmp_path.iterdir()) == []


@pytest.mark.parametrize("query", ['"', "-", "*", "  "])
def test_a_search_for_nothing_is_refused_not_a_list_of_everything(
    library_path: Path, capsys: pytest.CaptureFixture[str], query: str
) -> None:
    assert main(["--db", str(library_path), "search", "--json", "--", query]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("refman: Nothing to search for.")
