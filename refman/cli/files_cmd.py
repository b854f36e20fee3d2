"""``refman attach``, ``detach``, ``locate`` and ``open``: the files attached to papers.

JSON keys of an attached file (stable; listed in the README): ``id``, ``name``, ``path``,
``pages``, ``size``, ``missing``, ``linked`` (as in a paper's ``files``). ``check --files
--json`` prints ``library``, ``files``, ``ok``, ``missing`` (files, each with ``paper``) and
``stray``; ``detach --json`` and ``locate --json`` what changed (``changed``, ``unchanged``)
and ``file``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from typing import TextIO

from refman.cli.output import (
    FILE_KEYS,
    change_to_json,
    file_line,
    missing_file_json,
    missing_file_line,
    write_json,
)
from refman.common.errors import NotFoundError, RefmanError
from refman.common.identifiers import online_address
from refman.common.text import plural
from refman.core.extraction import shared_extractor
from refman.core.file_index import IndexProgress, IndexReport
from refman.core.library import LibraryService
from refman.core.values import FileView, PaperDetail


def _file_json(file: FileView) -> dict[str, object]:
    """An attached file as JSON (:data:`~refman.cli.output.FILE_KEYS`)."""
    return {k: getattr(file, k) for k in FILE_KEYS}


def _pick(paper: PaperDetail, which: str | None) -> FileView:
    """A paper's file by name or number (its first when ``which`` is None)."""
    if not paper.files:
        raise NotFoundError(
            f"Paper #{paper.id} has no files.", f"Attach one with “refman attach {paper.id} FILE”."
        )
    if which is None:
        return paper.files[0]
    if which.isdigit() and 1 <= int(which) <= len(paper.files):
        return paper.files[int(which) - 1]
    for file in paper.files:
        if file.name.casefold() == which.casefold():
            return file
    names = ", ".join(f"“{f.name}”" for f in paper.files)
    raise NotFoundError(f"Paper #{paper.id} has no file “{which}”.", f"Its files: {names}.")


def run_attach(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman attach ID FILE... [--link]``."""
    paper = service.paper(args.id)
    seen = {file.id for file in paper.files}
    views = service.attach(paper.id, args.files, link=args.link)
    held = []  # a file the paper had already (or took earlier in this command): not twice
    for view in views:
        held.append(view.id in seen)
        seen.add(view.id)
    with shared_extractor() as reader:  # the worker that counted the pages reads the text
        # as without --json: the search finds their words at once
        report = service.index_files(extractor=reader)
    why = {file_id: reason for file_id, _, reason in report.unreadable}
    if args.json:
        files = [_file_json(v) for v in views]
        marks = [{"unreadable": why.get(v.id), "held": h} for v, h in zip(views, held, strict=True)]
        write_json(out, [{**f, **m} for f, m in zip(files, marks, strict=True)])
        return 0
    verb = "Linked" if args.link else "Attached"
    for given, view, had in zip(args.files, views, held, strict=True):
        if had:
            name = os.path.basename(given)
            out.write(
                f"#{paper.id} already has “{name}”, as {file_line(view)}: not attached again.\n"
            )
            if view.missing:  # the same file, come back: put it in the missing one's place
                out.write(
                    f"To put it back in its place: refman locate {paper.id} "
                    f"{shlex.quote(view.name)} {shlex.quote(given)}\n"
                )
        else:
            out.write(f"{verb} {file_line(view)} to #{paper.id}.\n")
    if report.read:
        out.write(f"Read the text of {plural(report.read, 'PDF')} into the search.\n")
    _say_unreadable(report, out)
    return 0


def _say_unreadable(report: IndexReport, out: TextIO) -> None:
    """Name the files that had no text to read, and why."""
    for _, name, reason in report.unreadable:
        out.write(
            f"The text of “{name}” could not be read: {reason}. It stays attached; its words "
            "are not in the search.\n"
        )


def run_index_files(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman index-files``: the text of the PDFs not read yet, into the search."""
    quiet = args.json or not sys.stderr.isatty()

    def told(progress: IndexProgress) -> None:
        if not quiet:
            sys.stderr.write(f"\rReading PDFs: {progress.done:,} of {progress.total:,}")

    report = service.index_files(progress=told)
    if not quiet and report.looked_at:
        sys.stderr.write("\n")
    now = service.index_progress()
    if args.json:
        unreadable = [{"id": i, "name": n, "why": w} for i, n, w in report.unreadable]
        fields = {"read": report.read, "indexed": now.done, "files": now.total}
        own = {"without_text": now.without_text, "unreadable": unreadable}
        write_json(out, {**fields, **own, "searched": now.searched})
        return 0
    without = f"; {now.without_text:,} without text to read" if now.without_text else ""
    out.write(
        f"Read the text of {plural(report.read, 'PDF')}. In the search (refman search "
        f"--everything): {now.searched:,} of {plural(now.total, 'PDF')}{without}.\n"
    )
    _say_unreadable(report, out)
    return 0


def run_detach(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman detach ID FILE`` (``--json``: with ``file``, the file taken off)."""
    file = _pick(service.paper(args.id), args.file)
    changes = service.remove_files([file.id]).changes
    if args.json:
        write_json(out, change_to_json(changes.papers, [args.id], file=_file_json(file)))
        return 0
    kept = "" if file.linked else " (kept until the Trash is emptied)"
    out.write(f"Took “{file.name}” off #{args.id}{kept}.\n")
    return 0


def run_locate(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman locate ID FILE PATH``: a missing file pointed at where it is now (linked
    there, or copied back into the storage folder), as *Locate…* in the window; ``--json``:
    what changed and ``file``, the file as it is now."""
    file = _pick(service.paper(args.id), args.file)
    if not file.missing:
        raise RefmanError(
            f"The file “{file.name}” of #{args.id} is not missing: it is at {file.path}.",
            f"To attach another file, use “refman attach {args.id} FILE”.",
        )
    changes = service.locate_file(file.id, args.found).changes
    (now,) = (f for f in service.paper(args.id).files if f.id == file.id)
    with shared_extractor() as reader:  # its words in the search at once, as attach does
        report = service.index_files(extractor=reader)
    if args.json:
        write_json(out, change_to_json(changes.papers, [args.id], file=_file_json(now)))
        return 0
    out.write(f"Found “{file.name}” of #{args.id}: {file_line(now)}, at {now.path}.\n")
    _say_unreadable(report, out)
    return 0


def _opener(path: str) -> list[str]:
    """The command that opens a file or a web address with the system's program (or
    REFMAN_OPEN_WITH)."""
    chosen = os.environ.get("REFMAN_OPEN_WITH")
    if chosen:
        return [*shlex.split(chosen), path]
    if sys.platform == "darwin":
        return ["open", path]
    return ["xdg-open", path]


def run_open(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman open ID [--file FILE]`` (a paper without files: its DOI, arXiv page or
    link in the browser, as the window's Enter opens it)."""
    paper = service.paper(args.id)
    online = online_address(paper.doi, paper.arxiv_id, paper.url)
    if not paper.files and args.file is None and online is not None:
        what, address = online
        _launch(address, f"its {what}")
        out.write(f"Paper #{paper.id} has no files: opened its {what}, {address}\n")
        return 0
    file = _pick(paper, args.file)
    if file.missing:
        raise RefmanError(
            f"The file “{file.name}” is missing: it is not at {file.path}.",
            f"Find it, then: refman locate {args.id} {shlex.quote(file.name)} PATH (or "
            "Locate… in the window).",
        )
    _launch(file.path, f"“{file.name}”")
    out.write(f"Opened “{file.name}”.\n")
    return 0


def _launch(target: str, named: str) -> None:
    """Open a file or a web address with the system's program (or REFMAN_OPEN_WITH)."""
    if sys.platform == "win32" and not os.environ.get("REFMAN_OPEN_WITH"):
        os.startfile(target)  # type: ignore[attr-defined,unused-ignore]
        return
    try:
        subprocess.Popen(_opener(target), start_new_session=True)
    except OSError as error:
        raise RefmanError(
            f"No program could open {named} ({error.strerror or error}).",
            f"Open it yourself: {target}",
        ) from error


def run_check_files(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman check --files``: every attached file looked for; exits 2 when one is
    missing."""
    found = service.check_files()
    if args.json:
        missing = [missing_file_json(f) for f in found.missing]
        summary = {"library": service.location, "files": found.files, "ok": not found.missing}
        write_json(out, {**summary, "missing": missing, "stray": list(found.stray)})
        return 2 if found.missing else 0
    lines = [missing_file_line(f) for f in found.missing]
    if found.stray:
        lines.append(f"{plural(len(found.stray), 'file')} in the storage folder no paper has:")
        lines += [f"  {path}" for path in found.stray]
    if found.missing:
        lines.append(
            f"{plural(len(found.missing), 'file')} of {found.files:,} missing. Find "
            f"{'it' if len(found.missing) == 1 else 'them'}, then "
            "refman locate ID FILE PATH, or Locate… in the window (a file's menu in the "
            "detail pane)."
        )
    elif found.files == 0:
        lines.append("No files are attached.")
    elif found.files == 1:
        lines.append("The attached file is where it should be.")
    else:
        lines.append(f"All {found.files:,} attached files are where they should be.")
    out.write("".join(line + "\n" for line in lines))
    return 2 if found.missing else 0
