"""``refman check``, ``backup``, ``backups`` and ``restore``: the library file's safety."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TextIO

from refman.cli.output import missing_file_json, missing_file_line, write_json
from refman.common.errors import (
    DamagedLibraryError,
    InvalidValueError,
    LibraryUnavailableError,
    NotFoundError,
)
from refman.common.text import join_words, plural
from refman.core.library import LibraryService
from refman.core.library_file import BackupView
from refman.core.recovery import recover_library
from refman.core.values import FileView

#: The keys of ``refman check --json``.
CHECK_KEYS = ("library", "full", "ok", "problems")


def run_check(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman check [--full]``: SQLite's quick check (or its full integrity check) of
    the library file. A damaged library exits 2 with what is wrong and what to do."""
    if args.files:
        from refman.cli.files_cmd import run_check_files

        return run_check_files(args, service, out)
    problems = service.file.check(full=args.full)
    if args.json:
        write_json(
            out,
            {
                "library": service.location,
                "full": bool(args.full),
                "ok": not problems,
                "problems": problems,
            },
        )
        return 2 if problems else 0
    if problems:
        shown = "; ".join(problems[:3]) + ("; …" if len(problems) > 3 else "")
        if service.db.shared:  # the server keeps the data whole; refman's index can be redone
            raise LibraryUnavailableError(
                f"The shared library “{service.location}” needs repair: {shown}.",
                "Run “refman check --full” (as a user who may change the library) to index "
                "those papers again; nothing else was changed.",
            )
        raise DamagedLibraryError(f"The library “{service.location}” is damaged: {shown}.")
    what = "integrity check" if args.full else "quick check"
    out.write(f"The library {service.location} is whole ({what}: ok).\n")
    return 0


#: The keys of each backup in ``refman backups --json`` (and ``backup`` / ``restore``).
BACKUP_KEYS = ("path", "made", "reason", "size", "papers", "files")


def _backup_json(backup: BackupView) -> dict[str, object]:
    return {
        "path": str(backup.path),
        "made": backup.made.isoformat(timespec="seconds"),
        "reason": backup.reason,
        "size": backup.size,
        "papers": backup.papers,
        "files": backup.files,
    }


def _backup_line(backup: BackupView) -> str:
    papers = "?" if backup.papers is None else f"{backup.papers:,}"
    size = f"{backup.size / 1e6:,.1f} MB"
    when = f"{backup.made:%Y-%m-%d %H:%M:%S}"
    return f"{when}  {backup.reason:<12} {papers:>9} papers  {size:>10}  {backup.path.name}"


def run_backup(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman backup [--to FILE]``: a verified copy of the library now."""
    if args.to and args.to.endswith(("/", os.sep)) and not Path(args.to).is_dir():
        raise InvalidValueError(  # (as cp says: a name ending in "/" is a folder's)
            f"There is no folder “{args.to}”.", "Create it first, or give a file name."
        )
    made = service.file.backup("manual", Path(args.to) if args.to else None)
    if args.json:
        write_json(out, _backup_json(made))
    else:
        files = f", with {plural(made.files, 'attached file')}" if made.files else ""
        out.write(f"Backed up {service.location} to {made.path}{files}.\n")
    return 0


def run_backups(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman backups``: the library's backups, newest first."""
    found = service.file.backups()
    if args.json:
        write_json(out, [_backup_json(b) for b in found])
        return 0
    if not found:
        out.write(f"No backups of {service.location} yet. Make one with “refman backup”.\n")
        return 0
    out.write(f"Backups of {service.location}, in {service.file.backup_folder}:\n")
    out.write("".join(_backup_line(b) + "\n" for b in found))
    return 0


def run_restore(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman restore-backup BACKUP``: the library as the backup holds it (the library as it
    was is backed up first)."""
    before = service.file.restore(args.backup)
    if args.json:
        write_json(out, {"restored": args.backup, "before": _backup_json(before)})
    else:
        out.write(
            f"Restored {service.location} from {args.backup}. The library as it was is kept "
            f"as the backup {before.path.name}.\n"
        )
    return 0


def run_recover(args: argparse.Namespace, library: Path, out: TextIO) -> int:
    """Run ``refman recover NEW-FILE``: the damaged library is only read (it is not opened
    as a library: that could fail on the damage)."""
    report = recover_library(library, Path(args.dest))
    if args.json:
        write_json(
            out,
            {
                "library": str(library),
                "recovered_to": args.dest,
                "copied": report.copied,
                "lost": report.lost,
                "complete": report.complete,
                "files": report.files,
                "files_missing": [missing_file_json(f) for f in report.files_missing],
            },
        )
        return 0
    papers = report.copied.get("papers", 0)
    out.write(f"Recovered {plural(papers, 'paper')} of {library} into {args.dest}.\n")
    lost = {table: n for table, n in report.lost.items() if n}
    if lost:
        what = ", ".join(f"{table}: {'all' if n < 0 else n}" for table, n in sorted(lost.items()))
        out.write(f"Could not be read (rows per table): {what}.\n")
    else:
        out.write("Every row could be read.\n")
    if report.files:
        out.write(f"{plural(report.files, 'attached file')} copied with it.\n")
    _say_missing(out, report.files_missing)
    return 0


def run_copy_library(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``refman copy-library SOURCE DEST``: every row of SOURCE into the new library DEST,
    checked before it is reported done."""
    from refman.core.copying import copy_library_to

    if "://" not in args.source and not Path(args.source).expanduser().is_file():
        raise NotFoundError(
            f"There is no library “{args.source}”.", "Check the path of the library to copy."
        )
    source = LibraryService.open(args.source)
    try:
        report = copy_library_to(source, args.dest)
    finally:
        source.close()
    if args.json:
        fields = {"source": report.source, "dest": report.dest, "rows": report.rows}
        files = {"files": report.files, "files_left": report.files_left}
        missing = [missing_file_json(f) for f in report.files_missing]
        write_json(
            out,
            {
                **fields,
                "digest": report.digest,
                "verified": True,
                **files,
                "files_missing": missing,
            },
        )
        return 0
    rows = report.rows
    copied = join_words(
        (
            plural(rows["papers"], "paper"),
            plural(rows["persons"], "person", "people"),
            plural(rows["tags"], "tag"),
            plural(rows["notes"], "note"),
        )
    )
    out.write(
        f"Copied {copied} from {report.source} to {report.dest}; the copy was "
        "checked (every row, and a digest of their content).\n"
    )
    if report.files or report.files_left:
        out.write(f"{plural(report.files, 'attached file')} copied with it.\n")
    if report.files_left:
        out.write(
            f"{plural(report.files_left, 'attached file')} stayed in the source's storage "
            "folder: a shared library has no folder of its own (link files instead).\n"
        )
    _say_missing(out, report.files_missing)
    return 0


def _say_missing(out: TextIO, missing: tuple[FileView, ...]) -> None:
    """The attached files a copy (or a recovery) could not take: missing in the source, so
    in the new library."""
    if not missing:
        return
    papers = len({f.paper_id for f in missing})
    out.write(
        f"{plural(len(missing), 'attached file')} of {plural(papers, 'paper')} could not be "
        "copied: missing in the source library, so missing in the new one too (find them, "
        "then refman locate ID FILE PATH in either library, or Locate… in the window):\n"
    )
    out.write("".join(f"  {missing_file_line(f)}\n" for f in missing))
