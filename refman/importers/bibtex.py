"""Read a BibTeX or BibLaTeX file into records (Zotero, Better BibTeX, JabRef, Mendeley, ...).

bibtexparser 2 splits the file into blocks and recovers from an unclosed brace at the next
entry (:mod:`~refman.importers.bib_split` reads plain entries faster, in the same way);
refman reads the values itself: ``@string`` macros, ``#`` concatenation, the month
macros, ``crossref`` (a child takes the fields it lacks from its parent), JabRef's groups,
names with their particles and suffixes, LaTeX as Unicode. An entry that is damaged (an
unclosed brace, a missing comma, a stray ``}``) is left out with a warning that names it and
its line, so that no title ever swallows the rest of the file.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bibtexparser.model import (
    Block,
    DuplicateBlockKeyBlock,
    DuplicateFieldKeyBlock,
    Entry,
    ExplicitComment,
    ImplicitComment,
    ParsingFailedBlock,
    String,
)

from refman.common.text import plural
from refman.importers.bib_common import built, entry_label
from refman.importers.bib_damage import failure_reason, lost_fields, skipped
from refman.importers.bib_extension import BIB_FIELD, parse_extension, with_extension
from refman.importers.bib_fields import entry_draft, is_note_field, note_text
from refman.importers.bib_groups import jabref_file_folders, jabref_memberships
from refman.importers.bib_split import split_blocks
from refman.importers.bib_values import MONTH_MACROS, resolve
from refman.importers.messages import not_a_bibliography
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

__all__ = ["entry_values", "parse_bibtex"]

#: Fields a child never takes from its ``crossref`` parent: they describe the parent itself.
_NOT_INHERITED = frozenset(
    """crossref xref ids key label title subtitle titleaddon shorttitle doi eprint arxivid
    archiveprefix eprinttype eprintclass primaryclass url urldate file pages abstract keywords
    groups mendeley-tags mendeley-groups note pmid pmcid x-refman readstatus ranking""".split()
)
#: Entry types contained in a book or proceedings: the parent's title is their booktitle.
_IN_TYPES = frozenset(
    {"inproceedings", "incollection", "inbook", "bookinbook", "suppbook", "inreference"}
)
_MALFORMED = "a comma seems to be missing after the field ‘{}’, or its braces do not match"
_LOST = "a stray ‘}’ closes it early, and the fields after it would be lost"


@dataclass(slots=True, eq=False)
class _Entry:
    """An entry read from the file, its values resolved (entries compare by identity)."""

    type: str
    key: str
    line: int
    raw: str
    fields: dict[str, str]
    #: The values of note fields given again (Zotero writes each note in an ``annote``).
    more_notes: list[str]


def _split(text: str) -> list[tuple[Block, int]]:
    """The file's blocks with their lines, as bibtexparser splits them (values as written)."""
    quiet = logging.getLogger("bibtexparser")
    if quiet.level == logging.NOTSET:
        # It logs every damaged block as a WARNING; refman words them itself.
        quiet.setLevel(logging.ERROR)
    try:
        return split_blocks(text)
    except Exception as error:  # a parser bug must not take the import down
        raise not_a_bibliography(f"the BibTeX file cannot be read ({error})") from None


class _Reader:
    """Walks the blocks of one file, collecting entries, macros and warnings."""

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self.entries: list[_Entry] = []
        self.macros: dict[str, str] = dict(MONTH_MACROS)
        self.comments: list[str] = []
        self.undefined: dict[str, list[_Entry]] = {}
        self.damaged = 0

    def read(self, blocks: list[tuple[Block, int]]) -> None:
        """Read every block (with the 1-based line it starts on) in file order."""
        previous: _Entry | None = None
        for block, line in blocks:
            current: _Entry | None = None
            if isinstance(block, DuplicateFieldKeyBlock | DuplicateBlockKeyBlock):
                current = self._recovered(block, line)
            elif isinstance(block, ParsingFailedBlock):
                self._failed(block, line)
            elif isinstance(block, Entry):
                current = self._entry(block, line)
            elif isinstance(block, String):
                self._string(block, line)
            elif isinstance(block, ExplicitComment):
                self.comments.append(block.comment)
            elif (
                isinstance(block, ImplicitComment)
                and previous is not None
                and lost_fields(block.comment)
            ):
                self._skip(previous, _LOST)
            previous = current

    def _skip(self, entry: _Entry, reason: str) -> None:
        if self.entries and self.entries[-1] is entry:
            self.entries.pop()  # the entry just read, found damaged by what follows it
        self.damaged += 1
        self.warnings.append(skipped(entry.raw, entry.line, reason, entry.key))

    def _failed(self, block: ParsingFailedBlock, line: int) -> None:
        reason = failure_reason(getattr(block.error, "abort_reason", "") or str(block.error))
        self.damaged += 1
        self.warnings.append(skipped(block.raw or "", line, reason))

    def _string(self, block: String, line: int) -> None:
        value = resolve(block.value, self.macros, [])
        if value is None:
            self.warnings.append(f"The abbreviation ‘{block.key}’ on line {line} is damaged.")
        else:
            self.macros[block.key.strip().lower()] = value

    def _recovered(self, block: ParsingFailedBlock, line: int) -> _Entry | None:
        inner = block.ignore_error_block
        if isinstance(inner, String):
            self._string(inner, line)
            return None
        if not isinstance(inner, Entry):
            self._failed(block, line)
            return None
        entry = self._entry(inner, line)
        lost: list[str] = []
        if isinstance(block, DuplicateFieldKeyBlock):  # all of a repeated note field is kept
            lost = sorted(k for k in block.duplicate_keys if not is_note_field(k.lower()))
        if entry is not None and lost:
            names = ", ".join(f"‘{k}’" for k in lost)
            self.warnings.append(
                f"The entry {entry_label(entry.key, None)} on line {entry.line} gives "
                f"{names} twice; the first value was kept."
            )
        return entry

    def _entry(self, block: Entry, line: int) -> _Entry | None:
        entry = _Entry(block.entry_type.lower(), block.key.strip(), line, block.raw or "", {}, [])
        unknown: list[str] = []
        for field in block.fields:
            name = field.key.strip().lower()
            repeated = name in entry.fields
            if repeated and not is_note_field(name):
                continue  # a repeated field: BibTeX keeps the first
            value = resolve(str(field.value), self.macros, unknown)
            if value is None:
                self._skip(entry, _MALFORMED.format(field.key.strip()))
                return None
            if repeated:
                entry.more_notes.append(value)  # each note of the entry is a note
            else:
                entry.fields[name] = value
        for name in unknown:
            self.undefined.setdefault(name, []).append(entry)
        self.entries.append(entry)
        return entry

    def report_undefined(self) -> None:
        """One warning per undefined abbreviation, naming the first entry that uses it."""
        kept = {id(e) for e in self.entries}
        for name, users in self.undefined.items():
            users = [u for u in users if id(u) in kept]
            if users:
                first = users[0]
                self.warnings.append(
                    f"The abbreviation ‘{name}’ is not defined in the file; it was kept as "
                    f"written in {plural(len(users), 'entry', 'entries')} (the first is "
                    f"{entry_label(first.key, None)} on line {first.line})."
                )

    def check_keys(self) -> None:
        """Warn about keys used twice (ignoring case, as BibTeX does); the later entries are
        imported without the key."""
        seen: dict[str, _Entry] = {}
        for entry in self.entries:
            folded = entry.key.casefold()
            if not folded:
                continue
            first = seen.setdefault(folded, entry)
            if first is not entry:
                self.warnings.append(
                    f"The key ‘{entry.key}’ of the entry on line {entry.line} is already used "
                    f"by the entry on line {first.line}; it was imported without the key."
                )
                entry.key = ""

    def inherit(self) -> None:
        """Give each entry with a ``crossref`` the fields it lacks from its parent."""
        by_key = {e.key.casefold(): e for e in reversed(self.entries) if e.key}
        for entry in self.entries:
            target = entry.fields.get("crossref", "").strip()
            if not target:
                continue
            parent = by_key.get(target.casefold())
            if parent is None or parent is entry:
                self.warnings.append(
                    f"The entry {entry_label(entry.key, None)} on line {entry.line} refers to "
                    f"‘{target}’ (crossref), which the file does not hold."
                )
                continue
            for name, value in parent.fields.items():
                if name == "title" and entry.type in _IN_TYPES:
                    entry.fields.setdefault("booktitle", value)
                elif name not in _NOT_INHERITED and not is_note_field(name):
                    entry.fields.setdefault(name, value)


def entry_values(text: str) -> list[dict[str, str]]:
    """The resolved values of the whole entries of a BibTeX text (macros, ``#`` and
    ``crossref`` read), by lower-case field name, in file order (none when it holds no
    whole entry): the values :func:`parse_bibtex` reads its records from."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    reader = _Reader()
    reader.read(_split(text))
    reader.inherit()
    return [dict(entry.fields) for entry in reader.entries]


def parse_bibtex(text: str) -> ParsedPage:
    """Read the text of a BibTeX or BibLaTeX file.

    Args:
        text: The file's text.

    Returns:
        A page (format BIBTEX, no owner) with one record per whole entry, in file order, and
        a warning for every entry left out or read with a problem.

    Raises:
        NotABibliographyError: The text holds no BibTeX entries, or none that is whole.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    reader = _Reader()
    reader.read(_split(text))
    if not reader.entries:
        if reader.damaged:
            raise not_a_bibliography(
                "no entry of the BibTeX file is whole. " + " ".join(reader.warnings[:3]).rstrip(".")
            )
        raise not_a_bibliography("the text holds no BibTeX entries (such as @article{key, …})")
    reader.report_undefined()
    reader.check_keys()
    reader.inherit()
    groups = jabref_memberships(reader.comments)
    records = [
        _record(e, groups.get(e.key.casefold(), []), reader.warnings) for e in reader.entries
    ]
    folders = tuple(jabref_file_folders(reader.comments))
    return ParsedPage("", PageFormat.BIBTEX, None, records, reader.warnings, file_folders=folders)


def _record(entry: _Entry, groups: list[str], warnings: list[str]) -> ParsedRecord:
    """The record of one whole entry (``groups``: the JabRef groups listing it)."""
    draft = entry_draft(entry.type, entry.key, entry.fields, entry.line, entry.raw, groups)
    draft.notes.extend(note_text(value) for value in entry.more_notes)
    return with_extension(
        built(draft, f"The entry {entry_label(entry.key, None)} on line {entry.line}", warnings),
        parse_extension(entry.fields[BIB_FIELD]) if BIB_FIELD in entry.fields else {},
    )
