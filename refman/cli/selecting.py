"""Which papers ``refman export`` and ``refman cite`` act on: ids given, or those that
``--search``, ``--tag`` and ``--section`` select (in list order), never both."""

from __future__ import annotations

import argparse
import sys

from refman.cli.list_args import section_option, tag_option
from refman.cli.terminal import safe
from refman.common.errors import RefmanError
from refman.common.text import join_words
from refman.core.library import LibraryService
from refman.core.rules import clean_tag_names
from refman.core.values import PaperQuery, Section

__all__ = ["add_selection_options", "filtered", "selected_ids"]


def add_selection_options(p: argparse.ArgumentParser, verbs: str) -> None:
    """``--search``, ``--tag`` and ``--section`` (``verbs``: what the command does with the
    Trash's papers, "exports")."""
    p.add_argument("--search", default="", metavar="Q", help="only papers matching a search")
    tag_option(p, "only papers with this tag (repeat: all of them)")
    section_option(p, verbs)
    p.set_defaults(section=None)  # (all; None tells that no --section was given)


def filtered(args: argparse.Namespace) -> bool:
    """Whether ``--search``, ``--tag`` or ``--section`` chooses the papers."""
    return bool(args.search or args.tags or args.section is not None)


def selected_ids(args: argparse.Namespace, service: LibraryService, command: str) -> list[int]:
    """The papers named: the ids given (each once, in their order), else those the options
    select (every paper outside the Trash when none is given), in list order.

    Raises:
        RefmanError: Both ids and options were given.
        NotFoundError: A ``--tag`` names no tag of the library (not a list of no papers).
    """
    if args.ids and filtered(args):
        raise RefmanError(
            "Give either paper ids or --search/--tag/--section, not both.",
            f'See "refman {command} --help".',
        )
    if args.ids:
        ids = list(dict.fromkeys(args.ids))
        _say_trashed(service.in_trash(ids), command)
        return ids
    query = PaperQuery(
        text=args.search,
        tags=clean_tag_names(args.tags),
        section=Section(args.section or Section.ALL.value),
    )
    service.require_tags(query.tags, query.text)  # a mistyped tag is not a list of no papers
    return service.paper_ids(query)


def _say_trashed(ids: list[int], command: str) -> None:
    """Say on stderr that papers named by id are in the Trash, which ``command`` acts on all
    the same (they were named: as the window exports a paper selected in the Trash)."""
    if not ids:
        return
    shown = join_words([f"#{i}" for i in ids[:5]] + (["others"] if len(ids) > 5 else []))
    are = "is" if len(ids) == 1 else "are"
    done = "exported" if command == "export" else "cited"
    safe(sys.stderr).write(
        f"refman: {shown} {are} in the Trash ({done} all the same; "
        f"“refman restore {' '.join(map(str, ids))}” brings {'it' if len(ids) == 1 else 'them'} "
        "back).\n"
    )
