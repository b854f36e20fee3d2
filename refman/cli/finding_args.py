"""The arguments of the commands that find papers: ``refman searches``, ``save-search``,
``delete-search`` and ``related`` (kept apart from the commands, which load the library
service: building the parser stays light)."""

from __future__ import annotations

import argparse

from refman.cli.argv import how_many, paper_id

#: Each command: its one-line help, its description and its examples.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "searches": (
        "list the saved searches with how many papers each finds",
        "List the saved searches (smart collections), by name: the search, the tags, and how "
        "many papers each finds now. refman list --saved NAME lists the papers.",
        "  refman searches\n  refman searches --json\n  refman list --saved 'Recent work'",
    ),
    "save-search": (
        "save a search and a tag filter under a name",
        "Keep a search line (with its syntax: author:, year:2023..2025, -word, OR…) and tags "
        "under a name; it is listed in the window's sidebar with its live count. Saving under "
        "a name that exists changes that saved search.",
        "  refman save-search 'Recent work' --search 'author:jiang year:2024..'\n"
        "  refman save-search 'Reading list' --tag 'to read' --tag thesis --any-tag",
    ),
    "delete-search": (
        "delete a saved search",
        "Delete a saved search (by name or id). The papers it finds are not touched.",
        "  refman delete-search 'Recent work'",
    ),
    "related": (
        "list the papers most related to one, and why",
        "List the five papers of the library most related to one, by the most distinctive "
        "words of its title and abstract (the rarer a word in the library, the more it "
        "counts), each with the words it shares.",
        "  refman related 12\n  refman related 12 --limit 10 --json",
    ),
}

#: What ``--json`` prints, for the commands that have it.
JSON = {
    "searches": "the saved searches",
    "save-search": "the saved search",
    "related": "the related papers",
    "delete-search": "what changed",
}


def add_arguments(command: str, p: argparse.ArgumentParser) -> None:
    """The arguments of one of :data:`COMMANDS` (``--json`` is added by the parser)."""
    if command == "save-search":
        p.add_argument("name", metavar="NAME", help="the saved search's name")
        p.add_argument("--search", default="", metavar="Q", help="the search line")
        p.add_argument(
            "--tag", action="append", default=[], dest="tags", metavar="TAG", help="a tag"
        )
        p.add_argument(
            "--any-tag", action="store_true", dest="any_tags", help="any of the tags will do"
        )
    elif command == "delete-search":
        p.add_argument("name", metavar="NAME", help="the saved search's name or id")
    elif command == "related":
        p.add_argument("id", type=paper_id, metavar="ID", help="the paper's id (see refman list)")
        p.add_argument(
            "--limit", type=how_many, default=5, metavar="N", help="how many (default: 5)"
        )
