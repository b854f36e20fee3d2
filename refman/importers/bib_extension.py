"""refman's extension to the bibliography formats: what a paper has that the format's own fields
do not give back.

refman's exports write each paper in the format's own fields first. Whatever would not come
back from them as the paper has it (the arXiv categories, a suggested title, an author list
known to stop short, the exact item type, a raw abstract, several notes, a CSL variable the
format has no field for, ...) is written once more, under its refman name, in one small JSON
object per record:

* BibTeX and BibLaTeX: the field ``x-refman = {{"subjects": ["cs.LG", "cs.CL"]}}`` (BibTeX
  and biber skip fields they do not know);
* RIS: the custom tag ``C8  - {"refman": {...}}``;
* CSL-JSON: ``"custom": {"refman": {...}}``.

The keys are the names of the record's fields (:class:`~refman.importers.records.ParsedRecord`)
— ``title``, ``title_provisional``, ``abstract``, ``year``, ``venue``, ``subjects``,
``author_names`` (CSL name objects), ``authors_complete``, ``type``, ``doi``, ``arxiv_id``,
``url``, ``volume``, ``issue``, ``pages``, ``publisher``, ``citekey``, ``tags``, ``notes``,
``attributed_to`` (the people whose author pages brought the paper), ``status`` and
``rating`` (the reader's reading status, "reading" or "read", and 1 to 5 stars: RIS and
CSL-JSON have no field for them) — and ``extra``, the CSL variables to set (``null`` for one
the file's fields suggest but the paper does not have). Only the fields that need it appear.
Each reader applies the extension to the record it read, so the extension wins over what
the fields suggest; a record without one (any other program's file) is read as before, and a
value of the wrong kind is ignored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from refman.importers.bib_common import bib_key
from refman.importers.bib_marks import READ_STATUS
from refman.importers.csl_fields import CSL_TYPES
from refman.importers.records import ParsedRecord, PersonName

__all__ = [
    "BIB_FIELD",
    "CSL_KEY",
    "FIELDS",
    "RIS_TAG",
    "bib_extension_value",
    "extension_json",
    "parse_extension",
    "with_extension",
]

#: The BibTeX / BibLaTeX field that holds the extension.
BIB_FIELD = "x-refman"
#: The RIS tag that holds ``{"refman": {...}}``.
RIS_TAG = "C8"
#: The key under CSL-JSON's ``custom`` (and of the RIS tag's object).
CSL_KEY = "refman"


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _optional_text(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _flag(value: Any) -> bool:
    return isinstance(value, bool)


def _year(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _variables(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) for k in value)


def _status(value: Any) -> bool:
    return value is None or value in READ_STATUS.values()


def _rating(value: Any) -> bool:
    return value is None or (type(value) is int and 1 <= value <= 5)


def _names(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(name, dict)
        and all(isinstance(part, str) for part in name.values())
        and bool(name.get("literal") or name.get("family"))
        for name in value
    )


def _person(name: Mapping[str, str]) -> PersonName:
    """A CSL name object as name parts."""
    if name.get("literal"):
        return PersonName(name["literal"], literal=True)
    particle = name.get("non-dropping-particle") or name.get("dropping-particle") or ""
    return PersonName(name["family"], name.get("given", ""), particle, name.get("suffix", ""))


#: The keys of the extension and what each may hold.
FIELDS: Mapping[str, Callable[[Any], bool]] = {
    "title": _text,
    "title_provisional": _flag,
    "abstract": lambda value: isinstance(value, str),
    "year": _year,
    "venue": _optional_text,
    "subjects": _texts,
    "author_names": _names,
    "authors_complete": _flag,
    "type": lambda value: value in CSL_TYPES,
    "doi": _optional_text,
    "arxiv_id": _optional_text,
    "url": _optional_text,
    "volume": _optional_text,
    "issue": _optional_text,
    "pages": _optional_text,
    "publisher": _optional_text,
    "citekey": _optional_text,
    "aliases": _texts,
    "tags": _texts,
    "notes": _texts,
    "attributed_to": _texts,
    "status": _status,
    "rating": _rating,
    "extra": _variables,
}
_LIST_FIELDS = frozenset({"subjects", "aliases", "tags", "notes", "attributed_to"})
#: Braces inside the JSON text's strings, written as JSON escapes so that BibTeX, which
#: counts every brace, always finds the value's braces paired.
_BRACES = {"{": "\\u007b", "}": "\\u007d"}
_BRACE_MARKS = {"\ufdd4": _BRACES["{"], "\ufdd5": _BRACES["}"]}


def _mark(value: Any) -> Any:
    """``value`` with every brace inside a string replaced by a placeholder."""
    if isinstance(value, str):
        return value.replace("{", "\ufdd4").replace("}", "\ufdd5")
    if isinstance(value, list | tuple):
        return [_mark(v) for v in value]
    if isinstance(value, dict):
        return {_mark(k): _mark(v) for k, v in value.items()}
    return value


def extension_json(value: Mapping[str, Any]) -> str:
    """An extension (RIS: ``{"refman": extension}``) as one line of JSON."""
    return json.dumps(dict(value), ensure_ascii=False, separators=(", ", ": "))


def bib_extension_value(extension: Mapping[str, Any], *, ascii_only: bool) -> str:
    """The extension as the value of a BibTeX field: one line of JSON whose strings hold no
    brace (BibTeX counts every brace: they are written as JSON escapes).

    Args:
        extension: The keys and values (see the module's description).
        ascii_only: Write every non-ASCII character as a JSON escape too (for BibTeX).
    """
    text = json.dumps(_mark(dict(extension)), ensure_ascii=ascii_only, separators=(", ", ": "))
    if ascii_only:
        return re.sub(r"\\ufdd[45]", lambda m: _BRACES["{" if m.group()[-1] == "4" else "}"], text)
    return re.sub("[\ufdd4\ufdd5]", lambda m: _BRACE_MARKS[m.group()], text)


def parse_extension(value: Any) -> dict[str, Any]:
    """The keys of an extension that hold what they may; {} for anything that is not one.

    Args:
        value: The extension as an object, or as JSON text (a BibTeX field's value).
    """
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):  # (JSON nested too deeply is no extension)
            return {}
    if not isinstance(value, dict):
        return {}
    return {key: value[key] for key, valid in FIELDS.items() if key in value and valid(value[key])}


def _extra(record: ParsedRecord, variables: Mapping[str, Any]) -> dict[str, Any]:
    extra = dict(record.extra)
    for name, value in variables.items():
        if value is None:
            extra.pop(name, None)
        else:
            extra[name] = value
    return extra


def with_extension(record: ParsedRecord, extension: Mapping[str, Any]) -> ParsedRecord:
    """The record with the extension's values in place of what the fields gave.

    Args:
        record: The record as the format's own fields give it.
        extension: A checked extension (:func:`parse_extension`); {} changes nothing.
    """
    if not extension:
        return record
    changes: dict[str, Any] = {}
    for key, value in extension.items():
        if key == "extra":
            changes["extra"] = _extra(record, value)
        elif key == "author_names":
            names = tuple(_person(name) for name in value)
            changes.update(author_names=names, authors=tuple(n.display for n in names))
        elif key in _LIST_FIELDS:
            changes[key] = tuple(value)
        elif key == "citekey":  # (an older export's, as a .bib file holds keys now)
            changes[key] = bib_key((value or "").strip()) or None
        else:
            changes[key] = value
    return replace(record, **changes)
