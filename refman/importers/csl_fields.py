"""One CSL-JSON item as a refman record.

The item's own variables map onto refman's fields (``container-title`` is the venue,
``page`` the pages, ``keyword`` the tags, ``note`` a note unless it holds bibliographic data
such as Zotero's "Citation Key: …" lines); every further CSL variable is kept in ``extra``,
cleaned so that the paper's CSL item still validates against the CSL data schema.
"""

from __future__ import annotations

import re
from typing import Any

from refman.common.identifiers import normalize_arxiv
from refman.common.text import squash_spaces
from refman.importers.bib_common import (
    Draft,
    clean_tags,
    date_parts,
    is_bibliographic_note,
    looks_like_citekey,
    split_keywords,
    tidy_paragraphs,
)
from refman.importers.records import CSL_VARIABLES, PersonName
from refman.importers.titles import title_text

__all__ = ["CSL_TYPES", "csl_draft", "is_csl_item"]

#: The item types of the CSL data schema.
CSL_TYPES = frozenset(
    """article article-journal article-magazine article-newspaper bill book broadcast chapter
    classic collection dataset document entry entry-dictionary entry-encyclopedia event figure
    graphic hearing interview legal_case legislation manuscript map motion_picture
    musical_score pamphlet paper-conference patent performance periodical
    personal_communication post post-weblog regulation report review review-book software song
    speech standard thesis treaty webpage""".split()
)
#: Item types some tools write in Zotero's or BibTeX's words.
_TYPE_ALIASES = {
    "journal-article": "article-journal", "journalarticle": "article-journal",
    "conferencepaper": "paper-conference", "booksection": "chapter", "preprint": "article",
    "blogpost": "post-weblog", "webpage": "webpage", "computerprogram": "software",
    "inproceedings": "paper-conference", "proceedings-article": "paper-conference",
}  # fmt: skip
_NAME_VARIABLES = frozenset(
    """author chair collection-editor compiler composer container-author contributor curator
    director editor editorial-director executive-producer guest host illustrator interviewer
    narrator organizer original-author performer producer recipient reviewed-author
    script-writer series-creator translator""".split()
)
_DATE_VARIABLES = frozenset(
    "accessed available-date event-date issued original-date submitted".split()
)
_TEXT_VARIABLES = frozenset(
    """archive archive-place archive_collection archive_location authority call-number
    chapter-number citation-label collection-number collection-title container-title-short
    dimensions division edition event event-place event-title genre ISBN ISSN jurisdiction
    language locator medium number number-of-pages number-of-volumes original-publisher
    original-publisher-place original-title page-first part part-title PMCID PMID printing
    publisher-place references reviewed-genre reviewed-title scale section source status
    supplement title-short version volume-title volume-title-short year-suffix""".split()
)
_BY_LOWER = {v.lower(): v for v in _TEXT_VARIABLES}
_EXTRA_LINE = re.compile(r"^\s*([A-Za-z][\w \-]*?)\s*:\s*(\S.*?)\s*$")
_RENAMED = {"journalAbbreviation": "container-title-short", "shortTitle": "title-short"}
_SIGNS = ("title", "author", "issued", "container-title", "DOI", "URL", "editor")
_RICH_TEXT = re.compile(r"</?(?:i|b|sup|sub|sc|span)\b[^>]*>", re.IGNORECASE)
_CITATION_KEY = re.compile(r"^\s*citation key:\s*(\S+)\s*$", re.IGNORECASE | re.MULTILINE)
_NAME_KEYS = ("family", "given", "non-dropping-particle", "dropping-particle", "suffix", "literal")


def is_csl_item(value: dict[str, Any]) -> bool:
    """True when an object reads as a CSL item: a type or an id, and a title, an author, a
    date, a container, a DOI or a link."""
    has_type = isinstance(value.get("type"), str) or "id" in value
    return has_type and any(value.get(sign) for sign in _SIGNS)


def _text(value: Any) -> str:
    if isinstance(value, str):
        return squash_spaces(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return ""


def _name(value: Any) -> PersonName | None:
    if not isinstance(value, dict):
        return None
    literal = _text(value.get("literal"))
    family = _text(value.get("family"))
    if literal or not family:
        whole = literal or _text(value.get("given"))
        return PersonName(whole, literal=True) if whole else None
    particle = _text(value.get("non-dropping-particle")) or _text(value.get("dropping-particle"))
    given, suffix = _text(value.get("given")), _text(value.get("suffix"))
    if not suffix and "," in given:  # "Robert, Jr.": after the comma, a suffix (citeproc-js)
        given, suffix = (part.strip() for part in given.rsplit(",", 1))
    return PersonName(family, given, particle, suffix)


def _clean_name(value: Any) -> dict[str, str] | None:
    if not isinstance(value, dict):
        return None
    cleaned = {k: _text(value.get(k)) for k in _NAME_KEYS}
    return {k: v for k, v in cleaned.items() if v} or None


def _date(value: Any) -> tuple[int | None, int | None, int | None]:
    """(year, month, day) of a CSL date: date-parts, a "raw" or "literal" date, or EDTF."""
    if isinstance(value, str):
        return date_parts(value)
    if not isinstance(value, dict):
        return None, None, None
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        numbers = [int(p) if str(p).strip().lstrip("-").isdigit() else None for p in parts[0][:3]]
        numbers += [None] * (3 - len(numbers))
        return numbers[0], numbers[1], numbers[2]
    return date_parts(_text(value.get("raw")) or _text(value.get("literal")))


def _date_variable(value: Any) -> dict[str, Any] | None:
    year, month, day = _date(value)
    if year is None:
        return None
    return {"date-parts": [[p for p in (year, month, day) if p is not None]]}


def _extra(item: dict[str, Any], draft: Draft) -> None:
    for key, value in item.items():
        variable = _RENAMED.get(key, key)
        if variable in _NAME_VARIABLES and variable != "author" and isinstance(value, list):
            names = [n for n in (_clean_name(v) for v in value) if n]
            if names:
                draft.extra[variable] = names
        elif variable in _DATE_VARIABLES and variable != "issued":
            date = _date_variable(value)
            if date:
                draft.extra[variable] = date
        elif variable in _TEXT_VARIABLES and _text(value):
            draft.extra.setdefault(variable, _text(value))


def _type(value: Any) -> str:
    text = _text(value)
    if text in CSL_TYPES:
        return text
    return _TYPE_ALIASES.get(text.replace("_", "").replace(" ", "").lower(), "document")


def _citekey(item: dict[str, Any], note: str) -> str | None:
    """The citation key: "citation-key" as given, else Zotero's "Citation Key:" line, else
    an id that reads as a key (not Zotero's item URI or a bare number)."""
    given = _text(item.get("citation-key"))
    if given and " " not in given:
        return given
    for candidate in (_CITATION_KEY.search(note), item.get("id")):
        text = candidate.group(1) if isinstance(candidate, re.Match) else _text(candidate)
        if text and looks_like_citekey(text) and "/" not in text:
            return text
    return None


def _extra_lines(note: str, draft: Draft) -> str:
    """Zotero's "Extra" lines that name a CSL variable ("PMID: 123") become that variable;
    the lines left are returned."""
    kept = []
    for line in note.splitlines():
        found = _EXTRA_LINE.match(line)
        variable = _BY_LOWER.get(found.group(1).lower().replace(" ", "-")) if found else None
        if found and variable:
            draft.extra.setdefault(variable, found.group(2))
        else:
            kept.append(line)
    return "\n".join(kept).strip()


def _notes(item: dict[str, Any], draft: Draft) -> None:
    note = item.get("note") if isinstance(item.get("note"), str) else ""
    draft.citekey = _citekey(item, note or "")
    rest = _CITATION_KEY.sub("", note or "").strip()
    if rest and is_bibliographic_note(rest):
        rest = _extra_lines(rest, draft)
        if rest:
            draft.extra["note"] = rest
    elif rest:
        draft.notes.append(rest)
    annote = _text(item.get("annote"))
    if annote:
        draft.notes.append(annote)


def _tags(item: dict[str, Any]) -> list[str]:
    found: list[str] = []
    keyword = item.get("keyword")
    if isinstance(keyword, str):
        found.extend(split_keywords(keyword))
    categories = item.get("categories")
    if isinstance(categories, list):
        found.extend(_text(c) for c in categories)
    return clean_tags(found)


def _authors(value: Any, draft: Draft) -> None:
    """The authors; a last name "others" (as some tools write "and others") ends the list."""
    authors = value if isinstance(value, list) else []
    people = [p for p in (_name(a) for a in authors) if p is not None]
    if value is not None and (not isinstance(value, list) or len(people) < len(authors)):
        draft.unread.append("the authors (not a list of names)")
    draft.complete = not any(p.family.casefold() == "others" for p in people)
    draft.names = [p for p in people if p.family.casefold() != "others"]


def csl_draft(item: dict[str, Any], line: int, raw: str) -> Draft:
    """The record of one CSL item.

    Args:
        item: The item.
        line: The 1-based line where it starts in the file.
        raw: Its JSON text as in the file.
    """
    draft = Draft(line=line, raw=raw, type=_type(item.get("type")))
    draft.title = title_text(_RICH_TEXT.sub("", _text(item.get("title"))))
    abstract = item.get("abstract")
    draft.abstract = tidy_paragraphs(abstract) if isinstance(abstract, str) else ""
    _authors(item.get("author"), draft)
    issued = _date(item.get("issued"))
    if item.get("issued") and issued == (None, None, None):
        draft.unread.append("the date issued")
    draft.set_date(*issued)
    draft.venue = _RICH_TEXT.sub("", _text(item.get("container-title")))
    for name, variable in CSL_VARIABLES.items():
        setattr(draft, name, _text(item.get(variable)))
    number = _text(item.get("number"))
    archive = _text(item.get("archive")) + _text(item.get("publisher"))
    if number.lower().startswith("arxiv:") or "arxiv" in archive.lower():
        draft.arxiv_id = normalize_arxiv(number, keep_version=True)
    _extra(item, draft)
    if draft.arxiv_id:
        draft.extra.pop("number", None)
    _notes(item, draft)
    draft.tags = _tags(item)
    return draft
