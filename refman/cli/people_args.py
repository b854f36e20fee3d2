"""The arguments of ``refman people``, ``person``, ``merge-people`` and ``not-same`` (kept
apart from the commands, which load the library service: building the parser stays light)."""

from __future__ import annotations

import argparse

from refman.cli.argv import how_many
from refman.cli.argv import paper_id as number
from refman.core.people import PEOPLE_SHOWN

#: Each command: its one-line help, its description and its examples.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "people": (
        "list the people of the library: authors and page owners",
        "List every person with papers in the library, the most papers first: authors, and "
        "the owners of the pages imported (with how many pages, and how many papers the last "
        "import of their page added that nobody has looked at). NAME narrows the list to "
        "names containing it, accents and case ignored. --variants lists spellings that may "
        "be one person instead.",
        "  refman people\n  refman people jiang --json\n  refman people --variants",
    ),
    "person": (
        "show a person's page: papers, pages imported, co-authors",
        "Show a person: how many papers, the pages imported for them and when, their "
        "co-authors ranked by shared papers, and other spellings of their name that may be "
        "the same person. (refman list --person ID lists their papers.)",
        "  refman person 4\n  refman person 4 --json",
    ),
    "merge-people": (
        "make two spellings of a name one person",
        "Merge OTHER into KEEP: OTHER's papers and pages become KEEP's, and a page that "
        "brings OTHER's spelling again means KEEP. A merge made by this command cannot "
        "be undone (the window's Edit ▸ Undo takes back only what was done in the window).",
        "  refman merge-people 4 9          Zhuo Jiang (4) and Z. Jiang (9) are one person",
    ),
    "not-same": (
        "say two people with alike names are not the same person",
        "Record that two people are different people: refman no longer proposes them as "
        "one (refman people --variants).",
        "  refman not-same 4 11",
    ),
}


#: What ``--json`` prints, for the commands that have it.
JSON = {
    "people": "the people",
    "person": "the page",
    "merge-people": "what changed",
    "not-same": "what changed",
}


def add_arguments(command: str, p: argparse.ArgumentParser) -> None:
    """The arguments of one of :data:`COMMANDS` (``--json`` is added by the parser)."""
    if command == "people":
        p.add_argument(
            "name", nargs="?", default="", metavar="NAME", help="only names containing this"
        )
        p.add_argument(
            "--limit",
            type=how_many,
            default=None,
            metavar="N",
            help=f"at most N people (default: {PEOPLE_SHOWN:,}; every person with --json)",
        )
        p.add_argument("--variants", action="store_true", help="spellings that may be one person")
    elif command == "person":
        p.add_argument("id", type=number, metavar="ID", help="the person's id (see refman people)")
    elif command == "merge-people":
        p.add_argument("keep", type=number, metavar="KEEP", help="the person to keep")
        p.add_argument("other", type=number, metavar="OTHER", help="the person merged into KEEP")
    else:
        p.add_argument("first", type=number, metavar="ID", help="a person's id")
        p.add_argument("second", type=number, metavar="ID", help="the other person's id")
