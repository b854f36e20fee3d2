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
from typing import BinaryIO, TextIO

from refman.cli.output import FileImport, dumps, import_lines, import_to_json
from refman.common.errors import RefmanError
from refman.core.editing import clean_tag_name
from refman.core.import_values import ImportChoices, SourcedPage
from refman.core.library import LibraryService
from refman.importers import UnreadableFileError
from refman.importers.author_page import MAX_FILE_BYTES
from refman.importers.sources import load_bytes, load_source

__all__ = ["STDIN", "STDIN_LABEL", "import_file", "read_source", "run_import"]

log = logging.getLogger("refman.cli")

#: The file argument that reads standard input.
STDIN = "-"
#: How standard input is named in reports and in the library's sources.
STDIN_LABEL = "standard input"
_QUOTED_NAME = re.compile(r"^‘[^’]*’ ")


def _stdin_bytes() -> BinaryIO:
    return sys.stdin.buffer


def read_source(arg: str, stdin: BinaryIO | None = None) -> SourcedPage:
    """Read and parse one file argument.

    Args:
        arg: A file path, or ``"-"`` for standard input.
        stdin: Where ``"-"`` reads from (standard input's bytes by default).

    Returns:
        The parsed page with its source: the file's name, or "standard input".

    Raises:
        UnreadableFileError: The file is missing, a folder, larger than 50 MB or unreadable.
        NotAnAuthorPageError: The content is empty, binary or holds no publication records.
    """
    if arg == STDIN:
        stream = stdin if stdin is not None else _stdin_bytes()
        data = stream.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise UnreadableFileError(
                f"‘{STDIN_LABEL}’ is larger than 50 MB; an author page is a few hundred "
                "kilobytes at most."
            )
        return SourcedPage(load_bytes(data, STDIN_LABEL).parse(), STDIN_LABEL)
    return SourcedPage(load_source(arg).parse(), Path(arg).name or arg)


def failure_line(label: str, error: RefmanError) -> str:
    """The one stderr line for a file that was not imported: the file, then the reason."""
    reason = error.message
    if isinstance(error, UnreadableFileError):
        # The importer's message starts with the quoted file name; the line names it already.
        reason = _QUOTED_NAME.sub("", reason, count=1)
    if error.hint:
        reason = f"{reason} {error.hint}"
    return f"refman: {label}: {reason}"


def import_file(
    service: LibraryService, page: SourcedPage, label: str, choices: ImportChoices
) -> FileImport:
    """Import one parsed page as one transaction (or only report, in a dry run).

    Args:
        service: The library.
        page: The parsed page.
        label: How the file is named in the report.
        choices: Tags, ``--keep-separate`` and ``--dry-run``.

    Returns:
        What the import did.
    """
    result = service.import_pages([page], choices)
    report = result.pages[0]
    log.info(
        "import of %s: %d new, %d merged (%d unchanged)%s",
        label,
        report.new,
        report.merged,
        report.unchanged,
        " (dry run)" if choices.dry_run else "",
    )
    return FileImport(
        label=label,
        report=report,
        merged=report.merged,
        already=report.unchanged,
        duplicates=result.possible_duplicates,
        kept_separate=choices.keep_all_separate,
        dry_run=choices.dry_run,
    )


def _write(out: TextIO, lines: Sequence[str]) -> None:
    out.write("".join(line + "\n" for line in lines))
    out.flush()


def run_import(args: argparse.Namespace, service: LibraryService, out: TextIO, err: TextIO) -> int:
    """Run ``refman import`` on every file argument.

    Returns:
        0 when every file was imported, 2 when at least one could not be.
    """
    tags = tuple(dict.fromkeys(clean_tag_name(name) for name in args.tags))
    choices = ImportChoices(tags=tags, keep_all_separate=args.keep_separate, dry_run=args.dry_run)
    status = 0
    for arg in args.files:
        label = STDIN_LABEL if arg == STDIN else arg
        try:
            page = read_source(arg)
        except RefmanError as error:
            log.info("not imported: %s: %s", label, error)
            out.flush()
            err.write(failure_line(label, error) + "\n")
            err.flush()
            status = 2
            continue
        outcome = import_file(service, page, label, choices)
        if args.json:
            _write(out, [dumps(import_to_json(outcome))])
        else:
            _write(out, import_lines(outcome))
    return status
