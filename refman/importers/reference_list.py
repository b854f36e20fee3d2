"""Read a publication list written as references (:attr:`PageFormat.REFERENCE_LIST`).

Researchers' home pages, lab pages and CVs list their papers as a bibliography prints them,
one reference a line (or wrapped over a few), numbered or not, under headings. The common
styles are read:

- APA and Harvard: ``Solvik, M., & Ferreira, T. (2023). Title. Journal, 24(2), 1–34.``
- IEEE, MLA and Chicago, the title quoted: ``M. Solvik and T. Ferreira, “Title,” in Proc.
  ACL, 2022, pp. 455–467.`` / ``Solvik, Maren, et al. “Title.” Journal, vol. 2, 2023.``
- Vancouver and PubMed: ``Solvik M, Ferreira T. Title. J Mach Learn Res. 2023;24(2):1-34.``
- DBLP: ``Maren Solvik, Wei Wang 0001: Title. J. Mach. Learn. Res. 24: 1-34 (2023)``.
- ACM and LaTeX's plain style, sentences: ``Maren Solvik and Tobias Ferreira. 2023. Title.
  In Proceedings of …`` / ``M. Solvik and T. Ferreira. Title. JMLR, 24:1–34, 2023.``

A line is a reference when it reads as authors, a title and a year; the names are read by
:func:`~refman.importers.typed_names.typed_authors` (the reader of every way people write an
author list). Lines that are none (the researcher's name, "Publications", "2023", "Journal
articles") are headings; a line that looks like a reference but does not read as one is
named in a warning, never guessed at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from refman.common.errors import InvalidValueError
from refman.common.identifiers import find_arxiv_ids, find_dois, normalize_arxiv
from refman.importers.lines import Lines
from refman.importers.names import looks_like_person
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord, PersonName
from refman.importers.typed_names import typed_authors

__all__ = ["parse_reference_list"]

#: The most characters a reference may hold (longer text is prose, not a reference).
_LONGEST = 1_500
#: How many lines that look like references but are none tell prose from a list.
_PROSE_AFTER = 30
#: The most lines one reference may be wrapped over.
_WRAPPED = 4
#: A year of publication.
_YEAR = r"(?:1[89]|20)\d\d"
#: What numbers or marks a reference in a list: "[12]", "12.", "12)", "•", "-".
_NUMBERING = re.compile(r"^(?:\[\d{1,4}\]|\d{1,4}[.)]|[•·*▪‣◦–-])\s+")
#: APA and Harvard: the authors, then the year in brackets.
_APA = re.compile(
    rf"^(?P<authors>.+?)\s*\((?P<year>{_YEAR})[a-z]?(?:,[^)]*)?\)[.,:]?\s+(?P<rest>.+)$"
)
#: A quoted title (IEEE, MLA, Chicago), the authors before it.
_QUOTED = re.compile(
    r"^(?P<authors>.+?)[.,]?\s*[“\"](?P<title>[^”\"]{3,}?)[.,]?[”\"]\s*[.,]?\s*(?P<rest>.*)$"
)
#: A title in quotes at the start: "'Title', Journal", "“Title.” Journal".
_QUOTED_FIRST = re.compile(r"^[‘'“\"](.{3,}?)[.,]?[’'”\"][.,]?\s+(.*)$")
#: A name as Vancouver and PubMed write it: the family name, then the initials.
_VANCOUVER_NAME = r"[^\W\d_][\w'’-]*(?: [^\W\d_][\w'’-]*){0,3} [A-Z]{1,3}"
_VANCOUVER = re.compile(
    rf"^(?P<authors>{_VANCOUVER_NAME}(?:, {_VANCOUVER_NAME})*(?:,? et al)?)\.\s+(?P<rest>.+)$"
)
#: DBLP: the names, a colon, the rest; a namesake's number ("Wei Wang 0001").
_DBLP = re.compile(r"^(?P<authors>[^:.]{3,300}?):\s+(?P<rest>.+)$")
_DBLP_NUMBER = re.compile(r" \d{4}(?=,|$)")
#: The end of a sentence: a full stop, question or exclamation mark before a space, not
#: after an initial ("M. Solvik").
_SENTENCE_END = re.compile(r"(?<![\s.][A-Z])(?<!^[A-Z])([.?!])\s+(?=\S)")
#: A year standing alone in the rest of a reference: "2023.", ", 2023,", "(2023)", "2023;".
_LONE_YEAR = re.compile(rf"(?:^|[\s(,.;])({_YEAR})[a-z]?(?=$|[\s).,;:])")
#: Volume, issue and pages: "24(2), 1–34", "vol. 24, no. 2, pp. 1–34", "2023;24(2):1-34".
_VOLUME = re.compile(
    r"\b(?:vol\.\s*)?(\d{1,4})\s*(?:\((?!(?:1[89]|20)\d\d\))(\w{1,6})\)|,\s*no\.\s*(\w{1,6}))"
    r"|\bvol\.\s*(\d{1,4})"
)
_PAGES = re.compile(r"(?:\bpp?\.\s*|[:,]\s*)(\d{1,6}\s*[–-]{1,2}\s*\d{1,6})(?![\d:])")
#: How a title starts: a capital, a digit or a quote (every style capitalises its first word).
_TITLE_START = re.compile(r"[\s“\"‘']*(?:[^\W\d_](?<=[^a-z])|\d)")
#: Where a venue's name ends.
_VENUE_END = re.compile(r"[,;:(]|(?<=\.)\s+(?=\d)|\s(?=\d+(?:[\s.,;:(]|$))|\s(?:vol|pp|no)\.")
#: An arXiv id as DBLP writes it ("CoRR abs/2401.01234").
_CORR = re.compile(r"\babs/(\d{4}\.\d{4,5}(?:v\d+)?)\b")
#: Words of a venue's name that say it is a conference's or a workshop's.
_PROCEEDINGS = re.compile(r"\b(?:Proc|Proceedings|Conference|Conf|Workshop|Symposium|Meeting)\b")
#: An address or identifier the rest of a reference ends with (not part of its venue).
_TRAILING_IDS = re.compile(r"\s*(?:https?://\S+|doi:\s*\S+|arXiv:\s*\S+|\[[^\]]*\])\s*$", re.I)


@dataclass(frozen=True, slots=True)
class _Parts:
    """A reference taken apart: its author text, title, what follows, its year if found."""

    authors: str
    title: str
    rest: str
    year: int | None


def _sentence(text: str) -> tuple[str, str]:
    """The first sentence of ``text`` (a question keeps its mark) and what follows."""
    end = _SENTENCE_END.search(text)
    if end is None:
        return text.rstrip("."), ""
    mark = end.group(1)
    return text[: end.start()] + ("" if mark == "." else mark), text[end.end() :]


def _apa(text: str) -> _Parts | None:
    m = _APA.match(text)
    if m is None:
        return None
    quoted = _QUOTED_FIRST.match(m["rest"])  # Harvard: "(2016) 'Title', Journal, …"
    title, rest = (quoted[1], quoted[2]) if quoted else _sentence(m["rest"])
    return _Parts(m["authors"], title, rest, int(m["year"]))


def _quoted(text: str) -> _Parts | None:
    m = _QUOTED.match(text)
    if m is None:
        return None
    authors, year = m["authors"], None
    dated = re.search(rf"[.,]\s*({_YEAR})[a-z]?\.?$", authors)  # Chicago: "Names. 2023."
    if dated:
        authors, year = authors[: dated.start()], int(dated.group(1))
    return _Parts(authors, m["title"].strip(), m["rest"], year)


def _vancouver(text: str) -> _Parts | None:
    m = _VANCOUVER.match(text)
    if m is None:
        return None
    title, rest = _sentence(m["rest"])
    return _Parts(m["authors"], title, rest, None)


def _dblp(text: str) -> _Parts | None:
    """DBLP: "Names: Title. Venue 24: 1-34 (2023)" (a number after a name tells namesakes
    apart: "Wei Wang 0001")."""
    m = _DBLP.match(text)
    if m is None:
        return None
    title, rest = _sentence(m["rest"])
    return _Parts(_DBLP_NUMBER.sub("", m["authors"]), title, rest, None)


def _sentences(text: str) -> _Parts | None:
    """ACM ("Names. 2023. Title. Venue.") and LaTeX's plain style ("Names. Title. Venue, 2023.")."""
    authors, rest = _sentence(text)
    if not rest:
        return None
    year = None
    dated = re.match(rf"({_YEAR})[a-z]?\.\s+", rest)
    if dated:
        year, rest = int(dated.group(1)), rest[dated.end() :]
    title, rest = _sentence(rest)
    return _Parts(authors, title, rest, year)


def _authors(text: str) -> tuple[tuple[PersonName, ...], bool] | None:
    """The people of a reference's author text, or None when it is no list of people."""
    text = re.sub(r"(?<=[^\W\d_]{2})\.$", "", text.strip().rstrip(",;: "))  # (not "T.")
    text = re.sub(r",? et al\.?$", " et al.", text)
    text = _given_after_first(text)
    try:
        people, complete = typed_authors(text)
    except InvalidValueError:
        return None
    if not people or not all(_a_person(p.display) for p in people):
        return None
    return people, complete


def _a_person(name: str) -> bool:
    """A person's name, no leftover of "et al." ("Smith al")."""
    return looks_like_person(name) and not {"al", "al.", "et"} & set(name.split())


def _given_after_first(text: str) -> str:
    """MLA and Chicago write the first author family name first, the others not ("Solvik,
    Maren, Tobias Ferreira and Ines Carvalho"; "Solvik, Maren, et al."): the first name
    turned round, so that the list reads as the others."""
    m = re.match(
        r"^([^\W\d_][\w'’-]*), ((?:[^\W\d_][\w'’-]*)(?: [^\W\d_][\w'’.-]*)?)(?=, | and | et al\.)",
        text,
    )
    if m is None or len(m[2].rstrip(".")) < 2 or m[2].isupper():
        return text
    return f"{m[2]} {m[1]}{text[m.end() :]}"


def _venue(rest: str) -> str | None:
    """The journal or proceedings a reference names after its title: up to a comma, a
    bracket or a number ("Journal of X, 24(2)", "Neural Computation 32 (4)", "J Mach Learn
    Res. 2023;24", "in Proc. ACL, 2022")."""
    rest = re.sub(r"^(?:In:?|in:?)\s+", "", rest.strip())
    head = _VENUE_END.split(rest, maxsplit=1)[0].strip()
    if head.casefold().startswith(("arxiv", "corr abs/")):  # (CoRR: DBLP's name of arXiv)
        return "arXiv"
    if "." not in head[:-1]:
        head = head.rstrip(".")
    return head if len(head) >= 2 and not head.isdigit() else None


def _year(parts: _Parts) -> int | None:
    if parts.year is not None:
        return parts.year
    found = _LONE_YEAR.findall(parts.rest)
    return int(found[0]) if found else None


def read_reference(text: str, line: int = 0, last_line: int = 0) -> ParsedRecord | None:
    """One reference as a record, or None when ``text`` is no reference."""
    text = _NUMBERING.sub("", text.strip())
    if len(text) > _LONGEST or not re.search(_YEAR, text):
        return None
    dois, arxiv = find_dois(text), find_arxiv_ids(text)
    plain = text
    while (trimmed := _TRAILING_IDS.sub("", plain)) != plain:
        plain = trimmed
    for style in (_apa, _quoted, _vancouver, _dblp, _sentences):
        parts = style(plain)
        if parts is None or _TITLE_START.match(parts.title) is None or " " not in parts.title:
            continue
        people = _authors(parts.authors)
        year = _year(parts)
        if people is None or year is None:
            continue
        return _record(parts, people, year, (dois, arxiv), (line, last_line))
    return None


def _record(
    parts: _Parts,
    people: tuple[tuple[PersonName, ...], bool],
    year: int,
    ids: tuple[list[str], list[str]],
    lines: tuple[int, int],
) -> ParsedRecord:
    names, complete = people
    venue = _venue(parts.rest)
    volume = _VOLUME.search(parts.rest)
    pages = _PAGES.search(parts.rest)
    corr = _CORR.search(parts.rest) if venue == "arXiv" else None
    found = ids[1][0] if ids[1] else (corr.group(1) if corr else None)
    arxiv = normalize_arxiv(found, keep_version=True) if found else None
    kind = _kind(parts.rest, venue, arxiv)
    return ParsedRecord(
        title=parts.title.strip(' .,“”"'),
        title_provisional=False,
        abstract="",
        year=year,
        venue=venue,
        authors=tuple(p.display for p in names),
        authors_complete=complete,
        author_names=names,
        line=lines[0],
        last_line=lines[1] or lines[0],
        type=kind,
        doi=ids[0][0] if ids[0] else None,
        arxiv_id=arxiv,
        volume=(volume.group(1) or volume.group(4)) if volume else None,
        issue=(volume.group(2) or volume.group(3)) if volume else None,
        pages=re.sub(r"\s*[–-]{1,2}\s*", "–", pages.group(1)) if pages else None,
    )


def _kind(rest: str, venue: str | None, arxiv: str | None) -> str:
    """The CSL type: a conference paper ("In Proceedings of …"), a preprint, an article."""
    if re.match(r"\s*[Ii]n:?\s", rest) or (venue and _PROCEEDINGS.search(venue)):
        return "paper-conference"
    if venue and " " not in venue and not _VOLUME.search(rest) and venue != "arXiv":
        return "paper-conference"  # ("NeurIPS 2023", "ICML 2021: 10-20")
    if venue == "arXiv" or (arxiv and not venue):
        return "article"
    return "article-journal" if venue else "article"


def _looks_like_reference(text: str) -> bool:
    """A line a reader would take for a reference: a year and enough words."""
    return bool(re.search(_YEAR, text)) and len(text.split()) >= 8


def parse_reference_list(lines: Lines) -> ParsedPage | None:
    """The references of a page, or None when no line of it is one, or when most lines that
    look like references (a year and a sentence's words) do not read as ones: prose, not a
    list of references (:data:`_PROSE_AFTER` such lines decide it, so a long text that is no
    list costs little).

    A line that is no reference alone may be the start of one wrapped over the next lines
    (a list copied from a PDF): up to :data:`_WRAPPED` lines are read as one.
    """
    records: list[ParsedRecord] = []
    skipped: list[int] = []
    owner = ""
    i, n = 0, len(lines.text)
    alone = _Alone(lines)
    while i < n:
        found = _at(lines, i, alone)
        if found is not None:
            record, i = found
            records.append(record)
            continue
        text = lines.text[i]
        if not records and not owner and looks_like_person(text):
            owner = text
        elif _looks_like_reference(text):
            skipped.append(lines.number[i])
            if len(skipped) >= _PROSE_AFTER and len(skipped) > 2 * len(records):
                return None
        i += 1
    if not records or len(skipped) > 2 * len(records):
        return None
    warnings = [
        f"Line {number} was not read: it looks like a reference, but not its authors, title "
        "and year."
        for number in skipped
    ]
    return ParsedPage(
        owner=owner,
        format=PageFormat.REFERENCE_LIST,
        claimed=None,
        records=records,
        warnings=warnings,
    )


class _Alone:
    """Whether each line is a reference alone (each line read once)."""

    def __init__(self, lines: Lines) -> None:
        self.lines = lines
        self.known: dict[int, ParsedRecord | None] = {}

    def __call__(self, j: int) -> ParsedRecord | None:
        if j not in self.known:
            self.known[j] = read_reference(self.lines.text[j], self.lines.number[j])
        return self.known[j]


def _at(lines: Lines, i: int, alone: _Alone) -> tuple[ParsedRecord, int] | None:
    """The reference that starts at line ``i`` (alone, or wrapped over the lines after it),
    and the index of the line after it."""
    text = lines.text[i]
    found: tuple[ParsedRecord, int] | None = None
    for j in range(i, min(i + _WRAPPED, len(lines.text))):
        if j > i:
            if alone(j) is not None:
                break  # (the next line is a reference of its own)
            text = f"{text} {lines.text[j]}"
        record = alone(i) if j == i else read_reference(text, lines.number[i], lines.number[j])
        if record is not None:
            found = record, j + 1
            if record.venue is not None:
                break  # (a reference without a venue may go on on the next line)
    return found
