"""Papers as a CSV table (one row per paper, for spreadsheets), written with the csv module.

Authors and editors are "Given Family" names joined by "; " (an incomplete list ends in
"; et al."), tags are joined by "; ", several notes by a blank line.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from refman.core.export.common import ExportItem, date_parts, iso_date, names, text_of

__all__ = ["CSV_COLUMNS", "csv_file"]

#: The columns, in order (``notes`` only when the export includes notes).
CSV_COLUMNS = (
    "citekey",
    "type",
    "title",
    "authors",
    "editors",
    "year",
    "date",
    "venue",
    "volume",
    "issue",
    "pages",
    "publisher",
    "place",
    "edition",
    "isbn",
    "issn",
    "doi",
    "arxiv",
    "url",
    "keywords",
    "abstract",
)
#: Columns that are one CSL variable each.
_VARIABLES = {
    "type": "type",
    "title": "title",
    "venue": "container-title",
    "volume": "volume",
    "issue": "issue",
    "pages": "page",
    "publisher": "publisher",
    "place": "publisher-place",
    "edition": "edition",
    "isbn": "ISBN",
    "issn": "ISSN",
    "doi": "DOI",
    "url": "URL",
    "abstract": "abstract",
}
ET_AL = "et al."


def _row(x: ExportItem) -> dict[str, str]:
    item = x.item
    authors = [p.display for p in names(item, "author")]
    if authors and not x.authors_complete:
        authors.append(ET_AL)
    parts = date_parts(item)
    row = {column: text_of(item.get(variable)) for column, variable in _VARIABLES.items()}
    row.update(
        citekey=x.key,
        authors="; ".join(authors),
        editors="; ".join(p.display for p in names(item, "editor")),
        year=str(parts[0]) if parts else "",
        date=iso_date(parts),
        arxiv=x.arxiv_id or "",
        keywords="; ".join(x.tags),
        notes="\n\n".join(n.strip() for n in x.notes),
    )
    return {column: _inert(value) for column, value in row.items()}


def _inert(value: str) -> str:
    """A cell a spreadsheet shows as text: one starting like a formula (= + - @, or a tab or
    carriage return) gets a leading apostrophe, as OWASP advises against formula injection."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def csv_file(items: Sequence[ExportItem], *, with_notes: bool) -> str:
    """The papers as CSV text (a header row, then one row per paper; CRLF line ends)."""
    columns = [*CSV_COLUMNS, "notes"] if with_notes else list(CSV_COLUMNS)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(_row(x) for x in items)
    return out.getvalue()
