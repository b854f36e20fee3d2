"""The changing commands: ``tag``, ``untag``, ``note``, ``edit``, ``trash``, ``restore`` and
``empty-trash``. Each is one transaction of the library service."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from refman.cli.output import plural
from refman.common.errors import InvalidValueError
from refman.core.editing import clean_tag_name
from refman.core.library import LibraryService

__all__ = [
    "parse_year",
    "run_edit",
    "run_empty_trash",
    "run_note",
    "run_restore",
    "run_tag",
    "run_trash",
    "run_untag",
]


def _quoted(names: list[str]) -> str:
    return ", ".join(f"“{name}”" for name in names)


def _say(out: TextIO, line: str) -> int:
    out.write(line + "\n")
    return 0


def run_tag(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman tag ID TAG...``."""
    names = list(dict.fromkeys(clean_tag_name(name) for name in args.tags))
    service.tag([args.id], names)
    return _say(out, f"Tagged #{args.id} with {_quoted(names)}.")


def run_untag(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman untag ID TAG...`` (a tag the paper does not carry is reported)."""
    names = list(dict.fromkeys(" ".join(name.split()) for name in args.tags))
    had = {tag.name.casefold(): tag.name for tag in service.paper(args.id).tags}
    removed = [had[n.casefold()] for n in names if n.casefold() in had]
    missing = [n for n in names if n.casefold() not in had]
    if removed:
        service.untag([args.id], removed)
        _say(out, f"Removed {_quoted(removed)} from #{args.id}.")
    if missing:
        _say(out, f"#{args.id} has no tag {_quoted(missing)}.")
    return 0


def run_note(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman note ID TEXT``: add a note and print its id."""
    text = " ".join(args.text).strip()
    if not text:
        raise InvalidValueError("A note cannot be empty.", "Type the note's text.")
    note = service.add_note(args.id, text)
    return _say(out, f"Added note #{note.id} to #{args.id}.")


def parse_year(text: str) -> int | None:
    """A year given on the command line; the empty text clears the year.

    Raises:
        InvalidValueError: The text is not a whole number.
    """
    value = text.strip()
    if not value:
        return None
    if not value.isdigit():
        raise InvalidValueError(
            f"“{text}” is not a year.", 'Type a year such as 2024, or "" to clear it.'
        )
    return int(value)


def run_edit(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman edit ID [--title T] [--year Y] [--venue V]``."""
    changes: dict[str, Any] = {}
    if args.title is not None:
        changes["title"] = args.title
    if args.year is not None:
        changes["year"] = parse_year(args.year)
    if args.venue is not None:
        changes["venue"] = args.venue.strip() or None
    if not changes:
        raise InvalidValueError(
            "Nothing to change.", "Give --title, --year or --venue (see refman edit --help)."
        )
    service.paper(args.id)  # a missing paper is reported before a bad value
    service.edit_fields(args.id, **changes)
    names = list(changes)
    what = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return _say(out, f"Changed the {what} of #{args.id}.")


def run_trash(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman trash ID...``."""
    ids = list(dict.fromkeys(args.ids))
    moved = sorted(service.trash(ids).papers)
    already = [i for i in ids if i not in moved]
    lines = []
    if moved:
        lines.append(f"Moved {plural(len(moved), 'paper')} to the Trash ({_ids(moved)}).")
    if already:
        lines.append(f"Already in the Trash: {_ids(already)}.")
    return _say(out, " ".join(lines))


def run_restore(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman restore ID...``."""
    ids = list(dict.fromkeys(args.ids))
    restored = sorted(service.restore(ids).papers)
    already = [i for i in ids if i not in restored]
    lines = []
    if restored:
        lines.append(
            f"Restored {plural(len(restored), 'paper')} from the Trash ({_ids(restored)})."
        )
    if already:
        lines.append(f"Not in the Trash: {_ids(already)}.")
    return _say(out, " ".join(lines))


def run_empty_trash(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman empty-trash``."""
    count = service.empty_trash()
    if not count:
        return _say(out, "The Trash is already empty.")
    return _say(out, f"Deleted {plural(count, 'paper')} for good.")


def _ids(ids: list[int]) -> str:
    return ", ".join(f"#{i}" for i in ids)
