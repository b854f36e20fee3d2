"""Every change to a library, as a value: what to do, and what doing it changed.

The window and the command line describe a change as an :class:`Operation` and hand it to
:meth:`LibraryService.apply <refman.core.library.LibraryService.apply>`, which runs it in one
transaction and returns an :class:`Outcome`: the value the change produced, the
:class:`~refman.core.values.Changes` views refresh from, a label for the Edit menu, and the
*inverse* — another operation that takes the change back. Undoing applies the inverse;
redoing applies the inverse's inverse. An inverse carries what it expects to find, so that
an undo of a paper or note that was changed or deleted elsewhere is refused
(:class:`~refman.common.errors.ConflictError`) instead of applied to the wrong state.
Operations are frozen values: safe to keep on an undo stack and to pass between threads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar

from refman.common.sequences import unique
from refman.common.text import join_words, plural
from refman.core.importing.values import ImportChoices, ImportResult, SourcedPage
from refman.core.rules import FieldEdits, clean_tag_name, clean_tag_names
from refman.core.values import Changes, Emptied, NoteView
from refman.importers.records import PageFormat

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

#: (tag name, paper ids) pairs.
Links = tuple[tuple[str, tuple[int, ...]], ...]


class Operation(Generic[T_co]):
    """A change to a library whose application yields a value of type ``T_co``."""

    __slots__ = ()

    @property
    def writes(self) -> bool:
        """False for an operation that only reads (a dry run)."""
        return True

    @property
    def large(self) -> bool:
        """True for a change that may write many pages (an import and its undo)."""
        return False

    @property
    def label(self) -> str:
        """The change in words, for the Edit menu and the log."""
        return type(self).__name__


class DryRunnable(Operation[T_co]):
    """An operation that can be asked only to say what it would do (``dry_run``)."""

    __slots__ = ()
    dry_run: bool  # (a field of each subclass)

    @property
    def writes(self) -> bool:
        """A dry run only reads."""
        return not self.dry_run


@dataclass(frozen=True, slots=True)
class Outcome(Generic[T]):
    """What applying an operation did.

    Attributes:
        value: The operation's result (a note, an import result, ...).
        changes: What views must refresh.
        inverse: The operation that takes this one back; None when nothing changed (and so
            there is nothing to undo) or when the change cannot be undone.
        label: The change in words, for the Edit menu ("Add tag “x” to 3 papers").
        irreversible: The change cannot be undone and invalidates the undo history (papers
            deleted for good).
    """

    value: T
    changes: Changes = field(default_factory=Changes)
    inverse: Operation[Any] | None = None
    label: str = ""
    irreversible: bool = False


# -- tags ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _PapersAndTags(Operation[tuple[int, ...]]):
    """Papers and tag names: each paper once, each name cleaned and once (checked here)."""

    paper_ids: tuple[int, ...]
    names: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "paper_ids", unique(self.paper_ids))
        object.__setattr__(self, "names", clean_tag_names(self.names))

    def _label(self, verb: str, preposition: str, named: Sequence[str] = ()) -> str:
        names = ", ".join(map("“{}”".format, named or self.names))
        return f"{verb} tag {names} {preposition} {plural(len(self.paper_ids), 'paper')}"


@dataclass(frozen=True, slots=True)
class TagPapers(_PapersAndTags):
    """Put tags on papers, creating the tags that do not exist yet."""

    @property
    def label(self) -> str:
        """ "Add tag “x” to 3 papers"."""
        return self._label("Add", "to")

    def label_naming(self, names: Sequence[str]) -> str:
        """The label, naming the tags so (as the library names them)."""
        return self._label("Add", "to", names)


@dataclass(frozen=True, slots=True)
class UntagPapers(_PapersAndTags):
    """Take tags off papers (tags the papers do not carry are ignored)."""

    @property
    def label(self) -> str:
        """ "Remove tag “x” from 3 papers"."""
        return self._label("Remove", "from")


@dataclass(frozen=True, slots=True)
class RenameTag(Operation[None]):
    """Rename a tag; renaming onto a tag that exists merges the two."""

    old: str
    new: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "new", clean_tag_name(self.new))


@dataclass(frozen=True, slots=True)
class SetTagColour(Operation[None]):
    """Give a tag a colour ("#rrggbb"), or None for the default."""

    name: str
    colour: str | None


@dataclass(frozen=True, slots=True)
class DeleteTag(Operation[None]):
    """Delete a tag from every paper."""

    name: str


@dataclass(frozen=True, slots=True)
class TagChange(Operation[tuple[int, ...]]):
    """A precise change to tags and their links, applied in the order of the fields.

    Every tag operation's inverse is one of these: it names exactly the links added or
    removed, so an undo leaves alone what others changed meanwhile.

    Attributes:
        create: Tags to create when missing: (name, colour, id to reuse if it is free).
        rename: (old name, new name) of tags to rename (never onto another tag).
        recolour: (name, colour) of tags to recolour.
        add: Links to add.
        remove: Links to remove.
        delete: Tags to delete with all their links.
        drop_unused: Tags to delete if no paper carries them any more.
        searches: (id, text, tags) of saved searches to set: those naming a tag renamed or
            merged, with its new name (an undo's: as they were).
    """

    create: tuple[tuple[str, str | None, int | None], ...] = ()
    rename: tuple[tuple[str, str], ...] = ()
    recolour: tuple[tuple[str, str | None], ...] = ()
    add: Links = ()
    remove: Links = ()
    delete: tuple[str, ...] = ()
    drop_unused: tuple[str, ...] = ()
    searches: tuple[tuple[int, str, tuple[str, ...]], ...] = ()


# -- papers ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EditPaper(Operation[None]):
    """Edit a paper's fields by hand; the edited fields are the user's and survive imports.
    ``based_on``: the values the person saw of the fields they edit; a field someone else
    has changed since is refused with both values
    (:class:`~refman.common.errors.EditConflictError`)."""

    paper_id: int
    edits: FieldEdits
    based_on: tuple[tuple[str, str | int | None], ...] = ()

    @property
    def label(self) -> str:
        """ "Edit title and year"."""
        return f"Edit {join_words(self.edits.labels())}"


#: (field name, value) pairs of a paper's editable fields.
FieldValues = tuple[tuple[str, str | int | None], ...]


@dataclass(frozen=True, slots=True)
class SetPaperFields(Operation[None]):
    """Put a paper's fields back exactly (the inverse of an edit).

    Attributes:
        paper_id: The paper.
        values: The fields to set.
        title_provisional: Whether the title is only a suggestion.
        user_edited: The fields that count as the user's.
        modified: The paper's modification time to put back.
        expect: The values the fields must have now; anything else means the paper was
            changed elsewhere, and the operation is refused.
    """

    paper_id: int
    values: FieldValues
    title_provisional: bool
    user_edited: frozenset[str]
    modified: datetime | None
    expect: FieldValues = ()


@dataclass(frozen=True, slots=True)
class _Papers(Operation[tuple[int, ...]]):
    """Some papers, each once; the value is the ids the operation changed."""

    paper_ids: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "paper_ids", unique(self.paper_ids))


@dataclass(frozen=True, slots=True)
class TrashPapers(_Papers):
    """Move papers to the Trash; the value is the ids that moved (not already there)."""

    @property
    def label(self) -> str:
        """ "Move 3 papers to Trash"."""
        return f"Move {plural(len(self.paper_ids), 'paper')} to Trash"


@dataclass(frozen=True, slots=True)
class RestorePapers(_Papers):
    """Bring papers back from the Trash; the value is the ids that came back."""

    @property
    def label(self) -> str:
        """ "Restore 3 papers"."""
        return f"Restore {plural(len(self.paper_ids), 'paper')}"


@dataclass(frozen=True, slots=True)
class SetTrashed(Operation[tuple[int, ...]]):
    """Put back when papers were trashed (None: not in the Trash), expecting ``expect``: each
    a time and the papers it is for (an undo of 100,000 papers moved to the Trash at once
    holds two times and their ids, not 200,000 pairs)."""

    times: tuple[tuple[datetime | None, tuple[int, ...]], ...]
    expect: tuple[tuple[datetime | None, tuple[int, ...]], ...] = ()
    #: Other keys to give back as papers go back to the Trash (a restore took them from the
    #: paper one had been merged into): (folded key, key, paper id).
    aliases: tuple[tuple[str, str, int], ...] = ()
    #: Notes and files to give back as papers go back to the Trash (a restore took them back
    #: from the paper one had been merged into): (kind, id, that paper, the paper restored).
    children: tuple[tuple[str, int, int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class SetDuplicateFlag(Operation[None]):
    """Set (or, with None, clear) the paper a paper may duplicate."""

    paper_id: int
    other: int | None

    @property
    def label(self) -> str:
        """ "Mark as not a duplicate"."""
        return "Mark as not a duplicate" if self.other is None else "Mark as a possible duplicate"


@dataclass(frozen=True, slots=True)
class EmptyTrash(Operation[Emptied]):
    """Delete the Trash's papers (or only ``paper_ids``) for good (with the tags left)."""

    paper_ids: tuple[int, ...] = ()


# -- notes -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AddNote(Operation[NoteView]):
    """Add a Markdown note to a paper."""

    paper_id: int
    text: str = ""

    @property
    def label(self) -> str:
        """ "Add note"."""
        return "Add note"


@dataclass(frozen=True, slots=True)
class EditNote(Operation[NoteView]):
    """Replace a note's text. ``based_on``: the text the person started from; when someone
    else has changed the note since, the edit is refused with both texts
    (:class:`~refman.common.errors.EditConflictError`; theirs None: they deleted it)."""

    note_id: int
    text: str
    based_on: str | None = None

    @property
    def label(self) -> str:
        """ "Edit note"."""
        return "Edit note"


@dataclass(frozen=True, slots=True)
class DeleteNote(Operation[NoteView]):
    """Delete a note; the value is the note as it was. ``expect_text``: refuse if the text
    is no longer this (the inverse of adding a note that was since edited elsewhere)."""

    note_id: int
    expect_text: str | None = None

    @property
    def label(self) -> str:
        """ "Delete note"."""
        return "Delete note"


@dataclass(frozen=True, slots=True)
class RestoreNote(Operation[NoteView]):
    """Put a deleted note back exactly (id, text, times)."""

    note: NoteView


@dataclass(frozen=True, slots=True)
class SetNote(Operation[NoteView]):
    """Put a note's text and modification time back exactly, expecting ``expect_text``."""

    note: NoteView
    expect_text: str | None = None


@dataclass(frozen=True, slots=True)
class ImportPages(Operation[ImportResult]):
    """Import parsed pages as one transaction: all of it or nothing."""

    pages: tuple[SourcedPage, ...]
    choices: ImportChoices = field(default_factory=ImportChoices)
    at: datetime | None = None

    @property
    def writes(self) -> bool:
        """A dry run only reads."""
        return not self.choices.dry_run

    @property
    def large(self) -> bool:
        """An import may write many pages."""
        return True

    @property
    def label(self) -> str:
        """ "Import Zhuo Jiang, Liang Xiang"; "Add “The Art of …”" for a paper added by hand."""
        owners = ", ".join(dict.fromkeys(p.page.owner for p in self.pages if p.page.owner))
        if owners:
            return f"Import {owners}"
        if self.pages and all(p.page.format is PageFormat.TYPED for p in self.pages):
            return "Add " + ", ".join(p.source.partition(": ")[2] for p in self.pages)
        files = ", ".join(dict.fromkeys(p.source for p in self.pages))
        return f"Import {files}" if files else "Import"


@dataclass(frozen=True, slots=True)
class UndoImport(Operation[None]):
    """Return the library to its state before an import; ``redo`` imports it again."""

    batch_ids: tuple[int, ...]
    redo: ImportPages | None = None

    @property
    def large(self) -> bool:
        """So may its undo."""
        return True
