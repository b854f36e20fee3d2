"""The values an importer returns: a parsed page and its candidate paper records."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class PageFormat(enum.StrEnum):
    """The kinds of author page refman reads."""

    #: "Publications and source records attributed to NAME." followed by
    #: venue+year / title / abstract / subject blocks.
    PUBLICATION_LIST = "publication-list"
    #: Owner name, then author-line / abstract pairs, with no titles, years or venues.
    AUTHOR_ABSTRACTS = "author-abstracts"


@dataclass(frozen=True, slots=True)
class ParsedRecord:
    """One paper as the page describes it.

    Attributes:
        title: The title the page gives, or the suggested title when it gives none.
        title_provisional: True when the page gave no title and ``title`` was suggested from
            the abstract (or is a placeholder).
        abstract: The abstract exactly as on the page (LaTeX markup kept), paragraphs joined
            by a blank line.
        year: Publication year, when the page states one.
        venue: Venue such as "arXiv" or "NeurIPS", when the page states one.
        subjects: arXiv category codes such as "cs.LG", in page order.
        authors: Author display names, in page order.
        authors_complete: False when the list ends in "et al." or the page lists no authors.
        line: 1-based line number of the record's first line in the page text.
    """

    title: str
    title_provisional: bool
    abstract: str
    year: int | None = None
    venue: str | None = None
    subjects: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    authors_complete: bool = False
    line: int = 0


@dataclass(slots=True)
class ParsedPage:
    """Everything read from one author page.

    Attributes:
        owner: The researcher whose page this is.
        format: Which page format was recognised.
        claimed: The record count the page states ("12 records"), or None.
        records: The records found, in page order.
        warnings: Plain sentences about anything odd (count mismatch, encoding guessed, ...).
        encoding: The text encoding the bytes were decoded with ("utf-8" for str input).
    """

    owner: str
    format: PageFormat
    claimed: int | None
    records: list[ParsedRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    encoding: str = "utf-8"
