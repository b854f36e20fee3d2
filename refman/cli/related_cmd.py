"""``refman related ID``: the papers most related to one, and why.

JSON keys of a related paper (stable; listed in the README): ``id``, ``title``, ``score``
(the summed rarity of the words it shares: higher is more related), ``shares`` (those words,
the rarest first).
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from refman.cli.output import terminal_width, truncate, write_json
from refman.core.library import LibraryService
from refman.core.related import RelatedPaper

#: The keys of a related paper in JSON, in output order.
RELATED_KEYS = ("id", "title", "score", "shares")


def related_to_json(paper: RelatedPaper) -> dict[str, Any]:
    """A related paper as JSON (:data:`RELATED_KEYS`)."""
    return {
        "id": paper.id,
        "title": paper.title,
        "score": round(paper.score, 3),
        "shares": list(paper.shares),
    }


def run_related(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman related ID [--limit N]``."""
    source = service.paper(args.id)  # NotFoundError (exit status 2) when there is none
    found = service.related(args.id, args.limit)
    if args.json:
        write_json(out, [related_to_json(p) for p in found])
        return 0
    width = terminal_width() - 9
    if not found:
        out.write(
            f"No paper shares the distinctive words of #{source.id} "
            f"“{truncate(source.title, width - 40)}”.\n"
        )
        return 0
    lines = [f"Related to #{source.id} “{truncate(source.title, width - 14)}”:"]
    for paper in found:
        lines.append(f"{paper.id:>7}  {truncate(paper.title, width)}")
        lines.append(f"{'':>7}  shares: {truncate(', '.join(paper.shares), width - 8)}")
    out.write("".join(line + "\n" for line in lines))
    return 0
