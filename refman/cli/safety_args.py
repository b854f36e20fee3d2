"""The arguments of ``refman check``, ``backup``, ``backups`` and ``restore-backup`` (kept
apart from the commands, which load the library service: building the parser stays light)."""

from __future__ import annotations

import argparse

#: Each command: its one-line help, its description and its examples.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "check": (
        "check that the library file is whole",
        "Check the library file with SQLite's quick check (every page is read), or with "
        "--full its integrity check (every index is compared with its table too). Exits 2 "
        "when the library is damaged. With --files, look for every attached file instead "
        "(exits 2 when one is missing) and for stray files in the storage folder.",
        "  refman check\n  refman check --full --json\n  refman check --files",
    ),
    "backup": (
        "back up the library now",
        "Make a verified copy of the library: into its backup folder (see refman backups), "
        "or to a file of your choice.",
        "  refman backup\n  refman backup --to ~/safe/library-2026-12-01.sqlite",
    ),
    "backups": (
        "list the library's backups",
        "List the library's backups, newest first: when, why, how many papers, size. "
        "refman backs up on its own when a changed library is closed (at most hourly), "
        "before an upgrade, before Empty Trash and before an import of over 1,000 papers.",
        "  refman backups\n  refman backups --json",
    ),
    "restore-backup": (
        "put a backup in place of the library",
        "Restore the library from a backup (a file name from refman backups, or a path: "
        "a name is the backup of that name even when the current folder holds a file of "
        "that name; write ./NAME for that file). "
        "The library as it is now is backed up first, so a restore can be undone. "
        "(refman restore ID brings papers back from the Trash.)",
        "  refman restore-backup 20261201-142233-close.sqlite",
    ),
    "recover": (
        "copy what a damaged library can still give into a new library",
        "Make a new library holding every paper, tag and note the damaged library can still "
        "give (the damaged file is only read, never changed), and say what was lost. Open "
        "the new library with --db, or restore a backup instead (refman backups).",
        "  refman recover ~/rescued.sqlite\n  refman --db rescued.sqlite list",
    ),
    "copy-library": (
        "copy a whole library into a new one (a file, or a shared library on a server)",
        "Copy every paper, person, tag, note and import of SOURCE into DEST, a new library "
        "file or an empty database on a PostgreSQL server, and check the copy (rows and a "
        "digest of their content) before saying it is done. SOURCE is only read. Each is "
        "a file path or an address such as postgresql+psycopg://USER@HOST/DATABASE.",
        "  refman copy-library ~/library.sqlite postgresql+psycopg://me@db.lab/papers\n"
        "  refman copy-library postgresql+psycopg://me@db.lab/papers ~/home-copy.sqlite",
    ),
}


#: What ``--json`` prints, for the commands that have it.
JSON = dict.fromkeys(COMMANDS, "the result")


def add_arguments(command: str, p: argparse.ArgumentParser) -> None:
    """The arguments of one of :data:`COMMANDS` (``--json`` is added by the parser)."""
    if command == "check":
        p.add_argument("--full", action="store_true", help="the full integrity check (slower)")
        p.add_argument("--files", action="store_true", help="look for every attached file")
    elif command == "backup":
        p.add_argument("--to", metavar="FILE", help="write the copy to FILE instead")
    elif command == "recover":
        p.add_argument("dest", metavar="NEW-FILE", help="the new library to write")
    elif command == "copy-library":
        p.add_argument("source", metavar="SOURCE", help="the library to copy (only read)")
        p.add_argument("dest", metavar="DEST", help="the new library (a file or an address)")
    elif command == "restore-backup":
        p.add_argument("backup", metavar="BACKUP", help="the backup to restore")
