"""A term that opens a bibliography entry starts with a capital, as citeproc-js writes it.
Private to :mod:`refman.core._citeproc_render`.

A paper with neither authors nor a title in the author's place opens with whatever the style
prints next, often a term: Harvard's date of a paper without a year is the term "no date",
so the entry read "(no date) “Only a title.”" where citeproc-js (and so Zotero) writes
"(No date) …". citeproc-js capitalises a term that nothing precedes in the entry; here, while
:func:`entry` is in force, the first thing an entry prints is noted, and a term printed
before anything else gets a capital. Text from the data is never changed ("de novo assembly"
stays as written).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from citeproc.model import Date, Names, Number, Text

_local = threading.local()


@contextmanager
def entry() -> Iterator[None]:
    """Render one entry: the first term it prints, before anything else, is capitalised."""
    _local.open = True
    try:
        yield
    finally:
        _local.open = False


def _printed(text: Any) -> None:
    if text:
        _local.open = False


def _text(original: Any) -> Any:
    def process(self: Any, *args: Any, **kwargs: Any) -> Any:
        text, language = original(self, *args, **kwargs)
        if not text or "macro" in self.attrib:
            return text, language  # (a macro's pieces are noted one by one)
        if "term" in self.attrib and getattr(_local, "open", False):
            text = text.capitalize_first()
        _local.open = False
        return text, language

    return process


def _noting(original: Any) -> Any:
    def process(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = original(self, *args, **kwargs)
        _printed(result)
        return result

    return process


def install() -> None:
    """Capitalise a term that opens an entry (idempotent)."""
    if getattr(Text.process, "__qualname__", "").startswith("_text."):
        return
    Text.process = _text(Text.process)
    for element in (Names, Date, Number):
        element.process = _noting(element.process)
