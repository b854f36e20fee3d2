"""The window's one way to change the library: service calls wrapped as undo commands."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from refman.common.errors import RefmanError
from refman.core.import_values import ImportChoices, ImportResult, SourcedPage
from refman.core.library import LibraryService
from refman.core.values import Changes, NoteView

from refman.ui import undo
from refman.ui.workers import run_with_progress

log = logging.getLogger("refman.ui")

T = TypeVar("T")

_UNSET = object()


class LibraryController(QObject):
    """Owns the library service and the undo stack of one window.

    Every edit made in the window goes through a method here: it calls the service, pushes
    an undo command when the change succeeded, and emits :attr:`changed`. A
    :class:`RefmanError` is reported through :attr:`failed` (and nothing changes).

    Signals:
        changed(Changes): The library changed; views refresh what it names.
        failed(RefmanError): A change was refused; the message is for the user.
    """

    changed = Signal(object)
    failed = Signal(object)

    def __init__(self, service: LibraryService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.undo_stack = QUndoStack(self)

    # -- plumbing ---------------------------------------------------------------------------

    def notify(self, changes: Changes) -> None:
        """Tell every view what changed."""
        self.changed.emit(changes)

    def _guard(self, action: Callable[[], T]) -> T | None:
        try:
            return run_with_progress(action, "Saving your change…")
        except RefmanError as exc:
            log.info("refused: %s", exc)
            self.failed.emit(exc)
            return None

    def _push(self, command: undo.ServiceCommand, changes: Changes) -> None:
        self.undo_stack.push(command)
        self.notify(changes)

    # -- tags -------------------------------------------------------------------------------

    def tag(self, paper_ids: Sequence[int], names: Sequence[str]) -> bool:
        """Put tags on papers (one undo step)."""
        ids = list(dict.fromkeys(paper_ids))
        wanted = [" ".join(n.split()) for n in names if n.strip()]
        if not ids or not wanted:
            return False
        svc = self.service
        before = {n: svc.papers_with_tag(n) for n in wanted}
        if all(set(ids) <= before[n] for n in wanted):
            return False  # nothing to add: no empty undo step
        existed = {n: svc.tag_exists(n) for n in wanted}
        changes = self._guard(lambda: svc.tag(ids, wanted))
        if changes is None:
            return False
        self._push(undo.TagCommand(svc, self.notify, ids, wanted, before, existed), changes)
        return True

    def untag(self, paper_ids: Sequence[int], name: str) -> bool:
        """Take a tag off papers (one undo step)."""
        ids = [i for i in dict.fromkeys(paper_ids) if i in self.service.papers_with_tag(name)]
        if not ids:
            return False
        changes = self._guard(lambda: self.service.untag(ids, [name]))
        if changes is None:
            return False
        self._push(undo.UntagCommand(self.service, self.notify, ids, name), changes)
        return True

    def rename_tag(self, old: str, new: str) -> bool:
        """Rename a tag; renaming onto an existing tag merges them (one undo step)."""
        svc = self.service
        cleaned = " ".join(new.split())
        if not cleaned or cleaned == old:
            return False
        first = self._guard(lambda: svc.snapshot_tag(old))
        if first is None:
            return False
        snaps = [first]
        merging = svc.tag_exists(cleaned) and cleaned.casefold() != old.casefold()
        if merging:
            snaps.append(svc.snapshot_tag(cleaned))
        changes = self._guard(lambda: svc.rename_tag(old, cleaned))
        if changes is None:
            return False
        text = (
            f"Merge tag “{old}” into “{cleaned}”"
            if merging
            else f"Rename tag “{old}” to “{cleaned}”"
        )
        self._push(
            undo.TagSnapshotCommand(
                svc, self.notify, text, lambda: svc.rename_tag(old, cleaned), snaps
            ),
            changes,
        )
        return True

    def delete_tag(self, name: str) -> bool:
        """Delete a tag from every paper (one undo step)."""
        svc = self.service
        snap = self._guard(lambda: svc.delete_tag(name))
        if snap is None:
            return False

        def again() -> Changes:
            svc.delete_tag(name)
            return Changes(papers=snap.paper_ids, tags=True)

        self._push(
            undo.TagSnapshotCommand(svc, self.notify, f"Delete tag “{name}”", again, [snap]),
            Changes(papers=snap.paper_ids, tags=True),
        )
        return True

    def set_tag_colour(self, name: str, colour: str | None) -> bool:
        """Give a tag a colour (one undo step)."""
        svc = self.service
        snap = self._guard(lambda: svc.snapshot_tag(name))
        if snap is None:
            return False
        changes = self._guard(lambda: svc.set_tag_colour(name, colour))
        if changes is None:
            return False
        self._push(
            undo.TagSnapshotCommand(
                svc,
                self.notify,
                f"Set colour of tag “{name}”",
                lambda: svc.set_tag_colour(name, colour),
                [snap],
            ),
            changes,
        )
        return True

    # -- fields -----------------------------------------------------------------------------

    def edit_fields(
        self,
        paper_id: int,
        *,
        title: str | None = None,
        year: int | object | None = _UNSET,
        venue: str | object | None = _UNSET,
    ) -> bool:
        """Edit title, year or venue by hand (one undo step); the edit survives imports."""
        svc = self.service
        before = self._guard(lambda: svc.fields(paper_id))
        if before is None:
            return False
        kwargs: dict[str, object] = {}
        labels = []
        if title is not None and (
            " ".join(title.split()) != before.title or before.title_provisional
        ):
            kwargs["title"] = title
            labels.append("title")
        if year is not _UNSET and year != before.year:
            kwargs["year"] = year
            labels.append("year")
        if venue is not _UNSET and (venue or None) != before.venue:
            kwargs["venue"] = venue
            labels.append("venue")
        if not kwargs:
            return False
        changes = self._guard(lambda: svc.edit_fields(paper_id, **kwargs))  # type: ignore[arg-type]
        if changes is None:
            return False
        after = svc.fields(paper_id)
        self._push(
            undo.FieldsCommand(svc, self.notify, before, after, " and ".join(labels)), changes
        )
        return True

    # -- trash ------------------------------------------------------------------------------

    def trash(self, paper_ids: Sequence[int]) -> bool:
        """Move papers to the Trash (one undo step)."""
        return self._trash(paper_ids, trash=True)

    def restore(self, paper_ids: Sequence[int]) -> bool:
        """Restore papers from the Trash (one undo step)."""
        return self._trash(paper_ids, trash=False)

    def _trash(self, paper_ids: Sequence[int], *, trash: bool) -> bool:
        ids = list(dict.fromkeys(paper_ids))
        if not ids:
            return False
        svc = self.service
        before = svc.trashed_at(ids)
        changes = self._guard(lambda: svc.trash(ids) if trash else svc.restore(ids))
        if changes is None:
            return False
        after = svc.trashed_at(ids)
        n = len(ids)
        noun = "paper" if n == 1 else "papers"
        text = f"Move {n} {noun} to Trash" if trash else f"Restore {n} {noun}"
        self._push(undo.TrashCommand(svc, self.notify, before, after, text), changes)
        return True

    def empty_trash(self) -> int:
        """Delete the papers in the Trash for good; this cannot be undone, so the undo
        history (which may refer to those papers) is cleared."""
        deleted = self._guard(self.service.empty_trash)
        if deleted is None:
            return 0
        self.undo_stack.clear()
        self.notify(Changes(structure=True, tags=True))
        return deleted

    # -- notes ------------------------------------------------------------------------------

    def add_note(self, paper_id: int, text: str = "") -> NoteView | None:
        """Add a note to a paper (one undo step)."""
        note = self._guard(lambda: self.service.add_note(paper_id, text))
        if note is None:
            return None
        self._push(
            undo.AddNoteCommand(self.service, self.notify, note),
            Changes(papers=frozenset([paper_id]), notes=True),
        )
        return note

    def edit_note(self, note_id: int, text: str) -> NoteView | None:
        """Save a note's text; typing in one note forms a single undo step."""
        svc = self.service
        before = self._guard(lambda: svc.note(note_id))
        if before is None or before.text == text:
            return before
        after = self._guard(lambda: svc.edit_note(note_id, text))
        if after is None:
            return None
        self._push(
            undo.EditNoteCommand(svc, self.notify, before, after),
            Changes(papers=frozenset([after.paper_id]), notes=True),
        )
        return after

    def delete_note(self, note_id: int) -> bool:
        """Delete a note (one undo step)."""
        note = self._guard(lambda: self.service.delete_note(note_id))
        if note is None:
            return False
        self._push(
            undo.DeleteNoteCommand(self.service, self.notify, note),
            Changes(papers=frozenset([note.paper_id]), notes=True),
        )
        return True

    def clear_possible_duplicate(self, paper_id: int) -> bool:
        """Mark a paper as not a duplicate of the one an import found it close to."""
        detail = self._guard(lambda: self.service.paper(paper_id))
        if detail is None or detail.possible_duplicate_of is None:
            return False
        other = detail.possible_duplicate_of
        changes = self._guard(lambda: self.service.clear_possible_duplicate(paper_id))
        if changes is None:
            return False
        self._push(undo.DuplicateFlagCommand(self.service, self.notify, paper_id, other), changes)
        return True

    # -- import -----------------------------------------------------------------------------

    def record_import(
        self,
        pages: Sequence[SourcedPage],
        choices: ImportChoices,
        result: ImportResult,
        at: datetime,
    ) -> None:
        """Push an import that already ran (off the GUI thread) as one undo step."""
        changes = Changes(
            papers=frozenset(result.paper_ids),
            added=frozenset(result.new_ids),
            tags=True,
            structure=True,
        )
        if result.batch_ids:
            self._push(
                undo.ImportCommand(self.service, self.notify, pages, choices, result, at), changes
            )
        else:
            self.notify(changes)
