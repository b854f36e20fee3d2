"""Papers as a CSL-JSON file (what Zotero, pandoc and citeproc read), checked against the
official CSL data schema (``refman/data/csl-data.json``, CSL 1.0.2).

The items are the papers' CSL items as they are, plus ``citation-key`` and, with notes,
``annote``. A variable the schema does not know, or whose value it refuses (a bibliography
may have brought one in), is kept under ``custom``, as the schema asks, so that the file
always validates; so is refman's extension, ``custom.refman``, which holds what the item's
variables do not give back (:mod:`refman.importers.bib_extension`).

The schema constrains only the shape of an item (which keys, which JSON types, how long the
date arrays are) and its ``type``; items of the same shape are therefore checked once, which
makes checking 20,000 items a matter of a second, not ten.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from refman.core.export.common import ExportItem
from refman.core.export.extension import extension
from refman.importers.bib_extension import CSL_KEY
from refman.importers.csl_fields import csl_draft

__all__ = ["csl_json_file", "csl_schema_errors"]

#: The schema keywords under which validity depends on an item's shape alone.
_SHAPE_KEYWORDS = frozenset(
    "$ref $schema $id additionalProperties anyOf definitions description enum examples items "
    "maxItems minItems properties required title type".split()
)

if TYPE_CHECKING:
    from jsonschema import Draft7Validator


@lru_cache(maxsize=1)
def _validator() -> Draft7Validator:
    from jsonschema import Draft7Validator  # loaded when CSL-JSON is first checked

    schema = json.loads(files("refman.data").joinpath("csl-data.json").read_text("utf-8"))
    return Draft7Validator(schema)


@lru_cache(maxsize=1)
def _variables() -> frozenset[str]:
    return frozenset(_validator().schema["items"]["properties"])


def _keywords(schema: Any) -> set[str]:
    if isinstance(schema, list):
        return {k for part in schema for k in _keywords(part)}
    if not isinstance(schema, dict):
        return set()
    found = set(schema)
    for key, value in schema.items():
        if key not in ("properties", "definitions", "examples"):
            found |= _keywords(value)
        elif key != "examples":
            found |= {k for part in value.values() for k in _keywords(part)}
    return found


@lru_cache(maxsize=1)
def _shapes_suffice() -> bool:
    """The schema uses no keyword that looks at a value (a pattern, a length, a format)."""
    return _keywords(_validator().schema) <= _SHAPE_KEYWORDS


def _shape(value: Any) -> Any:
    """A value with every string "" and every number 0 (booleans and None kept)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return 0
    if isinstance(value, str):
        return ""
    if isinstance(value, list):
        return [_shape(v) for v in value]
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    return value


def _grouped(items: list[dict[str, Any]]) -> tuple[list[Any], list[list[int]]]:
    """The distinct shapes of the items (each with its type) and which items have each."""
    groups: dict[str, list[int]] = {}
    shapes: list[Any] = []
    for index, item in enumerate(items):
        shape = _shape(item)
        if isinstance(item.get("type"), str):
            shape["type"] = item["type"]
        key = json.dumps(shape, sort_keys=True)
        if key not in groups:
            groups[key] = []
            shapes.append(shape)
        groups[key].append(index)
    return shapes, list(groups.values())


def _errors(items: Any) -> list[tuple[list[int], list[Any], str]]:
    """(items affected, path inside the item, message) for everything the schema refuses."""
    if not _shapes_suffice() or not (
        isinstance(items, list) and all(isinstance(i, dict) for i in items)
    ):
        return [
            (list(e.absolute_path)[:1], list(e.absolute_path)[1:], e.message)
            for e in _validator().iter_errors(items)
        ]
    shapes, members = _grouped(items)
    return [
        (members[e.absolute_path[0]], list(e.absolute_path)[1:], e.message)
        if e.absolute_path
        else ([], [], e.message)
        for e in _validator().iter_errors(shapes)
    ]


def csl_schema_errors(items: Any) -> list[str]:
    """What makes CSL-JSON data invalid ("0/issued: ... is not valid ..."); [] when valid."""
    return [
        "/".join(map(str, [*where[:1], *path])) + ": " + message
        for where, path, message in _errors(items)
    ]


def _to_custom(item: dict[str, Any], variable: str) -> None:
    """Move a variable into the item's ``custom`` object."""
    value = item.pop(variable)
    custom = item.get("custom", {})
    custom = dict(custom) if isinstance(custom, dict) else {"custom": custom}
    custom[variable] = value
    item["custom"] = custom


def _item(x: ExportItem) -> dict[str, Any]:
    item = dict(x.item)
    item["citation-key"] = x.key
    if x.notes:
        item["annote"] = "\n\n".join(n.strip() for n in x.notes)
    for variable in [v for v in item if v not in _variables()]:
        _to_custom(item, variable)
    return item


def _conform(items: list[dict[str, Any]]) -> None:
    """Move every variable whose value the schema refuses into ``custom``."""
    for where, path, _message in _errors(items):
        if not path or path[0] in ("id", "type"):
            continue
        for index in where:
            if path[0] in items[index]:
                _to_custom(items[index], str(path[0]))


def csl_json_file(items: Sequence[ExportItem]) -> str:
    """The papers as a CSL-JSON array.

    Raises:
        ValueError: An item would still not validate (a bug: every paper has an id and a
            CSL type).
    """
    data = [_item(x) for x in items]
    _conform(data)
    for x, item in zip(items, data, strict=True):
        more = extension(x, csl_draft(item, 0, "").build())
        if more:
            custom = item.get("custom", {})
            item["custom"] = {**custom, CSL_KEY: more}
    problems = csl_schema_errors(data)
    if problems:
        raise ValueError("CSL-JSON export does not validate: " + "; ".join(problems[:5]))
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
