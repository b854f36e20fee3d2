"""The footer at the end of a copied publication-list page ("Last updated …", "© 2025 …").

Pages copied from the web end with a few lines of their site: a date, a copyright line, links
("Privacy · Terms"), "Powered by …", a contact address. :func:`footer_start` finds them so the
parser neither reads them as a record nor appends them to the last record's abstract.
"""

from __future__ import annotations

import re

from refman.importers.lines import parse_subjects, parse_venue_line

__all__ = ["footer_line", "footer_mark", "footer_start"]

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d"
#: What only a footer line says: a copyright, a date of change ("Last updated 12 March 2026").
_MARK = re.compile(
    r"©|\(c\)\s*\d{4}|^copyright\s*(?:\(c\)|\d{4})|all rights reserved"
    rf"|\blast (?:updated|modified)\b|^(?:updated|modified|generated)(?: on)?:?\s+(?:\d|{_MONTH})",
    re.IGNORECASE,
)
#: A footer's link alone on its line.
_LINK = re.compile(
    r"(?:back to top|top|home|about(?: us)?|help|faq|contact(?: us)?|feedback|"
    r"privacy(?: policy| notice)?|terms(?: of (?:use|service)| and conditions)?|"
    r"cookies?(?: policy| settings)?|imprint|impressum|legal notice|site ?map|accessibility)"
    r"[\s.↑]*",
    re.IGNORECASE,
)
_CREDIT = re.compile(
    r"(?:powered by|built with|made with|hosted by|follow us|contact(?: us)?\s*:|e-?mail\s*:)",
    re.IGNORECASE,
)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_NAV = re.compile(r"\s[·|•]\s")  # "Privacy · Terms", "About | Help"
_SHORT = 100  # a footer line is short; an abstract's paragraph usually is not
_SCAN = 15  # a footer is a few lines at the end of the page


def footer_mark(line: str) -> bool:
    """Return True for a line only a footer has: "© 2026 …", "Last updated 12 March 2026".

    Such a line never starts a record, even where it ends in a year.
    """
    low = line.lower()  # (a quick look first: every record's venue line is looked at)
    hinted = "©" in low or "(c" in low or "right" in low or "updated" in low or "modified" in low
    return (hinted or "generated" in low) and _MARK.search(line) is not None


def footer_line(line: str) -> bool:
    """Return True for a line that reads as part of a footer (a mark, a link, a credit)."""
    if len(line) > _SHORT:
        return False
    if footer_mark(line) or _CREDIT.match(line) or _LINK.fullmatch(line) or _EMAIL.fullmatch(line):
        return True
    items = _NAV.split(line)
    return len(items) > 1 and all(len(item.split()) <= 3 for item in items)


def footer_start(text: list[str], begin: int, end: int) -> int:
    """Return the index of the first footer line of ``text[begin:end]``, or ``end``.

    The footer is the page's last lines when all of them read as footer lines, or when they
    run from a footer mark ("© 2026 …") to the end with only short lines: no subject line, no
    venue line that may start a record. A title after a venue line is never taken.

    Args:
        text: The page's non-blank lines.
        begin: First line that may belong to the footer (after the page's header).
        end: Index after the page's last line.
    """
    limit = max(begin, end - _SCAN)
    start, index, all_footer = end, end, True
    while index > limit:
        line = text[index - 1]
        if parse_subjects(line) is not None:
            break
        mark = footer_mark(line)
        footer = mark or footer_line(line)
        if not footer and (len(line) > _SHORT or parse_venue_line(line) is not None):
            break  # an abstract's paragraph, or a venue line that starts a record
        all_footer = all_footer and footer
        if mark or all_footer:
            start = index - 1
        index -= 1
    if begin < start < end and not footer_mark(text[start]) and len(_NAV.split(text[start])) < 2:
        before = text[start - 1]
        if parse_venue_line(before) is not None and not footer_mark(before):
            start += 1  # the title of a record of only a venue line and a title ("ICML 2021")
    return start
