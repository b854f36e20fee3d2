"""Bibliography order: the style's sort keys, compared the way citeproc-js compares them.
Private to :mod:`refman.core.citations`.

citeproc-py computes the sort keys a style asks for, but compares them code point by code
point (so "Ødegård" comes after "World") and, for styles that demote name particles for
sorting only (``demote-non-dropping-particle="sort-only"``), sorts "van Beethoven" under V.
citeproc-js compares with the locale's collation (ICU: accents and case ignored at first,
punctuation and spaces ignored, numbers by value) and sorts "van Beethoven" under B. Here the
keys come from citeproc-py (the style's own rules) and the comparison is citeproc-js's.

citeproc-py does not disambiguate either: two papers by the same authors in the same year
are both "Smith et al. (2020)". Where the style asks for year suffixes, citeproc-js writes
2020a and 2020b, in bibliography order; :func:`add_year_suffixes` gives citeproc-py the same
``year-suffix`` values in the data.
"""

from __future__ import annotations

import json
import re
import string
import unicodedata
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cmp_to_key
from typing import Any

__all__ = ["add_year_suffixes", "collation_key", "sort_bibliography", "sorted_items"]

_NS = {"cs": "http://purl.org/net/xbiblio/csl"}
_DEMOTE = "demote-non-dropping-particle"
#: Letters that do not decompose into a base letter and an accent.
_LETTERS = str.maketrans(
    {
        "ø": "o",
        "đ": "d",
        "ł": "l",
        "ħ": "h",
        "ı": "i",
        "ß": "ss",
        "æ": "ae",
        "œ": "oe",
        "þ": "th",
        "ð": "d",
    }
)
_RUNS = re.compile(r"\d+|\D+")
#: Markup in keys rendered for HTML output.
_MARKUP = re.compile(r"<[^>]*>|&#?\w+;")

#: A key as compared: runs of digits (by value, first) and of letters.
Collated = tuple[tuple[int, int, str], ...]


def collation_key(value: Any) -> Collated:
    """How citeproc-js orders a sort key: base letters only (no case, no accents), no
    punctuation or spaces, numbers by value."""
    text = _MARKUP.sub("", str(value))
    text = unicodedata.normalize("NFKD", text.casefold()).translate(_LETTERS)
    text = "".join(c for c in text if c.isalnum() and not unicodedata.combining(c))
    return tuple(
        (0, int(run), "") if run.isdecimal() else (1, 0, run) for run in _RUNS.findall(text)
    )


def _compare(left: tuple[Any, ...], right: tuple[Any, ...], descending: list[bool]) -> int:
    """Compare two items' keys; an empty key goes last whatever the direction."""
    for a, b, desc in zip(left[1:], right[1:], descending, strict=True):
        if a is None or b is None:
            if a is None and b is None:
                continue
            return 1 if a is None else -1
        if a != b:
            order = 1 if a > b else -1
            return -order if desc else order
    return 0


@contextmanager
def _demoted_for_sorting(style: Any) -> Iterator[None]:
    """Make "sort-only" particle demotion take effect while the sort keys are computed."""
    root = style.root
    before = root.get(_DEMOTE)
    if before == "sort-only":
        root.set(_DEMOTE, "display-and-sort")
    try:
        yield
    finally:
        if before == "sort-only":
            root.set(_DEMOTE, before)


def sort_bibliography(style: Any, bibliography: Any) -> None:
    """Put the registered items of a citeproc-py bibliography in the style's order.

    Items keep the order they were registered in (the citation order) when the style does
    not sort its bibliography, as numeric styles such as IEEE do; the citation numbers follow
    the final order.

    Args:
        style: The ``CitationStylesStyle``.
        bibliography: The ``CitationStylesBibliography`` whose items are registered.
    """
    bibliography.items = sorted_items(style, list(bibliography.items), style.root.bibliography)
    bibliography.keys = [item.key for item in bibliography.items]


def sorted_items(style: Any, items: list[Any], element: Any) -> list[Any]:
    """Cited items in the order of the ``<sort>`` of ``element`` (the style's
    ``<bibliography>`` or ``<citation>``), compared as citeproc-js compares; as given when it
    has none."""
    sort = element.find("cs:sort", _NS) if element is not None else None
    if sort is None:
        return items
    descending = []
    columns = []
    with _demoted_for_sorting(style):
        for key in sort.findall("cs:key", _NS):
            descending.append(key.get("sort", "ascending").lower() == "descending")
            values = key.sort_keys(items, element.layout)
            columns.append([None if v is None else collation_key(v) for v in values])
    rows: list[tuple[Any, ...]] = [
        (item, *keys) for item, *keys in zip(items, *columns, strict=True)
    ]

    def compare(left: tuple[Any, ...], right: tuple[Any, ...]) -> int:
        return _compare(left, right, descending)

    rows.sort(key=cmp_to_key(compare))
    return [row[0] for row in rows]


def _suffix(number: int) -> str:
    """The year suffix of the n-th paper (from 0): a … z, aa, ab, …"""
    letters = string.ascii_lowercase
    if number < len(letters):
        return letters[number]
    return _suffix(number // len(letters) - 1) + letters[number % len(letters)]


def _identity(item: Mapping[str, Any]) -> tuple[str, Any] | None:
    """What makes two papers' citations the same even with every name written out: the
    same authors (or editors) and the same year."""
    names = item.get("author") or item.get("editor")
    if not names:
        return None
    parts = (item.get("issued") or {}).get("date-parts") or [[None]]
    return json.dumps(names, sort_keys=True), parts[0][0]


def add_year_suffixes(
    style: Any, bibliography: Any, items: Mapping[str, Mapping[str, Any]]
) -> None:
    """Give papers that only a year suffix tells apart their suffix (2020a, 2020b), in
    bibliography order, when the style's citations ask for it.

    Args:
        style: The ``CitationStylesStyle``.
        bibliography: The sorted ``CitationStylesBibliography``.
        items: The prepared CSL items by their citeproc-py key.
    """
    citation = style.root.citation
    if citation is None or citation.get("disambiguate-add-year-suffix") != "true":
        return
    groups: dict[tuple[str, Any], list[str]] = {}
    for item in bibliography.items:
        identity = _identity(items[item.key])
        if identity is not None:
            groups.setdefault(identity, []).append(item.key)
    for keys in groups.values():
        for number, key in enumerate(keys if len(keys) > 1 else []):
            reference = bibliography.source[key]
            reference["year_suffix"] = bibliography.source.parse_string(_suffix(number))
