"""Read one reference, as a bibliography style prints it, into a paper's record.

Researchers' home pages, lab pages and CVs list their papers as a bibliography prints them
(:mod:`~refman.importers.reference_list` reads such a page). The common styles are read:

- APA and Harvard: ``Solvik, M., & Ferreira, T. (2023). Title. Journal, 24(2), 1–34.``
- IEEE, MLA and Chicago, the title quoted: ``M. Solvik and T. Ferreira, “Title,” in Proc.
  ACL, 2022, pp. 455–467.`` / ``Solvik, Maren, et al. “Title.” Journal, vol. 2, 2023.``
- Vancouver and PubMed: ``Solvik M, Ferreira T. Title. J Mach Learn Res. 2023;24(2):1-34.``
- DBLP: ``Maren Solvik, Wei Wang 0001: Title. J. Mach. Learn. Res. 24: 1-34 (2023)``.
- ACM and LaTeX's plain style, sentences: ``Maren Solvik and Tobias Ferreira. 2023. Title.
  In Proceedings of …`` / ``M. Solvik and T. Ferreira. Title. JMLR, 24:1–34, 2023.``

A text is a reference when it reads as authors, a title and a year; the names are read by
:func:`~refman.importers.typed_names.typed_authors` (the reader of every way people write an
author list).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from refman.common.errors import InvalidValueError
from refman.common.identifiers import find_arxiv_ids, find_dois, normalize_arxiv
from refman.importers.names import looks_like_person
from refman.importers.records import ParsedRecord, PersonName
from refman.importers.reference_kinds import EDITED, as_edited, as_published, reference_kind
from refman.importers.titles import title_text
from refman.importers.typed_names import typed_authors
from refman.importers.undated import MANUSCRIPT, NOT_YET, UNDATED, UNDATED_REST, status_of
from refman.importers.venue_names import LISTED_VENUE, venue_after_comma

__all__ = [
    "LONE_YEAR",
    "NUMBERING",
    "YEAR",
    "Parts",
    "is_title",
    "read_reference",
    "reference_authors",
    "reference_record",
]

#: The most characters a reference may hold (longer text is prose, not a reference), and
#: its names.
_LONGEST = 1_500
_LONGEST_NAMES = 600
#: A year of publication.
YEAR = r"(?:1[89]|20)\d\d"
#: What numbers or marks a reference in a list: "[12]", "12.", "12)", "(12)", "•", "-", and
#: a CV's labels of its kinds of papers: "[J5]", "[C12]", "J5.", "[P3a]".
NUMBERING = re.compile(
    r"^(?:\[[A-Z]{0,3}\d{1,4}[a-z]?\]|\(\d{1,3}\)|[A-Z]{0,2}\d{1,4}[.)]|[•·*▪‣◦–-])\s+"
)
#: APA and Harvard: the authors, then the year in brackets.
_APA = re.compile(
    rf"^(?P<authors>.+?)\s*\((?:(?P<year>{YEAR})[a-z]?(?:,[^)]*)?|(?P<undated>{NOT_YET}))\)"
    r"[.,:]?\s+(?P<rest>.+)$",
    re.IGNORECASE,
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
#: after an initial ("M. Solvik") nor a journal's numbers' abbreviation ("pp. 4–9", "vol. 3").
_SENTENCE_END = re.compile(
    r"(?<![\s.][A-Z])(?<!^[A-Z])(?!(?<=\bpp|\bno)\.\s*\d)(?!(?<=\bvol)\.\s*\d)([.?!])\s+(?=\S)"
)
#: A year standing alone in the rest of a reference: "2023.", ", 2023,", "(2023)", "2023;".
LONE_YEAR = re.compile(rf"(?:^|[\s(,.;])({YEAR})[a-z]?(?=$|[\s).,;:])")
#: Volume, issue and pages: "24(2), 1–34", "vol. 24, no. 2, pp. 1–34", "2023;24(2):1-34",
#: LaTeX's plain style's "pages 40--48"; a volume without an issue before the pages ("421,
#: 106–121", Nature's "441, 106–121", Vancouver's "2019;570:1-12"; a year is none).
_VOLUME = re.compile(
    r"\b(?:vol\.\s*)?(\d{1,4})\s*(?:\((?!(?:1[89]|20)\d\d\))(\w{1,6})\)|,\s*no\.\s*(\w{1,6}))"
    r"|\bvol\.\s*(\d{1,4})"
    r"|\b(?!(?:1[89]|20)\d\d\b)(\d{1,4})[,:]\s*(?=(?:pp?\.\s*)?\d{1,6}\s*[–-]{1,2}\s*\d)"
)
_PAGES = re.compile(r"(?:\bpp?\.\s*|\bpages\s+|[:,]\s*)(\d{1,6}\s*[–-]{1,2}\s*\d{1,6})(?![\d:])")
#: How a title starts: a capital, a digit or a quote (every style capitalises its first word).
_TITLE_START = re.compile(r"[\s“\"‘']*(?:[^\W\d_](?<=[^a-z])|\d)")
#: A title of one word ("Cryosphere", "Ice-shelves?").
_ONE_WORD = re.compile(r"[“\"‘']?[^\W_][\w'’-]{2,}[?!]?[”\"’']?")
#: A suffix APA writes as a name of its own ("Smith, J., Jr., & …"), and its ellipsis
#: between the 19th and the last author (". . .").
_SUFFIX = re.compile(r",\s*(?:Jr|Sr)\.?(?=\s*(?:,|&|and\b|$))")
_ELLIPSIS = re.compile(r",?\s*\.\s\.\s\.\s*")
#: Markdown's emphasis, as a page written in Markdown (a README, a Jekyll or Hugo site)
#: marks its owner's name and a journal: "**Okafor, N.**", "*Marine Geology*, *441*(3)".
_EMPHASIS = re.compile(r"(?<![\w*])(\*{1,2})(?=[^\s*])([^*]+?)(?<=[^\s*])\1(?![\w*])")
#: "et al." ending a list of names.
_ET_AL = re.compile(r",?\s+et al\.?$")
#: Proceedings IEEE names with commas in their abbreviations, up to the conference's
#: acronym: "Proc. IEEE Int. Conf. Acoust., Speech Signal Process. (ICASSP)".
_NAMED_PROCEEDINGS = re.compile(r"Proc\.[^()]{1,150}?\([A-Z][A-Za-z]*[A-Z]\)")
#: What a medium a title ends with says ("[dissertation]", "[Internet]").
_MEDIUM = re.compile(r"\s*\[[^\]]{1,30}\]$")
#: Where a venue's name ends (not at a colon before a capitalised word: "Journal of
#: Geophysical Research: Earth Surface", Harvard's "Cambridge: Cambridge University Press").
_VENUE_END = re.compile(
    r"[,;(]|:(?!\s+[A-Z][a-z])|(?<=\.)\s+(?=\d)|\s(?=\d+(?:[\s.,;:(]|$))|\s(?:vol|pp|no)\."
)
#: An arXiv id as DBLP writes it ("CoRR abs/2401.01234").
_CORR = re.compile(r"\babs/(\d{4}\.\d{4,5}(?:v\d+)?)\b")
#: An address or identifier the rest of a reference ends with (not part of its venue).
_TRAILING_IDS = re.compile(r"\s*(?:https?://\S+|doi:\s*\S+|arXiv:\s*\S+|\[[^\]]*\])\s*$", re.I)


@dataclass(frozen=True, slots=True)
class Parts:
    """A reference taken apart: its author text, title, what follows, its year if found,
    and whether it says it has none yet ("(in press)", "(n.d.)")."""

    authors: str
    title: str
    rest: str
    year: int | None
    undated: str = ""


def _sentence(text: str) -> tuple[str, str]:
    """The first sentence of ``text`` (a question keeps its mark) and what follows."""
    end = _SENTENCE_END.search(text)
    if end is None:
        return text.rstrip("."), ""
    mark = end.group(1)
    return text[: end.start()] + ("" if mark == "." else mark), text[end.end() :]


def _title_sentence(text: str) -> tuple[str, str]:
    """The title that starts ``text``, and what follows: its first sentence, and the next
    when the first ends in a question or exclamation mark and a venue still follows ("Do
    estuaries silt up? A field study. Estuar Coast. 2019")."""
    title, rest = _sentence(text)
    if title.endswith(("?", "!")):
        more, after = _sentence(rest)
        if after and not after[0].isdigit() and not any(c.isdigit() for c in more):
            return f"{title} {more}", after
    return title, rest


def _apa(text: str) -> Parts | None:
    m = _APA.match(text)
    if m is None:
        return None
    quoted = _QUOTED_FIRST.match(m["rest"])  # Harvard: "(2016) 'Title', Journal, …"
    if quoted:
        title, rest = quoted[1], quoted[2]
    else:  # (Harvard without its quotes: "(2022) Title, Journal, 12(3), pp. 4–9.")
        title, rest = venue_after_comma(*_title_sentence(m["rest"]))
    year = int(m["year"]) if m["year"] else None
    return Parts(m["authors"], title, rest, year, undated=m["undated"] or "")


def _quoted(text: str) -> Parts | None:
    m = _QUOTED.match(text)
    if m is None:
        return None
    authors, year = m["authors"], None
    dated = re.search(rf"[.,]\s*({YEAR})[a-z]?\.?$", authors)  # Chicago: "Names. 2023."
    if dated:
        authors, year = authors[: dated.start()], int(dated.group(1))
    return Parts(authors, m["title"].strip(), m["rest"], year)


def _vancouver(text: str) -> Parts | None:
    m = _VANCOUVER.match(text)
    if m is None:
        return None
    rest, year = m["rest"], None
    dated = re.match(rf"({YEAR})[a-z]?\.\s+", rest)  # (eLife, AGU: "Okafor N. 2022. Title.")
    if dated:
        year, rest = int(dated.group(1)), rest[dated.end() :]
    title, rest = _title_sentence(rest)
    return Parts(m["authors"], title, rest, year)


def _dblp(text: str) -> Parts | None:
    """DBLP: "Names: Title. Venue 24: 1-34 (2023)" (a number after a name tells namesakes
    apart: "Wei Wang 0001")."""
    m = _DBLP.match(text)
    if m is None:
        return None
    title, rest = _title_sentence(m["rest"])
    return Parts(_DBLP_NUMBER.sub("", m["authors"]), title, rest, None)


def _sentences(text: str) -> Parts | None:
    """ACM ("Names. 2023. Title. Venue.") and LaTeX's plain style ("Names. Title. Venue, 2023.")."""
    authors, rest = _sentence(text)
    if not rest:
        return None
    year = None
    dated = re.match(rf"({YEAR})[a-z]?\.\s+", rest)
    if dated:
        year, rest = int(dated.group(1)), rest[dated.end() :]
    title, rest = _title_sentence(rest)
    return Parts(authors, title, rest, year)


#: Where a list of names may end and its title start: a comma, or the full stop of an
#: initial ("Baptiste, R. Title", "R. Baptiste, Title"); the next word no initial.
_NAMES_END = re.compile(r"(?:,|(?<=\b[A-Z])\.)\s+(?![^\W\d_]\.)(?=[^\W_])")
#: The most places :func:`_names_first` tries (a list of names is read in few).
_NAMES_TRIED = 40


def _names_first(text: str) -> Parts | None:
    """Nature, Science and AGU: the names, their last initial's full stop or a comma, then
    the title ("Okafor, N., Lindqvist, E. & Baptiste, R. Title. Mar. Geol. 441, 106–121
    (2022).", "N. Okafor, E. Lindqvist, Title. Science 375, 1 (2022).", "Okafor, N., &
    Lindqvist, E. 2022. Title. Journal 4: 1–9."): the longest start that reads as names."""
    found = None
    for tried, end in enumerate(_NAMES_END.finditer(text[:_LONGEST_NAMES])):
        if tried >= _NAMES_TRIED:
            break
        if reference_authors(text[: end.start() + (end[0][0] == ".")]) is not None:
            found = end
    if found is None:
        return None
    rest, year = text[found.end() :], None
    dated = re.match(rf"({YEAR})[a-z]?\.\s+", rest)
    if dated:
        year, rest = int(dated.group(1)), rest[dated.end() :]
    title, rest = _title_sentence(rest)
    return Parts(text[: found.start() + (found[0][0] == ".")], title, rest, year)


def is_title(text: str, lone: bool = False) -> bool:
    """Whether ``text`` can be a reference's title: two words or more, the first capitalised
    (every style capitalises it) or a number; or, when ``lone``, one such word of three
    letters or more ("Cryosphere")."""
    if _TITLE_START.match(text) is None:
        return False
    return " " in text.strip() or (lone and _ONE_WORD.fullmatch(text.strip()) is not None)


def reference_authors(text: str) -> tuple[tuple[PersonName, ...], bool] | None:
    """The people of a reference's author text, or None when it is no list of people."""
    text = re.sub(r"(?<=[^\W\d_]{2})\.$", "", text.strip().rstrip(",;: "))  # (not "T.")
    text = re.sub(r",? et al\.?$", " et al.", text)
    text = _SUFFIX.sub("", _ELLIPSIS.sub(", … ", text))  # (APA: "Smith, J., Jr.", ". . .")
    text = _given_after_first(text)
    try:
        people, complete = typed_authors(text)
    except InvalidValueError:
        people, complete = (), False
    if not people or not all(_a_person(p.display) for p in people):
        cut = _ET_AL.search(text)  # ("Okafor, N. et al.": the names before it, incomplete)
        found = reference_authors(text[: cut.start()]) if cut and cut.start() else None
        return (found[0], False) if found else None
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
    rest = re.sub(r"^(?:[–—-]\s*)?(?:In:?\s+|in:?\s+)?", "", rest.strip())  # ("– Mar Geol")
    if MANUSCRIPT.match(rest):
        return None
    listed = LISTED_VENUE.match(rest) or _NAMED_PROCEEDINGS.match(rest)
    head = listed[0] if listed else _VENUE_END.split(rest, maxsplit=1)[0].strip()
    if head.endswith(("]", "].")):  # (Vancouver: "Mar Geol [Internet].")
        head = _MEDIUM.sub("", head.removesuffix("."))
    if head.casefold().startswith(("arxiv", "corr abs/")):  # (CoRR: DBLP's name of arXiv)
        return "arXiv"
    if "." not in head[:-1]:
        head = head.rstrip(".")
    return head if len(head) >= 2 and not head.isdigit() else None


def _year(parts: Parts) -> int | None:
    if parts.year is not None:
        return parts.year
    found = LONE_YEAR.findall(parts.rest)
    return int(found[0]) if found else None


#: The styles tried, in turn, and whether each may read a title of one word (followed by a
#: venue): at once where the title stands apart (after "(2020).", in quotes, after
#: Vancouver's initials), else once no style reads a longer title (Nature's names first,
#: so that "Smith, J. Cryosphere. Nat. Geosci." is no "J. Cryosphere Smith" of title "Nat").
_STYLES: tuple[tuple[Callable[[str], Parts | None], bool], ...] = (
    *((style, True) for style in (_apa, _quoted, _vancouver)),
    (_dblp, False),
    (_sentences, False),
    (_names_first, False),
    *((style, True) for style in (_names_first, _dblp, _sentences)),
)


def read_reference(text: str, line: int = 0, last_line: int = 0) -> ParsedRecord | None:
    """One reference as a record, or None when ``text`` is no reference."""
    text = NUMBERING.sub("", text.strip())
    if "*" in text:  # (a page written in Markdown: "**Okafor, N.**", "*Marine Geology*")
        text = _EMPHASIS.sub(r"\2", text)
    if len(text) > _LONGEST or not (re.search(YEAR, text) or UNDATED.search(text)):
        return None
    dois, arxiv = find_dois(text), find_arxiv_ids(text)
    plain = text
    while (trimmed := _TRAILING_IDS.sub("", plain)) != plain:
        plain = trimmed
    for style, lone in _STYLES:
        parts = style(plain)
        if parts is None or not is_title(title_text(parts.title), lone and bool(parts.rest)):
            continue
        edited = EDITED.search(parts.authors)  # (an edited book: "Okafor, N. (Ed.).")
        people = reference_authors(parts.authors[: edited.start()] if edited else parts.authors)
        year = _year(parts)
        if people is None or (year is None and status_of(parts.undated, parts.rest) is None):
            continue  # (no year, nor "in press" or "n.d." in its place)
        record = reference_record(parts, people, year, (dois, arxiv), (line, last_line))
        return as_edited(record) if edited else record
    return None


def reference_record(
    parts: Parts,
    people: tuple[tuple[PersonName, ...], bool],
    year: int | None,
    ids: tuple[list[str], list[str]],
    lines: tuple[int, int],
) -> ParsedRecord:
    names, complete = people
    status = status_of(parts.undated, parts.rest) if year is None else None
    venue = _venue(UNDATED_REST.sub("", parts.rest) if status is not None else parts.rest)
    volume = _VOLUME.search(parts.rest)
    pages = _PAGES.search(parts.rest)
    arxiv = _arxiv_id(parts.rest, venue, ids[1])
    venue = venue or ("arXiv" if arxiv else None)  # ("Title. arXiv:2402.01234.")
    kind = reference_kind(parts.rest, venue, arxiv, numbered=_VOLUME.search(parts.rest) is not None)
    record = ParsedRecord(
        title=title_text(_MEDIUM.sub("", parts.title).strip(' .,“”"')),
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
        volume=(volume.group(1) or volume.group(4) or volume.group(5)) if volume else None,
        issue=(volume.group(2) or volume.group(3)) if volume else None,
        pages=re.sub(r"\s*[–-]{1,2}\s*", "–", pages.group(1)) if pages else None,
        extra={"status": status} if status else {},
    )
    return as_published(record, parts.title, parts.rest)  # (a thesis, a book's chapter)


def _arxiv_id(rest: str, venue: str | None, found: list[str]) -> str | None:
    """The arXiv id a reference gives, or DBLP's "CoRR abs/…" of a preprint."""
    corr = _CORR.search(rest) if venue == "arXiv" else None
    given = found[0] if found else (corr.group(1) if corr else None)
    return normalize_arxiv(given, keep_version=True) if given else None
