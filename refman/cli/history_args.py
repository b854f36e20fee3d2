"""The arguments of ``refman history`` and ``refman revert`` (kept apart from the commands,
which load the library service: building the parser stays light)."""

from __future__ import annotations

import argparse

from refman.cli.argv import paper_id as number

#: Each command: its one-line help, its description and its examples.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "history": (
        "list the imports, newest first",
        "List every import in the library, newest first: its id, when, its pages (file and "
        "owner), how many records they held, the papers it added and the papers it added "
        "something to. refman revert IMPORT_ID reverts one.",
        "  refman history\n  refman history --json",
    ),
    "revert": (
        "revert an import (any of them, not only the last)",
        "Revert an import of the history: the papers it added go, the papers it added "
        "something to are put back as they were before it, and what a later import also "
        "brought or what you edited, marked, tagged or annotated since stays (and is listed "
        "with why). --dry-run only says what it would do. A revert made by this command "
        "cannot be undone (the window's Edit ▸ Undo takes back only what was done in the window).",
        "  refman revert 3 --dry-run\n  refman revert 3",
    ),
}


#: What ``--json`` prints, for the commands that have it.
JSON = {"history": "the imports", "revert": "the revert"}


def add_arguments(command: str, p: argparse.ArgumentParser) -> None:
    """The arguments of one of :data:`COMMANDS` (``--json`` is added by the parser)."""
    if command == "revert":
        p.add_argument("import_id", type=number, metavar="IMPORT_ID", help="see refman history")
        p.add_argument("--dry-run", action="store_true", help="only say what it would do")
