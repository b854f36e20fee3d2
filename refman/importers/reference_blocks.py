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
from refman.importers.records import ParsedRecord
from refman.importers.references import (
    LONE_YEAR,
    Parts,
    is_title,
    reference_authors,
    reference_record,
)

__all__ = ["block_at", "has_scholar_rows", "row_without_year"]

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
        and is_title(text)
        and len(text.split()) <= _TITLE_WORDS
        and _SENTENCE_INSIDE.search(text) is None
        and reference_authors(text) is None
    )


def block_at(lines: Lines, i: int) -> tuple[ParsedRecord, int] | None:
    """The paper whose lines start at line ``i`` (a title, an author and a venue-and-year
    line, the columns on the venue's line or on lines of their own), and the index of the
    line after them; None when the lines there are not one."""
    if i + 2 >= len(lines.text):
        return None
    first, second, third = lines.text[i : i + 3]
    names = _CUT.sub("", second)
    if len(third) > _LONGEST_VENUE or len(third.split()) > _VENUE_WORDS:
        return None
    if not all(map(_INITIALS_FIRST.fullmatch, names.split(", "))) or not _a_title(first):
        return None
    end = i + 3
    while end < min(i + 5, len(lines.text)) and _COLUMN.fullmatch(lines.text[end]):
        end += 1  # (Cited by, Year: cells copied onto lines of their own)
    years = LONE_YEAR.findall("\t".join(lines.text[i + 2 : end]))
    people = reference_authors(_dotted(names) + (" et al." if names != second else ""))
    if not years or people is None:
        return None
    year = int(years[-1])  # (the Year column, after the venue's own numbers)
    ids = (find_dois(third), find_arxiv_ids(third))
    parts = Parts(names, first, third.split("\t")[0], year)
    return reference_record(parts, people, year, ids, (lines.number[i], lines.number[end - 1])), end


def has_scholar_rows(lines: Lines) -> bool:
    """Whether a page holds a row of Google Scholar's table (:func:`block_at`)."""
    return any(
        _INITIALS_FIRST.match(lines.text[i + 1]) and block_at(lines, i)
        for i in range(len(lines.text) - 2)
    )


def row_without_year(lines: Lines, i: int) -> bool:
    """Whether line ``i`` and the next are a title and its authors as Scholar writes them,
    though no year follows (:func:`block_at` reads no such row: its next lines may be the
    next row's)."""
    if i + 1 >= len(lines.text):
        return False
    names = _CUT.sub("", lines.text[i + 1])
    return all(map(_INITIALS_FIRST.fullmatch, names.split(", "))) and _a_title(lines.text[i])
