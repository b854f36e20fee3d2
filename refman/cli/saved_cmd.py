"""``refman searches``, ``save-search`` and ``delete-search``: saved searches.

JSON keys of a saved search (stable; listed in the README): ``id``, ``name``, ``search``,
``tags``, ``any_tags``, ``count``; ``delete-search --json`` prints what changed
(``changed``, ``unchanged``) with the ``id`` and ``name`` of the search deleted.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from refman.cli.output import change_to_json, write_json
from refman.common.errors import RefmanError
from refman.common.text import plural
from refman.core.library import LibraryService
from refman.core.saved_searches import SaveSearch, gone_text
from refman.core.values import SavedSearchView

#: The keys of a saved search in JSON, in output order.
SAVED_KEYS = ("id", "name", "search", "tags", "any_tags", "count")


def saved_to_json(view: SavedSearchView) -> dict[str, Any]:
    """A saved search as JSON (:data:`SAVED_KEYS`)."""
    return {
        "id": view.id,
        "name": view.name,
        "search": view.text,
        "tags": list(view.tags),
        "any_tags": view.any_tags,
        "count": view.count,
    }


def _describe(view: SavedSearchView) -> str:
    parts = [f"“{view.text}”"] if view.text else []
    if view.tags:
        joiner = " or " if view.any_tags else " and "
        parts.append("tagged " + joiner.join(view.tags))
    what = ", ".join(parts) or "every paper"
    gone = f" ({gone_text(view.gone)})" if view.gone else ""
    return f"{view.name}: {what} — {plural(view.count, 'paper')}{gone}"


def run_searches(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman searches``."""
    views = service.saved_searches()
    if args.json:
        write_json(out, [saved_to_json(v) for v in views])
        return 0
    lines = [_describe(v) for v in views] or [
        "No saved searches. Save one with “refman save-search NAME --search Q”."
    ]
    out.write("".join(line + "\n" for line in lines))
    return 0


def run_save_search(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman save-search NAME [--search Q] [--tag T]... [--any-tag]`` (a tag the
    library does not hold is refused: a mistyped one would find nothing ever)."""
    try:
        existing: int | None = service.saved_search(args.name, by_id=False).id
    except RefmanError:
        existing = None
    op = SaveSearch(args.name, args.search, tuple(args.tags), args.any_tags, existing)
    view = service.apply(op).value
    if args.json:  # as refman searches prints it, with its count
        counted = next(v for v in service.saved_searches() if v.id == view.id)
        write_json(out, saved_to_json(counted))
        return 0
    said = "Changed" if existing is not None else "Saved"
    out.write(f"{said} the search “{view.name}” (#{view.id}).\n")
    return 0


def run_delete_search(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman delete-search NAME`` (``--json``: no paper changed, with ``id`` and
    ``name``, the saved search deleted)."""
    view = service.saved_search(args.name)
    changes = service.delete_saved_search(view.id).changes
    if args.json:
        write_json(out, change_to_json(changes.papers, id=view.id, name=view.name))
        return 0
    out.write(f"Deleted the saved search “{view.name}”.\n")
    return 0
