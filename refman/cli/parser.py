"""The argument parser of ``refman``: global options and one sub-parser per command.

Each sub-parser stores its handler's name in ``args.command``; :mod:`refman.cli` looks the
handler up. ``--db`` and ``-v`` are accepted both before and after the command name.
"""

from __future__ import annotations

import argparse
from importlib import import_module
from typing import Any

from refman import __version__
from refman.cli import adding_args, cite_cmd, export_cmd, list_args
from refman.cli.argv import library_arg, paper_id
from refman.cli.parsing import Commands, Formatter, RefmanParser
from refman.core.rules import RATING_MAX, READING_STATUSES

__all__ = ["build_parser", "paper_id"]

_MAIN_EPILOG = """\
Without a command, refman opens its window.

examples:
  refman                                  open the window on the default library
  refman import zhuo.txt kaihua.txt       import two saved author pages
  refman list --search "language model"   find papers
  refman show 12                          everything about paper #12
  refman --db ~/work.sqlite list          use another library

The library is --db when given, else the REFMAN_DB environment variable, else the default
library in your data folder. --db takes a file path or an SQLAlchemy URL.
Run "refman COMMAND --help" for the options of a command.
"""

_IMPORT_EPILOG = """\
Each file is imported on its own: a file that cannot be read or is not an author page is
reported on stderr and skipped, and the other files are still imported (the exit status is
then 2). A paper already in the library is never added twice: the page's details are merged
into it. A near-identical paper (a possible duplicate) is merged too, unless --keep-separate
or its title differs by a word ("with" / "without") or holds another number, or it is
another title whose abstract differs by words or numbers of its own (one template): then
it is kept separate and marked.
Papers with different DOIs or arXiv ids are never merged.

examples:
  refman import zhuo.txt                  import a saved author page
  refman import *.txt --tag systems       import several pages, tagging their papers
  refman import page.txt --dry-run        only report what importing would do
  refman import ~/Zotero/zotero.sqlite    bring in a whole Zotero library
  refman import you@www.mendeley.com.sqlite  bring in a whole Mendeley Desktop library
  pbpaste | refman import -               import a page from the clipboard (macOS)
  refman import --wizard page.txt         review the import in the window first
"""

_LIST_EPILOG = """\
Without --sort, papers are listed newest first, or best match first when searching.
An explicit --sort is ascending unless --desc.

examples:
  refman list                             every paper, newest first
  refman list --tag to-read --sort year --desc
  refman list --section attention         papers that need a look
  refman list --search "MegaScale" --json
  refman list --limit 20 --offset 20      the second page of 20
"""

_SEARCH_EPILOG = """\
Every word must match (the last one as a prefix); "quoted words" match as a phrase.
Titles, abstracts, authors, venues, tags and notes are searched. Fields: author:, owner:,
year:2023..2025, venue:, subject:, tag:, note:; -word leaves out; a OR b is either.

examples:
  refman search megascale
  refman search '"language model" training' --limit 5
  refman search author:jiang year:2024.. -survey
"""


def _json(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--json", action="store_true", help=f"print {what} as JSON")


#: What a command that changes the library prints with ``--json``.
CHANGED = "what changed"


_ID_HELP = "the paper's id (see refman list)"


def _add_import(c: Commands) -> None:
    p = c.add(
        "import",
        "import saved author pages, bibliographies, papers' PDFs or a Zotero or Mendeley library",
        "Import researchers' author pages (saved text files), bibliographies (BibTeX, RIS, "
        "CSL-JSON), papers' PDFs (each PDF's paper is read from it and the file attached), "
        "a Zotero library (its database, zotero.sqlite: items, tags, collections, notes and "
        "files) or a Mendeley Desktop library (its database, …@www.mendeley.com.sqlite).",
        epilog=_IMPORT_EPILOG,
    )
    p.add_argument(
        "files", nargs="+", metavar="FILE", help='an author page file; "-" reads standard input'
    )
    list_args.tag_option(p, "tag every imported paper (repeat for several tags)")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="list each record and what importing would do with it; change nothing",
    )
    p.add_argument(
        "--keep-separate",
        action="store_true",
        help="keep possible duplicates as papers of their own instead of merging them",
    )
    _json(p, "one result object per file, one per line,")
    p.add_argument(
        "--wizard", action="store_true", help="open the import wizard in the window, prefilled"
    )


def _add_reading(c: Commands) -> None:
    p = c.add(
        "list",
        "list papers",
        "List the papers of the library as a table (or JSON).",
        epilog=_LIST_EPILOG,
    )
    list_args.add_list_options(p, search=True)
    p = c.add(
        "search",
        "search papers (same as list --search)",
        "Full-text search of the library, best match first.",
        epilog=_SEARCH_EPILOG,
        command="list",
    )
    p.add_argument("search", nargs="*", metavar="Q", help="what to search for")
    list_args.add_list_options(p, search=False)
    p = c.add(
        "show",
        "show everything about a paper",
        "Show a paper: title, authors, year, venue, subjects, tags, sources, abstract and notes.",
        "  refman show 12\n  refman show 12 --json",
    )
    p.add_argument("id", type=paper_id, metavar="ID", help=_ID_HELP)
    _json(p, "the paper")
    p = c.add(
        "tags",
        "list tags with their paper counts",
        "List every tag with the number of papers (outside the Trash) it is on.",
        "  refman tags\n  refman list --tag to-read   the papers of one tag",
    )
    _json(p, "the tags")


def _add_tagging(c: Commands) -> None:
    for verb, what, says, example in (
        ("tag", "put tags on papers", "Put tags on papers (new tags are created)", "to-read"),
        ("untag", "take tags off papers", "Take tags off papers", "to-read"),
    ):
        p = c.add(
            verb,
            what,
            f"{says}: the papers' ids first, then the tags. A tag that reads as a number "
            "after several ids is given with --tag.",
            f"  refman {verb} 12 {example}\n  refman {verb} 12 15 20 {example} systems\n"
            f"  refman {verb} 12 15 --tag 2024",
        )
        p.add_argument("words", nargs="+", metavar="ID|TAG", help="ids (see refman list), tags")
        p.add_argument(
            "--tag", dest="named", action="append", default=[], metavar="TAG", help="a tag"
        )
        _json(p, CHANGED)
    p = c.add(
        "rename-tag",
        "rename a tag, or merge it into another",
        "Rename a tag on every paper; renaming it to the name of another tag merges the two. "
        "Saved searches filtering by it follow it.",
        '  refman rename-tag to-read "reading list"\n  refman rename-tag ML "machine learning"',
    )
    p.add_argument("tag", metavar="TAG", help="the tag's name")
    p.add_argument("new", metavar="NEW", help="its new name (another tag's: merged into it)")
    _json(p, CHANGED)
    p = c.add(
        "delete-tag", "delete a tag", "Delete a tag from every paper.", "  refman delete-tag old"
    )
    p.add_argument("tag", metavar="TAG", help="the tag's name")
    _json(p, CHANGED)
    p = c.add(
        "note",
        "add a note to a paper",
        "Add a note (Markdown) to a paper; prints its id.",
        '  refman note 12 "Read section 4 again"\n  refman note 12 "Check the proof" --json',
    )
    p.add_argument("id", type=paper_id, metavar="ID", help=_ID_HELP)
    p.add_argument("text", nargs="+", metavar="TEXT", help="the note (words are joined)")
    _json(p, "the note")


def _add_marks(c: Commands) -> None:
    p = c.add(
        "mark",
        "mark papers unread, reading or read",
        "Set the reading status of papers (refman list --section unread lists the unread).",
        "  refman mark 12 13 read\n  refman mark 12 reading",
    )
    p.add_argument("ids", nargs="+", type=paper_id, metavar="ID", help=_ID_HELP)
    p.add_argument("status", type=str.lower, choices=READING_STATUSES, help="the status")
    _json(p, CHANGED)
    p = c.add(
        "rate",
        "give papers 0 to 5 stars",
        "Rate papers from 1 to 5 stars; 0 clears the rating (refman list --sort rating).",
        "  refman rate 12 5\n  refman rate 12 13 0   clear their ratings",
    )
    p.add_argument("ids", nargs="+", type=paper_id, metavar="ID", help=_ID_HELP)
    p.add_argument("stars", type=int, choices=range(RATING_MAX + 1), metavar="STARS", help="0-5")
    _json(p, CHANGED)


def _add_paper_edits(c: Commands) -> None:
    p = c.add(
        "edit",
        "change a paper's fields (title, year, DOI, citation key, ...)",
        "Change a paper's fields by hand. Hand edits are kept when the paper is imported "
        'again. "" clears a field (title, type and citation key cannot be empty).',
        '  refman edit 12 --title "BAMBOO: a force field"\n  refman edit 12 --year 2024\n'
        '  refman edit 12 --venue ""               clear the venue\n'
        "  refman edit 12 --doi 10.1145/3620665.3640411 --type paper-conference\n"
        "  refman edit 12 --citekey jiang2024megascale",
    )
    p.add_argument("id", type=paper_id, metavar="ID", help=_ID_HELP)
    for option, what in adding_args.FIELD_OPTIONS:
        p.add_argument(f"--{option}", metavar=option.upper(), help=what)
    _json(p, CHANGED)
    p = c.add(
        "trash",
        "move papers to the Trash",
        "Move papers to the Trash (see restore).",
        "  refman trash 12 13",
    )
    p.add_argument("ids", nargs="+", type=paper_id, metavar="ID", help=_ID_HELP)
    _json(p, CHANGED)
    p = c.add(
        "restore",
        "bring papers back from the Trash",
        "Bring papers back from the Trash.",
        "  refman restore 12\n  refman list --section trash   see what is in the Trash",
    )
    p.add_argument("ids", nargs="+", type=paper_id, metavar="ID", help=_ID_HELP)
    _json(p, CHANGED)
    p = c.add(
        "empty-trash",
        "delete the papers in the Trash for good",
        "Delete the papers in the Trash for good, or only those whose ids are given (each "
        "must be in the Trash). This cannot be undone.",
        "  refman empty-trash\n  refman empty-trash 12 15   only these two",
    )
    p.add_argument("ids", nargs="*", type=paper_id, metavar="ID", help="a paper in the Trash")
    _json(p, CHANGED)


def _add_merge(c: Commands) -> None:
    p = c.add(
        "merge",
        "merge papers that are one (duplicates)",
        "Merge OTHER into KEEP: OTHER's fields fill in what KEEP lacks (a field edited by "
        "hand is kept), its owners, tags, notes and files join KEEP, and OTHER goes to the "
        "Trash; an import that lists OTHER again finds KEEP, also after empty-trash. Several "
        "OTHERs are merged in turn, as one change (all or none). Papers with different DOIs "
        "or arXiv ids are not merged. A merge made by this command cannot be undone (the "
        "window's Edit ▸ Undo takes back only what was done in the window): try --dry-run first.",
        "  refman merge 12 40 --dry-run       what #12 would gain from #40\n"
        "  refman merge 12 40                 #40 is #12 again: keep #12\n"
        "  refman merge 12 40 41              three copies of one paper: keep #12\n"
        "  refman list --section attention    possible duplicates are listed there",
    )
    p.add_argument("keep", type=paper_id, metavar="KEEP", help="the paper to keep")
    p.add_argument(
        "others", type=paper_id, nargs="+", metavar="OTHER", help="the papers merged into it"
    )
    p.add_argument(
        "--dry-run", action="store_true", help="say what KEEP would gain; change nothing"
    )
    _json(p, "what was merged")


def _add_screenshot(c: Commands) -> None:
    p = c.add(
        "screenshot",
        "render the main window to a PNG",
        "Render the main window in a given state to a PNG file, without a display "
        "(the offscreen platform is used when there is no screen).",
        "  refman screenshot window.png\n"
        "  refman screenshot window.png --size 1400x900 --select 12\n"
        '  refman screenshot search.png --search "language model"\n'
        "  refman screenshot tagged.png --tag systems --tag to-read\n"
        "  refman screenshot person.png --person 3",
    )
    p.add_argument("out", metavar="OUT.png", help="the PNG file to write")
    p.add_argument("--size", default="1400x900", help="window size, WIDTHxHEIGHT (1400x900)")
    p.add_argument("--select", type=paper_id, metavar="ID", help="select this paper")
    p.add_argument("--search", metavar="Q", help="type this in the search field")
    p.add_argument("--person", type=paper_id, metavar="ID", help="show a person's page")
    list_args.tag_option(p, "filter by a tag (repeat: all of them)")


def _add_export(c: Commands) -> None:
    p = c.add(
        "export",
        "export papers as BibTeX, BibLaTeX, RIS, CSL-JSON or CSV",
        export_cmd.DESCRIPTION,
        epilog=export_cmd.EPILOG,
    )
    export_cmd.add_arguments(p, paper_id)


def _add_citing(c: Commands) -> None:
    p = c.add(
        "cite",
        "print papers' bibliography entries in a citation style",
        cite_cmd.CITE_DESCRIPTION,
        epilog=cite_cmd.CITE_EPILOG,
    )
    cite_cmd.add_cite_arguments(p, paper_id)
    p = c.add(
        "styles",
        "list the citation styles",
        cite_cmd.STYLES_DESCRIPTION,
        "  refman styles\n  refman styles --json\n  refman styles --languages",
    )
    cite_cmd.add_styles_arguments(p)


def _add_described(c: Commands, commands: Any, json_what: dict[str, str]) -> None:
    """The commands a module of arguments describes (``safety_args``, ``people_args``)."""
    for name, (help_text, description, examples) in commands.COMMANDS.items():
        p = c.add(name, help_text, description, examples)
        commands.add_arguments(name, p)
        if name in json_what:
            _json(p, json_what[name])


def build_parser() -> argparse.ArgumentParser:
    """The parser of the whole command line."""
    parser = RefmanParser(
        prog="refman",
        formatter_class=Formatter,
        description="refman: a reference manager that imports researchers' author pages "
        "without ever creating duplicates.",
        epilog=_MAIN_EPILOG,
    )
    parser.add_argument(
        "--db", type=library_arg, metavar="DB", help="the library: a file path or an SQLAlchemy URL"
    )
    parser.add_argument("--version", action="version", version=f"refman {__version__}")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="also print log messages to stderr"
    )
    parser.set_defaults(command=None)
    commands = Commands(parser.add_subparsers(title="commands", metavar="COMMAND"))
    for add in (
        _add_import,
        lambda c: _add_described(c, adding_args, adding_args.JSON),
        _add_reading,
        _add_tagging,
        _add_paper_edits,
        _add_merge,
        _add_marks,
        _add_screenshot,
    ):
        add(commands)
    _add_export(commands)
    _add_citing(commands)
    for name in ("people", "history", "finding", "files", "safety"):
        described = import_module(f"refman.cli.{name}_args")  # each module's commands
        _add_described(commands, described, described.JSON)
    return parser
