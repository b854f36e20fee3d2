"""The arguments of the commands on papers' files: ``refman attach``, ``detach``,
``locate`` and ``open`` (kept apart from the commands, which load the library service:
building the parser stays light)."""

from __future__ import annotations

import argparse

from refman.cli.argv import paper_id

#: Each command: its one-line help, its description and its examples.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "attach": (
        "attach files (PDFs or any file) to a paper",
        "Attach files to a paper. Each is copied into the library's storage folder (beside "
        "the library file, one folder per paper), so the library and its files move "
        "together; with --link it stays where it is and the paper keeps its place.",
        "  refman attach 12 ~/Downloads/2401.01234.pdf\n"
        "  refman attach 12 slides.pdf data.csv --link",
    ),
    "detach": (
        "take a file off a paper",
        "Take a file off a paper (by its name or number in “refman show ID”). A stored file "
        "is kept until the Trash is emptied; a linked file is never touched.",
        "  refman detach 12 slides.pdf",
    ),
    "locate": (
        "say where a paper's missing file is now",
        "Point a paper's missing file (by its name or number in “refman show ID”) at where "
        "it is now, as Locate… does in the window: a linked file is linked there, a stored "
        "file is copied back into its place in the storage folder. Its text is read into "
        "the search again when it changed.",
        "  refman locate 12 paper.pdf ~/Downloads/paper.pdf",
    ),
    "index-files": (
        "read the text of attached PDFs into the search",
        "Read the text of every attached PDF not read yet (or changed since) into the "
        "library's search, each in a worker process bounded in time and memory; refman "
        "attach does it for the files it attaches, the window in the background. Search "
        "it with refman search --everything.",
        "  refman index-files\n  refman search --everything 'gradient checkpointing'",
    ),
    "open": (
        "open a paper's file with the system's viewer",
        "Open a paper's first file (or the one named) with the program the system opens "
        "such files with (REFMAN_OPEN_WITH names another program); a paper without files: "
        "its DOI, arXiv page or link, in the browser.",
        "  refman open 12\n  refman open 12 --file slides.pdf",
    ),
}

#: What ``--json`` prints, for the commands that have it.
JSON = {
    "attach": "the attached files",
    "detach": "what changed",
    "locate": "what changed",
    "index-files": "what was read",
}


def add_arguments(command: str, p: argparse.ArgumentParser) -> None:
    """The arguments of one of :data:`COMMANDS` (``--json`` is added by the parser)."""
    if command == "index-files":
        return
    p.add_argument("id", type=paper_id, metavar="ID", help="the paper's id (see refman list)")
    if command == "attach":
        p.add_argument("files", nargs="+", metavar="FILE", help="the files")
        p.add_argument(
            "--link", action="store_true", help="leave the files where they are (not copied)"
        )
    elif command in ("detach", "locate"):
        p.add_argument("file", metavar="FILE", help="the file's name, or its number (1, 2…)")
    if command == "locate":
        p.add_argument("found", metavar="PATH", help="where the file is now")
    elif command == "open":
        p.add_argument("--file", metavar="FILE", help="the file's name, or its number (1, 2…)")
