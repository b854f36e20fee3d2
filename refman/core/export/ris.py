"""Papers as an RIS file, written with rispy.

The tags follow what Zotero and EndNote write: ``AU`` "Family, Given, Suffix" per author,
``A2`` editors, ``T2`` the journal or proceedings, ``PY``/``DA`` the date, ``Y2`` the date
of access, ``SP``/``EP`` the pages (a range written otherwise than "100-110" stays whole in
``SP``), ``KW`` one tag per line, ``N1`` one note per line, ``DB`` the database the paper
came from, ``ID`` the citation key. RIS has no field for an arXiv id: its link goes in ``UR``
(as Zotero writes it) and the id in ``AN`` ("arXiv:2306.01234"); a report's number goes in
``M1``. RIS values are one line each, so line breaks become spaces; what the tags do not give
back is refman's extension, in ``C8`` (:mod:`refman.importers.bib_extension`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

import rispy

from refman.core.export.common import ExportItem, date_parts, names, text_of
from refman.core.export.extension import extension
from refman.importers.bib_extension import CSL_KEY, RIS_TAG, extension_json
from refman.importers.records import PersonName
from refman.importers.ris import parse_ris

__all__ = ["RIS_TYPES", "ris_file", "ris_name"]

#: CSL type → RIS reference type (anything else is GEN).
RIS_TYPES = {
    "article-journal": "JOUR",
    "paper-conference": "CPAPER",
    "article": "UNPB",
    "book": "BOOK",
    "chapter": "CHAP",
    "thesis": "THES",
    "report": "RPRT",
    "webpage": "ELEC",
    "post-weblog": "BLOG",
    "article-magazine": "MGZN",
    "article-newspaper": "NEWS",
    "dataset": "DATA",
    "software": "COMP",
    "manuscript": "MANSCPT",
    "patent": "PAT",
    "speech": "SLIDE",
    "entry-encyclopedia": "ENCYC",
    "entry-dictionary": "DICT",
    "standard": "STAND",
}
#: CSL text variables → rispy keys (tags T2, T3, J2, ST, VL, IS, PB, CY, ET, M3, LA, DO).
_TEXT = {
    "container-title": "secondary_title",
    "collection-title": "tertiary_title",
    "container-title-short": "alternate_title1",
    "title-short": "short_title",
    "volume": "volume",
    "issue": "number",
    "publisher": "publisher",
    "publisher-place": "place_published",
    "edition": "edition",
    "genre": "type_of_work",
    "language": "language",
    "DOI": "doi",
}
_PEOPLE = {"author": "authors", "editor": "secondary_authors", "translator": "subsidiary_authors"}
#: A range RIS readers put back together from SP and EP: "100-110".
_PAGE_RANGE = re.compile(r"^([^-\s]+)-([^-\s]+)$")
#: rispy's key of the extension's tag.
_EXTENSION_KEY = rispy.TAG_KEY_MAPPING[RIS_TAG]


class _Writer(rispy.RisWriter):  # type: ignore[misc]
    """rispy's writer without its "1." line before each record (other readers stumble), and
    with one ``L1`` line per attached file (as Zotero writes them)."""

    DEFAULT_LIST_TAGS: ClassVar[list[str]] = [*rispy.LIST_TYPE_TAGS, "L1"]

    def set_header(self, count: int) -> str:
        return ""


def _line(value: Any) -> str:
    return " ".join(text_of(value).split())


def ris_name(person: PersonName) -> str:
    """One person as RIS writes a name: "Family, Given, Suffix"; an organisation whole, and
    a person known by one name only as "Family," (so that it is not read as an
    organisation)."""
    if person.literal:
        return person.family
    family = " ".join(p for p in (person.particle, person.family) if p)
    parts = [family, person.given] + ([person.suffix] if person.suffix else [])
    return ", ".join(parts).rstrip()


def _slashed(parts: tuple[int, ...]) -> str:
    return "/".join([f"{parts[0]:04d}", *(f"{p:02d}" for p in parts[1:])])


def _date(x: ExportItem) -> dict[str, str]:
    parts = date_parts(x.item)
    accessed = date_parts(x.item, "accessed")
    out = {"access_date": _slashed(accessed)} if accessed else {}
    if parts:
        out["year"] = f"{parts[0]:04d}"
    if len(parts) > 1:
        out["date"] = _slashed(parts)
    return out


def _pages(page: str) -> dict[str, str]:
    """SP and EP for "100-110"; any other range ("100–110", "S1-S3-5") whole in SP."""
    found = _PAGE_RANGE.match(page)
    if found and found.group(1) != found.group(2):
        return {"start_page": found.group(1), "end_page": found.group(2)}
    return {"start_page": page} if page else {}


def _identifiers(x: ExportItem) -> dict[str, Any]:
    item = x.item
    out: dict[str, Any] = {}
    isbn = _line(item.get("ISBN")) or _line(item.get("ISSN"))
    if isbn:
        out["issn"] = isbn
    if x.arxiv_id:
        out["accession_number"] = f"arXiv:{x.arxiv_id}"
    if "number" not in x.derived and _line(item.get("number")):
        out["note"] = _line(item.get("number"))  # M1: a report's number
    if _line(item.get("URL")):  # an arXiv link too: it is how RIS readers learn the id
        out["urls"] = [_line(item["URL"]).replace(";", "%3B")]  # readers split UR on ";"
    return out


def _record(x: ExportItem) -> dict[str, Any]:
    item = x.item
    record: dict[str, Any] = {"type_of_reference": RIS_TYPES.get(text_of(item.get("type")), "GEN")}
    for variable, key in _PEOPLE.items():
        record[key] = [_line(ris_name(p)) for p in names(item, variable)]
    record["title"] = _line(item.get("title"))
    record.update({key: _line(item.get(v)) for v, key in _TEXT.items() if v not in x.derived})
    record.update(_date(x))
    record.update(_pages(_line(item.get("page"))))
    record.update(_identifiers(x))
    record["keywords"] = [_line(t) for t in x.tags if _line(t)]
    record["abstract"] = _line(item.get("abstract"))
    record["notes"] = [_line(n) for n in x.notes if _line(n)]
    record["name_of_database"] = _line(item.get("source"))
    record["file_attachments1"] = [f.path for f in x.detail.files if f.path]
    record["id"] = x.key
    return {k: v for k, v in record.items() if v}


def _dumps(records: list[dict[str, Any]]) -> str:
    return str(rispy.dumps(records, implementation=_Writer))


def ris_file(items: Sequence[ExportItem]) -> str:
    """The papers as an RIS file."""
    if not items:
        return ""
    records = [_record(x) for x in items]
    # what refman's own reader makes of the records: what it misses goes in the extension
    back = parse_ris(_dumps(records)).records
    for x, record, read in zip(items, records, back, strict=True):
        more = extension(x, read)
        if more:
            record[_EXTENSION_KEY] = extension_json({CSL_KEY: more})
    return _dumps(records)
