"""refman's extension in an export (see :mod:`refman.importers.bib_extension`): each writer
reads the record it wrote back with refman's own reader and keeps, for the extension, every
field of the paper that the record does not give back as the paper has it."""

from __future__ import annotations

from typing import Any

from refman.core.export.common import ExportItem
from refman.core.rules import READING_STATUSES
from refman.core.values import PaperDetail
from refman.importers.bib_extension import FIELDS
from refman.importers.records import ParsedRecord, PersonName

__all__ = ["extension"]


def _paper_value(x: ExportItem, name: str) -> Any:
    """The paper's value of a field, as a record holds it."""
    if name == "tags":
        return x.tags
    if name == "notes":
        return x.notes
    if name == "subjects":
        return tuple(x.detail.subjects)
    if name == "author_names":
        return _authors(x.detail)
    if name == "status":  # (unread: a record says nothing)
        return None if x.detail.status == READING_STATUSES[0] else x.detail.status
    if name == "rating":
        return x.detail.rating or None
    return getattr(x.detail, name)


def _authors(paper: PaperDetail) -> tuple[PersonName, ...]:
    return paper.author_names or tuple(PersonName(a) for a in paper.authors)


def _same(x: ExportItem, name: str, ours: Any, back: ParsedRecord) -> bool:
    if name == "tags":  # a paper's tags are a set
        return sorted(ours) == sorted(back.tags)
    if name == "author_names":  # the names' parts, and the names as the library shows them
        return bool(ours == back.author_names) and x.detail.authors == back.authors
    return bool(ours == getattr(back, name))


def _json(name: str, value: Any) -> Any:
    if name == "author_names":
        return [person.csl() for person in value]
    return list(value) if isinstance(value, tuple) else value


def _extra(x: ExportItem, back: ParsedRecord) -> dict[str, Any]:
    """The CSL variables that come back different, with None for one the paper lacks."""
    ours, theirs = x.detail.extra, back.extra
    names = sorted(set(ours) | set(theirs))
    return {name: ours.get(name) for name in names if ours.get(name) != theirs.get(name)}


def extension(x: ExportItem, back: ParsedRecord) -> dict[str, Any]:
    """What the record read back from a paper's entry lacks or has wrong, by field name.

    Args:
        x: The paper as exported.
        back: The record refman's reader makes of the entry's own fields.

    Returns:
        The paper's values of the fields that differ (lists for tags, notes and subjects;
        ``extra`` holds the differing CSL variables); {} when the entry says it all.
    """
    out: dict[str, Any] = {}
    for name in FIELDS:
        if name == "extra":
            extra = _extra(x, back)
            if extra:
                out[name] = extra
            continue
        ours = _paper_value(x, name)
        if not _same(x, name, ours, back):
            out[name] = _json(name, ours)
    return out
