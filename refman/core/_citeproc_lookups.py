"""Faster citeproc-py: the style's XPath lookups are made once per element and expression,
and a cited item's reference once. Private to :mod:`refman.core._citeproc_render`.

citeproc-py finds a macro, a term, a name's inherited options and a substitute's parent by
an XPath search each time it needs one: some 250 searches an APA entry, a third of the time
a bibliography of 300 papers took (5.2 s). The style does not change while it renders, so
inside :func:`remembered` each search is made once and its answer kept (the elements it
holds stay alive meanwhile, so an element is always the same object).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from citeproc.model import CitationStylesElement
from citeproc.source import CitationItem

_local = threading.local()
_ORIGINAL = CitationStylesElement.xpath_search
#: Where a cited item keeps its reference (a key of the item's own dictionary no CSL option
#: can have).
_REFERENCE = "\x00reference"


@contextmanager
def remembered() -> Iterator[None]:
    """While the block runs, an XPath search of the style is made once (per thread)."""
    before = getattr(_local, "found", None)
    _local.found = {}
    try:
        yield
    finally:
        _local.found = before


def _xpath_search(self: Any, expression: str) -> Any:
    found: dict[tuple[Any, str], list[Any]] | None = getattr(_local, "found", None)
    if found is None:
        return _ORIGINAL(self, expression)
    key = (self, expression)
    answer = found.get(key)
    if answer is None:
        answer = found[key] = _ORIGINAL(self, expression)
    return list(answer)


def _reference(self: Any) -> Any:
    """citeproc-py's ``CitationItem.reference``, looked up once (it is asked for 700 times an
    entry, through two properties each time)."""
    reference = dict.get(self, _REFERENCE)
    if reference is None:
        reference = self.citation.bibliography.source[self.key]
        dict.__setitem__(self, _REFERENCE, reference)
    return reference


def install() -> None:
    """Remember the style's XPath searches inside :func:`remembered`, and each cited item's
    reference (idempotent)."""
    CitationStylesElement.xpath_search = _xpath_search
    CitationItem.reference = property(_reference)
