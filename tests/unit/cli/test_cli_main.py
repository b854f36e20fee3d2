"""The entry point: version, help, the window, library selection, errors and logging."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import types
from pathlib import Path

import pytest

from refman import __version__, paths
from refman.__main__ import main
from refman.core.library import LibraryService
from refman.logging_setup import setup_logging, shutdown_logging
from refman.store.integrity import CheckRecord
from tests.helpers.cli import refman_process
from tests.helpers.fixtures import REPO, sourced
from tests.helpers.pages import generated_page

COMMANDS = [
    "import",
    "list",
    "search",
    "show",
    "tags",
    "tag",
    "untag",
    "rename-tag",
    "delete-tag",
    "note",
    "edit",
    "trash",
    "restore",
    "empty-trash",
]

PAGE = """Publications and source records attributed to Ada Okafor.

arXiv2024

Quiet Progress in Tensor Sketching

Tensor sketches compress multiway data while preserving inner products of the data.

cs.DS↗
"""


def test_version_through_a_real_process_without_qt() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "refman", "--version"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout == f"refman {__version__}\n"
    assert "refman.cli" in done.stderr  # the whole command line was loaded...
    assert "PySide6" not in done.stderr  # ...without Qt


def test_version_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == "refman 0.1.0\n"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_examples(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: refman {command}")
    assert "examples:" in out


def test_main_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(command in out for command in COMMANDS)
    assert "REFMAN_DB" in out


def test_usage_error_exits_2_without_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--sort", "colour"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice" in err and "Traceback" not in err


def _fake_ui(monkeypatch: pytest.MonkeyPatch, calls: list[tuple[object, ...]]) -> None:
    module = types.ModuleType("refman.ui.app")

    def run_gui(db: str | None) -> int:
        calls.append(("window", db))
        return 0

    def run_import_wizard(db: str | None, files: list[str]) -> int:
        calls.append(("wizard", db, files))
        return 3

    module.run_gui = run_gui  # type: ignore[attr-defined]
    module.run_import_wizard = run_import_wizard  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "refman.ui.app", module)


def test_no_command_opens_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[object, ...]] = []
    _fake_ui(monkeypatch, calls)
    assert main([]) == 0
    assert main(["--db", "other.sqlite"]) == 0
    assert calls == [("window", None), ("window", "other.sqlite")]


def test_wizard_opens_prefilled(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[tuple[object, ...]] = []
    _fake_ui(monkeypatch, calls)
    assert main(["--db", "x.sqlite", "import", "--wizard", "a.txt", "b.txt"]) == 3
    assert calls == [("wizard", "x.sqlite", ["a.txt", "b.txt"])]
    assert not (tmp_path / "x.sqlite").exists()


@pytest.mark.logs_warnings("refman.cli")
def test_window_not_available(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "refman.ui.app", None)  # importing it raises ImportError
    assert main([]) == 1
    assert main(["import", "--wizard", "a.txt"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert all("The window is not available: " in line for line in err)


def test_db_option_env_and_default(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    library: LibraryService,
    library_path: Path,
) -> None:
    library.import_pages([sourced(PAGE)])
    assert main(["list", "--json"]) == 0  # the default library (below REFMAN_HOME): empty
    assert json.loads(capsys.readouterr().out) == []
    assert paths.default_library().exists()
    monkeypatch.setenv("REFMAN_DB", str(library_path))
    assert main(["list", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 1
    assert main(["list", "--json", "--db", str(paths.default_library())]) == 0  # --db wins
    assert json.loads(capsys.readouterr().out) == []


def test_a_refman_home_written_with_a_tilde_is_below_the_home_folder(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    home, elsewhere = tmp_path / "home", tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("REFMAN_HOME", "~/refman-test")  # (quoted: no shell expanded it)
    monkeypatch.chdir(elsewhere)
    assert main(["add", "A paper by hand"]) == 0
    assert main(["backup"]) == 0
    capsys.readouterr()
    library = home / "refman-test" / "data" / "library.sqlite"
    assert paths.default_library() == library and library.is_file()
    assert list((home / "refman-test" / "data" / "backups").rglob("*-manual.sqlite"))
    assert list(elsewhere.iterdir()) == []  # no folder "~" where the command ran


def test_db_as_sqlalchemy_url(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, library_path: Path
) -> None:
    assert main(["--db", f"sqlite:///{library_path}", "list"]) == 0
    assert main(["--db", f"sqlite:///{tmp_path / 'url.sqlite'}", "list"]) == 2
    assert capsys.readouterr().err.startswith("refman: There is no library ")
    assert not (tmp_path / "url.sqlite").exists()


@pytest.mark.parametrize("kind", ["folder", "not sqlite"])
def test_bad_db_is_one_line_and_exit_2(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "lib"
    if kind == "folder":
        target.mkdir()
    else:
        target.write_text("hello, this is not a database\n" * 100, encoding="utf-8")
    assert main(["--db", str(target), "list"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("refman: ")
    assert captured.err.count("\n") == 1
    assert str(target) in captured.err
    assert "Traceback" not in captured.err


def test_a_library_in_a_folder_that_does_not_exist_is_refused_not_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mistyped --db path does not quietly become an empty library in new folders."""
    target = tmp_path / "no" / "such" / "lib.sqlite"
    assert main(["--db", str(target), "list"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"refman: There is no folder “{target.parent}”")
    assert not (tmp_path / "no").exists()
    page = tmp_path / "page.txt"
    page.write_text(PAGE, encoding="utf-8")
    new = tmp_path / "new.sqlite"  # in a folder that exists: an import starts a library
    assert main(["--db", str(new), "import", str(page)]) == 0 and new.exists()


@pytest.mark.logs_warnings("refman.cli")
def test_internal_error_is_one_line_and_logged(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], library_path: Path
) -> None:
    def boom(*_args: object, **_kwargs: object) -> int:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(LibraryService, "count", boom)
    assert main(["--db", str(library_path), "list"]) == 1
    err = capsys.readouterr().err
    assert err == "refman: internal error: RuntimeError: boom (details in the log)\n"
    log_text = (paths.log_dir() / "refman.log").read_text(encoding="utf-8")
    assert "Traceback" in log_text and "RuntimeError: boom" in log_text


def test_verbose_echoes_log_messages(
    capsys: pytest.CaptureFixture[str], library_path: Path, tmp_path: Path
) -> None:
    page = tmp_path / "page.txt"
    page.write_text(PAGE, encoding="utf-8")
    assert main(["--db", str(library_path), "import", "-v", str(page)]) == 0
    assert "INFO" in capsys.readouterr().err
    assert main(["--db", str(library_path), "import", str(page)]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.logs_warnings("refman.test")
def test_logging_without_a_writable_log_folder(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    library_path: Path,
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("REFMAN_HOME", str(blocker))  # the log folder cannot be created
    try:
        assert setup_logging() is None
        logging.getLogger("refman.test").error("goes nowhere")
    finally:
        shutdown_logging()
    assert capsys.readouterr().err == ""
    assert main(["--db", str(library_path), "list"]) == 0


def test_logging_writes_the_log_file_and_never_stacks_handlers() -> None:
    try:
        first = setup_logging()
        second = setup_logging(verbose=True)
        assert first == second == paths.log_dir() / "refman.log"
        assert len(logging.getLogger("refman").handlers) == 2
        logging.getLogger("refman.test").info("hello log")
        assert "hello log" in second.read_text(encoding="utf-8")
    finally:
        shutdown_logging()
    assert logging.getLogger("refman").handlers == []


def test_a_closed_output_pipe_is_not_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], library_path: Path
) -> None:
    def closed(*_args: object, **_kwargs: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(LibraryService, "count", closed)
    assert main(["--db", str(library_path), "list"]) == 141  # 128 + SIGPIPE: no bug
    assert capsys.readouterr().err == ""


def test_the_window_without_a_display_says_so_plainly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    assert main(["--db", str(tmp_path / "lib.sqlite")]) == 2
    err = capsys.readouterr().err
    assert "There is no display to show the window on" in err
    assert "Traceback" not in err


def test_a_real_process_ends_with_all_its_output_written_and_the_library_left_whole(
    tmp_path: Path,
) -> None:
    """``refman`` ends its process as soon as the command is done (no interpreter teardown):
    what it printed through a pipe arrives whole, and the library is closed as refman leaves
    it (no write-ahead log beside it; trusted at the next start, so not checked again)."""

    library = tmp_path / "library.sqlite"
    page = tmp_path / "page.txt"
    page.write_text(generated_page(400), encoding="utf-8")

    def refman(*args: str) -> subprocess.CompletedProcess[str]:
        return refman_process(library, tmp_path / "home", *args)

    imported = refman("import", str(page))
    assert imported.returncode == 0, imported.stderr
    listed = refman("list", "--json")
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)) == 400
    assert not Path(f"{library}-wal").exists() and not Path(f"{library}-shm").exists()
    record = tmp_path / "home" / "cache" / "checked.json"
    assert CheckRecord(record).trusted(library), sorted((tmp_path / "home").rglob("*"))


@pytest.mark.parametrize("where", ["before", "after"])
def test_an_empty_db_is_refused_not_read_as_the_default_library(
    capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """``--db "$LIB"`` with LIB unset in a script must not open (and change) the default
    library."""
    argv = ["--db", "", "tag", "1", "x"] if where == "before" else ["tag", "1", "x", "--db", " "]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Argument --db: is empty" in captured.err
    assert not paths.default_library().exists()
