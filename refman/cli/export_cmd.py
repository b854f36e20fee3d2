"""``refman export``: papers as BibTeX, BibLaTeX, RIS, CSL-JSON or CSV, to standard output or
to a file (written safely: a failed write leaves any file already there as it was)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from refman.cli.selecting import add_selection_options, selected_ids
from refman.cli.terminal import for_programs, safe, written
from refman.common.text import plural
from refman.core.export import ExportFormat, key_changes_text, write_export
from refman.core.library import LibraryService

__all__ = ["DESCRIPTION", "EPILOG", "add_arguments", "run_export"]

DESCRIPTION = """\
Export papers as BibTeX (the default), BibLaTeX, RIS, CSL-JSON or CSV: the papers given by
id, or those that --search, --tag and --section select (every paper outside the Trash when
none is given), in list order."""
EPILOG = """\
Each paper's citation key is its entry key (a key BibTeX or biber cannot read as it is, or
one that differs only in case from another paper's, is written otherwise, and the export says
so on stderr). Tags become keywords; abstracts are included;
notes only with --with-notes (BibTeX annote, RIS N1, CSL-JSON annote, a CSV notes column).
With -o the file is replaced only once the whole export is written (and not at all when no
paper is selected), in the format its name ends in (.bib BibTeX, .ris RIS, .json CSL-JSON,
.csv CSV) unless --format says another.

examples:
  refman export > library.bib                     every paper as BibTeX
  refman export --tag thesis -o thesis.bib        the papers tagged "thesis"
  refman export 12 15 --format biblatex           two papers, for biber
  refman export --search "language model" --format ris -o lm.ris
  refman export --format csl-json -o library.json for Zotero or pandoc
  refman export --format csv --with-notes -o papers.csv
"""
STDOUT = "-"


def add_arguments(p: argparse.ArgumentParser, paper_id: Callable[[str], int]) -> None:
    """The options of ``refman export`` (``paper_id`` parses an id argument)."""
    p.add_argument(
        "ids", nargs="*", type=paper_id, metavar="ID", help="a paper's id (see refman list)"
    )
    p.add_argument(
        "--format",
        choices=[f.value for f in ExportFormat],
        default=None,
        help="the format (default: the one -o's file name ends in, .bib .ris .json .csv; "
        "else bibtex)",
    )
    add_selection_options(p, "exports")
    p.add_argument("--with-notes", action="store_true", help="include the papers' notes")
    p.add_argument(
        "-o",
        "--output",
        default=STDOUT,
        metavar="FILE",
        help='write to FILE instead of standard output ("-")',
    )


def _format(args: argparse.Namespace) -> ExportFormat:
    """The format asked for, else the one the output file's name ends in, else BibTeX."""
    if args.format is not None:
        return ExportFormat(args.format)
    if args.output != STDOUT:
        return ExportFormat.named_by(args.output) or ExportFormat.BIBTEX
    return ExportFormat.BIBTEX


def _write_stdout(out: TextIO, text: str) -> None:
    """To a file or a pipe: the export as it is, in UTF-8 whatever the locale's encoding (a
    lossy "?" or an escaped line end would corrupt it); to a terminal: escaped, one line
    end per line."""
    target = for_programs(out)
    if target is None:
        out.write(text.replace("\r\n", "\n"))
        out.flush()
        return
    buffer = getattr(target, "buffer", None)
    if buffer is None:
        written(lambda: target.write(text))
        written(target.flush)
        return
    written(target.flush)
    written(lambda: buffer.write(text.encode("utf-8")))
    written(buffer.flush)


def run_export(
    args: argparse.Namespace, service: LibraryService, out: TextIO, err: TextIO | None = None
) -> int:
    """Run ``refman export``."""
    err = err if err is not None else safe(sys.stderr)
    fmt = _format(args)
    ids = selected_ids(args, service, "export")
    if not ids and args.output != STDOUT:  # (a mistyped search never empties refs.bib)
        err.write(f"refman: No papers to export; {args.output} was not written.\n")
        return 0
    export = service.export_text(ids, fmt, with_notes=args.with_notes)
    if args.output == STDOUT:
        _write_stdout(out, export.text)
        if not ids:
            err.write("refman: no papers to export.\n")
    else:
        write_export(args.output, export.text)
        err.write(f"Exported {plural(len(ids), 'paper')} to {args.output} ({fmt.label}).\n")
    if export.key_changes:
        which = "it" if len(export.key_changes) == 1 else "each"
        hint = f"Give {which} a key of its own: refman edit ID --citekey KEY."
        err.write(f"refman: {key_changes_text(export.key_changes)} {hint}\n")
    return 0
