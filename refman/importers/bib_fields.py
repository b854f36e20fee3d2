"""One BibTeX or BibLaTeX entry's fields as a refman record.

The entry arrives as its type, key and resolved field values (macros expanded, delimiters
removed, LaTeX still in place); :func:`entry_draft` maps them onto a
:class:`~refman.importers.bib_common.Draft` the way Zotero, Better BibTeX and JabRef read
them: the entry type becomes a CSL type, names are split into their parts, LaTeX becomes
Unicode field by field (never in links and identifiers), and the fields refman has no column
for are kept as CSL variables in ``extra``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bibtexparser.middlewares.names import (
    parse_single_name_into_parts,
    split_multiple_persons_names,
)

from refman.common.east_asian import east_asian
from refman.common.identifiers import normalize_arxiv
from refman.importers.bib_common import (
    Draft,
    bib_keywords,
    date_parts,
    is_bibliographic_note,
    month_number,
    tidy_paragraphs,
    year_of,
)
from refman.importers.bib_marks import read_marks
from refman.importers.bib_values import bib_latex, bib_text, extended_name, group_end, plain_value
from refman.importers.file_field import read_file_field
from refman.importers.records import PersonName

__all__ = ["BIB_TYPES", "NOTE_FIELDS", "bib_names", "entry_draft", "is_note_field", "note_text"]

#: Entry type -> CSL type (BibTeX and BibLaTeX types, as Zotero and citation.js map them).
BIB_TYPES = {
    "article": "article-journal",
    "inproceedings": "paper-conference",
    "conference": "paper-conference",
    "proceedings": "book",
    "mvproceedings": "book",
    "book": "book",
    "mvbook": "book",
    "booklet": "book",
    "collection": "book",
    "mvcollection": "book",
    "reference": "book",
    "mvreference": "book",
    "manual": "book",
    "periodical": "periodical",
    "incollection": "chapter",
    "inbook": "chapter",
    "bookinbook": "chapter",
    "suppbook": "chapter",
    "suppcollection": "chapter",
    "inreference": "entry-encyclopedia",
    "suppperiodical": "article-journal",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "thesis": "thesis",
    "techreport": "report",
    "report": "report",
    "online": "webpage",
    "electronic": "webpage",
    "www": "webpage",
    "unpublished": "manuscript",
    "patent": "patent",
    "dataset": "dataset",
    "software": "software",
    "standard": "standard",
    "misc": "document",
}
_PREPRINT_TYPES = frozenset({"misc", "online", "electronic", "www", "unpublished", "preprint"})
_THESIS_GENRES = {"phdthesis": "PhD thesis", "mastersthesis": "Master's thesis"}
#: BibLaTeX's ``type`` keys and the words they stand for.
_GENRE_KEYS = {
    **_THESIS_GENRES,
    "mathesis": "Master's thesis",
    "candthesis": "Candidate thesis",
    "techreport": "Technical report",
    "resreport": "Research report",
    "software": "Software",
    "datacd": "Data CD",
    "audiocd": "Audio CD",
}
_ARTICLE_SUBTYPES = {"magazine": "article-magazine", "newspaper": "article-newspaper"}
#: Fields whose text becomes a CSL variable of ``extra`` (LaTeX turned into text).
_TEXT_EXTRA = {
    "edition": "edition",
    "series": "collection-title",
    "language": "language",
    "langid": "language",
    "chapter": "chapter-number",
    "eventtitle": "event-title",
    "venue": "event-place",
    "shorttitle": "title-short",
    "shortjournal": "container-title-short",
    "journalabbreviation": "container-title-short",
    "pagetotal": "number-of-pages",
    "numpages": "number-of-pages",
    "volumes": "number-of-volumes",
    "version": "version",
    "pubstate": "status",
    "type": "genre",
    "origtitle": "original-title",
    "archive": "archive",
}
#: Identifier fields kept as written.
_VERBATIM_EXTRA = {"isbn": "ISBN", "issn": "ISSN", "pmid": "PMID", "pmcid": "PMCID"}
_NAME_EXTRA = {"editor": "editor", "translator": "translator", "bookauthor": "container-author"}
_ISSUE_TYPES = frozenset({"article", "periodical", "suppperiodical"})
_SERIES_TYPES = frozenset(
    {"book", "mvbook", "inbook", "incollection", "inproceedings", "proceedings", "collection"}
)
#: Fields that hold a reader's notes (JabRef 2's ``review``; JabRef's own ``comment-alice``).
NOTE_FIELDS = ("annote", "annotation", "comment", "review")
_TAG_FIELDS = ("keywords", "mendeley-tags", "groups", "mendeley-groups")
_ARXIV_WORD = re.compile(r"\b(?:arxiv|corr)\b", re.IGNORECASE)
_ARXIV_VENUE = re.compile(r"^\s*(?:arxiv(?:\s+preprint)?(?:\s*:?\s*\S+)?|corr)\s*$", re.I)
_TILDE_ACCENT = re.compile(r"\\~\s*(\{[^{}]*\}|[^\s{}\\])")
_AND = re.compile(r"[ \t\r\n]+[aA][nN][dD][ \t\r\n]+")
_SUBJECT = re.compile(r"^[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z]{2,})?$")


@lru_cache(maxsize=32768)
def _person(name: str) -> PersonName | None:
    """One BibTeX name ("von Last, Jr, First", "First von Last", "{Corporate Name}") or
    BibLaTeX name ("family=Vries, given=Hugo, prefix=de")."""
    stripped = name.replace("\u3000", " ").strip()  # (an ideographic space: 鈴木　一郎)
    if not stripped:
        return None
    if stripped[0] == "{" and group_end(stripped, 0) == len(stripped):
        return PersonName(bib_text(stripped[1:-1]), literal=True)
    extended = extended_name(stripped)
    if extended is not None:
        return extended
    if "\\~" in stripped:  # "Pe\~na": an accent, not a tie between two words
        stripped = _TILDE_ACCENT.sub(r"{\\~\1}", stripped)
    try:
        parts = parse_single_name_into_parts(stripped, strict=False)
    except Exception:  # an odd name is kept whole rather than lost
        return PersonName(bib_text(stripped), literal=True)
    family = bib_text(" ".join(parts.last))
    given = bib_text(" ".join(parts.first))
    if not family:
        family, given = given, ""
    elif "," not in stripped and not parts.von and east_asian(family) and east_asian(given):
        family, given = given, family  # "山田 太郎": such names are written family name first
    von, jr = (bib_text(" ".join(p)) for p in (parts.von, parts.jr))
    return PersonName(family, given, particle=von, suffix=jr)


def _split_names(value: str) -> list[str]:
    """The names of a name list, split at "and" outside braces (as BibTeX splits them)."""
    if "\\{" in value or "\\}" in value:
        return list(split_multiple_persons_names(value))
    text = value.strip(" \r\n\t")
    names, start = [], 0
    for found in _AND.finditer(text):
        before = text[: found.start()]
        if before.count("{") == before.count("}"):
            names.append(text[start : found.start()])
            start = found.end()
    names.append(text[start:])
    return [name for name in names if name]


def bib_names(value: str) -> tuple[list[PersonName], bool]:
    """The people of a name list ("A and B and others") and whether the list is complete."""
    people: list[PersonName] = []
    complete = True
    for name in _split_names(value):
        if name.strip().lower() == "others":
            complete = False
            continue
        person = _person(name)
        if person is not None and person.family:
            people.append(person)
    return people, complete


def _is_arxiv(fields: dict[str, str]) -> bool:
    """True when the entry says it is (also) on arXiv."""
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    if prefix == "arxiv" or fields.get("arxivid"):
        return True
    places = (
        fields.get(k, "")
        for k in ("journal", "journaltitle", "publisher", "howpublished", "organization")
    )
    return any(_ARXIV_WORD.search(p) for p in places)


def _arxiv_id(fields: dict[str, str]) -> str | None:
    """The arXiv id an entry names: its eprint (when on arXiv), arxivId, or an "arXiv:ID"
    written in the journal, number, note or howpublished fields (DBLP: volume abs/ID)."""
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "arxiv").lower()
    candidates = [fields.get("eprint", "") if prefix.strip() == "arxiv" else ""]
    candidates.append(fields.get("arxivid", ""))
    volume = fields.get("volume", "")
    if volume.lower().startswith("abs/"):
        candidates.append(volume[4:])
    candidates = [plain_value(c) for c in candidates if c]
    for name in ("journal", "journaltitle", "number", "note", "howpublished", "eprint"):
        text = fields.get(name, "")
        if "arxiv" in text.lower():
            candidates.append(text)
    found = (normalize_arxiv(c, keep_version=True) for c in candidates)
    return next((f for f in found if f), None)


def _csl_type(entry_type: str, fields: dict[str, str], arxiv: bool) -> str:
    """The CSL type of an entry."""
    if arxiv and entry_type in _PREPRINT_TYPES:
        return "article"
    if entry_type == "article":
        journal = fields.get("journal") or fields.get("journaltitle") or ""
        if arxiv and (not journal or _ARXIV_VENUE.match(journal)):
            return "article"
        subtype = fields.get("entrysubtype", "").strip().lower()
        return _ARTICLE_SUBTYPES.get(subtype, "article-journal")
    return BIB_TYPES.get(entry_type, "document")


def _venue(entry_type: str, fields: dict[str, str], csl_type: str) -> str | None:
    """The journal or proceedings; "arXiv" for a preprint whose journal says so."""
    venue = fields.get("journal") or fields.get("journaltitle") or fields.get("booktitle")
    if csl_type == "article" and (not venue or _ARXIV_VENUE.match(venue)):
        return "arXiv"
    if not venue and entry_type in ("phdthesis", "mastersthesis", "thesis"):
        return None
    return bib_text(venue) if venue else None


def _publisher(fields: dict[str, str]) -> str | None:
    for name in ("publisher", "school", "institution", "organization"):
        if fields.get(name):
            return bib_text(fields[name])
    return None


def _url(fields: dict[str, str]) -> str | None:
    for name in ("url", "ee", "howpublished"):
        value = plain_value(fields.get(name, ""))
        if value.lower().startswith(("http://", "https://")):
            return value
    return None


def _dates(draft: Draft, fields: dict[str, str]) -> None:
    if fields.get("date"):
        draft.take_date("date", fields["date"], date_parts(fields["date"]))
    if fields.get("year"):
        draft.take_date("year", fields["year"], (year_of(fields["year"]),))
    month_text = fields.get("month", "")
    if month_text and draft.month is None:
        month = month_number(month_text)
        day = None if month else date_parts(month_text)[2]
        draft.set_date(None, month or date_parts(month_text)[1], day)
    if fields.get("urldate"):
        year, month, day = date_parts(fields["urldate"])
        parts = [p for p in (year, month, day) if p is not None]
        if year is not None:
            draft.extra["accessed"] = {"date-parts": [parts]}


def _numbers(draft: Draft, entry_type: str, fields: dict[str, str]) -> None:
    """Volume, issue, pages and the entry's ``number`` (an issue, a report or series number)."""
    draft.volume = bib_text(fields.get("volume", "")) or None
    if draft.volume and draft.volume.lower().startswith("abs/"):
        draft.volume = None  # DBLP's CoRR "volume" is the arXiv id
    number = bib_text(fields.get("number", ""))
    draft.issue = bib_text(fields.get("issue", "")) or None
    if number and "arxiv" not in number.lower():
        if entry_type in _ISSUE_TYPES and not draft.issue:
            draft.issue = number
        elif entry_type in _SERIES_TYPES:
            draft.extra["collection-number"] = number
        else:
            draft.extra["number"] = number
    pages = fields.get("pages", "")
    # "--" is LaTeX's en dash, as the export writes one: "100--110" -> "100–110"
    text = bib_text(pages) if "\\" in pages or "{" in pages else " ".join(pages.split())
    draft.pages = text.replace("--", "\u2013")


def _extra(draft: Draft, entry_type: str, fields: dict[str, str]) -> None:
    for name, variable in _TEXT_EXTRA.items():
        if fields.get(name):
            draft.extra.setdefault(variable, bib_text(fields[name]))
    for name, variable in _VERBATIM_EXTRA.items():
        if name in fields:
            draft.extra[variable] = plain_value(fields[name])
    for name, variable in _NAME_EXTRA.items():
        if name in fields:
            draft.extra[variable] = [p.csl() for p in bib_names(fields[name])[0]]
    _places_and_kinds(draft, entry_type, fields)


def _places_and_kinds(draft: Draft, entry_type: str, fields: dict[str, str]) -> None:
    """Where it was published (or held), the genre of a thesis, how a misc was published."""
    place = fields.get("address") or fields.get("location")
    if place:
        draft.extra["publisher-place"] = bib_text(place)
    if fields.get("address") and fields.get("location"):
        draft.extra.setdefault("event-place", bib_text(fields["location"]))
    genre = draft.extra.get("genre", "")
    if genre.lower() in _GENRE_KEYS:
        draft.extra["genre"] = _GENRE_KEYS[genre.lower()]
    elif entry_type in _THESIS_GENRES:
        draft.extra.setdefault("genre", _THESIS_GENRES[entry_type])
    medium = fields.get("howpublished", "")
    if medium and not _url({"url": medium}) and not _ARXIV_WORD.search(medium):
        draft.extra["medium"] = bib_text(medium)


def is_note_field(name: str) -> bool:
    """True for a field (lower-case name) that holds a note: :data:`NOTE_FIELDS`, a user's."""
    return name in NOTE_FIELDS or name.startswith("comment-")


def note_text(value: str) -> str:
    """A note field's text: its paragraphs readable, joined by a blank line."""
    return "\n\n".join(bib_text(p) for p in tidy_paragraphs(value).split("\n\n"))


def _tags_and_notes(draft: Draft, fields: dict[str, str], groups: list[str]) -> None:
    for name in _TAG_FIELDS:
        if fields.get(name):
            draft.tags.extend(bib_text(t) for t in bib_keywords(fields[name]))
    draft.tags.extend(groups)
    draft.notes.extend(note_text(v) for name, v in fields.items() if v and is_note_field(name))
    note = fields.get("note", "")
    if note:
        if is_bibliographic_note(bib_text(note)):
            draft.extra["note"] = bib_text(note)
        else:
            draft.notes.append(note_text(note))


def _title(fields: dict[str, str]) -> str:
    title = bib_text(fields.get("title", ""))
    subtitle = bib_text(fields.get("subtitle", ""))
    if title and subtitle:
        return f"{title}: {subtitle}"
    return title or subtitle


def entry_draft(
    entry_type: str, key: str, fields: dict[str, str], line: int, raw: str, groups: list[str]
) -> Draft:
    """The record of one entry.

    Args:
        entry_type: The entry type, lower case ("article").
        key: The entry's citation key ("" when it has none).
        fields: Resolved values by lower-case field name.
        line: The 1-based line of the entry's ``@``.
        raw: The entry as written in the file.
        groups: JabRef groups the file's metadata puts the entry in.
    """
    arxiv = _is_arxiv(fields)
    csl_type = _csl_type(entry_type, fields, arxiv)
    draft = Draft(line=line, raw=raw, type=csl_type, citekey=key.strip() or None)
    draft.title = _title(fields)
    draft.abstract = bib_latex(tidy_paragraphs(fields.get("abstract", "")))
    draft.venue = _venue(entry_type, fields, csl_type)
    draft.names, draft.complete = bib_names(fields["author"]) if "author" in fields else ([], True)
    draft.doi, draft.doi_given = plain_value(fields.get("doi", "")) or None, fields.get("doi")
    draft.arxiv_id = _arxiv_id(fields)
    draft.url = _url(fields)
    draft.publisher = _publisher(fields)
    category = fields.get("primaryclass") or fields.get("eprintclass") or ""
    if _SUBJECT.match(category.strip()) and ("." in category or "-" in category):
        draft.subjects.append(category.strip())
    _dates(draft, fields)
    _numbers(draft, entry_type, fields)
    _extra(draft, entry_type, fields)
    _tags_and_notes(draft, fields, groups)
    draft.files = read_file_field(fields.get("file", ""))
    draft.aliases = [k for k in map(str.strip, fields.get("ids", "").split(",")) if k]
    draft.status, draft.rating, unread = read_marks(fields)
    draft.unread.extend(unread)
    return draft
