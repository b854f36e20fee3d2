"""Export of papers to BibTeX, BibLaTeX, RIS, CSL-JSON and CSV (Qt-free).

Every format starts from the paper's CSL-JSON item (:func:`refman.core.csl.csl_item`, the one
mapping of a paper's fields) and is written with the field's maintained library: bibtexparser
for ``.bib``, rispy for RIS, json (checked against the official CSL schema) for CSL-JSON and
the csv module for CSV. :func:`write_export` puts the text in a file safely.
"""

from __future__ import annotations

from collections.abc import Sequence

from refman.core.export.common import ExportFormat, export_item
from refman.core.export.files import ExportWriteError, write_export
from refman.core.values import PaperDetail

__all__ = ["ExportFormat", "ExportWriteError", "export_papers", "write_export"]


def export_papers(
    details: Sequence[PaperDetail], fmt: ExportFormat | str, *, with_notes: bool = False
) -> str:
    """The papers as the text of an export file, in the order given.

    Args:
        details: The papers.
        fmt: The format (an :class:`ExportFormat` or its value, "bibtex", "csl-json", ...).
        with_notes: Include the papers' notes (BibTeX/BibLaTeX ``annote``, RIS ``N1``,
            CSL-JSON ``annote``, a CSV ``notes`` column).

    Returns:
        The text; empty (or only a CSV header / ``[]``) when there are no papers.

    Raises:
        ValueError: ``fmt`` is not a format refman exports to.
    """
    # The writers (and bibtexparser, pylatexenc, rispy) load with the first export.
    from refman.core.export.bibtex import biblatex_file, bibtex_file
    from refman.core.export.csljson import csl_json_file
    from refman.core.export.ris import ris_file
    from refman.core.export.table import csv_file

    kind = ExportFormat(fmt)
    items = [export_item(detail, with_notes=with_notes) for detail in details]
    if kind is ExportFormat.BIBTEX:
        return bibtex_file(items)
    if kind is ExportFormat.BIBLATEX:
        return biblatex_file(items)
    if kind is ExportFormat.RIS:
        return ris_file(items)
    if kind is ExportFormat.CSL_JSON:
        return csl_json_file(items)
    return csv_file(items, with_notes=with_notes)
