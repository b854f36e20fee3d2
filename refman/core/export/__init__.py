"""Export of papers to BibTeX, BibLaTeX, RIS, CSL-JSON and CSV (Qt-free).

Every format starts from the paper's CSL-JSON item (:func:`refman.core.csl.csl_item`, the one
mapping of a paper's fields) and is written with the field's maintained library: bibtexparser
for ``.bib``, rispy for RIS, json (checked against the official CSL schema) for CSL-JSON and
the csv module for CSV. :func:`write_export` puts the text in a file safely. A ``.bib``
export also says which papers' keys it had to write otherwise (:mod:`.bibkeys`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from refman.core.export.bibkeys import KeyChange, key_changes_text
from refman.core.export.common import ExportFormat, export_item
from refman.core.export.files import ExportWriteError, write_export
from refman.core.values import PaperDetail

__all__ = [
    "ExportFormat",
    "ExportText",
    "ExportWriteError",
    "KeyChange",
    "export_papers",
    "export_text",
    "key_changes_text",
    "write_export",
]


@dataclass(frozen=True, slots=True)
class ExportText:
    """An export: the file's text, and the papers whose key a ``.bib`` file holds otherwise
    (:class:`KeyChange`; :func:`key_changes_text` says it in words)."""

    text: str
    key_changes: tuple[KeyChange, ...] = ()


def export_papers(
    details: Sequence[PaperDetail], fmt: ExportFormat | str, *, with_notes: bool = False
) -> str:
    """The papers as the text of an export file, in the order given (:func:`export_text`)."""
    return export_text(details, fmt, with_notes=with_notes).text


def export_text(
    details: Sequence[PaperDetail], fmt: ExportFormat | str, *, with_notes: bool = False
) -> ExportText:
    """The papers as an export file, in the order given.

    Args:
        details: The papers.
        fmt: The format (an :class:`ExportFormat` or its value, "bibtex", "csl-json", ...).
        with_notes: Include the papers' notes (BibTeX/BibLaTeX ``annote``, RIS ``N1``,
            CSL-JSON ``annote``, a CSV ``notes`` column).

    Returns:
        The text (empty, or only a CSV header / ``[]``, when there are no papers) and, for a
        ``.bib`` file, the keys it writes otherwise.

    Raises:
        ValueError: ``fmt`` is not a format refman exports to.
    """
    # The writers (and bibtexparser, pylatexenc, rispy) load with the first export.
    from refman.core.export.bibkeys import entry_keys, key_changes
    from refman.core.export.bibtex import biblatex_file, bibtex_file
    from refman.core.export.csljson import csl_json_file
    from refman.core.export.ris import ris_file
    from refman.core.export.table import csv_file

    kind = ExportFormat(fmt)
    items = [export_item(detail, with_notes=with_notes) for detail in details]
    if kind in (ExportFormat.BIBTEX, ExportFormat.BIBLATEX):
        keys = entry_keys(items)
        write = bibtex_file if kind is ExportFormat.BIBTEX else biblatex_file
        return ExportText(write(items, [k for k, _ in keys]), key_changes(items, keys))
    if kind is ExportFormat.RIS:
        return ExportText(ris_file(items))
    if kind is ExportFormat.CSL_JSON:
        return ExportText(csl_json_file(items))
    return ExportText(csv_file(items, with_notes=with_notes))
