"""The ``refman`` command line: parse the arguments, open the library, run one command.

User errors (:class:`~refman.common.errors.RefmanError`, usage errors, output that cannot be
written) end in one line on stderr and exit status 2; a closed output pipe ends quietly with
141, Ctrl+C with 130 (said by :func:`refman.__main__.main`); anything else is a bug, logged
with its traceback and reported in one line with exit status 1. The window is opened lazily
so the command line never loads Qt.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import shlex
import signal
import sys
import tempfile
from collections.abc import Callable, Sequence
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from refman.cli.argv import undecodable, words_as_query
from refman.cli.parser import build_parser
from refman.cli.parsing import parse
from refman.cli.terminal import safe
from refman.cli.waiting import told_when_silent
from refman.common.controls import terminal_safe
from refman.common.errors import LibraryOpenError, RefmanError
from refman.logging_setup import setup_logging, shutdown_logging
from refman.paths import backup_dir, check_record, default_library, library_location

__all__ = ["run"]

log = logging.getLogger("refman.cli")

#: Exit status of a user error (bad input, missing paper, unreadable library...).
USER_ERROR = 2
#: Exit status of a bug.
INTERNAL_ERROR = 1
#: Exit status when what reads the output stopped reading (``refman list | head -1``): 128 +
#: SIGPIPE, as for any program a closed pipe ends.
CLOSED_PIPE = 141

if TYPE_CHECKING:
    from refman.core.library import LibraryService

Handler = Callable[[argparse.Namespace, "LibraryService", TextIO], int]

#: Each command's module and function, imported when the command runs (a command, or the
#: window, loads only what it uses: the window starts sooner).
_HANDLERS: dict[str, tuple[str, str]] = {
    "add": ("add_cmd", "run_add"),
    "list": ("list_cmd", "run_list"),
    "show": ("list_cmd", "run_show"),
    "tags": ("list_cmd", "run_tags"),
    "tag": ("edit_cmd", "run_tag"),
    "untag": ("edit_cmd", "run_untag"),
    "rename-tag": ("edit_cmd", "run_rename_tag"),
    "delete-tag": ("edit_cmd", "run_delete_tag"),
    "note": ("edit_cmd", "run_note"),
    "edit": ("edit_cmd", "run_edit"),
    "mark": ("edit_cmd", "run_mark"),
    "rate": ("edit_cmd", "run_rate"),
    "trash": ("edit_cmd", "run_trash"),
    "restore": ("edit_cmd", "run_restore"),
    "empty-trash": ("edit_cmd", "run_empty_trash"),
    "merge": ("edit_cmd", "run_merge"),
    "export": ("export_cmd", "run_export"),
    "cite": ("cite_cmd", "run_cite"),
    "searches": ("saved_cmd", "run_searches"),
    "save-search": ("saved_cmd", "run_save_search"),
    "delete-search": ("saved_cmd", "run_delete_search"),
    "related": ("related_cmd", "run_related"),
    "attach": ("files_cmd", "run_attach"),
    "detach": ("files_cmd", "run_detach"),
    "locate": ("files_cmd", "run_locate"),
    "open": ("files_cmd", "run_open"),
    "index-files": ("files_cmd", "run_index_files"),
    "history": ("history_cmd", "run_history"),
    "revert": ("history_cmd", "run_revert"),
    "people": ("people_cmd", "run_people"),
    "person": ("people_cmd", "run_person"),
    "merge-people": ("people_cmd", "run_merge_people"),
    "not-same": ("people_cmd", "run_not_same"),
    "check": ("safety_cmd", "run_check"),
    "backup": ("safety_cmd", "run_backup"),
    "backups": ("safety_cmd", "run_backups"),
    "restore-backup": ("safety_cmd", "run_restore"),
}


def _handler(command: str) -> Handler:
    module, function = _HANDLERS[command]
    found: Handler = getattr(import_module(f"refman.cli.{module}"), function)
    return found


def _window_unavailable(error: ImportError) -> int:
    log.warning("the window cannot be loaded: %s", error)
    sys.stderr.write(f"refman: The window is not available: {error}\n")
    return INTERNAL_ERROR


def _open_window(db: str | None) -> int:
    """Open the main window (``refman`` without a command)."""
    try:
        from refman.ui.app import run_gui
    except ImportError as error:
        return _window_unavailable(error)
    return int(run_gui(db))


def _open_wizard(db: str | None, files: list[str]) -> int:
    """Open the import wizard prefilled with files (``refman import --wizard``)."""
    from refman.cli import import_cmd

    if import_cmd.STDIN in files:
        raise RefmanError(
            "The import wizard cannot read standard input.",
            "Save the page to a file, or paste it into the wizard.",
        )
    try:
        from refman.ui.app import run_import_wizard
    except ImportError as error:
        return _window_unavailable(error)
    return int(run_import_wizard(db, files))


def _screenshot(args: argparse.Namespace) -> int:
    """Render the window to a PNG (``refman screenshot``)."""
    try:
        from refman.ui.app import screenshot
    except ImportError as error:
        return _window_unavailable(error)
    code = screenshot(
        args.db, args.out, args.size, args.select, args.search, args.tags, args.person
    )
    sys.stdout.write(f"{args.out}\n")
    return code


def _require_folder(location: str) -> None:
    """A library file named (``--db``, ``REFMAN_DB``) in a folder that does not exist is most
    likely a mistyped path: it is refused rather than made, with the folders, as an empty
    library."""
    if "://" in location:
        return
    path = Path(location).expanduser()
    if not path.exists() and not path.parent.exists():
        raise LibraryOpenError(
            f"There is no folder “{path.parent}” for the library “{path}”.",
            "Check the path; to start a new library there, create the folder first.",
        )


#: The commands that make the library named when there is none yet: an import starts a
#: library (a paper added by hand is an import of one record); a backup restored puts back
#: one that was lost.
_MAKING = frozenset({"import", "add", "restore-backup"})


def _require_library(command: str, location: str) -> None:
    """A library named (``--db``, ``REFMAN_DB``) that does not exist is refused by every
    command but those that make it: a mistyped name would read as an empty library (and
    leave one behind)."""
    _require_folder(location)
    if command not in _MAKING and _no_file_yet(location):
        path = location.removeprefix("sqlite:///")
        raise LibraryOpenError(
            f"There is no library “{path}”.",
            "Check the path; to start a new library there, import into it: refman --db "
            f"{shlex.quote(path)} import FILE.",
        )


def _dispatch(args: argparse.Namespace) -> int:
    if args.command is None:
        return _open_window(args.db)
    if args.command == "screenshot":
        return _screenshot(args)
    if args.command == "styles":  # needs no library
        from refman.cli import cite_cmd

        return cite_cmd.run_styles(args, sys.stdout)
    if args.command == "recover":  # the damaged library is read, not opened
        from refman.cli import safety_cmd

        location = library_location(args.db).removeprefix("sqlite:///")
        return safety_cmd.run_recover(args, Path(location), safe(sys.stdout))
    if args.command == "copy-library":  # two libraries, named on the command line
        from refman.cli import safety_cmd

        return safety_cmd.run_copy_library(args, safe(sys.stdout))
    if args.command == "import" and args.wizard:
        return _open_wizard(args.db, list(args.files))
    location = library_location(args.db)
    if location != str(default_library()):  # (the default library's folder is made)
        _require_library(args.command, location)
    if args.command == "import" and args.dry_run and _no_file_yet(location):
        # A dry run leaves no library behind: it plans against an empty one of its own.
        with tempfile.TemporaryDirectory(prefix="refman-dry-run-") as folder:
            return _with_service(args, str(Path(folder) / "library.sqlite"))
    return _with_service(args, location)


def _no_file_yet(location: str) -> bool:
    """True for a library file that does not exist yet (a server's library always does)."""
    path = location.removeprefix("sqlite:///")
    return "://" not in path and not Path(path).expanduser().exists()


def _with_service(args: argparse.Namespace, location: str) -> int:
    """Run a command that works on the library at ``location``."""
    from refman.core.library import LibraryService

    service = LibraryService.open(location, check_record(), backup_dir())
    if base := os.environ.get("REFMAN_FILES_BASE"):  # linked files relative to it
        service.use_base_folder(Path(base).expanduser())
    service.file.when_waiting(_tell_waiting)
    try:
        with told_when_silent(service, safe(sys.stderr)):
            return _run_command(args, service)
    finally:
        service.close()


def _run_command(args: argparse.Namespace, service: LibraryService) -> int:
    if args.command == "import":
        from refman.cli import import_cmd

        return import_cmd.run_import(args, service, safe(sys.stdout), safe(sys.stderr))
    return _handler(args.command)(args, service, safe(sys.stdout))


def _no_signal_for_file_size() -> None:
    """A write past the file-size limit (``ulimit -f``) fails like a full disk, with a
    message, instead of the signal killing refman halfway."""
    if hasattr(signal, "SIGXFSZ"):
        with contextlib.suppress(ValueError, OSError):  # not the main thread
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def _tell_waiting() -> None:
    sys.stderr.write("refman: Waiting for another refman to finish writing…\n")
    sys.stderr.flush()


def _parse(argv: Sequence[str]) -> argparse.Namespace | int:
    """The parsed arguments, or the exit status when argparse has already answered."""
    try:
        parser = build_parser()
        options, words = words_as_query(parser, list(argv))
        parsed = parse(parser, options)
        if words:
            parsed.query_words = words
        return parsed
    except SystemExit as stop:  # --help, --version and usage errors
        code = stop.code
        return code if isinstance(code, int) else (0 if code is None else USER_ERROR)


def _tolerate_unencodable_output() -> None:
    """Let a console that cannot show “curly quotes” print "?" instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="replace")


def _silence_broken_pipe() -> None:
    """After ``refman list | head``: drop what is left to print instead of failing again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no real descriptor
        pass


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: The arguments after the program name (``sys.argv[1:]`` when None).

    Returns:
        The exit status: 0 on success, 2 for a user error (including a file that could not
        be imported or output that could not be written), 1 for an internal error or when
        the window cannot be opened, 141 when the output's reader stopped reading.

    Raises:
        KeyboardInterrupt: Ctrl+C (:func:`refman.__main__.main` says it).
    """
    _no_signal_for_file_size()
    parsed = _parse(sys.argv[1:] if argv is None else argv)
    if isinstance(parsed, int):
        return parsed
    bad = undecodable(parsed)
    if bad is not None:
        shown = bad.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        sys.stderr.write(
            f"refman: “{terminal_safe(shown)}” is not valid UTF-8 text. Type it again in a "
            "terminal that uses UTF-8 (check the LANG or LC_ALL setting).\n"
        )
        return USER_ERROR
    setup_logging(verbose=bool(parsed.verbose))
    _tolerate_unencodable_output()
    try:
        code = _dispatch(parsed)
        safe(sys.stdout).flush()  # a full disk is told now, not lost when the process ends
        return code
    except RefmanError as error:
        log.info("refman %s: %s", parsed.command or "(window)", error)
        with contextlib.suppress(OSError):  # (what is printed may be what failed)
            sys.stdout.flush()
        sys.stderr.write(f"refman: {terminal_safe(str(error))}\n")
        return USER_ERROR
    except KeyboardInterrupt:  # said by refman.__main__.main, which also sees it earlier
        log.info("refman %s: interrupted", parsed.command or "(window)")
        raise
    except BrokenPipeError:
        _silence_broken_pipe()
        return CLOSED_PIPE
    except Exception as error:
        log.exception("internal error in refman %s", parsed.command or "(window)")
        first = next(iter(str(error).splitlines()), "")
        what = f"{type(error).__name__}: {first}" if first else type(error).__name__
        sys.stderr.write(f"refman: internal error: {terminal_safe(what)} (details in the log)\n")
        return INTERNAL_ERROR
    finally:
        shutdown_logging()
