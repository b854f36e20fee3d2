"""Read a CSL-JSON file into records (Zotero, Better BibTeX, citation.js, pandoc).

CSL-JSON is an array of items (``{"id": …, "type": "article-journal", "title": …}``); a single
item, or an object holding items by id, is read too. The items are decoded one at a time, so
that a file cut short or damaged in the middle still gives the items before the damage (with a
warning naming the line). JSON that holds no CSL item at all is refused in plain words.
"""

from __future__ import annotations

import json
import re
from typing import Any

from refman.importers.bib_common import built, entry_label
from refman.importers.bib_extension import CSL_KEY, parse_extension, with_extension
from refman.importers.csl_fields import csl_draft, is_csl_item
from refman.importers.messages import SKIPPED, not_a_bibliography
from refman.importers.records import PageFormat, ParsedPage

__all__ = ["parse_csl_json"]

_DECODER = json.JSONDecoder()
_SPACES = re.compile(r"[ \t\n\r]*")


def _line(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _skip_space(text: str, index: int) -> int:
    found = _SPACES.match(text, index)
    return found.end() if found else index


def _array_items(text: str, start: int) -> tuple[list[tuple[int, str, Any]], str | None]:
    """The elements of the JSON array opening at ``start``: (line, text, value) each, and a
    warning when the array is damaged (the elements before the damage are kept)."""
    items: list[tuple[int, str, Any]] = []
    index = _skip_space(text, start + 1)
    if index < len(text) and text[index] == "]":
        return items, None
    line, counted = 1, 0  # the line of ``counted``, moved forward item by item
    while index < len(text):
        try:
            value, end = _DECODER.raw_decode(text, index)
        except json.JSONDecodeError as error:
            return items, _damage(error, len(items))
        except RecursionError:  # Python's decoder gives up on nesting ~1000 levels deep
            return items, _too_deep(_line(text, index), len(items))
        line, counted = line + text.count("\n", counted, index), index
        items.append((line, text[index:end], value))
        index = _skip_space(text, end)
        if index < len(text) and text[index] == "]":
            return items, None
        if index >= len(text) or text[index] != ",":
            where = f"line {_line(text, index)}"
            return items, f"The file is damaged at {where} (a ‘,’ or ‘]’ is missing); " + (
                "the items after it were not imported."
            )
        index = _skip_space(text, index + 1)
    return items, f"The file ends before its list of items is closed (after item {len(items)})."


def _damage(error: json.JSONDecodeError, kept: int) -> str:
    return (
        f"The file is damaged at line {error.lineno}, column {error.colno} ({error.msg}); "
        f"the items from there on were not imported ({kept} before it were)."
    )


def _too_deep(line: int, kept: int) -> str:
    return (
        f"The file is damaged at line {line}: its lists or objects are nested too deeply to "
        f"be read; the items from there on were not imported ({kept} before it were)."
    )


def _items(text: str) -> tuple[list[tuple[int, str, Any]], list[str]]:
    """The candidate items of a CSL-JSON text, with warnings about damage."""
    start = _skip_space(text, 0)
    if start < len(text) and text[start] == "[":
        items, problem = _array_items(text, start)
        if problem and not items:
            raise not_a_bibliography("the JSON text is damaged. " + problem.rstrip("."))
        return items, [problem] if problem else []
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise not_a_bibliography(
            f"the text is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    except RecursionError:
        raise not_a_bibliography("the JSON is nested too deeply to be read") from None
    if isinstance(value, dict) and not is_csl_item(value):
        entries = list(value.values())
        if entries and all(isinstance(e, dict) and is_csl_item(e) for e in entries):
            return [(1, json.dumps(e, ensure_ascii=False), e) for e in entries], []
    return [(_line(text, start), text.strip(), value)], []


def parse_csl_json(text: str) -> ParsedPage:
    """Read the text of a CSL-JSON file.

    Args:
        text: The file's text.

    Returns:
        A page (format CSL_JSON, no owner) with one record per item, in file order, and a
        warning for every element that is not an item and for damage in the file.

    Raises:
        NotABibliographyError: The text is not JSON, or the JSON holds no CSL item.
    """
    items, warnings = _items(text.lstrip("\ufeff"))
    records = []
    for number, (line, raw, value) in enumerate(items, 1):
        if isinstance(value, dict) and is_csl_item(value):
            custom = value.get("custom")
            ours = parse_extension(custom.get(CSL_KEY)) if isinstance(custom, dict) else {}
            label = f"The item {entry_label(str(value.get('id') or ''), value.get('title'))}"
            record = built(csl_draft(value, line, raw), label, warnings)
            records.append(with_extension(record, ours))
            continue
        name = value.get("id") if isinstance(value, dict) else None
        label = entry_label(str(name), None) if name else f"number {number}"
        warnings.append(
            f"{SKIPPED}the element {label} on line {line}: it is not a CSL item (an object "
            "with a type, a title or authors)."
        )
    if not records:
        raise not_a_bibliography(
            "the JSON holds no CSL-JSON items (objects with a “type” and a “title”, "
            "“author” or “issued”)"
        )
    return ParsedPage("", PageFormat.CSL_JSON, None, records, warnings)
