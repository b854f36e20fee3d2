"""``refman check``: is the library file whole?"""

from __future__ import annotations

import argparse
from typing import TextIO

from refman.cli.output import write_json
from refman.common.errors import DAMAGED_HINT, LibraryUnavailableError
from refman.core.library import LibraryService

#: The keys of ``refman check --json``.
CHECK_KEYS = ("library", "full", "ok", "problems")


def run_check(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman check [--full]``: SQLite's quick check (or its full integrity check) of
    the library file. A damaged library exits 2 with what is wrong and what to do."""
    problems = service.file.check(full=args.full)
    if args.json:
        write_json(
            out,
            {
                "library": service.location,
                "full": bool(args.full),
                "ok": not problems,
                "problems": problems,
            },
        )
        return 2 if problems else 0
    if problems:
        shown = "; ".join(problems[:3]) + ("; …" if len(problems) > 3 else "")
        raise LibraryUnavailableError(
            f"The library “{service.location}” is damaged: {shown}.", DAMAGED_HINT
        )
    what = "integrity check" if args.full else "quick check"
    out.write(f"The library {service.location} is whole ({what}: ok).\n")
    return 0
