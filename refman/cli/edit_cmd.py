"""The changing commands: ``tag``, ``untag``, ``rename-tag``, ``delete-tag``, ``note``,
``edit``, ``mark``, ``rate``, ``trash``, ``restore``, ``empty-trash`` and ``merge``. Each is
one operation of the library service, the same the window uses; with ``--json`` each prints
what it changed (:func:`~refman.cli.output.change_to_json`; ``note`` and ``merge``: objects
of their own)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any, TextIO

from refman.cli.argv import papers_and_tags
from refman.cli.output import change_to_json, note_to_json, write_json
from refman.common.errors import InvalidValueError
from refman.common.text import join_words, plural
from refman.core.context import no_paper
from refman.core.library import LibraryService
from refman.core.merge_several import MergeSeveral
from refman.core.operations import (
    AddNote,
    EditPaper,
    EmptyTrash,
    RestorePapers,
    TagPapers,
    TrashPapers,
)
from refman.core.rules import FieldEdits, clean_tag_names, parse_year, stars, tag_key
from refman.core.tags_left import tags_gone_text

__all__ = [
    "run_delete_tag",
    "run_edit",
    "run_empty_trash",
    "run_mark",
    "run_note",
    "run_rate",
    "run_rename_tag",
    "run_restore",
    "run_tag",
    "run_trash",
    "run_untag",
]


def _quoted(names: list[str] | tuple[str, ...]) -> str:
    return ", ".join(f"“{name}”" for name in names)


def _say(out: TextIO, line: str) -> int:
    out.write(line + "\n")
    return 0


def _changed(out: TextIO, changed: Iterable[int], named: Iterable[int] = (), **own: Any) -> int:
    """Print what a change did, as JSON (``--json``)."""
    write_json(out, change_to_json(changed, named, **own))
    return 0


def run_tag(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman tag ID... TAG...`` (:func:`~refman.cli.argv.papers_and_tags`;
    ``--json``: with ``tags``, the tags given, as the library names them: a name typed in
    another case is its tag's)."""
    ids, tags = papers_and_tags(args.words, args.named, "tag")
    op = TagPapers(tuple(ids), tuple(tags))
    changed = service.apply(op).changes.papers
    held = {tag_key(name): name for name in service.tag_names()}
    names = [held.get(tag_key(name), name) for name in op.names]
    if args.json:
        return _changed(out, changed, op.paper_ids, tags=names)
    if len(ids) == 1:
        return _say(out, f"Tagged #{ids[0]} with {_quoted(names)}.")
    done = f"Tagged {{papers}} with {_quoted(names)} ({{ids}})."
    return _marked(out, ids, tuple(changed), done, "Already tagged so")


def run_untag(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman untag ID... TAG...`` (a tag none of the papers carries is reported;
    ``--json``: with ``tags``, those taken off, and ``absent``, those they did not carry)."""
    ids, tags = papers_and_tags(args.words, args.named, "untag")
    names = clean_tag_names(tags)
    details = service.details(ids)
    if absent := sorted(set(ids) - {d.id for d in details}):
        raise no_paper(absent[0])
    had = {tag_key(t.name): t.name for d in details for t in d.tags}
    removed = [had[tag_key(n)] for n in names if tag_key(n) in had]
    missing = [n for n in names if tag_key(n) not in had]
    changed = service.untag(ids, removed).changes.papers if removed else frozenset()
    if args.json:
        return _changed(out, changed, ids, tags=removed, absent=missing)
    if removed:
        _say(out, f"Removed {_quoted(removed)} from {_ids(sorted(changed))}.")
    if missing:
        whose = f"#{ids[0]} has" if len(ids) == 1 else f"{_ids(ids)} have"
        _say(out, f"{whose} no tag {_quoted(missing)}.")
    return 0


def _tag_named(service: LibraryService, name: str) -> str:
    """The name of the library's tag ``name`` (in any case).

    Raises:
        NotFoundError: There is no such tag (the error names the tags like it).
    """
    service.require_tags([name])
    return next(tag for tag in service.tag_names() if tag_key(tag) == tag_key(name))


def run_rename_tag(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman rename-tag TAG NEW`` (``--json``: with ``tag``, its name before,
    ``to``, the name it has now or the tag it went into, and ``merged``)."""
    old = _tag_named(service, args.tag)
    new = clean_tag_names([args.new])[0]
    held = {tag_key(name): name for name in service.tag_names()}
    merged = tag_key(new) != tag_key(old) and tag_key(new) in held
    to = held[tag_key(new)] if merged else new
    shown = _listed(service, old)
    changed = service.rename_tag(old, new).changes.papers
    if args.json:
        return _changed(out, changed, tag=old, to=to, merged=merged)
    if old == to:
        return _say(out, f"The tag is named “{old}” already.")
    verb = f"Merged the tag “{old}” into" if merged else f"Renamed the tag “{old}” to"
    return _say(out, f"{verb} “{to}” ({_papers(len(changed), shown)}).")


def _listed(service: LibraryService, name: str) -> int:
    """How many papers outside the Trash carry a tag (the count ``refman tags`` shows)."""
    return next((tag.count for tag in service.tags() if tag.name == name), 0)


def _papers(changed: int, listed: int) -> str:
    """ "3 papers", "1 paper, and 2 in the Trash" or "2 papers in the Trash": as ``refman
    tags`` counts them."""
    trashed = changed - listed
    if trashed <= 0:
        return plural(changed, "paper")
    if not listed:
        return f"{plural(trashed, 'paper')} in the Trash"
    return f"{plural(listed, 'paper')}, and {trashed:,} in the Trash"


def run_delete_tag(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman delete-tag TAG`` (``--json``: with ``tag``, the tag deleted)."""
    name = _tag_named(service, args.tag)
    shown = _listed(service, name)
    changed = service.delete_tag(name).changes.papers
    if args.json:
        return _changed(out, changed, tag=name)
    return _say(out, f"Deleted the tag “{name}” (it was on {_papers(len(changed), shown)}).")


def run_note(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman note ID TEXT``: add a note and print its id (``--json``: the note, as
    in a paper's ``notes``, with ``paper``: the paper's id)."""
    text = " ".join(args.text).strip()
    if not text:
        raise InvalidValueError("A note cannot be empty.", "Type the note's text.")
    note = service.apply(AddNote(args.id, text)).value
    if args.json:
        write_json(out, {**note_to_json(note), "paper": note.paper_id})
        return 0
    return _say(out, f"Added note #{note.id} to #{args.id}.")


#: ``refman edit`` options and the fields they set ("" clears a field).
EDIT_OPTIONS = {
    "title": "title",
    "year": "year",
    "venue": "venue",
    "type": "type",
    "citekey": "citekey",
    "doi": "doi",
    "arxiv": "arxiv_id",
    "url": "url",
    "volume": "volume",
    "issue": "issue",
    "pages": "pages",
    "publisher": "publisher",
}


def _edits(args: argparse.Namespace) -> FieldEdits:
    """The fields ``refman edit`` was given ("" clears a field that may be empty).

    Raises:
        InvalidValueError: Nothing to change, or a value breaks its field's rule.
    """
    given = {
        name: getattr(args, option)
        for option, name in EDIT_OPTIONS.items()
        if getattr(args, option) is not None
    }
    if not given:
        options = ", ".join(f"--{o}" for o in EDIT_OPTIONS)
        raise InvalidValueError("Nothing to change.", f"Give one of {options} (see --help).")
    if "year" in given:
        given["year"] = parse_year(given["year"])
    return FieldEdits(**given)


def run_edit(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman edit ID [--title T] [--year Y] [--venue V]`` (``--json``: with
    ``fields``, the fields given, named as in a paper's JSON)."""
    service.paper(args.id)  # a missing paper is reported before a bad value
    edits = _edits(args)
    changes = service.apply(EditPaper(args.id, edits)).changes
    if args.json:
        return _changed(out, changes.papers, [args.id], fields=list(edits.names()))
    fields = join_words(edits.labels())
    if args.id not in changes.papers:  # (the values it has already)
        return _say(out, f"The {fields} of #{args.id} {_are(edits)} already so: nothing changed.")
    return _say(out, f"Changed the {fields} of #{args.id}.")


def _are(edits: FieldEdits) -> str:
    return "is" if len(edits.names()) == 1 else "are"


def _ids(ids: list[int] | tuple[int, ...]) -> str:
    return ", ".join(f"#{i}" for i in ids)


def _move(
    args: argparse.Namespace,
    service: LibraryService,
    out: TextIO,
    op: TrashPapers | RestorePapers,
    texts: tuple[str, str],
) -> int:
    """Trash or restore papers, saying which moved and which were already where they go
    (``texts``: what is said of each)."""
    outcome = service.apply(op)
    if args.json:
        return _changed(out, outcome.changes.papers, op.paper_ids)
    done, not_done = texts
    moved = sorted(outcome.value)
    stayed = [i for i in op.paper_ids if i not in moved]
    lines = []
    if moved:
        lines.append(done.format(papers=plural(len(moved), "paper"), ids=_ids(moved)))
    if stayed:
        lines.append(f"{not_done}: {_ids(stayed)}.")
    return _say(out, " ".join(lines))


def _marked(out: TextIO, ids: list[int], changed: tuple[int, ...], done: str, already: str) -> int:
    """Say which papers changed and which already were so."""
    moved = sorted(changed)
    stayed = [i for i in ids if i not in changed]
    lines = [done.format(papers=plural(len(moved), "paper"), ids=_ids(moved))] if moved else []
    if stayed:
        lines.append(f"{already}: {_ids(stayed)}.")
    return _say(out, " ".join(lines))


def run_mark(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman mark ID... unread|reading|read`` (``--json``: with ``status``)."""
    outcome = service.mark(args.ids, status=args.status)
    if args.json:
        return _changed(out, outcome.changes.papers, args.ids, status=args.status)
    changed = outcome.value
    done = f"Marked {{papers}} as {args.status} ({{ids}})."
    return _marked(out, args.ids, changed, done, f"Already {args.status}")


def run_rate(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman rate ID... STARS`` (0 clears the rating; ``--json``: with ``rating``)."""
    outcome = service.mark(args.ids, rating=args.stars)
    if args.json:
        return _changed(out, outcome.changes.papers, args.ids, rating=args.stars)
    changed = outcome.value
    if not args.stars:
        return _marked(out, args.ids, changed, "Cleared the rating of {papers} ({ids}).", "Unrated")
    shown = stars(args.stars)
    return _marked(
        out, args.ids, changed, f"Rated {{papers}} {shown} ({{ids}}).", f"Already {shown}"
    )


def run_trash(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman trash ID...``."""
    op = TrashPapers(tuple(args.ids))
    texts = ("Moved {papers} to the Trash ({ids}).", "Already in the Trash")
    return _move(args, service, out, op, texts)


def run_restore(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman restore ID...``."""
    op = RestorePapers(tuple(args.ids))
    texts = ("Restored {papers} from the Trash ({ids}).", "Not in the Trash")
    return _move(args, service, out, op, texts)


def run_empty_trash(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman empty-trash [ID...]`` (the papers given only, each in the Trash;
    ``--json``: ``changed``, the papers deleted for good)."""
    emptied = service.apply(EmptyTrash(tuple(dict.fromkeys(args.ids)))).value
    deleted = emptied.papers
    if args.json:  # (with the tags deleted with them: no paper carries them any more)
        return _changed(out, deleted, tags_deleted=list(emptied.tags))
    count = len(deleted)
    if not count:
        return _say(out, "The Trash is already empty.")
    which = f" ({_ids(sorted(deleted))})" if args.ids else ""
    tags = f" {tags_gone_text(emptied.tags)}" if emptied.tags else ""
    return _say(out, f"Deleted {plural(count, 'paper')} for good{which}.{tags}")


def run_merge(args: argparse.Namespace, service: LibraryService, out: TextIO) -> int:
    """Run ``refman merge KEEP OTHER...``."""
    op = MergeSeveral(args.keep, tuple(args.others), args.dry_run)
    result = service.apply(op).value
    if args.json:
        keys = {"kept": result.kept, "merged": result.merged, "added": result.added}
        write_json(out, {**keys, "dry_run": result.dry_run, "merged_all": result.others})
        return 0
    title = service.paper(result.kept).title
    merged = join_words([f"#{i}" for i in result.others])
    if result.dry_run:
        gains = join_words(list(result.added)) or "nothing it lacks"
        return _say(out, f"Merging {merged} into #{result.kept} “{title}” would add {gains}.")
    gained = f" It gained {join_words(list(result.added))}." if result.added else ""
    where = "is" if len(result.others) == 1 else "are"
    return _say(
        out,
        f"Merged {merged} into #{result.kept} “{title}”.{gained} {merged} {where} in the Trash.",
    )
