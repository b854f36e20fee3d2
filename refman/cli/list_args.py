"""The options of ``refman list`` and ``refman search``: which papers, in which order."""

from __future__ import annotations

import argparse

from refman.cli.argv import count, paper_id
from refman.core.values import Section, SortKey


def tag_option(p: argparse.ArgumentParser, help_text: str) -> None:
    """A repeatable ``--tag TAG`` option, collected in ``args.tags``."""
    p.add_argument("--tag", action="append", default=[], metavar="TAG", dest="tags", help=help_text)


def section_option(p: argparse.ArgumentParser, verb: str) -> None:
    """``--section``: a library section (``verb``: what a command does with the Trash)."""
    p.add_argument(
        "--section",
        choices=[s.value for s in Section],
        default=Section.ALL.value,
        help=f"library section (default: all; trash {verb} the Trash)",
    )


def add_list_options(p: argparse.ArgumentParser, *, search: bool) -> None:
    """The options that choose and order the papers listed (``--json`` included)."""
    if search:
        p.add_argument("--search", default="", metavar="Q", help="full-text search")
    p.add_argument(
        "--everything",
        action="store_true",
        help="search the text of the papers' PDFs too (refman index-files reads it)",
    )
    tag_option(p, "only papers with this tag (repeat: all of them)")
    section_option(p, "lists")
    p.add_argument(
        "--person", type=paper_id, metavar="ID", help="only this person's papers (refman people)"
    )
    p.add_argument("--saved", metavar="NAME", help="the papers a saved search finds")
    p.add_argument("--sort", choices=[k.value for k in SortKey], help="sort order")
    p.add_argument("--desc", action="store_true", help="reverse the sort order")
    p.add_argument("--limit", type=count, metavar="N", help="show at most N papers")
    p.add_argument("--offset", type=count, default=0, metavar="N", help="skip the first N")
    p.add_argument("--json", action="store_true", help="print the full paper objects as JSON")
