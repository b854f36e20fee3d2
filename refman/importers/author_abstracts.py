"""Parser of the author-abstracts page format (:attr:`PageFormat.AUTHOR_ABSTRACTS`).

A page looks like::

    Liang Xiang                                        (owner)
    Ziheng Jiang, Haibin Lin, Yinmin Zhong et al.      (author line: starts a record)
    We present the design ...                          (abstract, one or more paragraphs)
    Sheng Gong, Yumin Zhang, Zhenliang Mu et al.
    ...

Pages give no titles, years, venues or subjects, so every record gets a provisional title
suggested from its abstract. A new record starts at any line that reads as a list of names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from refman.common.east_asian import word_count
from refman.importers.identify import author_page_type, identifiers_in
from refman.importers.lines import Lines
from refman.importers.names import looks_like_name, parse_author_line
from refman.importers.records import ParsedRecord
from refman.importers.titles import suggest_title

__all__ = ["AuthorAbstracts", "parse_author_abstracts"]

_MIN_ABSTRACT_WORDS = 5
_OWNER_SCAN = 2  # the owner's name is the first line, or the second after a breadcrumb


@dataclass(slots=True)
class AuthorAbstracts:
    """The result of parsing an author-abstracts page.

    Attributes:
        owner: The owner's name.
        records: Records in page order.
        warnings: Plain sentences about anything odd.
    """

    owner: str
    records: list[ParsedRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _line_range(first: int, last: int) -> str:
    """Return "Line 4" or "Lines 4–9"."""
    return f"Line {first}" if first == last else f"Lines {first}–{last}"


@dataclass(slots=True)
class _Start:
    """An author line (possibly continued on following lines) that starts a record."""

    first: int
    last: int
    authors: tuple[str, ...]
    complete: bool


def _record(lines: Lines, start: _Start, end: int) -> ParsedRecord:
    """Build the record whose author lines are ``start`` and whose abstract runs to ``end``."""
    abstract = "\n\n".join(lines.text[start.last + 1 : end])
    doi, arxiv_id = identifiers_in(abstract)
    return ParsedRecord(
        title=suggest_title(abstract),
        title_provisional=True,
        abstract=abstract,
        authors=start.authors,
        authors_complete=start.complete,
        line=lines.number[start.first],
        last_line=lines.number[end - 1],
        type=author_page_type(None),
        doi=doi,
        arxiv_id=arxiv_id,
    )


def _author_starts(text: list[str], begin: int) -> list[_Start]:
    """Find the author lines from ``begin`` on; a line ending in "," or "and" continues."""
    starts: list[_Start] = []
    for index in range(begin, len(text)):
        parsed = parse_author_line(text[index])
        if parsed is None:
            continue
        previous = starts[-1] if starts else None
        if (
            previous is not None
            and previous.last == index - 1
            and text[index - 1].endswith((",", ";", " and", "&"))
        ):
            previous.last = index
            previous.authors += parsed[0]
            previous.complete = parsed[1]
        else:
            starts.append(_Start(index, index, *parsed))
    return starts


def parse_author_abstracts(lines: Lines) -> AuthorAbstracts | None:
    """Parse an author-abstracts page.

    Args:
        lines: The page's non-blank lines.

    Returns:
        The owner, records and warnings, or None when neither of the first two lines is a
        name or no author line is followed by an abstract.
    """
    text = lines.text
    scanned = text[:_OWNER_SCAN]
    owner = next(
        (
            i
            for i, line in enumerate(scanned)
            if looks_like_name(line, single_word=True, prose=True)
        ),
        None,
    )
    if owner is None:
        return None
    starts = _author_starts(text, owner + 1)
    if not starts:
        return None
    result = AuthorAbstracts(owner=text[owner])
    if starts[0].first > owner + 1:
        first, last = lines.number[owner + 1], lines.number[starts[0].first - 1]
        result.warnings.append(
            f"{_line_range(first, last)}: text before the first author list was skipped."
        )
    bounds = [start.first for start in starts[1:]] + [len(text)]
    for start, end in zip(starts, bounds, strict=True):
        words = sum(word_count(line) for line in text[start.last + 1 : end])
        if words < _MIN_ABSTRACT_WORDS:
            result.warnings.append(
                f"Line {lines.number[start.first]}: an author list has no abstract after it; "
                "it was skipped."
            )
            continue
        result.records.append(_record(lines, start, end))
    return result if result.records else None
