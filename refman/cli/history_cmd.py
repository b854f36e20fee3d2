"""``refman history`` and ``refman revert``: the imports of a library, and reverting one.

JSON keys (stable; listed in the README):

* an import: ``import``, ``imported_at``, ``pages`` (``batch``, ``source``, ``owner``,
  ``format``, ``records``), ``records``, ``new``, ``merged``, ``imported_by`` (null: not
  known);
* a revert: ``import``, ``label``, ``dry_run``, ``removed`` and ``restored`` (``id``,
  ``title``), ``kept`` (``id``, ``title``, ``reason``).
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from refman.cli.output import truncate, write_json
from refman.common.text import plural
from refman.core.importing.history import ImportView
from refman.core.importing.revert import RevertPlan
from refman.core.importing.revert_wording import revert_lines
from refman.core.library import LibraryService

#: The keys of an import in JSON, in output order.
HISTORY_KEYS = ("import", "imported_at", "pages", "records", "new", "merged", "imported_by")
#: The keys of a revert in JSON, in output order.
REVERT_KEYS = ("import", "label", "dry_run", "removed", "restored", "kept")


def import_to_json(view: ImportView) -> dict[str, Any]:
    """An import of the history as JSON (:data:`HISTORY_KEYS`)."""
    return {
        "import": view.import_id,
        "imported_at": view.imported_at.isoformat(),
        "pages": [
            {
                "batch": p.batch_id,
                "source": p.source,
                "owner": p.owner,
                "format": p.format,
                "records": p.parsed,
            }
            for p in view.pages
        ],
        "records": view.records,
        "new": view.new,
        "merged": view.merged,
        "imported_by": view.imported_by,
    }


#: The most papers of each kind a revert names on the terminal.
_LISTED = 20


def revert_to_json(plan: RevertPlan) -> dict[str, Any]:
    """What a revert does or did, as JSON (:data:`REVERT_KEYS`)."""
    return {
        "import": plan.import_id,
        "label": plan.label,
        "dry_run": plan.dry_run,
        "removed": [{"id": i, "title": t} for i, t in plan.removed],
        "restored": [{"id": i, "title": t} for i, t in plan.restored],
        "kept": [{"id": k.paper_id, "title": k.title, "reason": k.reason} for k in plan.kept],
    }


def _import_line(view: ImportView, shared: bool) -> str:
    """An import's line; on a shared library, who made it ("by alice")."""
    pages = ", ".join(f"{p.source} ({p.owner})" if p.owner else p.source for p in view.pages)
    when = view.imported_at.strftime("%Y-%m-%d %H:%M")
    counts = f"{plural(view.records, 'record')}: {view.new:,} new, {view.merged:,} merged"
    by = f" by {view.imported_by}" if shared and view.imported_by else ""
    return f"{view.import_id:>6}  {when}  {truncate(pages, 60)}{by} — {counts}"


def run_history(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman history``."""
    history = service.history()
    if args.json:
        write_json(out, [import_to_json(v) for v in history])
        return 0
    lines = [f"{'IMPORT':>6}  WHEN              PAGES — WHAT IT DID"]
    lines += [_import_line(v, service.db.shared) for v in history]
    if not history:
        lines = ["No imports yet. Import a page with “refman import FILE”."]
    out.write("".join(line + "\n" for line in lines))
    return 0


def run_revert(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman revert IMPORT_ID [--dry-run]``."""
    plan = service.revert(args.import_id, dry_run=args.dry_run).value
    if args.json:
        write_json(out, revert_to_json(plan))
    else:
        out.write("".join(line + "\n" for line in revert_lines(plan, most=_LISTED)))
    return 0
