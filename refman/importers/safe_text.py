"""Text that cannot hurt: what an imported page may not bring into the library.

A page saved from the web may carry control characters: ESC sequences that clear a terminal
or plant a hyperlink when the text is printed, NULs, bidirectional overrides that make a
title read differently from what it holds. :func:`safe_page` removes them from every field of
every record (tab and line breaks stay where a field may hold them) and keeps each field to
a size a reference manager needs, saying in the page's warnings what it removed or cut.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from refman.common.controls import UNSAFE
from refman.importers.records import ParsedPage, ParsedRecord

#: Line and paragraph separators: a line break in an abstract or note, a space elsewhere.
_SEPARATORS = re.compile("[\u2028\u2029]")
_BREAKS = re.compile("[\t\r\n\u2028\u2029]+")

#: The longest title, abstract, note and other text kept, and the most authors.
MAX_TITLE = 2_000
MAX_ABSTRACT = 100_000
MAX_NOTE = 100_000
MAX_FIELD = 2_000
MAX_AUTHORS = 200

_SHORT = ("venue", "doi", "arxiv_id", "url", "volume", "issue", "pages", "publisher", "citekey")


class _Tally:
    """What cleaning a page removed and cut."""

    def __init__(self) -> None:
        self.removed = 0
        self.cut: set[str] = set()

    def text(self, value: str, limit: int, what: str, *, lines: bool = False) -> str:
        if UNSAFE.search(value):
            value, n = UNSAFE.subn("", value)
            self.removed += n
        value = _SEPARATORS.sub("\n", value) if lines else _BREAKS.sub(" ", value)
        if len(value) > limit:
            self.cut.add(what)
            value = value[: limit - 1].rstrip() + "…"
        return value

    def texts(self, values: tuple[str, ...], limit: int, what: str) -> tuple[str, ...]:
        return tuple(self.text(v, limit, what) for v in values)


def _needs_cleaning(record: ParsedRecord) -> bool:
    """False for the usual record: nothing unsafe, nothing too long, no line break where a
    field is one line (checked in a few passes over the joined fields)."""
    if len(record.title) > MAX_TITLE or len(record.abstract) > MAX_ABSTRACT:
        return True
    if len(record.authors) > MAX_AUTHORS or record.notes or record.extra:
        return True
    short = (v for v in (getattr(record, n) for n in _SHORT) if v)
    fields = " ".join((*short, *record.authors, *record.tags, *record.subjects))
    if len(fields) > MAX_FIELD:
        return True  # one of them may be too long: the whole check decides
    one_line = f"{record.title} {fields}"  # (joined by a space: safe, and no break)
    # Printable text (Python's own test, in C) holds no control character, no format mark,
    # no break and no separator: most fields are let through without a search.
    if not one_line.isprintable() and (UNSAFE.search(one_line) or _BREAKS.search(one_line)):
        return True
    abstract = record.abstract
    return not abstract.isprintable() and bool(
        UNSAFE.search(abstract) or _SEPARATORS.search(abstract)
    )


def _clean_record(record: ParsedRecord, tally: _Tally) -> ParsedRecord:
    changes: dict[str, Any] = {
        "title": tally.text(record.title, MAX_TITLE, "title"),
        "abstract": tally.text(record.abstract, MAX_ABSTRACT, "abstract", lines=True),
        "authors": tally.texts(record.authors[:MAX_AUTHORS], MAX_FIELD, "author"),
        "author_names": record.author_names[:MAX_AUTHORS],
        "tags": tally.texts(record.tags, MAX_FIELD, "tag"),
        "subjects": tally.texts(record.subjects, MAX_FIELD, "subject"),
        "notes": tuple(tally.text(n, MAX_NOTE, "note", lines=True) for n in record.notes),
        "extra": {
            k: tally.text(v, MAX_FIELD, k, lines=True) if isinstance(v, str) else v
            for k, v in record.extra.items()
        },
    }
    if len(record.authors) > MAX_AUTHORS:
        tally.cut.add("author list")
        changes["authors_complete"] = False
    for name in _SHORT:
        value = getattr(record, name)
        if value:
            changes[name] = tally.text(value, MAX_FIELD, name) or None
    return replace(record, **changes)


def safe_page(page: ParsedPage) -> ParsedPage:
    """The page with control characters removed from every field and overlong fields cut;
    its warnings say how many characters were removed and which fields were cut."""
    tally = _Tally()
    records = [_clean_record(r, tally) if _needs_cleaning(r) else r for r in page.records]
    owner = tally.text(page.owner, MAX_FIELD, "owner") if page.owner else page.owner
    if not tally.removed and not tally.cut:
        same = owner == page.owner and all(
            new is old or new == old for new, old in zip(records, page.records, strict=True)
        )  # (a line break made a space says nothing worth a warning)
        return page if same else replace(page, owner=owner, records=records)
    warnings = list(page.warnings)
    if tally.removed:
        plural = "s" if tally.removed != 1 else ""
        warnings.append(
            f"Removed {tally.removed} control character{plural} (invisible characters that "
            "could change how the text shows or what a terminal does)."
        )
    if tally.cut:
        warnings.append(
            f"Cut overlong text ({', '.join(sorted(tally.cut))}): refman keeps titles to "
            f"{MAX_TITLE:,} characters, abstracts and notes to {MAX_ABSTRACT:,}, other fields "
            f"to {MAX_FIELD:,}, and {MAX_AUTHORS} authors."
        )
    return replace(page, owner=owner, records=records, warnings=warnings)
