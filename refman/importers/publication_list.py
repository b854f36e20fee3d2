"""Parser of the publication-list page format (:attr:`PageFormat.PUBLICATION_LIST`).

A page looks like::

    arXiv subjects                                   (optional breadcrumb)
    Zhuo Jiang                                       (owner)
    Publications and source records attributed to Zhuo Jiang.
    12 recordsLinked to original sources             (claimed count)
    arXiv2026                                        (venue + year: starts a record)
    Some Title
    Abstract paragraph(s)
    cs.LG↗                                           (subjects: closes the record)

Blank lines are optional everywhere; the parser works on the non-blank lines only. The site's
footer at the page's end is skipped (:mod:`~refman.importers.page_footer`); where a venue line
inside an abstract may start a record, the page's count decides
(:mod:`~refman.importers.record_doubts`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from refman.importers.identify import author_page_type, identifiers_in
from refman.importers.lines import Lines, parse_subjects, parse_venue_line
from refman.importers.list_header import Header, find_header, owner_fallback
from refman.importers.page_footer import footer_mark, footer_start
from refman.importers.record_doubts import Choice, Doubt, choose
from refman.importers.records import ParsedRecord
from refman.importers.titles import suggest_title, title_text

__all__ = ["Header", "PublicationList", "find_header", "parse_publication_list"]

_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_MAX_TITLE_LINE = 300


@dataclass(slots=True)
class PublicationList:
    """The result of parsing a publication-list page.

    Attributes:
        owner: The owner's name ("" when the page does not name one).
        claimed: The stated record count, or None.
        records: Records in page order.
        warnings: Plain sentences about anything odd.
    """

    owner: str
    claimed: int | None
    records: list[ParsedRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _title_like(line: str) -> bool:
    """Return True if ``line`` can be a record's title (no subject line, sentence or link)."""
    return (
        parse_subjects(line) is None
        and len(line) <= _MAX_TITLE_LINE
        and not line.endswith(".")
        and "://" not in line
        and parse_venue_line(line) is None
    )


class _Parser:
    """State of one pass over the lines of a publication-list page."""

    def __init__(self, lines: Lines, choice: Choice | None = None) -> None:
        self.text = lines.text
        self.number = lines.number
        self.count = len(lines.text)  # the footer's first line, once found
        self.records: list[ParsedRecord] = []
        self.warnings: list[str] = []
        self.choice = choice or Choice()
        self.doubts: list[Doubt] = []
        self._skip: tuple[int, int, int] | None = None  # last skipped lines and their warning

    def _title_follows(self, index: int, strict: bool) -> bool:
        """Return True if line ``index`` can be the title after a venue line."""
        if index >= self.count:
            return False
        if not strict:
            return True  # a subject line right away means a record with neither title nor abstract
        return _title_like(self.text[index]) and index + 1 < self.count

    def starts_record(self, index: int, strict: bool) -> tuple[str | None, int] | None:
        """Return ``(venue, year)`` if a record starts at line ``index``.

        A footer's line ("Last updated 12 March 2026") starts none.

        Args:
            index: Line index.
            strict: Inside an abstract, also require a named venue, a title-like next line and
                an abstract after it ("Accepted at ICML 2024" then "Code: …" then the subjects
                end an abstract; :meth:`_doubt` looks at such lines).
        """
        line = self.text[index]
        venue_year = parse_venue_line(line)
        if venue_year is None:
            # A proceedings' full name: a venue line only where a record may start, before a title.
            long = None if strict else parse_venue_line(line, long=True)
            if long is None or not self._title_follows(index + 1, True) or footer_mark(line):
                return None
            # ... and its abstract after the title (a long line of news ending in a year is
            # followed by a short line, then the next record).
            return long if self.starts_record(index + 2, strict=False) is None else None
        if strict and (
            index + 2 >= self.count
            or parse_subjects(self.text[index + 2]) is not None
            or (venue_year[0] is None and not self._whole_record_after(index))
        ):
            return None
        if footer_mark(line):
            return None
        return venue_year if self._title_follows(index + 1, strict) else None

    def _whole_record_after(self, index: int) -> bool:
        """True when a year alone on line ``index`` inside an abstract starts a record of no
        venue: a title, an abstract (a sentence, no title) and a subject line follow before
        the next record. (A page lists such a record after one whose subject line is
        missing; an abstract hardly holds a year as a paragraph of its own.)"""
        following = self._next_start(index + 1)
        return (
            index + 2 < following
            and not _title_like(self.text[index + 2])
            and self._closing_subject_before(index + 2, following)
        )

    def _heading(self, index: int, found: tuple[str | None, int], depth: int = 0) -> bool:
        """True for a year heading ("2024", "Year: All 2024 2023") before a record's own venue
        line (or before another heading); ``found``: the line read as a venue line."""
        if index + 1 >= self.count:
            return False
        if found[0] is not None and not _YEAR.search(
            self.text[index], 0, len(self.text[index]) - 4
        ):
            return False  # "arXiv 2023" is a record's venue line, not a heading
        after = self.text[index + 1]
        venue = parse_venue_line(after) or parse_venue_line(after, long=True)
        if venue is None:
            return False
        if venue[0] is not None:
            return self._title_follows(index + 2, True)
        return depth < 2 and self._heading(index + 1, venue, depth + 1)

    def _next_start(self, index: int) -> int:
        """Return the index of the next line (from ``index``) that starts a record."""
        while index < self.count and self.starts_record(index, strict=False) is None:
            index += 1
        return index

    def _closing_subject_before(self, index: int, limit: int) -> bool:
        """Return True if a subject line occurs in ``[index, limit)``."""
        return any(parse_subjects(self.text[i]) is not None for i in range(index, limit))

    def run(self, start: int) -> int:
        """Parse records from line ``start`` on; return the index of the first record."""
        end = self.count
        self.count = footer_start(self.text, start, end)
        index = self._next_start(start)
        first = index
        while index < self.count:
            venue_year = self.starts_record(index, strict=False)
            if venue_year is not None and self._heading(index, venue_year):
                index += 1
                continue
            if venue_year is None:
                following = self._next_start(index + 1)
                if not self._closing_subject_before(index, following):
                    self._skipped(index, following)
                    index = following
                    continue
                self.warnings.append(
                    f"Line {self.number[index]}: a record has no venue and year line; "
                    "its first line was taken as the title."
                )
                index = self._record(index, index, None, None)
            else:
                index = self._record(index, index + 1, *venue_year)
        if self.count < end:
            self._skipped(self.count, end)
        return first

    def _skipped(self, index: int, following: int) -> None:
        """Warn about lines between records that do not form a record (one warning for lines
        skipped one after another: those before a footer, the footer)."""
        if self._skip is not None and self._skip[1:] == (index, len(self.warnings)):
            self.warnings.pop()
            index = self._skip[0]
        first, last = self.number[index], self.number[following - 1]
        where = f"Line {first}" if first == last else f"Lines {first}–{last}"
        verbs = ("does", "was") if first == last else ("do", "were")
        self.warnings.append(
            f"{where} {verbs[0]} not look like a publication record and {verbs[1]} skipped."
        )
        self._skip = (index, following, len(self.warnings))

    def _subjects_from(self, index: int, found: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
        """Collect the subjects at ``index`` and on directly following subject lines.

        Returns:
            The subjects without repeats and the index of the first line after them.
        """
        codes = list(found)
        index += 1
        while index < self.count and (more := parse_subjects(self.text[index])) is not None:
            codes.extend(more)
            index += 1
        return tuple(dict.fromkeys(codes)), index

    def _doubt(self, index: int, start: int) -> bool:
        """Return True if the venue line ``index`` inside the abstract of the record at ``start``
        was chosen to start a record of only a title, or of only subjects (see
        :mod:`~refman.importers.record_doubts`); note it for :func:`choose`."""
        venue_year = parse_venue_line(self.text[index])
        if venue_year is None or venue_year[0] is None or index + 1 >= self.count:
            return False
        titled = parse_subjects(self.text[index + 1]) is None
        if titled and not (
            _title_like(self.text[index + 1])
            and (index + 2 >= self.count or parse_subjects(self.text[index + 2]) is not None)
        ):
            return False
        if footer_mark(self.text[index]):
            return False
        self.doubts.append(Doubt(index, venue_year[0], titled))
        if index in self.choice.split:
            return True
        self._doubt_warning(index, start, split=False)
        return False

    def _doubt_warning(self, index: int, start: int, split: bool) -> None:
        """Warn about the venue line ``index`` if the choice made for it is doubtful."""
        if index not in self.choice.doubtful:
            return
        where = f"Line {self.number[index]}: “{self.text[index]}” and the line after it were"
        record = f"the record at line {self.number[start]}"
        self.warnings.append(
            f"{where} read as a record of their own; they may belong to the abstract of {record}."
            if split
            else f"{where} read as part of the abstract of {record}; they may be a record of "
            "their own."
        )

    def _body(self, start: int, index: int) -> tuple[list[str], tuple[str, ...], int]:
        """Read the abstract and subjects of the record at ``start`` from line ``index`` on.

        Returns:
            The abstract's paragraphs, the subjects and the index of the next line.
        """
        abstract: list[str] = []
        while index < self.count:
            line = self.text[index]
            found = parse_subjects(line)
            if found is not None:
                subjects, index = self._subjects_from(index, found)
                return abstract, subjects, index
            if self.starts_record(index, strict=True) is not None or (
                line[-1].isdigit() and self._doubt(index, start)
            ):
                self.warnings.append(
                    f"Line {self.number[start]}: a record has no subject line; "
                    "it was closed at the next venue line."
                )
                self._doubt_warning(index, start, split=True)
                return abstract, (), index
            abstract.append(line)
            index += 1
        self.warnings.append(
            f"Line {self.number[start]}: a record has no subject line; "
            "it was closed at the end of the page."
        )
        return abstract, (), index

    def _record(self, start: int, title_index: int, venue: str | None, year: int | None) -> int:
        """Read one record whose title is at ``title_index``; return the next line index."""
        title = ""
        index = title_index
        if index < self.count and parse_subjects(self.text[index]) is None:
            title = title_text(self.text[index])
            index += 1
        abstract, subjects, index = self._body(start, index)
        if not abstract and title.endswith(".") and ". " in title and title.count(" ") >= 9:
            # Sentences, not a title: the record's abstract, with a title suggested from it.
            abstract, title = [title], ""
            self.warnings.append(
                f"Line {self.number[start]}: a record has no title; one was suggested "
                "from its abstract."
            )
        text = "\n\n".join(abstract)
        provisional = not title
        doi, arxiv_id = identifiers_in(f"{title}\n{text}", year)
        self.records.append(
            ParsedRecord(
                title=title or suggest_title(text),
                title_provisional=provisional,
                abstract=text,
                year=year,
                venue=venue,
                subjects=subjects,
                line=self.number[start],
                last_line=self.number[index - 1],
                type=author_page_type(venue),
                doi=doi,
                arxiv_id=arxiv_id,
            )
        )
        return index


def parse_publication_list(lines: Lines, header: Header) -> PublicationList:
    """Parse a publication-list page.

    Args:
        lines: The page's non-blank lines.
        header: The header found by :func:`find_header`.

    Returns:
        Owner, claimed count, records and warnings (possibly no records).
    """
    parser = _Parser(lines)
    first_record = parser.run(header.end)
    if parser.doubts:  # read again where the page's count or venues say a record starts
        choice = choose(parser.doubts, parser.records, header.claimed)
        if choice.split or choice.doubtful:
            parser = _Parser(lines, choice)
            parser.run(header.end)
    owner = header.owner or owner_fallback(lines, header, first_record)
    result = PublicationList(owner, header.claimed, parser.records, parser.warnings)
    if not owner:
        result.warnings.insert(0, "The page does not say whose publications these are.")
    return result
