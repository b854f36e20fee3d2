"""The library service: the one way the window and the command line read and change a library.

Reads run in short sessions and return plain values. Every change is an
:class:`~refman.core.operations.Operation` given to :meth:`LibraryService.apply`, which runs it
in one transaction — all of it or nothing — and returns an
:class:`~refman.core.operations.Outcome` with what changed and how to undo it. The named
methods (:meth:`~LibraryService.tag`, :meth:`~LibraryService.trash`, ...) are that same call
with the operation spelled out.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from contextlib import nullcontext
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from refman.common.collector import collector_eased
from refman.core.attachments import HANDLERS as FILE_HANDLERS
from refman.core.attachments import (
    AttachFiles,
    RelinkFile,
    RemoveFiles,
    RenameFile,
    locate_file,
)
from refman.core.context import Context, Handler, Progress, on_disk
from refman.core.extraction import Extractor
from refman.core.file_copies import Staged, stage_files
from refman.core.file_index import IndexProgress, IndexReport, read_texts
from refman.core.importing import handlers as import_handlers
from refman.core.importing.purge import HANDLERS as PURGE_HANDLERS
from refman.core.importing.purge import PurgeStep, pending
from refman.core.importing.revert import RevertPlan
from refman.core.importing.revert_ops import HANDLERS as REVERT_HANDLERS
from refman.core.importing.revert_ops import RevertImport
from refman.core.importing.values import ImportChoices, ImportResult, SourcedPage
from refman.core.library_file import LibraryFile
from refman.core.library_reads import EVERYTHING, LibraryReads
from refman.core.merge_several import HANDLERS as MERGE_SEVERAL_HANDLERS
from refman.core.merged_edits import HANDLERS as EDIT_SHOWN_HANDLERS
from refman.core.merged_edits import ChangeShownPapers
from refman.core.notes import HANDLERS as NOTE_HANDLERS
from refman.core.operations import (
    AddNote,
    DeleteNote,
    DeleteTag,
    EditNote,
    EditPaper,
    EmptyTrash,
    ImportPages,
    Operation,
    Outcome,
    RenameTag,
    RestorePapers,
    SetDuplicateFlag,
    SetTagColour,
    TagPapers,
    TrashPapers,
    UndoImport,
    UntagPapers,
)
from refman.core.paper_merge import HANDLERS as MERGE_HANDLERS
from refman.core.papers import HANDLERS as PAPER_HANDLERS
from refman.core.people_ops import HANDLERS as PEOPLE_HANDLERS
from refman.core.people_ops import MergePeople, SeePerson, TellApart
from refman.core.reading_status import HANDLERS as READING_HANDLERS
from refman.core.reading_status import MarkPapers
from refman.core.retry import retrying
from refman.core.rules import FieldEdits
from refman.core.saved_searches import HANDLERS as SAVED_HANDLERS
from refman.core.saved_searches import DeleteSavedSearch, SaveSearch
from refman.core.tagging import HANDLERS as TAG_HANDLERS
from refman.core.upkeep import bring_up_to_date
from refman.core.values import FileView, NoteView, PaperQuery, SavedSearchView, Section
from refman.store.database import Database, open_database
from refman.store.integrity import CheckRecord

log = logging.getLogger("refman.library")

T = TypeVar("T")


_HANDLERS: dict[type, Handler] = {
    **TAG_HANDLERS,
    **NOTE_HANDLERS,
    **PAPER_HANDLERS,
    **EDIT_SHOWN_HANDLERS,
    **MERGE_HANDLERS,
    **MERGE_SEVERAL_HANDLERS,
    **import_handlers.HANDLERS,
    **READING_HANDLERS,
    **PEOPLE_HANDLERS,
    **REVERT_HANDLERS,
    **PURGE_HANDLERS,
    **SAVED_HANDLERS,
    **FILE_HANDLERS,
}


_TRASH = PaperQuery(section=Section.TRASH)


def _now() -> datetime:
    return datetime.now().replace(microsecond=0)


class LibraryService(LibraryReads):
    """Reads and changes one library."""

    def __init__(self, database: Database) -> None:
        super().__init__(database)
        #: The library's file: its checks, and waiting for other writers.
        self.file = LibraryFile(database)

    @classmethod
    def open(
        cls, location: str | Path, checks: Path | None = None, backups: Path | None = None
    ) -> LibraryService:
        """Open (creating or upgrading) the library at a path or SQLAlchemy URL.

        Args:
            location: The library.
            checks: Where refman remembers the libraries it checked and left whole (see
                :mod:`refman.store.integrity`); None checks before every session's first change.
            backups: The folder of refman's backups (:mod:`refman.core.library_file`), or None.
        """
        database = open_database(location, CheckRecord(checks) if checks else None, backups)
        bring_up_to_date(database)
        service = cls(database)
        service.file.backup_root = backups
        if expired := service.files.expire_set_aside():
            log.info("deleted %d removed files set aside more than 30 days ago", expired)
        return service

    @property
    def location(self) -> str:
        """The library's file path, or a shared library's address (without a password)."""
        return self.db.name

    def close(self) -> None:
        """Close the library (backing it up first when it changed, see
        :meth:`LibraryFile.backup_on_close`)."""
        self.file.backup_on_close()
        self.db.close()

    # -- changing ---------------------------------------------------------------------------

    def apply(
        self,
        op: Operation[T],
        *,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Outcome[T]:
        """Carry out a change as one transaction: all of it, or nothing (tried again from the
        start when another person's change got in its way: :mod:`refman.core.retry`).

        Args:
            op: The change.
            progress: Told (steps done, steps in all) by long operations.
            cancelled: Asked by long operations; True stops them (``CancelledError``).

        Returns:
            What the change produced and changed, and its inverse.

        Raises:
            RefmanError: The change was refused (a missing paper, a bad value, a conflict
                with a change made elsewhere, no backup where one is due); nothing changed.
        """
        with collector_eased() if op.large else nullcontext():
            return self._apply(op, progress, cancelled)

    def _apply(
        self, op: Operation[T], progress: Progress | None, cancelled: Callable[[], bool] | None
    ) -> Outcome[T]:
        handler = _HANDLERS[type(op)]
        prepare, in_trash = partial(self._prepare, op), lambda: self.count(_TRASH)
        prepared, backup = self.file.before_change(op, prepare, in_trash)
        session_scope = (
            partial(self.db.transaction, large=op.large) if op.writes else self.db.reading
        )

        def run() -> Outcome[T]:  # one transaction: again if another change got in its way
            ctx: Context | None = None
            try:
                with session_scope() as session:
                    ctx = Context(session, self.db.search, _now(), progress, cancelled, prepared)
                    ctx.files = self.files
                    done: Outcome[T] = handler(ctx, op)
                    backup.settle()  # whole before the change is kept
            except BaseException:
                on_disk(reversed(ctx.on_failure if ctx else []), "to take a change back")
                raise  # (what the failed transaction did on disk: taken back)
            on_disk(ctx.after_commit, "after a change")
            return done

        try:
            outcome = retrying(run, op.label) if op.writes else run()
        except BaseException:
            backup.drop()
            if isinstance(prepared, Staged):
                prepared.discard()  # the copies of files that were never attached
            raise
        if outcome.changes:
            log.info("%s: %s", outcome.label or op.label, outcome.changes)
        return outcome

    def _prepare(self, op: Operation[Any]) -> Any:
        """What a change does before it takes the write lock: an import is planned, files
        to attach are copied in."""
        if type(op) in import_handlers.PREPARERS:
            with self.db.reading() as session:
                return import_handlers.PREPARERS[type(op)](session, self.db.search, op)
        change = op.change if isinstance(op, ChangeShownPapers) else op  # (a file followed)
        if isinstance(change, AttachFiles):
            return stage_files(self.files, change)
        return None

    def tag(self, paper_ids: Iterable[int], names: Iterable[str]) -> Outcome[tuple[int, ...]]:
        """Put tags (created when new) on papers (its value: those that gained one)."""
        return self.apply(TagPapers(tuple(paper_ids), tuple(names)))

    def untag(self, paper_ids: Iterable[int], names: Iterable[str]) -> Outcome[tuple[int, ...]]:
        """Take tags off papers (tags they do not carry are ignored; its value: the papers
        that lost one)."""
        return self.apply(UntagPapers(tuple(paper_ids), tuple(names)))

    def rename_tag(self, old: str, new: str) -> Outcome[None]:
        """Rename a tag; renaming onto an existing tag merges the two."""
        return self.apply(RenameTag(old, new))

    def set_tag_colour(self, name: str, colour: str | None) -> Outcome[None]:
        """Give a tag a colour ("#rrggbb"), or None for the default."""
        return self.apply(SetTagColour(name, colour))

    def delete_tag(self, name: str) -> Outcome[None]:
        """Delete a tag from every paper."""
        return self.apply(DeleteTag(name))

    def edit_fields(self, paper_id: int, **values: Any) -> Outcome[None]:
        """Edit fields by hand (``title=``, ``year=``, … as in :class:`FieldEdits`); the edit
        is the user's and survives imports."""
        return self.apply(EditPaper(paper_id, FieldEdits(**values)))

    def trash(self, paper_ids: Iterable[int]) -> Outcome[tuple[int, ...]]:
        """Move papers to the Trash (they can be restored)."""
        return self.apply(TrashPapers(tuple(paper_ids)))

    def restore(self, paper_ids: Iterable[int]) -> Outcome[tuple[int, ...]]:
        """Bring papers back from the Trash."""
        return self.apply(RestorePapers(tuple(paper_ids)))

    def empty_trash(self) -> int:
        """Delete the papers in the Trash for good. Returns how many."""
        return len(self.apply(EmptyTrash()).value.papers)

    def mark(
        self, paper_ids: Iterable[int], status: str | None = None, rating: int | None = None
    ) -> Outcome[tuple[int, ...]]:
        """Set papers' reading status (unread, reading, read) and/or rating (0 to 5)."""
        return self.apply(MarkPapers(tuple(paper_ids), status, rating))

    def merge_people(self, keep: int, other: int) -> Outcome[None]:
        """Make two spellings one person: ``other``'s papers and pages become ``keep``'s."""
        return self.apply(MergePeople(keep, other))

    def tell_apart(self, first: int, second: int) -> Outcome[None]:
        """Say two people are not the same (never proposed as one again)."""
        return self.apply(TellApart(first, second))

    def see_person(self, person_id: int) -> Outcome[None]:
        """Mark a person as looked at (their new papers are no longer new)."""
        return self.apply(SeePerson(person_id))

    def save_search(
        self, name: str, text: str = "", tags: Sequence[str] = (), *, any_tags: bool = False
    ) -> SavedSearchView:
        """Keep a search line and a tag filter under a name (a smart collection)."""
        return self.apply(SaveSearch(name, text, tuple(tags), any_tags)).value

    def delete_saved_search(self, search_id: int) -> Outcome[None]:
        """Delete a saved search (the papers it finds stay)."""
        return self.apply(DeleteSavedSearch(search_id))

    def attach(
        self, paper_id: int, paths: Sequence[str | Path], *, link: bool = False
    ) -> tuple[FileView, ...]:
        """Attach files to a paper: copied into the library's storage folder, or linked."""
        return self.apply(AttachFiles(paper_id, tuple(str(p) for p in paths), link)).value

    def remove_files(self, file_ids: Iterable[int]) -> Outcome[int]:
        """Take files off their papers (undoable: stored files wait until Empty Trash)."""
        return self.apply(RemoveFiles(tuple(file_ids)))

    def locate_op(self, file_id: int, found: str | Path) -> RelinkFile:
        """The change that makes a missing file the one found at ``found`` (linked there, or
        copied back into the storage folder: the copy is made now)."""
        with self.db.reading() as session:
            return locate_file(session, self.files, file_id, Path(found).expanduser())

    def locate_file(self, file_id: int, found: str | Path) -> Outcome[None]:
        """Make a missing file the one found at ``found`` (see :meth:`locate_op`)."""
        return self.apply(self.locate_op(file_id, found))

    def index_files(
        self,
        extractor: Extractor | None = None,
        progress: Callable[[IndexProgress], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> IndexReport:
        """Read the text of the attached PDFs not read yet (or changed since) into the
        search, each file kept as soon as it is read (see :mod:`refman.core.file_index`).

        Args:
            extractor: The worker process that reads them (one of its own when None).
            progress: Told after each file how many are read, of how many.
            cancelled: Asked before each file; True stops (what was read is kept).

        Returns:
            The files read, and those that had no text to read (and why).
        """
        reader = extractor or Extractor()
        try:
            return read_texts(self.db, self.files, reader, progress, cancelled)
        finally:
            if extractor is None:
                reader.close()

    def rename_file(self, file_id: int, name: str) -> Outcome[None]:
        """Give an attached file another name."""
        return self.apply(RenameFile(file_id, name))

    def clear_possible_duplicate(self, paper_id: int) -> Outcome[None]:
        """Mark a paper as not a duplicate of the one an import found it close to."""
        return self.apply(SetDuplicateFlag(paper_id, None))

    def add_note(self, paper_id: int, text: str) -> NoteView:
        """Add a Markdown note to a paper."""
        return self.apply(AddNote(paper_id, text)).value

    def edit_note(self, note_id: int, text: str) -> NoteView:
        """Replace a note's text."""
        return self.apply(EditNote(note_id, text)).value

    def delete_note(self, note_id: int) -> NoteView:
        """Delete a note; returns it as it was."""
        return self.apply(DeleteNote(note_id)).value

    def import_pages(
        self,
        pages: Sequence[SourcedPage],
        choices: ImportChoices | None = None,
        *,
        at: datetime | None = None,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> ImportResult:
        """Import pages as one transaction and return what it did, record by record.

        (``apply(ImportPages(...))`` gives the same with the inverse, for undo.)
        """
        op = ImportPages(tuple(pages), choices or ImportChoices(), at)
        return self.apply(op, progress=progress, cancelled=cancelled).value

    def revert(self, import_id: int, *, dry_run: bool = False) -> Outcome[RevertPlan]:
        """Revert any import of the history (see :mod:`refman.core.importing.revert`);
        ``dry_run`` only says what it would remove, put back and keep."""
        return self.apply(RevertImport(import_id, dry_run))

    def undo_import(self, batch_ids: Sequence[int]) -> Outcome[None]:
        """Return the library to its state before an import, its papers deleted for good
        before this returns (the window leaves that to the background: :meth:`purge`)."""
        outcome = self.apply(UndoImport(tuple(batch_ids)))
        self.purge()
        return outcome

    def purge(self) -> None:
        """Delete for good the papers undone imports withdrew, a few thousand per
        transaction."""
        while self.purge_pending() and self.apply(PurgeStep()).value:
            pass

    def purge_pending(self) -> int:
        """How many withdrawn papers wait to be deleted for good (0: none)."""
        with self.db.reading() as session:
            return pending(session)


__all__ = ["EVERYTHING", "LibraryService"]
