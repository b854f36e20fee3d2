"""The aligned tables of ``refman list`` and ``refman tags``: a paper a line (its id, year
— or what stands for it, "in press" —, first author and title) and a tag a line."""

from __future__ import annotations

from collections.abc import Sequence

from refman.cli.terminal import cells, padded, truncate
from refman.common.editor_line import editor_mark
from refman.core.publication_status import year_text
from refman.core.values import PaperRow, TagView

__all__ = ["paper_table", "tag_table"]

_MIN_TITLE = 20
_AUTHOR_WIDTH = 24
_PROVISIONAL = " (provisional title)"


def _row_title(row: PaperRow, width: int) -> str:
    """The title cut to ``width``; a provisional title keeps its marker."""
    if not row.title_provisional:
        return truncate(row.title, width)
    return truncate(row.title, max(1, width - len(_PROVISIONAL))) + _PROVISIONAL


def _row_author(author: str, width: int) -> str:
    """The author cell cut to ``width``; editors keep their mark ("Luca Rossi et… (eds.)")."""
    mark = editor_mark(author)
    if not mark or cells(author) <= width:
        return truncate(author, width)
    return truncate(author[: -len(mark)], max(1, width - len(mark))) + mark


def _author_cell(row: PaperRow) -> str:
    """The first author; where the pages gave none, the owner of the page the paper came
    from, in brackets (the window shows it muted and in italics)."""
    return row.first_author or (f"({row.owner})" if row.owner else "")


def paper_table(rows: Sequence[PaperRow], width: int) -> list[str]:
    """An aligned table of papers: id, year, first author and title.

    Args:
        rows: The papers, in list order.
        width: The terminal width; titles are cut to fit it.

    Returns:
        A header line and one line per paper (nothing when ``rows`` is empty).
    """
    if not rows:
        return []
    id_width = max(2, *(len(f"#{r.id}") for r in rows))
    authors = [_author_cell(r) for r in rows]
    author_width = min(_AUTHOR_WIDTH, max(len("AUTHOR"), *map(cells, authors)))
    years = [year_text(r.year, r.publication_status) for r in rows]  # ("in press")
    year_width = max(4, *map(len, years))
    title_width = max(_MIN_TITLE, width - id_width - year_width - author_width - 6)
    lines = [f"{'ID':>{id_width}}  {'YEAR':<{year_width}}  {'AUTHOR':<{author_width}}  TITLE"]
    for r, author, year in zip(rows, authors, years, strict=True):
        author, title = _row_author(author, author_width), _row_title(r, title_width)
        lines.append(
            f"{'#' + str(r.id):>{id_width}}  {year:<{year_width}}  "
            f"{padded(author, author_width)}  {title}"
        )
    return lines


def tag_table(tags: Sequence[TagView]) -> list[str]:
    """One line per tag: its paper count, then its name."""
    if not tags:
        return []
    width = max(len(str(t.count)) for t in tags)
    return [f"{t.count:>{width}}  {t.name}" for t in tags]
