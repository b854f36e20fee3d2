"""Line-level recognisers of the publication-list format, and the line splitter.

Every function here looks at one stripped, non-blank line and says what it could be: a
venue+year line ("arXiv2026", "Proc. VLDB 2021"), a subject line ("cs.LG↗"), a count line
("12 recordsLinked to original sources") or the owner sentence. Names and author lists are
recognised in :mod:`refman.importers.names`.
All checks are bounded (length limits before any regular expression) so huge lines stay cheap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from refman.common.east_asian import east_asian

__all__ = [
    "Lines",
    "claimed_count",
    "owner_from_sentence",
    "parse_subjects",
    "parse_venue_line",
    "split_lines",
]

# Whitespace and invisible characters a browser copy may leave at either end of a line.
_STRIP = (
    " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u200b\u200c\u200d\u200e\u200f\u2028\u2029\u202f\u205f\u2060"
    "\u3000\ufeff"
)


@dataclass(frozen=True, slots=True)
class Lines:
    """The non-blank lines of a page, stripped, with their 1-based line numbers.

    Attributes:
        text: Stripped line texts.
        number: Line number of each entry in the original text.
    """

    text: list[str]
    number: list[int]


def split_lines(text: str) -> Lines:
    """Split page text on CRLF, CR or LF and keep the non-blank lines, stripped.

    Args:
        text: The whole page.

    Returns:
        The non-blank lines with their original line numbers.
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    texts: list[str] = []
    numbers: list[int] = []
    strip = _STRIP
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip(strip)
        if line:
            texts.append(line)
            numbers.append(number)
    return Lines(texts, numbers)


# ---------------------------------------------------------------------------- venue + year
_MAX_VENUE_LINE = 80
#: A venue line as long as a proceedings' full name ("Proceedings of the 2023 Conference on
#: Empirical Methods in Natural Language Processing 2023"): read so only before a title.
_MAX_LONG_VENUE_LINE = 250
_SENTENCES = re.compile(r"[a-z]{4,}[.!?] [A-Z]")
_VENUE_LINE = re.compile(r"(?P<venue>.*?)[\s,]*(?<!\d)(?P<year>19\d\d|20\d\d|2100)")


def parse_venue_line(line: str, *, long: bool = False) -> tuple[str | None, int] | None:
    """Read a venue+year line such as "arXiv2026", "ICML 2022" or "Proc. VLDB 2021".

    Args:
        line: A stripped line.
        long: Also read a line as long as a proceedings' full name (up to 250 characters and
            40 words, a venue named): the caller checks that a title follows.

    Returns:
        ``(venue, year)`` with ``venue`` None when the line is only a year, or None when the
        line is not a short line ending in a plausible year.
    """
    if len(line) > (_MAX_LONG_VENUE_LINE if long else _MAX_VENUE_LINE) or not line[-1].isdigit():
        return None
    match = _VENUE_LINE.fullmatch(line)
    if match is None:
        return None
    venue = match.group("venue").strip()
    if len(venue.split()) > (40 if long else 8) or venue.endswith((":", ";", ",")):
        return None
    if long and (not venue or _SENTENCES.search(venue)):
        return None  # prose ("… molecules. We propose …") is no proceedings' name
    return (venue or None), int(match.group("year"))


# ---------------------------------------------------------------------------- subjects
_NEEDS_SUB = "cs|math|stat|eess|econ|q-bio|q-fin"
_OPTIONAL_SUB = (
    "astro-ph|cond-mat|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math-ph|nlin|nucl-ex|nucl-th|"
    "physics|quant-ph|acc-phys|adap-org|alg-geom|ao-sci|atom-ph|bayes-an|chao-dyn|chem-ph|"
    "cmp-lg|comp-gas|dg-ga|funct-an|mtrl-th|patt-sol|plasm-ph|q-alg|solv-int|supr-con"
)
_SUB = r"\.[A-Za-z]{2,}(?:-[A-Za-z]+)?"
_CODE = rf"(?:(?:{_NEEDS_SUB}){_SUB}|(?:{_OPTIONAL_SUB})(?:{_SUB})?)"
_ARROWS = "↗⇗⬈➚➶🡕🔗"
_CODE_RE = re.compile(_CODE)
_SUBJECT_LINE = re.compile(rf"(?:{_CODE}[\s{_ARROWS}]*[,;/|·•]?[\s{_ARROWS}]*)+")
_NAMED_SUBJECT = re.compile(rf"\(\s*({_CODE})\s*\)")
_NAMED_REST = re.compile(
    r"(?:[A-Z][^\W_]*(?:['’-][^\W_]+)*|and|of|for|the|in|on|with|to|[\s,;&/()" + _ARROWS + "-])+"
)
_MAX_SUBJECT_LINE = 300


def parse_subjects(line: str) -> tuple[str, ...] | None:
    """Read a subject line: arXiv categories such as "cs.LG↗" or "math.OC, stat.ML".

    Also accepts the arXiv listing style "Machine Learning (cs.LG); Optimization and Control
    (math.OC)", optionally after "Subjects:".

    Args:
        line: A stripped line.

    Returns:
        The category codes in page order without repeats, or None if the line is not a
        subject line.
    """
    if len(line) > _MAX_SUBJECT_LINE:
        return None
    body = line
    if body[:8].casefold() == "subject:" or body[:9].casefold() == "subjects:":
        body = body.partition(":")[2].strip()
        if not body:
            return None
    if body[0] in "acdeghmnpqs" and _SUBJECT_LINE.fullmatch(body):
        codes = _CODE_RE.findall(body)
    elif "(" in body:
        codes = _NAMED_SUBJECT.findall(body)
        if not codes or not _NAMED_REST.fullmatch(_NAMED_SUBJECT.sub(" ", body)):
            return None
    else:
        return None
    return tuple(dict.fromkeys(codes))


# ---------------------------------------------------------------------------- header lines
_COUNT_LINE = re.compile(
    r"(\d{1,3}(?:[,.\u00a0\u202f ]\d{3})+|\d+)\s*(?:records?|RECORDS?|Records?)(?![a-z])"
)
_ATTRIBUTED = re.compile(
    r"(?:[\w ,&]*\s)?(?:records|publications|papers|works|articles)\s+attributed\s+to\b\s*"
    r"(?P<name>.*)",
    re.IGNORECASE,
)


#: The largest record count a page can believably state.
MAX_CLAIMED = 1_000_000_000


def claimed_count(line: str) -> int | None:
    """Read the record count of a line like "12 recordsLinked to original sources".

    Args:
        line: A stripped line.

    Returns:
        The count, or None if the line does not start with "<number> record(s)".
    """
    if len(line) > 80 or not line[0].isdigit() or line.endswith("."):
        return None
    match = _COUNT_LINE.match(line)
    if match is None:
        return None
    count = int(re.sub(r"\D", "", match.group(1)))
    return count if count <= MAX_CLAIMED else None  # no page lists a billion records


def owner_from_sentence(line: str) -> str | None:
    """Read NAME from "Publications and source records attributed to NAME.".

    Args:
        line: A stripped line.

    Returns:
        The name ("" when the sentence names nobody), or None if the line is not that sentence.
    """
    if len(line) > 200 or "ttributed" not in line:
        return None
    match = _ATTRIBUTED.match(line)
    if match is None:
        return None
    name = match.group("name").strip()
    initial = re.search(r"(?:^|\s)(\w|Jr|Sr)\.$", name)  # (健 is a name, not an initial)
    if name.endswith(".") and (initial is None or east_asian(initial.group(1))):
        name = name[:-1].rstrip()
    return name
