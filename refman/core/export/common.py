"""What every export format starts from: the paper's CSL-JSON item plus the few facts CSL has
no variable for (the arXiv category, an incomplete author list, the notes)."""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from refman.common.identifiers import arxiv_url
from refman.core.csl import csl_item
from refman.core.values import PaperDetail
from refman.importers.records import PersonName

__all__ = [
    "ExportFormat",
    "ExportItem",
    "date_parts",
    "export_item",
    "iso_date",
    "names",
    "text_of",
]


class ExportFormat(enum.StrEnum):
    """The formats refman exports to."""

    BIBTEX = "bibtex"
    BIBLATEX = "biblatex"
    RIS = "ris"
    CSL_JSON = "csl-json"
    CSV = "csv"

    @property
    def label(self) -> str:
        """The format's name as people know it ("BibTeX", "CSL-JSON", ...)."""
        return _LABELS[self]

    @property
    def suffix(self) -> str:
        """The usual file name ending (".bib", ".ris", ".json", ".csv")."""
        return _SUFFIXES[self]

    @classmethod
    def named_by(cls, file_name: str) -> ExportFormat | None:
        """The format a file name's ending names (".ris" RIS, ".json" CSL-JSON, ".bib"
        BibTeX; case not counting), or None for another ending."""
        ending = PurePath(file_name).suffix.lower()
        return next((f for f in cls if _SUFFIXES[f] == ending), None)


_LABELS = {
    ExportFormat.BIBTEX: "BibTeX",
    ExportFormat.BIBLATEX: "BibLaTeX",
    ExportFormat.RIS: "RIS",
    ExportFormat.CSL_JSON: "CSL-JSON",
    ExportFormat.CSV: "CSV",
}
_SUFFIXES = {
    ExportFormat.BIBTEX: ".bib",
    ExportFormat.BIBLATEX: ".bib",
    ExportFormat.RIS: ".ris",
    ExportFormat.CSL_JSON: ".json",
    ExportFormat.CSV: ".csv",
}


@dataclass(frozen=True, slots=True)
class ExportItem:
    """One paper as the formats see it.

    Attributes:
        item: The paper's CSL-JSON item (:func:`refman.core.csl.csl_item`), the one mapping
            of the paper's fields.
        arxiv_id: The arXiv identifier, when the paper has one.
        primary_class: Its first arXiv category ("cs.LG"), when it has an arXiv id.
        authors_complete: False when the author list is known to stop short ("et al.").
        tags: The tag names (the item's ``keyword`` joins them with commas).
        notes: The notes' texts, when the export includes notes (else empty).
        derived: The CSL variables that say nothing but the arXiv id (``URL`` the abs link,
            ``publisher`` "arXiv", ``number`` "arXiv:ID", as Zotero writes a preprint) and that
            are not the paper's own; formats that carry the arXiv id elsewhere (BibTeX
            ``eprint``, RIS ``AN``) leave them out.
        detail: The paper itself (what refman's extension compares the file's fields with).
    """

    item: Mapping[str, Any]
    arxiv_id: str | None
    primary_class: str | None
    authors_complete: bool
    tags: tuple[str, ...]
    notes: tuple[str, ...]
    derived: frozenset[str]
    detail: PaperDetail

    @property
    def key(self) -> str:
        """The citation key (the item's id)."""
        return str(self.item["id"])


def export_item(detail: PaperDetail, *, with_notes: bool) -> ExportItem:
    """A paper ready for export."""
    item = csl_item(detail)
    primary = detail.subjects[0] if detail.arxiv_id and detail.subjects else None
    return ExportItem(
        item=item,
        arxiv_id=detail.arxiv_id,
        primary_class=primary,
        authors_complete=detail.authors_complete or not item.get("author"),
        tags=tuple(t.name for t in detail.tags),
        notes=tuple(n.text for n in detail.notes if n.text.strip()) if with_notes else (),
        derived=_derived(detail, item),
        detail=detail,
    )


def _derived(detail: PaperDetail, item: Mapping[str, Any]) -> frozenset[str]:
    """The variables :func:`csl_item` made from the arXiv id alone."""
    if not detail.arxiv_id:
        return frozenset()
    made = {
        "URL": (detail.url, arxiv_url(detail.arxiv_id)),
        "publisher": (detail.publisher, "arXiv"),
        "number": (None, f"arXiv:{detail.arxiv_id}"),
    }
    return frozenset(
        variable
        for variable, (own, value) in made.items()
        if not own and variable not in detail.extra and item.get(variable) == value
    )


def text_of(value: Any) -> str:
    """A CSL value (string or number) as text; "" for anything else."""
    if isinstance(value, bool):
        return ""
    if isinstance(value, str | int | float):
        return str(value).strip()
    return ""


def names(item: Mapping[str, Any], variable: str) -> list[PersonName]:
    """The people of a CSL name variable ("author", "editor", ...) as name parts."""
    value = item.get(variable)
    if not isinstance(value, list):
        return []
    people = []
    for name in value:
        if not isinstance(name, Mapping):
            continue
        if text_of(name.get("literal")):
            people.append(PersonName(text_of(name["literal"]), literal=True))
            continue
        particles = (text_of(name.get(k)) for k in ("dropping-particle", "non-dropping-particle"))
        person = PersonName(
            family=text_of(name.get("family")),
            given=text_of(name.get("given")),
            particle=" ".join(p for p in particles if p),
            suffix=text_of(name.get("suffix")),
        )
        if person.family or person.given:
            people.append(person)
    return people


_DIGITS = re.compile(r"^-?\d+$")


def date_parts(item: Mapping[str, Any], variable: str = "issued") -> tuple[int, ...]:
    """A CSL date's (year, month, day) as far as they are known; () when it has none."""
    value = item.get(variable)
    if not isinstance(value, Mapping):
        return ()
    parts = value.get("date-parts")
    if not isinstance(parts, list) or not parts or not isinstance(parts[0], list):
        return ()
    out: list[int] = []
    for part in parts[0][:3]:
        text = text_of(part)
        if not _DIGITS.match(text):
            break
        out.append(int(text))
    if len(out) > 1 and not 1 <= out[1] <= 12:
        return tuple(out[:1])
    return tuple(out)


def iso_date(parts: tuple[int, ...]) -> str:
    """(2020, 3, 5) → "2020-03-05"; (2020, 3) → "2020-03"; (2020,) → "2020"."""
    if not parts:
        return ""
    return "-".join([f"{parts[0]:04d}", *(f"{p:02d}" for p in parts[1:])])
