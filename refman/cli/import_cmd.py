"""``refman import``: read author pages from files (or standard input) and import each one.

Every file is its own transaction: a file that cannot be read or is not an author page is
reported on stderr in one line and skipped, and the others are still imported.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from refman.cli.output import write_json
from refman.common.errors import RefmanError
from refman.core.extraction import Extractor
from refman.core.importing.record_wording import RecordRead, record_line, records_read
from refman.core.importing.values import (
    ImportChoices,
    ImportResult,
    PageReport,
    SinceLast,
    SourcedPage,
)
from refman.core.importing.wording import report_counts, report_lines
from refman.core.library import LibraryService
from refman.core.publication_status import publication_status
from refman.core.rules import clean_tag_names
from refman.importers import UnreadableFileError
from refman.importers.sources import MAX_FILE_BYTES, TOO_LARGE, load_bytes, load_source

__all__ = [
    "IMPORT_KEYS",
    "RECORD_KEYS",
    "STDIN",
    "STDIN_LABEL",
    "import_to_json",
    "read_source",
    "run_import",
]

log = logging.getLogger("refman.cli")

#: The file argument that reads standard input.
STDIN = "-"
#: How standard input is named in reports and in the library's sources.
STDIN_LABEL = "standard input"
_QUOTED_NAME = re.compile(r"^‘[^’]*’ ")
#: The keys of the JSON object ``refman import --json`` prints for each file.
IMPORT_KEYS = (
    "file",
    "owner",
    "format",
    "claimed",
    "parsed",
    "new",
    "merged",
    "possible_duplicates",
    "warnings",
    "unchanged",
    "since_last",
    "repeated",
    "renamed",
    "records",
)
#: The keys of each of an import's ``records`` in its JSON.
RECORD_KEYS = (
    "title",
    "authors",
    "year",
    "publication_status",
    "venue",
    "action",
    "paper",
    "updated",
    "in_trash",
)
#: The keys of ``since_last`` in an import's JSON (null when the owner's page is new).
SINCE_LAST_KEYS = ("date", "new", "real_titles", "updated", "unchanged")


def import_to_json(
    label: str,
    report: PageReport,
    renamed: Sequence[tuple[str, str]] = (),
    records: Sequence[RecordRead] = (),
) -> dict[str, Any]:
    """The JSON object of one imported file, with exactly the keys of :data:`IMPORT_KEYS`
    (``renamed``: the people its import named by a better spelling, before and after;
    ``records``: each record read and what the import did with it, :data:`RECORD_KEYS`).

    ``merged`` counts the papers already in the library that the file added something to;
    papers it found unchanged count neither as new nor as merged, but as ``unchanged``.
    """
    return {
        "file": label,
        "owner": report.owner,
        "format": report.format,
        "claimed": report.claimed,
        "parsed": report.parsed,
        "new": report.new,
        "merged": report.merged,
        "possible_duplicates": report.possible_duplicates,
        "warnings": list(report.warnings),
        "unchanged": report.unchanged,
        "since_last": _since_last_json(report.since_last),
        "repeated": report.repeated,
        "renamed": [{"before": was, "after": now} for was, now in renamed],
        "records": [_record_json(read) for read in records],
    }


def _record_json(read: RecordRead) -> dict[str, Any]:
    """One record of an import (:data:`RECORD_KEYS`): ``paper`` is the paper it became or
    joined (null for one a dry run would make), ``updated`` whether it added something to a
    paper the library had."""
    record, outcome = read.record, read.outcome
    return {
        "title": record.title,
        "authors": list(record.authors),
        "year": record.year,
        "publication_status": publication_status(record.extra),
        "venue": record.venue,
        "action": outcome.action.value,
        "paper": read.paper_id,
        "updated": outcome.updated,
        "in_trash": outcome.in_trash,
    }


def _since_last_json(since: SinceLast | None) -> dict[str, Any] | None:
    """What a page brought since its owner's last import (:data:`SINCE_LAST_KEYS`)."""
    if since is None:
        return None
    return {
        "date": since.date.isoformat(),
        "new": since.new,
        "real_titles": since.titled,
        "updated": since.updated,
        "unchanged": since.unchanged,
    }


def _stdin_bytes() -> BinaryIO:
    return sys.stdin.buffer


def read_source(
    arg: str, stdin: BinaryIO | None = None, reader: Extractor | None = None
) -> SourcedPage:
    """Read and parse one file argument.

    Args:
        arg: A file path, or ``"-"`` for standard input.
        stdin: Where ``"-"`` reads from (standard input's bytes by default).
        reader: Reads a PDF's paper in a worker process (None: here).

    Returns:
        The parsed page with its source: the file's name, or "standard input".

    Raises:
        UnreadableFileError: The file is missing, a folder, too large or unreadable.
        NotAnAuthorPageError: The content is empty, binary or holds no publication records.
    """
    if arg == STDIN:
        stream = stdin if stdin is not None else _stdin_bytes()
        data = stream.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise UnreadableFileError(f"‘{STDIN_LABEL}’ {TOO_LARGE}")
        return SourcedPage(load_bytes(data, STDIN_LABEL).parse(), STDIN_LABEL)
    read_pdf = reader.paper if reader is not None else None
    return SourcedPage(load_source(arg).parse(read_pdf), Path(arg).name or arg)


def failure_line(label: str, error: RefmanError) -> str:
    """The one stderr line for a file that was not imported: the file, then the reason."""
    reason = error.message
    if isinstance(error, UnreadableFileError):
        # The importer's message starts with the quoted file name; the line names it already.
        reason = _QUOTED_NAME.sub("", reason, count=1)
    if error.hint:
        reason = f"{reason} {error.hint}"
    return f"refman: {label}: {reason}"


def _write(out: TextIO, lines: Sequence[str]) -> None:
    out.write("".join(line + "\n" for line in lines))
    out.flush()


def run_import(args: argparse.Namespace, service: LibraryService, out: TextIO, err: TextIO) -> int:
    """Run ``refman import`` on every file argument.

    Returns:
        0 when every file was imported whole, 2 when at least one could not be read or a
        damaged entry of a bibliography was left out.
    """
    choices = ImportChoices(
        tags=clean_tag_names(args.tags), keep_all_separate=args.keep_separate, dry_run=args.dry_run
    )
    with Extractor() as reader:  # started with the first PDF, if any
        return _import_each(args, service, choices, reader, (out, err))


def _import_each(
    args: argparse.Namespace,
    service: LibraryService,
    choices: ImportChoices,
    reader: Extractor,
    streams: tuple[TextIO, TextIO],
) -> int:
    out, err = streams
    status = 0
    planned: list[tuple[str, SourcedPage]] = []
    for arg in args.files:
        label = STDIN_LABEL if arg == STDIN else arg
        try:
            page = read_source(arg, reader=reader)
        except RefmanError as error:
            log.info("not imported: %s: %s", label, error)
            out.flush()
            err.write(failure_line(label, error) + "\n")
            err.flush()
            status = 2
            continue
        if page.page.skipped:
            status = 2
        if choices.dry_run:
            planned.append((label, page))
        else:
            _report(args, (label, page), service.import_pages([page], choices), 0, out)
    if planned:
        # The files of a dry run are planned as one import: a file finds the papers the files
        # before it would add (each planned against the library alone counted them as new).
        result = service.import_pages([page for _, page in planned], choices)
        for index, file in enumerate(planned):
            _report(args, file, result, index, out)
    return status


def _report(
    args: argparse.Namespace,
    file: tuple[str, SourcedPage],
    result: ImportResult,
    index: int,
    out: TextIO,
) -> None:
    """Print what importing one file did; a dry run lists each of its records too."""
    label, page = file
    report = result.pages[index]
    log.info("import of %s: %s%s", label, report_counts(report), " (dry run)" * result.dry_run)
    records = records_read(page, report.records, dry_run=result.dry_run)
    if args.json:
        last = index == len(result.pages) - 1
        renamed = result.renamed if last else ()
        write_json(out, import_to_json(label, report, renamed, records), indent=None)
        out.flush()
    else:
        lines = report_lines(label, result, index)
        if result.dry_run:
            lines.extend(record_line(read) for read in records)
        _write(out, lines)
