"""The arguments of ``refman add`` (kept apart from the command, which loads the library
service: building the parser stays light), and the field options it shares with
``refman edit``."""

from __future__ import annotations

import argparse

from refman.cli import list_args
from refman.core.rules import ITEM_TYPES

#: The options of ``refman edit`` and ``refman add``: a paper's fields, with their help.
FIELD_OPTIONS = (
    ("title", "the title"),
    ("year", "the year"),
    ("venue", "the venue (journal, conference, arXiv)"),
    ("type", "the type: " + ", ".join(ITEM_TYPES)),
    ("citekey", "the citation key (must be free)"),
    ("doi", "the DOI (10.… or a doi.org link)"),
    ("arxiv", "the arXiv id (2402.15627, cs/0112017)"),
    ("url", "a link to the paper"),
    ("volume", "the volume"),
    ("issue", "the issue (number)"),
    ("pages", "the pages (123-134)"),
    ("publisher", "the publisher"),
)

#: Each command: its one-line help, its description and its examples.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "add": (
        "add a paper by hand (a book, a paper no page lists)",
        "Add a paper by typing its title, authors and fields. A paper the library holds "
        "already (same DOI, arXiv id or title) is not added twice: what you typed fills in "
        "what it lacked. Like any import, it is in refman history and can be reverted.",
        '  refman add "The Art of Computer Programming" --author "Donald E. Knuth" \\\n'
        "      --year 1968 --type book --publisher Addison-Wesley\n"
        '  refman add "Attention Is All You Need" --author "Ashish Vaswani et al." '
        "--arxiv 1706.03762",
    ),
}

#: What ``--json`` prints.
JSON = {"add": "what changed"}


def add_arguments(command: str, p: argparse.ArgumentParser) -> None:
    """The arguments of ``refman add`` (``--json`` is added by the parser)."""
    assert command == "add"
    p.add_argument("title", metavar="TITLE", help="the paper's title")
    p.add_argument(
        "--author",
        metavar="AUTHORS",
        default="",
        help='the authors: "Ann Smith, Bob Jones and Carol White", or as BibTeX writes them, '
        '"Smith, Ann and Jones, Bob" ("et al." or "and others" when incomplete)',
    )
    for option, what in FIELD_OPTIONS[1:]:
        p.add_argument(f"--{option}", metavar=option.upper(), help=what)
    list_args.tag_option(p, "tag the paper (repeat for several tags)")
