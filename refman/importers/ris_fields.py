"""One RIS record's tags as a refman record, read as Zotero's RIS translator reads them.

The reference type (``TY``) becomes a CSL type; ``AU``/``A1`` are the authors in file order
("Family, Given, Suffix", or "Given Family" as IEEE Xplore writes them), ``A2``/``ED`` the
editors; the journal or book comes from ``T2``, ``JF``, ``JO``, ``JA`` or ``BT``; the date
from ``PY``, ``Y1`` or ``DA``; ``SP``/``EP`` are the pages; ``KW`` become tags and ``N1``
notes (Zotero writes them as HTML).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from refman.common.east_asian import east_asian
from refman.common.text import squash_spaces
from refman.importers.bib_common import (
    Draft,
    date_parts,
    is_bibliographic_note,
    looks_like_citekey,
    split_keywords,
    tidy_paragraphs,
)
from refman.importers.file_field import ris_file_path
from refman.importers.names import looks_like_person, name_parts
from refman.importers.records import PersonName
from refman.importers.titles import title_text

__all__ = ["RIS_TYPES", "TEXT_TAGS", "Tags", "ris_draft", "ris_person"]

#: RIS reference type -> CSL type.
RIS_TYPES = {
    "JOUR": "article-journal", "JFULL": "article-journal", "EJOUR": "article-journal",
    "ABST": "article-journal", "INPR": "article-journal", "MGZN": "article-magazine",
    "NEWS": "article-newspaper", "CONF": "paper-conference", "CPAPER": "paper-conference",
    "BOOK": "book", "EBOOK": "book", "EDBOOK": "book", "SER": "book", "CTLG": "book",
    "CHAP": "chapter", "ECHAP": "chapter", "THES": "thesis", "RPRT": "report",
    "GOVDOC": "report", "ELEC": "webpage", "WEB": "webpage", "BLOG": "post-weblog",
    "UNPB": "manuscript", "UNPD": "manuscript", "MANSCPT": "manuscript", "DATA": "dataset",
    "DBASE": "dataset", "AGGR": "dataset", "COMP": "software", "PAT": "patent",
    "STAND": "standard", "ENCYC": "entry-encyclopedia", "DICT": "entry-dictionary",
    "SLIDE": "speech", "PCOMM": "personal_communication", "ICOMM": "personal_communication",
    "MAP": "map", "ART": "graphic", "FIGURE": "figure", "CHART": "graphic",
    "VIDEO": "motion_picture", "MPCT": "motion_picture", "SOUND": "song", "MUSIC": "musical_score",
    "PAMP": "pamphlet", "HEAR": "hearing", "BILL": "bill", "CASE": "legal_case",
    "STAT": "legislation", "LEGAL": "legislation", "CLSWK": "classic", "ANCIENT": "classic",
    "GEN": "document", "PREPRINT": "article",
}  # fmt: skip
#: Tags whose value is prose that may run over several lines.
TEXT_TAGS = frozenset(
    {"TI", "T1", "T2", "T3", "BT", "CT", "JF", "JO", "JA", "J2", "AB", "N1", "N2", "AD", "PB",
     "CY", "ST", "TT", "AU", "A1", "A2", "A3", "A4", "ED", "M1", "M3", "C3", "LB", "CA"}
)  # fmt: skip
_BOOK_TYPES = frozenset({"BOOK", "EBOOK", "EDBOOK", "SER", "CTLG"})
_PREPRINT_TYS = frozenset({"JOUR", "GEN", "UNPB", "UNPD", "ELEC", "MANSCPT", "INPR", "PREPRINT"})
_ARXIV_VENUE = re.compile(r"^\s*arxiv\b", re.IGNORECASE)
_ISSN = re.compile(r"^\s*\d{4}-?\d{3}[\dXx]\b")
_HTML = re.compile(r"</?(?:p|div|br|span|b|i|em|strong|ul|ol|li|h\d|a|blockquote)\b", re.I)
_PUBMED = re.compile(r"pubmed|medline", re.IGNORECASE)
_GENRE_TYS = frozenset({"THES", "RPRT", "GOVDOC", "ELEC", "COMP", "DATA"})
#: CSL name variable -> the RIS tags that give it.
_NAME_TAGS = {"editor": ("A2", "ED"), "collection-editor": ("A3",), "translator": ("A4",)}


class Tags:
    """The values of one record's tags."""

    def __init__(self, pairs: Iterable[tuple[str, str]]) -> None:
        self.pairs = [(tag, value.strip()) for tag, value in pairs if value.strip()]
        self.values: dict[str, list[str]] = {}
        for tag, value in self.pairs:
            self.values.setdefault(tag, []).append(value)

    def all(self, *tags: str) -> list[str]:
        """The values of the tags, those of the first tag first (its values win)."""
        return [v for t in tags for v in self.values.get(t, [])]

    def in_order(self, *tags: str) -> list[str]:
        """The values of the tags in file order: an author list written partly as ``AU``,
        partly as ``A1`` keeps its order."""
        return [v for t, v in self.pairs if t in tags]

    def first(self, *tags: str) -> str:
        return next((v for t in tags for v in self.values.get(t, [])), "")


def ris_person(text: str) -> PersonName | None:
    """A name as RIS writes it: "Family, Given, Suffix". A name without a comma is a person's
    written given names first when it reads as one (IEEE Xplore writes "M. D. Fox"), split
    as people write names; otherwise an organisation's (as Zotero writes one), kept whole."""
    parts = [squash_spaces(p) for p in text.split(",")]
    if not parts[0]:
        return None
    if len(parts) == 1:
        if looks_like_person(parts[0]) or all(map(east_asian, parts[0].split())):
            return name_parts(parts[0])  # (张伟: a family name alone, as refman can tell)
        return PersonName(parts[0], literal=True)
    words = parts[0].split(" ")
    lead = 0
    while lead < len(words) - 1 and words[lead][:1].islower():
        lead += 1
    return PersonName(
        " ".join(words[lead:]),
        parts[1],
        particle=" ".join(words[:lead]),
        suffix=", ".join(p for p in parts[2:] if p),
    )


def _people(values: list[str]) -> list[PersonName]:
    return [p for p in (ris_person(v) for v in values) if p is not None and not _others(p)]


def _others(person: PersonName) -> bool:
    """True for the "others" / "et al." some files write as a last author."""
    return person.literal and person.family.casefold().rstrip(".") in ("others", "et al")


def _note_text(text: str) -> str:
    if _HTML.search(text):
        from refman.importers.sources import html_to_text  # sources imports the readers

        return html_to_text(text).strip()
    return text.strip()


def _dates(draft: Draft, tags: Tags) -> None:
    for value in tags.all("PY", "Y1", "DA"):
        draft.take_date("date", value, date_parts(value))
    accessed = tags.first("Y2")
    if accessed:
        parts = [p for p in date_parts(accessed) if p is not None]
        if date_parts(accessed)[0] is not None:
            draft.extra["accessed"] = {"date-parts": [parts]}


def _container(draft: Draft, ty: str, tags: Tags) -> None:
    """The journal, book or proceedings (for a book, ``T2`` is its series)."""
    if ty in _BOOK_TYPES:
        draft.extra["collection-title"] = tags.first("T2", "T3")
    else:
        draft.venue = squash_spaces(tags.first("T2", "JF", "JO", "BT", "C3", "JA", "J2"))
        draft.extra["collection-title"] = tags.first("T3")
    short = squash_spaces(tags.first("J2", "JA"))
    if short and short != draft.venue:
        draft.extra["container-title-short"] = short
    if ty in _PREPRINT_TYS and draft.venue and _ARXIV_VENUE.match(draft.venue):
        draft.type, draft.venue = "article", "arXiv"


def _numbers(draft: Draft, ty: str, tags: Tags) -> None:
    draft.volume = tags.first("VL")
    draft.issue = tags.first("IS")
    start, end = tags.first("SP"), tags.first("EP")
    draft.pages = f"{start}-{end}" if start and end and start != end else start or end
    if not draft.pages:
        draft.pages = tags.first("C7")  # Scopus and Zotero: the article number
    draft.publisher = squash_spaces(tags.first("PB"))
    serial = tags.first("SN")
    if serial:
        book = ty in _BOOK_TYPES or ty in ("CHAP", "ECHAP") or not _ISSN.match(serial)
        draft.extra["ISBN" if book else "ISSN"] = serial


def _further(draft: Draft, ty: str, tags: Tags) -> None:
    """Place, edition, language, short title, genre, database and report number."""
    simple = {"CY": "publisher-place", "ET": "edition", "LA": "language", "ST": "title-short"}
    for tag, variable in simple.items():
        draft.extra[variable] = squash_spaces(tags.first(tag))
    if ty in _GENRE_TYS:
        draft.extra["genre"] = squash_spaces(tags.first("M3"))
    source = tags.first("DB", "DP")
    draft.extra["source"] = source
    accession = tags.first("AN")
    if accession.isdigit() and _PUBMED.search(source):
        draft.extra["PMID"] = accession
    if ty in ("RPRT", "GOVDOC", "PAT", "STAND"):
        draft.extra["number"] = tags.first("M1", "IS")


def _links(draft: Draft, tags: Tags) -> None:
    draft.doi = tags.first("DO")
    urls = [u for v in tags.all("UR") for u in re.split(r"[;\s]+", v) if u]
    web = [u for u in urls if u.lower().startswith(("http://", "https://"))]
    arxiv = next((u for u in web if "arxiv.org/" in u.lower()), None)
    draft.url = web[0] if web else None
    accession = tags.first("AN")  # refman and others: "arXiv:2402.15627"
    draft.arxiv_id = accession if accession.lower().startswith("arxiv:") else arxiv
    key = tags.first("ID")
    draft.citekey = key if key and looks_like_citekey(key) and not key.isdigit() else None


def _tags_and_notes(draft: Draft, tags: Tags) -> None:
    for value in tags.all("KW"):
        draft.tags.extend(split_keywords(value, ";"))
    for value in tags.all("N1"):
        note = _note_text(value)
        if is_bibliographic_note(note):
            draft.extra["note"] = "; ".join(filter(None, (draft.extra.get("note"), note)))
        else:
            draft.notes.append(note)
    for variable, name_tags in _NAME_TAGS.items():
        people = _people(tags.in_order(*name_tags))
        if people:
            draft.extra.setdefault(variable, []).extend(p.csl() for p in people)


def ris_draft(pairs: list[tuple[str, str]], line: int, raw: str) -> Draft:
    """The record of one RIS record.

    Args:
        pairs: Its (tag, value) pairs in order, continuation lines joined.
        line: The 1-based line of its ``TY``.
        raw: Its text, ``TY`` to ``ER``.
    """
    tags = Tags(pairs)
    ty = tags.first("TY").upper()
    draft = Draft(line=line, raw=raw, type=RIS_TYPES.get(ty, "document"))
    draft.title = title_text(tags.first("TI", "T1") or tags.first("BT", "CT"))
    draft.abstract = tidy_paragraphs(tags.first("AB", "N2"))
    names = tags.in_order("AU", "A1")
    draft.names = _people(names)
    draft.complete = len(draft.names) == len(names)
    _container(draft, ty, tags)
    _dates(draft, tags)
    _numbers(draft, ty, tags)
    _further(draft, ty, tags)
    _links(draft, tags)
    _tags_and_notes(draft, tags)
    draft.files = [p for p in map(ris_file_path, tags.all("L1")) if p]
    on_arxiv = draft.identifiers()[1] or (draft.publisher or "").casefold() == "arxiv"
    if ty in _PREPRINT_TYS and not draft.venue and on_arxiv:
        draft.type = "article"
    return draft
