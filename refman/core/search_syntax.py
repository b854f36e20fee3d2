"""The search line's syntax: fields, ranges, exclusions and alternatives.

What a person types is read into plain words (matched by the full-text index as before)
and filters:

* ``author:jiang`` — a paper one of whose authors has a name with a word starting so;
  ``owner:"Zhuo Jiang"`` — a paper on that person's imported page (accents and case never
  matter);
* ``year:2024``, ``year:2023..2025``, ``year:..2019``, ``year:2020..`` — years, inclusive
  (``year:2023-2025``, ``year:>2020``, ``year:<=2019`` too);
* ``title:survey``, ``title:"graph neural"`` — the title contains it; ``venue:arxiv`` — the venue
  contains it; ``subject:cs.DC`` — filed under the subject
  (``subject:cs`` for every ``cs.*`` subject);
* ``tag:"to read"`` — carries the tag; ``note:todo`` — a note of the paper contains it;
* ``-word``, ``-"a phrase"``, ``-author:smith`` — leave out what matches;
* ``a OR b`` — either (each side one term: a word, a phrase or a field); ``a AND b`` is
  ``a b`` and ``NOT a`` is ``-a``, as other searches write them;
* ``"exact phrase"`` — the words in this order;
* ``is:duplicate``, ``is:suggested``, ``is:incomplete`` — a possible duplicate, a suggested
  title, an incomplete author list (what puts a paper in *Needs attention*); ``is:unread``,
  ``is:reading``, ``is:read`` — its reading status; ``rating:4``, ``rating:3..5``,
  ``rating:>=4`` — its stars (as years are ranged);
* ``doi:10.1145/3188720``, ``arxiv:2401.01234``, ``key:jiang2024megascale`` — the paper of
  that identifier; a DOI (or its link) or an arXiv id pasted alone finds its paper too, and a
  lone word shaped like a citation key (``DBLP:conf/nips/BrownMRSKDNSSAA20`` too) also finds
  the paper of that key.

An unknown field (``foo:bar``), an empty value or a broken range is read as plain words, and
an unbalanced quote is ignored: what a person types never makes an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from refman.common.identifiers import normalize_arxiv, normalize_doi
from refman.core.rules import tag_key
from refman.core.values import PaperQuery
from refman.store.search_terms import parse_terms
from refman.store.search_terms import without_open_quote as without_open_quote  # (for cli)

#: The fields the search line understands.
FIELDS = (
    "title",
    "author",
    "owner",
    "year",
    "venue",
    "subject",
    "tag",
    "note",
    "doi",
    "arxiv",
    "key",
    "is",
    "rating",
)
#: What ``is:`` asks of a paper: why it needs attention (a suggested title, an incomplete
#: author list, a possible duplicate) or its reading status.
STATES = ("duplicate", "suggested", "incomplete", "unread", "reading", "read")

#: A lone word shaped like a citation key: a letter and two digits at least, maybe
#: joined by _ - . + / ' : — "smith2020graph", Zotero's "brown_language_2020-1", JabRef's
#: "Kaplan20", "KingmaB14", ACL's "N19-1423", PMLR's "pmlr-v139-radford21a".
_CITEKEY = re.compile(r"^(?=.*[^\W\d_])(?=(?:.*\d){2})[\w'+./:-]{5,}$")
#: A lone key with a prefix that is no field, as DBLP and older ACL keys are written
#: ("DBLP:conf/nips/BrownMRSKDNSSAA20", "Devlin:2019").
_PREFIXED_KEY = re.compile(r"^([A-Za-z]+):([^\s{}(),\\#%~\"'=:]*\d[^\s{}(),\\#%~\"'=]*)$")

#: The words that join terms rather than being searched for (in capitals, as typed).
_OPERATORS = ("OR", "AND", "NOT")
_JOINING = tuple(f" {word} " for word in _OPERATORS)
_TOKEN = re.compile(r'(-?)(?:([A-Za-z]+):)?(?:"([^"]*)"?|(\S+))')
#: An identifier's label as papers print it, a space after its colon: "DOI: 10.1145/…",
#: "arXiv: 2401.01234" (other fields keep "word: word" as words: a title "Note: on …").
_SPACED_FIELD = re.compile(r"(?<![^\s-])(doi|arxiv)\s*:\s+(?=[^\s-])", re.IGNORECASE)
_YEARS = re.compile(r"^(\d{1,4})?(?:\.\.(\d{1,4})?)?$")
#: Years as people type them too: "2020-2022" (a hyphen or a dash), ">2020", "<=2019".
_DASHED = re.compile(r"^(\d{1,4})\s*[-\u2010-\u2015]\s*(\d{1,4})$")
_COMPARED = re.compile(r"^([<>]=?)\s*(\d{1,4})$")


@dataclass(frozen=True, slots=True)
class SearchFilter:
    """One field term, one excluded term, or alternatives.

    Attributes:
        field: One of :data:`FIELDS`, ``"text"`` (plain words, for an exclusion or an
            alternative) or ``"any"`` (``options`` are the alternatives).
        value: What the field must hold (for ``"year"``: ``"2023..2025"``).
        negated: The paper must not match.
        options: For ``"any"``: the alternatives.
    """

    field: str
    value: str = ""
    negated: bool = False
    options: tuple[SearchFilter, ...] = ()


@dataclass(frozen=True, slots=True)
class ParsedSearch:
    """A search line read: the plain words and phrases, and the filters."""

    text: str
    filters: tuple[SearchFilter, ...] = ()


def year_range(value: str) -> tuple[int | None, int | None] | None:
    """ "2024" -> (2024, 2024); "2023..2025" (or "2025..2023") -> (2023, 2025); "..2019",
    "2020.."; None when it is not a year or a range."""
    value = _as_range(value.strip())
    found = _YEARS.match(value)
    if found is None or not (found.group(1) or found.group(2)):
        return None
    low = int(found.group(1)) if found.group(1) else None
    if ".." not in value:
        return low, low
    high = int(found.group(2)) if found.group(2) else None
    if low is not None and high is not None and low > high:
        return high, low  # "2023..2021": the years between, whichever way they are written
    return low, high


def _as_range(value: str) -> str:
    """A range typed with a dash or a comparison, written with "..": "2020-2022" is
    "2020..2022", ">2020" "2021..", "<=2019" "..2019"."""
    if dashed := _DASHED.match(value):
        return f"{dashed.group(1)}..{dashed.group(2)}"
    if compared := _COMPARED.match(value):
        sign, year = compared.groups()
        bound = int(year) + {">": 1, "<": -1}.get(sign, 0)
        return f"{bound}.." if sign.startswith(">") else f"..{bound}"
    return value


def _term(
    negated: bool, name: str | None, quoted: str | None, bare: str | None
) -> SearchFilter | str:
    """One token as a filter, or as plain text (the text keeps the quotes of a phrase)."""
    value = quoted if quoted is not None else (bare or "")
    field = (name or "").lower()
    understood = field in FIELDS and bool(value.strip())
    if field in ("year", "rating"):
        understood = understood and year_range(value) is not None
    elif field == "is":
        understood = understood and value.strip().lower() in STATES
    if understood:
        return SearchFilter(
            field, value.strip().lower() if field == "is" else value.strip(), negated
        )
    text = f'"{value}"' if quoted is not None else value
    if name:
        text = f"{name} {text}"  # an unknown field: its name and value are plain words
    if negated and text.strip():
        return SearchFilter("text", text, True)
    return text


def _pieces(typed: str) -> list[SearchFilter | str]:
    """The tokens of a line: filters, plain text, and "OR" ("AND" and "NOT", as other
    searches write them: every term must match anyway; "NOT x" is "-x")."""
    pieces: list[SearchFilter | str] = []
    excluding = False
    for match in _TOKEN.finditer(typed):
        negated, name, quoted, bare = match.groups()
        operator = bare if bare in _OPERATORS and not negated and not name else None
        if operator == "OR":
            pieces.append("OR")
        elif operator is None:
            pieces.append(_term(bool(negated) or excluding, name, quoted, bare))
        excluding = operator == "NOT"
    return pieces


def _either(group: list[SearchFilter | str]) -> SearchFilter:
    options = (p if isinstance(p, SearchFilter) else SearchFilter("text", p) for p in group)
    return SearchFilter("any", options=tuple(options))


def _identifier(line: str) -> ParsedSearch | None:
    """A line that is one identifier, pasted: a DOI (a link to it too) or an arXiv id finds
    its paper; a word shaped like a citation key finds the paper of that key as well as the
    papers holding the word."""
    named = _TOKEN.match(line)
    if named and (named.group(2) or "").lower() in FIELDS:
        return None  # "key:10.5555/3295222": what the field says
    if "/" in line and "10." in line and (doi := normalize_doi(line)):
        return ParsedSearch("", (SearchFilter("doi", doi),))
    if arxiv := normalize_arxiv(line):
        return ParsedSearch("", (SearchFilter("arxiv", arxiv),))
    words = line
    if (prefixed := _PREFIXED_KEY.match(line)) and prefixed.group(1).lower() not in FIELDS:
        words = f"{prefixed.group(1)} {prefixed.group(2)}"  # (as an unknown field is read)
    elif not _CITEKEY.match(line):
        return None
    either = (SearchFilter("text", words), SearchFilter("key", line))
    return ParsedSearch("", (SearchFilter("any", options=either),))


def _labels_joined(typed: str) -> str:
    """ "DOI: 10.1145/3188720", as papers print it, read as the field and its value."""
    return _SPACED_FIELD.sub(r"\1:", typed) if ":" in typed else typed


def parse_search(typed: str) -> ParsedSearch:
    """Read a search line (see the module documentation); never fails."""
    typed = _labels_joined(typed)
    line = typed.strip()
    if line and " " not in line and (found := _identifier(line)) is not None:
        return found
    if not any(mark in f" {typed} " for mark in (":", "-", '"', *_JOINING)):
        return ParsedSearch(typed)  # plain words: the common case, as typed
    pieces = _pieces(typed)
    words: list[str] = []
    filters: list[SearchFilter] = []
    i = 0
    while i < len(pieces):
        group = [pieces[i]]
        while i + 2 < len(pieces) and pieces[i + 1] == "OR" and pieces[i + 2] != "OR":
            group.append(pieces[i + 2])
            i += 2
        i += 1
        first = group[0]
        if len(group) > 1:
            filters.append(_either(group))
        elif isinstance(first, SearchFilter):
            filters.append(first)
        elif first not in ("OR", ""):
            words.append(first)
    text = " ".join(words)
    if typed.endswith(" ") and text:
        text += " "  # a finished last word: not a prefix
    return ParsedSearch(text, tuple(filters))


def with_tag_renamed(typed: str, old: str, new: str) -> str:
    """A search line whose ``tag:`` terms naming the tag ``old`` (in any case) name ``new``
    instead (a renamed or merged tag); the rest as typed."""

    def renamed(match: re.Match[str]) -> str:
        negated, name, quoted, bare = match.groups()
        value = quoted if quoted is not None else bare
        if (name or "").lower() != "tag" or tag_key(value) != tag_key(old):
            return match.group(0)
        return f'{negated}{name}:"{new.replace(chr(34), " ")}"'

    return _TOKEN.sub(renamed, typed)


def searches_nothing(typed: str) -> bool:
    """True when a search line holds no word, phrase or field to search for (blank, a lone
    quote, a dash, "*"): it filters nothing (:func:`with_syntax`)."""
    parsed = parse_search(typed)
    return not parsed.filters and not parse_terms(parsed.text)


def with_syntax(query: PaperQuery) -> PaperQuery:
    """The query with its search line read: plain words left in ``text``, fields, ranges,
    exclusions and alternatives moved to ``filters`` (:mod:`refman.core.search_syntax`)."""
    parsed = parse_search(query.text)
    # A line of no searchable word (a lone quote, a dash: the start of what is being typed)
    # filters nothing.
    text = parsed.text if parse_terms(parsed.text) else ""
    if not parsed.filters and text == query.text:
        return query
    return replace(query, text=text, filters=query.filters + parsed.filters)
