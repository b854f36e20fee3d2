"""Rendering for the command line: JSON objects and plain-text tables and blocks.

Nothing here touches the library; every function turns plain values
(:mod:`refman.core.values`) into JSON-ready dicts or lines of text. :func:`paper_to_json` is
the one JSON shape of a paper, shared by every part of refman that writes one.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, TextIO

from refman.cli.terminal import truncate, writes_unicode
from refman.common.identifiers import arxiv_url, doi_url
from refman.common.text import plural, squash_spaces
from refman.common.words import size_text
from refman.core.contributors import editor_names
from refman.core.publication_status import publication_status, year_text
from refman.core.rules import ITEM_TYPES, stars
from refman.core.subjects import subject_label
from refman.core.values import FileView, NoteView, PaperDetail, TagView

__all__ = [
    "CHANGE_KEYS",
    "PAPER_KEYS",
    "change_to_json",
    "dumps",
    "note_to_json",
    "paper_text",
    "paper_to_json",
    "tag_to_json",
    "terminal_width",
    "truncate",
    "write_json",
]

#: The keys of a paper in JSON, in output order.
PAPER_KEYS = tuple(
    """
    id title title_provisional authors authors_complete year venue subjects abstract
    attributed_to tags notes added sources type citekey doi arxiv_id url volume issue pages
    publisher version created_by modified_by status rating files merged_into citekey_aliases
    trashed publication_status editors
    """.split()
)
#: The keys of an import that brought a paper (``sources``), of an attached file, in its JSON.
SOURCE_KEYS = ("owner", "file", "imported", "imported_by")
FILE_KEYS = ("id", "name", "path", "pages", "size", "missing", "linked")
#: The keys every command that changes the library starts its JSON object with.
CHANGE_KEYS = ("changed", "unchanged")
_LABEL_WIDTH = 15


def _iso(when: datetime) -> str:
    return when.isoformat()


def paper_to_json(detail: PaperDetail) -> dict[str, Any]:
    """The JSON object of a paper, with exactly the keys of :data:`PAPER_KEYS`.

    Args:
        detail: The paper as the library service reads it.

    Returns:
        A dict of plain JSON values: ``abstract`` is the raw abstract as imported, times are
        ISO 8601 strings, ``authors``, ``attributed_to`` and ``tags`` are lists of names,
        ``subjects`` a list of arXiv codes, ``notes`` a list of ``{"id", "text",
        "modified", "created_by", "modified_by"}`` and ``sources`` a list of ``{"owner",
        "file", "imported", "imported_by"}``.
    """
    return {
        "id": detail.id,
        "title": detail.title,
        "title_provisional": detail.title_provisional,
        "authors": list(detail.authors),
        "authors_complete": detail.authors_complete,
        "year": detail.year,
        "venue": detail.venue,
        "subjects": list(detail.subjects),
        "abstract": detail.abstract,
        "attributed_to": list(detail.attributed_to),
        "tags": [tag.name for tag in detail.tags],
        "notes": [note_to_json(note) for note in detail.notes],
        "added": _iso(detail.added),
        "sources": [
            dict(zip(SOURCE_KEYS, (s.owner, s.file, _iso(s.imported), s.imported_by), strict=True))
            for s in detail.sources
        ],
        "type": detail.type,
        "citekey": detail.citekey,
        "doi": detail.doi,
        "arxiv_id": detail.arxiv_id,
        "url": detail.url,
        "volume": detail.volume,
        "issue": detail.issue,
        "pages": detail.pages,
        "publisher": detail.publisher,
        "version": detail.version,
        "created_by": detail.created_by,
        "modified_by": detail.modified_by,
        "status": detail.status,
        "rating": detail.rating,
        "files": [{k: getattr(f, k) for k in FILE_KEYS} for f in detail.files],
        "merged_into": detail.merged_into,
        "citekey_aliases": list(detail.aliases),
        "trashed": _iso(detail.trashed) if detail.trashed is not None else None,
        "publication_status": publication_status(detail.extra),
        "editors": editor_names(detail.extra),
    }


def note_to_json(note: NoteView) -> dict[str, Any]:
    """The JSON object of a note (in a paper's ``notes``): ``{"id", "text", "modified",
    "created_by", "modified_by"}``."""
    return {
        "id": note.id,
        "text": note.text,
        "modified": _iso(note.modified),
        "created_by": note.created_by,
        "modified_by": note.modified_by,
    }


def tag_to_json(tag: TagView) -> dict[str, Any]:
    """The JSON object of a tag: ``{"name", "colour", "count"}``."""
    return {"name": tag.name, "colour": tag.colour, "count": tag.count}


def change_to_json(changed: Iterable[int], named: Iterable[int] = (), **own: Any) -> dict[str, Any]:
    """The JSON object of a change to the library, the same for every command that makes one
    (:data:`CHANGE_KEYS`, then the command's own keys).

    Args:
        changed: The papers the change touched (its :class:`~refman.core.values.Changes`).
        named: The papers the command was given.
        own: The command's own keys (``tags``, ``status``, ``file``…), in output order.

    Returns:
        ``changed``: the ids of the papers changed, ascending; ``unchanged``: those of the
        papers named that the change left as they were (already in the Trash, already read,
        carrying the tag already…), in the order named; then ``own``.
    """
    ids = sorted(changed)
    done = set(ids)
    kept = [paper for paper in dict.fromkeys(named) if paper not in done]
    return {"changed": ids, "unchanged": kept, **own}


def dumps(value: Any, *, indent: int | None = None, ascii_only: bool = False) -> str:
    """JSON text of a value, keeping non-ASCII characters as they are (unless
    ``ascii_only``: then as their ``\\uXXXX`` escapes, which JSON reads back the same)."""
    return json.dumps(value, ensure_ascii=ascii_only, indent=indent)


def write_json(stream: TextIO, value: Any, *, indent: int | None = 2) -> None:
    """Write a value as JSON followed by a newline; to a stream that cannot write every
    character, non-ASCII characters are escaped (never printed as a lossy "?")."""
    stream.write(dumps(value, indent=indent, ascii_only=not writes_unicode(stream)) + "\n")


def terminal_width() -> int:
    """The width of the terminal (100 columns when it cannot be told)."""
    return max(40, shutil.get_terminal_size((100, 24)).columns)


def _field(label: str, value: str) -> str:
    return f"{label + ':' if label else '':<{_LABEL_WIDTH}}{value}"


def _listing(label: str, values: Iterable[str]) -> list[str]:
    """A label with one value per line, aligned under the first."""
    items = list(values)
    if not items:
        return [_field(label, "—")]
    return [_field(label if i == 0 else "", v) for i, v in enumerate(items)]


def _stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M")


def _wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    """Wrap text paragraph by paragraph, keeping blank lines between paragraphs."""
    out: list[str] = []
    for number, paragraph in enumerate(p for p in text.split("\n\n") if p.strip()):
        if number:
            out.append("")
        out.extend(
            textwrap.wrap(
                squash_spaces(paragraph),
                width=max(20, width - len(indent)),
                initial_indent=indent,
                subsequent_indent=indent,
            )
            or [indent]
        )
    return out


def _note_lines(text: str, width: int, indent: str = "    ") -> list[str]:
    """A note's lines as written (Markdown keeps its shape), long lines wrapped."""
    out: list[str] = []
    for line in text.strip("\n").splitlines() or [""]:
        stripped = line.rstrip()
        lead = indent + " " * (len(stripped) - len(stripped.lstrip()))
        out.extend(
            textwrap.wrap(
                stripped.strip(),
                width=max(20, width - len(lead)),
                initial_indent=lead,
                subsequent_indent=lead,
            )
            or [""]
        )
    return out


def _text(value: object) -> str | None:
    """A further field's value when it is text (a bibliography may give anything)."""
    return value.strip() or None if isinstance(value, str) else None


def _authors(detail: PaperDetail) -> list[str]:
    if not detail.authors:
        return ["not listed"]
    if detail.authors_complete:
        return list(detail.authors)
    return [*detail.authors[:-1], f"{detail.authors[-1]} et al."]


def _identifier_lines(detail: PaperDetail) -> list[str]:
    """The identifiers and bibliographic fields a paper has (none are printed empty)."""
    shown = (
        ("DOI", detail.doi and doi_url(detail.doi)),
        ("arXiv", detail.arxiv_id and arxiv_url(detail.arxiv_id)),
        ("URL", detail.url),
        ("Volume", detail.volume),
        ("Issue", detail.issue),
        ("Pages", detail.pages),
        ("Publisher", detail.publisher),
        ("Place", _text(detail.extra.get("publisher-place"))),
    )
    return [_field(label, value) for label, value in shown if value]


def _wrapped_field(label: str, items: Sequence[str], width: int) -> list[str]:
    """A labelled list wrapped to the terminal between its items, its lines aligned under
    the first (forty authors are not one line running across the screen many times)."""
    whole = ", ".join(item.replace(" ", "\u00a0") for item in items)  # (a name stays whole)
    lines = textwrap.wrap(
        whole, max(20, width - _LABEL_WIDTH), break_long_words=False, break_on_hyphens=False
    )
    return [_field("" if i else label, line.replace("\u00a0", " ")) for i, line in enumerate(lines)]


def _by(who: str | None, shared: bool) -> str:
    """ " by alice": who did it, on a shared library (a library file's login name is always
    the same person's)."""
    return f" by {who}" if shared and who else ""


def _added_lines(detail: PaperDetail, shared: bool) -> list[str]:
    """When the paper was added, and on a shared library by whom and who changed it last."""
    lines = [_field("Added", _stamp(detail.added) + _by(detail.created_by, shared))]
    if shared and detail.modified_by and detail.modified_by != detail.created_by:
        lines.append(_field("Changed by", detail.modified_by))
    return lines


def _field_lines(detail: PaperDetail, width: int, shared: bool) -> list[str]:
    """The labelled fields of ``refman show``: authors to sources (who added and changed the
    paper, on a shared library), then any warnings."""
    lines = [
        *_wrapped_field("Authors", _authors(detail), width),
        *_wrapped_field("Editors", editor_names(detail.extra), width),
        _field("Year", year_text(detail.year, publication_status(detail.extra), "—")),
        _field("Venue", detail.venue or "—"),
        _field("Type", f"{ITEM_TYPES.get(detail.type, detail.type)} ({detail.type})"),
        _field("Citation key", detail.citekey or "—"),
        *([_field("Also cited as", ", ".join(detail.aliases))] if detail.aliases else []),
        *_identifier_lines(detail),
        *_listing("Subjects", (subject_label(code) for code in detail.subjects)),
        _field("Tags", ", ".join(t.name for t in detail.tags) or "—"),
        _field("Reading", f"{detail.status}  {stars(detail.rating)}".rstrip()),
        _field("Attributed to", ", ".join(detail.attributed_to) or "—"),
        *_added_lines(detail, shared),
        *_listing(
            "Sources",
            (
                f"{s.file} ({s.owner + ', ' if s.owner else ''}imported "
                f"{_stamp(s.imported)}{_by(s.imported_by, shared)})"
                for s in detail.sources
            ),
        ),
    ]
    if detail.possible_duplicate_of is not None:
        lines.append(
            _field("Attention", f"possibly a duplicate of #{detail.possible_duplicate_of}")
        )
    if detail.merged_into is not None:
        lines.append(_field("Merged into", f"#{detail.merged_into}"))
    if detail.trashed is not None:
        lines.append(_field("In the Trash", f"since {_stamp(detail.trashed)}"))
    return lines


def paper_text(detail: PaperDetail, width: int, *, shared: bool = False) -> list[str]:
    """Everything about a paper as readable lines, for ``refman show``.

    Args:
        detail: The paper.
        width: The terminal width (the abstract and notes are wrapped to it).
        shared: The paper is on a shared library: who added and changed it, and its notes,
            is said (as the window's detail pane says it).

    Returns:
        The lines, without trailing newlines.
    """
    title = detail.title + ("  (provisional title)" if detail.title_provisional else "")
    lines = [f"#{detail.id}  {title}", "", *_field_lines(detail, width, shared), "", "Abstract"]
    lines.extend(_wrap(detail.abstract_text, width) if detail.abstract_text.strip() else ["  —"])
    if detail.notes:
        lines += ["", "Notes"]
        for note in detail.notes:
            by = _by(note.modified_by, shared)
            lines.append(f"  Note #{note.id} (changed {_stamp(note.modified)}{by})")
            lines.extend(_note_lines(note.text, width))
    if detail.files:
        lines += ["", "Files", *(f"  {file_line(f)}" for f in detail.files)]
    return lines


def file_line(file: FileView) -> str:
    """ "stragglers.pdf — 12 pages, 1.2 MB", with "linked" and "missing" where so."""
    about = [plural(file.pages, "page")] if file.pages is not None else []
    about.append(size_text(file.size))
    if file.linked:
        about.append("linked")
    if file.missing:
        about.append(f"missing: not at {file.path}")
    return f"{file.name} — {', '.join(about)}"


def missing_file_json(file: FileView) -> dict[str, Any]:
    """A missing attached file as JSON: its ``paper`` and :data:`FILE_KEYS`."""
    return {"paper": file.paper_id, **{k: getattr(file, k) for k in FILE_KEYS}}


def missing_file_line(file: FileView) -> str:
    """ "#12  paper.pdf: not at /where/it/should/be"."""
    return f"#{file.paper_id}  {file.name}: not at {file.path}"
