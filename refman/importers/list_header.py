"""The lines before a publication list's first record: the owner sentence ("Publications and
source records attributed to NAME.") and the count line ("12 records"), and the owner's name
when that sentence names nobody; an owner's name without the title or degree written with it
(:func:`owner_name`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from refman.importers.lines import Lines, claimed_count, owner_from_sentence, parse_venue_line
from refman.importers.names import looks_like_name

_HEADER_SCAN = 40  # the owner sentence and count line sit in the first lines of a page


@dataclass(slots=True)
class Header:
    """What the lines before the first record say.

    Attributes:
        owner: Owner name from the "attributed to NAME." sentence, or None.
        owner_index: Index of the line holding the owner sentence, or None.
        claimed: The stated record count, or None.
        end: Index of the first line after the header.
    """

    owner: str | None = None
    owner_index: int | None = None
    claimed: int | None = None
    end: int = 0


def _header_follows(lines: Lines, index: int) -> bool:
    """Return True if an owner sentence or count line is among the 3 lines from ``index``."""
    return any(
        owner_from_sentence(line) is not None or claimed_count(line) is not None
        for line in lines.text[index : index + 3]
    )


def find_header(lines: Lines) -> Header:
    """Find the owner sentence and count line among the first lines of a page.

    Args:
        lines: The page's non-blank lines.

    Returns:
        The header; ``end`` is 0 when the page has neither line.
    """
    header = Header()
    for index, line in enumerate(lines.text[:_HEADER_SCAN]):
        if parse_venue_line(line) is not None and not _header_follows(lines, index + 1):
            break  # the first record has started
        if header.owner_index is None:
            owner = owner_from_sentence(line)
            if owner is not None:
                header.owner, header.owner_index, header.end = owner, index, index + 1
                continue
        if header.claimed is None:
            count = claimed_count(line)
            if count is not None:
                header.claimed, header.end = count, index + 1
                if header.owner_index is not None:
                    break
    return header


def owner_fallback(lines: Lines, header: Header, first_record: int) -> str:
    """Return the owner when the owner sentence names nobody or is missing."""
    if header.owner_index is not None and header.owner_index > 0:
        before = lines.text[header.owner_index - 1]
        if claimed_count(before) is None:
            return before
    stop = header.owner_index if header.owner_index is not None else first_record
    for line in reversed(lines.text[:stop]):
        if looks_like_name(line):  # (no "To Appear" heading above the records)
            return line
    return ""


#: What a page writes around its owner's name: a title before it ("Dr.", "Prof.",
#: "Professor"), a degree after it (", PhD").
_TITLES = re.compile(
    r"^(?:(?:Dr|Prof|Professor|Assoc\. Prof|Asst\. Prof)\.?\s+)+"
    r"|,?\s+(?:Ph\.?\s?D|M\.?D|D\.?Phil|FRS)\.?$"
)


def owner_name(text: str) -> str:
    """A page owner's name without the title or degree the page writes with it ("Dr. Maren
    Solvik", "Prof. Nadia Okafor, PhD" are "Maren Solvik", "Nadia Okafor"), so that they are
    the person their papers name."""
    name = _TITLES.sub("", text).strip()
    return name if looks_like_name(name, prose=True) else text
