"""What the bibliography readers (BibTeX, RIS, CSL-JSON) share.

:class:`Draft` is a record under construction: a reader fills in what its entry gives and
:meth:`Draft.build` turns it into a :class:`~refman.importers.records.ParsedRecord`, applying the
rules every format follows (identifiers normalised, an arXiv id found in a DOI or link, the
full date kept as CSL date-parts, tags cleaned, notes given once). The small helpers read
dates, months, keywords and citation keys the same way in every format.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from refman.common.identifiers import (
    arxiv_url,
    identifiers_in_link,
    normalize_arxiv,
    normalize_doi,
)
from refman.common.text import join_words, squash_spaces
from refman.importers.records import ParsedRecord, PersonName
from refman.importers.titles import suggest_title

__all__ = [
    "MONTH_NAMES",
    "Draft",
    "bib_key",
    "bib_keywords",
    "clean_tags",
    "date_parts",
    "entry_label",
    "entry_named",
    "is_bibliographic_note",
    "looks_like_citekey",
    "month_number",
    "split_keywords",
    "tidy_paragraphs",
    "year_of",
]

#: The month names, as BibTeX's month macros expand them.
MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_MONTHS = {name[:3].casefold(): n for n, name in enumerate(MONTH_NAMES, 1)}
_MONTH_WORD = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?", re.I)
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_ISO_DATE = re.compile(r"^\s*(\d{4})(?:\s*$|[-/.](\d{1,2})?(?:[-/.](\d{1,2})?)?(?!\d))")
_DAY = re.compile(r"(?<!\d)(\d{1,2})(?!\d)")
#: The years a record may carry (as refman's rules allow).
_YEAR_MIN, _YEAR_MAX = 1000, 2100
#: The longest tag name refman keeps.
_TAG_MAX = 100
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$")
#: What a key may not hold in BibTeX, biber or a LaTeX ``\\cite``: a space, a comma, braces,
#: parentheses, ``= " # % \\ ~`` (a file's key holding one is written with "-" in its place).
_NOT_IN_KEY = r"\s,{}()=\"#%\\~"
_NOT_IN_KEY_CHAR = re.compile(f"[{_NOT_IN_KEY}]")
_CITEKEY = re.compile(f"^[^{_NOT_IN_KEY}']{{1,100}}$")
_ZOTERO_ITEM_KEY = re.compile(r"^[23456789ABCDEFGHIJKLMNPQRSTUVWXYZ]{8}$")
#: A line of bibliographic data as Zotero's Extra, Scopus and Web of Science write them ("Cited
#: By: 5", "Publisher: ACM", "tex.howpublished: …"); "TODO: check Lemma 2" is a reader's.
_FIELD_LINE = re.compile(
    r"^\s*(?:publisher(?: place)?|issn|e?isbn|doi|pmid|pmcid|cited by|export date|source"
    r"|language(?: of original document)?|document type|publication stage|correspondence address"
    r"|funding (?:details|text(?: \d+)?)|references|art\. no\.|conference (?:name|date|location"
    r"|code)|abbreviated source title|coden|sponsors|place|version|comment|arxiv|citation key"
    r"|type|series|number|pages|volume|issue|edition|accessed|archive|original date|medium"
    r"|event place|accession number|times cited|ut|wos|tex\.[\w-]+)\s*:\s*\S",
    re.IGNORECASE,
)
_BIBLIOGRAPHIC_NOTE = re.compile(
    r"^\s*\[?(?:(?:arxiv|to appear|in press|forthcoming|preprint|under review|withdrawn"
    r"|retracted|cited by|export date|issn|isbn|doi|publisher|pmid|pmcid|version|last accessed"
    r"|accessed|online first)\b"
    # "Published in …", "Accepted to …", "Submitted: …" (not "Published results show …")
    r"|(?:published|accepted|submitted|available|online)(?:\s*:|\s+(?:in|at|to|for|as|by"
    r"|online|from|with|on|\d)\b))",
    re.IGNORECASE,
)
_SHORT_NOTE = 160
#: The types of an unpublished work (as refman's merge rules name them).
_PREPRINT_TYPES = frozenset({"article", "manuscript"})
_SEPARATORS = {",;": re.compile("[,;]"), ";": re.compile(";")}
_KEYWORD_MARK = re.compile(r"(?<!\\)[{},;]")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def month_number(text: str) -> int | None:
    """The month ``text`` names: "aug", "August", "Aug.", "8", "08"; None when it names none."""
    cleaned = text.strip().rstrip(".")
    if cleaned.isdigit():
        return int(cleaned) if 1 <= int(cleaned) <= 12 else None
    found = _MONTH_WORD.match(cleaned)
    return _MONTHS[found.group(1).casefold()] if found else None


def year_of(text: str) -> int | None:
    """The first plausible year (1000-2100) written in ``text``, or None."""
    for found in _YEAR.finditer(text):
        year = int(found.group(1))
        if _YEAR_MIN <= year <= _YEAR_MAX:
            return year
    return None


def _iso_date(iso: re.Match[str]) -> tuple[int | None, int | None, int | None]:
    number = int(iso.group(1))
    month = int(iso.group(2)) if iso.group(2) else None
    day = int(iso.group(3)) if iso.group(3) else None
    if month is not None and not 1 <= month <= 12:
        month, day = None, None
    if day is not None and not 1 <= day <= 31:
        day = None
    return (number if _YEAR_MIN <= number <= _YEAR_MAX else None), month, day


def date_parts(text: str) -> tuple[int | None, int | None, int | None]:
    """(year, month, day) of a written date: "2019-08-26", "2019/08/26/", "2019///",
    "Aug 26, 2019", "26 August 2019", "2019"; parts not given are None."""
    iso = _ISO_DATE.match(text)
    if iso is not None:
        return _iso_date(iso)
    year = year_of(text)
    named = _MONTH_WORD.search(text)
    month = _MONTHS[named.group(1).casefold()] if named else None
    day = None
    if month is not None:
        rest = _YEAR.sub(" ", text)
        found = _DAY.search(rest)
        day = int(found.group(1)) if found and 1 <= int(found.group(1)) <= 31 else None
    return year, month, day


def split_keywords(text: str, separators: str = ",;") -> list[str]:
    """Keywords written in one value, split on any of ``separators``."""
    if not text:
        return []
    splitter = _SEPARATORS.get(separators) or re.compile("[" + re.escape(separators) + "]")
    return [" ".join(p.split()) for p in splitter.split(text) if p and not p.isspace()]


def bib_keywords(value: str) -> list[str]:
    """A BibTeX value's keywords, split at commas and semicolons outside braces ("{Neoplasms,
    Experimental}" stays one keyword)."""
    if "{" not in value:
        return split_keywords(value)
    parts, start, depth = [], 0, 0
    for found in _KEYWORD_MARK.finditer(value):
        char = found.group()
        if char in "{}":
            depth += 1 if char == "{" else -1
        elif depth == 0:
            parts.append(value[start : found.start()])
            start = found.end()
    parts.append(value[start:])
    return [" ".join(p.split()) for p in parts if p.strip()]


def clean_tags(names: Iterable[str]) -> list[str]:
    """Tag names as refman stores them: white space tidied, each once (ignoring case), empty
    names and names over 100 characters left out."""
    seen: dict[str, str] = {}
    for name in names:
        cleaned = squash_spaces(name)
        if cleaned and len(cleaned) <= _TAG_MAX:
            seen.setdefault(cleaned.casefold(), cleaned)
    return list(seen.values())


def tidy_paragraphs(text: str) -> str:
    """Text with the white space inside each paragraph collapsed, paragraphs (split at blank
    lines) joined by one blank line, as author pages give abstracts."""
    if not _PARAGRAPH_BREAK.search(text):
        return " ".join(text.split())
    paragraphs = (" ".join(p.split()) for p in _PARAGRAPH_BREAK.split(text))
    return "\n\n".join(p for p in paragraphs if p)


def is_bibliographic_note(text: str) -> bool:
    """True when a "note" holds bibliographic data rather than a reader's note: "arXiv:… [cs]",
    "To appear", "Publisher: …", "Cited By: 5; Export Date: …", or only "Key: value" lines."""
    cleaned = text.strip()
    if not cleaned:
        return False
    if len(cleaned) <= _SHORT_NOTE and _BIBLIOGRAPHIC_NOTE.match(cleaned):
        return True
    lines = [line for line in cleaned.splitlines() if line.strip()]
    return all(_FIELD_LINE.match(line) for line in lines) and len(cleaned) <= 4 * _SHORT_NOTE


def bib_key(key: str) -> str:
    """A citation key as a ``.bib`` file can hold it: each character BibTeX, biber or a
    ``\\cite`` does not take in a key (a space, a comma, a brace or parenthesis, ``= " # %
    \\ ~``) written as "-" (``key(with)parens`` → ``key-with-parens``); "" stays ""."""
    return _NOT_IN_KEY_CHAR.sub("-", key)


def looks_like_citekey(text: str) -> bool:
    """True when ``text`` can be a citation key: one word, not a Zotero item key or a link."""
    return bool(
        _CITEKEY.match(text)
        and not _ZOTERO_ITEM_KEY.match(text)
        and "://" not in text
        and any(c.isalpha() for c in text)
    )


def entry_named(noun: str, key: str | None, title: str | None) -> str:
    """How a warning names an entry or record of its kind (``noun``): "the entry ‘key’",
    "the record “Its title”", or "an entry" / "a record" when it has neither."""
    if key or title:
        return f"the {noun} {entry_label(key, title)}"
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def entry_label(key: str | None, title: str | None) -> str:
    """How a warning names an entry: its key, else the start of its title, else "an entry"."""
    if key:
        return f"‘{key}’"
    if title:
        short = squash_spaces(title)
        return f"“{short[:57]}…”" if len(short) > 60 else f"“{short}”"
    return "an entry"


def built(draft: Draft, label: str, warnings: list[str]) -> ParsedRecord:
    """A draft's record, and a warning for what of its source could not be read (left out:
    the import goes on without it) and for a key changed to one a ``.bib`` file can hold
    (:func:`bib_key`).

    Args:
        draft: The record under construction.
        label: How the warning names the record ("The entry ‘ng2001’ on line 3").
        warnings: The page's warnings, added to.
    """
    record = draft.build()
    if draft.unread:
        warnings.append(f"{label}: {join_words(draft.unread)} could not be read; left out.")
    given = (draft.citekey or "").strip()
    if given and record.citekey != given:
        warnings.append(
            f"{label}: its key ‘{given}’ holds a character BibTeX or biber "
            f"does not take in a key; it was imported as ‘{record.citekey}’."
        )
    return record


def _arxiv_from(doi: str | None, url: str | None) -> str | None:
    """The arXiv id an arXiv DOI (10.48550/arXiv.ID) or an arXiv link names."""
    if doi:
        found = _ARXIV_DOI.match(doi)
        if found:
            return normalize_arxiv(found.group(1), keep_version=True)
    if url and "arxiv" in url.lower():
        return identifiers_in_link(url)[1]
    return None


def _is_arxiv(name: str | None) -> bool:
    return name is not None and name.casefold() == "arxiv"


@dataclass(slots=True)
class Draft:
    """A bibliography record under construction (see :class:`ParsedRecord` for the fields).

    ``month`` and ``day`` complete the date; ``names`` are the authors' name parts and
    ``complete`` is False when the list ended in "and others".
    """

    line: int
    raw: str
    type: str = "document"
    title: str = ""
    abstract: str = ""
    year: int | None = None
    month: int | None = None
    day: int | None = None
    venue: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    url: str | None = None
    volume: str | None = None
    issue: str | None = None
    pages: str | None = None
    publisher: str | None = None
    citekey: str | None = None
    aliases: list[str] = field(default_factory=list)
    names: list[PersonName] = field(default_factory=list)
    complete: bool = True
    subjects: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    #: What the source gave that could not be read, in words ("the year “20x9”").
    unread: list[str] = field(default_factory=list)
    #: The DOI as the source wrote it (when ``doi`` is what it reads as).
    doi_given: str | None = None
    #: The reader's reading status and stars, when the source gives them.
    status: str | None = None
    rating: int | None = None

    def set_date(self, year: int | None, month: int | None, day: int | None) -> None:
        """Take a date's parts, keeping parts already known (a month only goes with its year)."""
        if self.year is None:
            self.year = year
        if (year is None or year == self.year) and self.month is None and month is not None:
            self.month, self.day = month, day

    def take_date(self, what: str, text: str, parts: tuple[int | None, ...]) -> None:
        """Take a date's parts (see :meth:`set_date`); a date given that reads as none is
        said unread ("the year “abc”")."""
        if not any(p is not None for p in parts) and text.strip(" /"):
            self.unread.append(f"the {what} “{text.strip()}”")
        year, month, day = (*parts, None, None)[:3]
        self.set_date(year, month, day)

    def identifiers(self) -> tuple[str | None, str | None, str | None]:
        """(DOI, arXiv id, link) normalised; a doi.org link gives the DOI, an arXiv DOI or
        link the arXiv id."""
        doi = normalize_doi(self.doi) if self.doi else None
        url = self.url.strip() if self.url and self.url.strip() else None
        if doi is None and url and "doi.org" in url.lower():
            doi = identifiers_in_link(url)[0]
        arxiv = normalize_arxiv(self.arxiv_id, keep_version=True) if self.arxiv_id else None
        return doi, arxiv or _arxiv_from(doi, url), url

    def _extra(self) -> dict[str, Any]:
        extra = {k: v for k, v in self.extra.items() if v not in (None, "", [], {})}
        if self.year is not None and self.month is not None:
            parts = [self.year, self.month] + ([self.day] if self.day else [])
            extra["issued"] = {"date-parts": [parts]}
        return extra

    def _preprint(self, arxiv_id: str | None, url: str | None) -> tuple[str | None, ...]:
        """(link, publisher, venue) of an arXiv preprint (one with an arXiv id, or with the
        venue or, lacking a venue, the publisher "arXiv"): the venue "arXiv" when none is
        given; the abstract page (https://arxiv.org/abs/ID) and the publisher "arXiv" left
        out, as refman's CSL item adds both."""
        venue, publisher = self.venue or None, self.publisher or None
        on_arxiv = _is_arxiv(venue) or (venue is None and _is_arxiv(publisher))
        if self.type not in _PREPRINT_TYPES or not (arxiv_id or on_arxiv):
            return url, publisher, venue
        link = None if arxiv_id and url == arxiv_url(arxiv_id) else url
        return link, None if _is_arxiv(publisher) else publisher, venue or "arXiv"

    def _readable_key(self) -> str | None:
        """The key, as a ``.bib`` file can hold it (:func:`bib_key`)."""
        return bib_key((self.citekey or "").strip()) or None

    def _other_key(self, key: str) -> bool:
        return key != self.citekey and looks_like_citekey(key)

    def build(self) -> ParsedRecord:
        """The finished record."""
        doi, arxiv_id, url = self.identifiers()
        if self.doi and self.doi.strip() and doi is None:
            self.unread.append(f"the DOI “{(self.doi_given or self.doi).strip()}”")
        url, publisher, venue = self._preprint(arxiv_id, url)
        title = squash_spaces(self.title)
        notes = [n.strip() for n in self.notes if n and n.strip()]
        return ParsedRecord(
            title=title or suggest_title(self.abstract),
            title_provisional=not title,
            abstract=self.abstract,
            year=self.year,
            venue=venue,
            subjects=tuple(dict.fromkeys(self.subjects)),
            authors=tuple(n.display for n in self.names),
            authors_complete=self.complete and bool(self.names),
            line=self.line,
            type=self.type,
            doi=doi,
            arxiv_id=arxiv_id,
            url=url,
            volume=self.volume or None,
            issue=self.issue or None,
            pages=self.pages or None,
            publisher=publisher,
            citekey=self._readable_key(),
            aliases=tuple(dict.fromkeys(filter(self._other_key, self.aliases))),
            author_names=tuple(self.names),
            extra=self._extra(),
            tags=tuple(clean_tags(self.tags)),
            notes=tuple(dict.fromkeys(notes)),
            files=tuple(dict.fromkeys(self.files)),
            raw=self.raw,
            status=self.status,
            rating=self.rating,
        )
