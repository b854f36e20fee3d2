"""A paper given on lines of its own, as Google Scholar's profile table copies: its title,
its authors as Scholar writes them (initials without stops, the list cut short with "…"),
then its venue and the columns *Cited by* and *Year* ("Attention is all you need" / "A
Vaswani, N Shazeer, N Parmar, …" / "Advances in neural information processing systems
30<tab>150000<tab>2017"). Read by the reader of references
(:mod:`~refman.importers.references`): the same names, venues, volumes and pages. (Only
Scholar's way of writing names is taken: a title line, a line of names in full and a line
with a year are as often an author-abstracts page's owner, author line and abstract.)
"""

from __future__ import annotations

import re

from refman.common.identifiers import find_arxiv_ids, find_dois
from refman.importers.lines import Lines
from refman.importers.page_footer import footer_line
from refman.importers.records import ParsedRecord
from refman.importers.references import (
    LONE_YEAR,
    Parts,
    is_title,
    reference_authors,
    reference_record,
)

__all__ = ["block_at", "has_scholar_rows"]

#: The longest line that can be a venue-and-year line.
_LONGEST_VENUE = 300
#: The most words of a venue-and-year line, and of a title.
_VENUE_WORDS = 25
_TITLE_WORDS = 40
#: A sentence's end inside a line (a paragraph, not a title).
_SENTENCE_INSIDE = re.compile(r"[a-z]{2}[.!?] [A-Z]")
#: Initials written together before a family name, as Google Scholar writes them ("AN Gomez").
_INITIALS = re.compile(r"(?<![\w.'’-])([^\W\d_]{1,3})(?= [^\W\d_])")
#: A name as Google Scholar writes it: initials without stops, then the family name.
_INITIALS_FIRST = re.compile(r"[^\W\d_a-z]{1,3} [^\W\d_][\w'’-]*(?: [^\W\d_][\w'’-]*){0,2}")
#: A cell of the columns after the venue: a count of citations ("152", "87 *"), a year.
_COLUMN = re.compile(r"\d{1,7}(?: ?\*)?")
#: What Scholar's page writes below its rows: its button, the rows shown.
_BELOW_ROWS = re.compile(r"show more|articles \d+[–-]\d+", re.IGNORECASE)
#: A list cut short: "A Vaswani, N Shazeer, …".
_CUT = re.compile(r",?\s*(?:\.\.\.|…)$")


def _dotted(names: str) -> str:
    """ "AN Gomez, Ł Kaiser" as "A. N. Gomez, Ł. Kaiser" (names in full stay as they are)."""
    return _INITIALS.sub(
        lambda m: " ".join(f"{c}." for c in m[1]) if m[1].isupper() else m[1], names
    )


def _a_title(text: str) -> bool:
    """A line that can be a title: no list of names, no paragraph of sentences."""
    return (
        "\t" not in text
        and is_title(text, lone=True)  # ("Cryosphere": the names follow)
        and len(text.split()) <= _TITLE_WORDS
        and _SENTENCE_INSIDE.search(text) is None
        and reference_authors(text) is None
    )


def _names_of(lines: Lines, i: int) -> str | None:
    """The names of line ``i`` as Google Scholar writes them (its "…" taken off), or None
    when it is no such line."""
    names = _CUT.sub("", lines.text[i])
    return names if all(map(_INITIALS_FIRST.fullmatch, names.split(", "))) else None


def _row_starts(lines: Lines, i: int) -> bool:
    """Whether a row starts at line ``i``: a title, then names as Scholar writes them."""
    return (
        i + 1 < len(lines.text) and _names_of(lines, i + 1) is not None and _a_title(lines.text[i])
    )


def _venue_line(lines: Lines, i: int) -> bool:
    """Whether line ``i`` can be a row's venue line (with its columns or not): no next row,
    no footer ("Help · Privacy · Terms"), no paragraph."""
    if i >= len(lines.text) or _row_starts(lines, i):
        return False
    line = lines.text[i]
    return (
        len(line) <= _LONGEST_VENUE
        and len(line.split()) <= _VENUE_WORDS
        and not footer_line(line.split("\t")[0])
        and not _BELOW_ROWS.fullmatch(line.strip())
    )


def _sentence_like(title: str, venue: str) -> bool:
    """Whether a row without a year ends its title or venue as a sentence (an abstract's
    lines, not Scholar's, whose titles and venues end in no full stop)."""
    return title.endswith(".") or venue.split("\t")[0].rstrip().endswith(".")


def block_at(lines: Lines, i: int) -> tuple[ParsedRecord, int] | None:
    """The paper whose lines start at line ``i`` (a title, an author and a venue-and-year
    line, the columns on the venue's line or on lines of their own), and the index of the
    line after them; None when the lines there are not one. A row without a year (a paper
    not out yet, or one Scholar dates not) is read without one; a row without a venue line
    (the next row's title follows its names) of only its title and names."""
    if not _row_starts(lines, i):
        return None
    second = lines.text[i + 1]
    names = _CUT.sub("", second)
    end = i + 2
    third = ""
    if _venue_line(lines, end):
        third, end = lines.text[end], end + 1
        while end < min(i + 5, len(lines.text)) and _COLUMN.fullmatch(lines.text[end]):
            end += 1  # (Cited by, Year: cells copied onto lines of their own)
    years = LONE_YEAR.findall("\t".join(lines.text[i + 2 : end]))
    people = reference_authors(_dotted(names) + (" et al." if names != second else ""))
    if people is None or (not years and _sentence_like(lines.text[i], third)):
        return None
    year = int(years[-1]) if years else None  # (the Year column, after the venue's numbers)
    ids = (find_dois(third), find_arxiv_ids(third))
    parts = Parts(names, lines.text[i], third.split("\t")[0], year)
    return reference_record(parts, people, year, ids, (lines.number[i], lines.number[end - 1])), end


def has_scholar_rows(lines: Lines) -> bool:
    """Whether a page holds a row of Google Scholar's table with its year (:func:`block_at`)."""
    return any(
        _INITIALS_FIRST.match(lines.text[i + 1])
        and (found := block_at(lines, i)) is not None
        and found[0].year is not None
        for i in range(len(lines.text) - 1)
    )
