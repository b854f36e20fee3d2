"""The items a Zotero item is related to (Zotero's *Related*, ``dc:relation`` in
``itemRelations``), brought as a note naming them: refman's own related papers are those
their words find (:mod:`refman.core.related`), so Zotero's links are kept as words.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

__all__ = ["related_notes"]


def related_notes(
    relations: list[tuple[int, str]],
    items: list[tuple[int, str, str]],
    fields: dict[int, dict[str, Any]],
) -> dict[int, str]:
    """The note of each item related to others, either way ("Related in Zotero", a line per
    other item: “Title” (year)).

    Args:
        relations: (item, the other item's URI: ``http://zotero.org/users/…/items/KEY``).
        items: The items imported: (id, Zotero type, key); a relation to another (one in the
            trash, of another library) is left out.
        fields: The items' fields as CSL variables, by id.
    """
    by_key = {key: item_id for item_id, _, key in items}
    imported = set(by_key.values())
    linked: dict[int, set[int]] = defaultdict(set)
    for item_id, uri in relations:
        other = by_key.get(uri.rstrip("/").rsplit("/", 1)[-1])
        if other is not None and other != item_id and item_id in imported:
            linked[item_id].add(other)
            linked[other].add(item_id)
    notes = {}
    for item_id, others in linked.items():
        named = sorted(_named(fields.get(other, {})) for other in others)
        notes[item_id] = "Related in Zotero\n\n" + "\n".join(f"- {n}" for n in named)
    return notes


def _named(item: dict[str, Any]) -> str:
    """An item as a related item's note names it: “Title” (year)."""
    parts = item.get("issued", {}).get("date-parts") or [[]]
    year = f" ({parts[0][0]})" if parts[0] else ""
    return f"“{item.get('title') or 'Untitled'}”{year}"
