"""Undo commands: every user edit in the window is one of these, pushed on one QUndoStack.

Each command's ``redo``/``undo`` call the library service, never widgets, and report what
changed through a callback. The first ``redo`` is skipped: the controller performs the
change before pushing the command, so a change that fails is never pushed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from PySide6.QtGui import QUndoCommand

from refman.core.import_values import ImportChoices, ImportResult, SourcedPage
from refman.core.library import LibraryService
from refman.core.values import Changes, FieldSnapshot, NoteView, TagSnapshot

from refman.ui.workers import run_with_progress

Notify = Callable[[Changes], None]

NOTE_EDIT_ID = 1001


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one}" if n == 1 else f"{n} {many or one + 's'}"


class ServiceCommand(QUndoCommand):
    """A command whose first redo already happened when it was pushed."""

    def __init__(self, service: LibraryService, notify: Notify, text: str) -> None:
        super().__init__(text)
        self.service = service
        self.notify = notify
        self._done = True

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        self.notify(run_with_progress(self.do, f"Redoing: {self.text()}…"))

    def undo(self) -> None:
        self.notify(run_with_progress(self.revert, f"Undoing: {self.text()}…"))

    def do(self) -> Changes:
        """Apply the change again."""
        raise NotImplementedError

    def revert(self) -> Changes:
        """Take the change back."""
        raise NotImplementedError


class TagCommand(ServiceCommand):
    """Add tags to papers (undo removes exactly the links that were added)."""

    def __init__(
        self,
        service: LibraryService,
        notify: Notify,
        paper_ids: Sequence[int],
        names: Sequence[str],
        before: dict[str, frozenset[int]],
        existed: dict[str, bool],
    ) -> None:
        label = ", ".join(f"“{n}”" for n in names)
        super().__init__(service, notify, f"Add tag {label} to {_plural(len(paper_ids), 'paper')}")
        self.paper_ids = list(paper_ids)
        self.names = list(names)
        self.before = before
        self.existed = existed

    def do(self) -> Changes:
        return self.service.tag(self.paper_ids, self.names)

    def revert(self) -> Changes:
        changes = Changes()
        for name in self.names:
            newly = [i for i in self.paper_ids if i not in self.before.get(name, frozenset())]
            changes = self.service.untag(newly, [name], drop_unused=not self.existed[name])
        return Changes(papers=frozenset(self.paper_ids), tags=True) if changes else changes


class UntagCommand(ServiceCommand):
    """Remove a tag from papers."""

    def __init__(
        self, service: LibraryService, notify: Notify, paper_ids: Sequence[int], name: str
    ) -> None:
        super().__init__(
            service, notify, f"Remove tag “{name}” from {_plural(len(paper_ids), 'paper')}"
        )
        self.paper_ids = list(paper_ids)
        self.name = name

    def do(self) -> Changes:
        return self.service.untag(self.paper_ids, [self.name])

    def revert(self) -> Changes:
        return self.service.tag(self.paper_ids, [self.name])


class TagSnapshotCommand(ServiceCommand):
    """Rename, merge or delete a tag; undo restores the snapshots taken before."""

    def __init__(
        self,
        service: LibraryService,
        notify: Notify,
        text: str,
        action: Callable[[], Changes],
        snapshots: Sequence[TagSnapshot],
    ) -> None:
        super().__init__(service, notify, text)
        self.action = action
        self.snapshots = list(snapshots)

    def do(self) -> Changes:
        return self.action()

    def revert(self) -> Changes:
        papers: set[int] = set()
        for snap in self.snapshots:
            papers |= self.service.restore_tag(snap).papers
        return Changes(papers=frozenset(papers), tags=True)


class FieldsCommand(ServiceCommand):
    """Edit title, year or venue of a paper."""

    def __init__(
        self,
        service: LibraryService,
        notify: Notify,
        before: FieldSnapshot,
        after: FieldSnapshot,
        label: str,
    ) -> None:
        super().__init__(service, notify, f"Edit {label}")
        self.before = before
        self.after = after

    def do(self) -> Changes:
        return self.service.restore_fields(self.after)

    def revert(self) -> Changes:
        return self.service.restore_fields(self.before)


class TrashCommand(ServiceCommand):
    """Move papers to the Trash, or restore them."""

    def __init__(
        self,
        service: LibraryService,
        notify: Notify,
        before: dict[int, datetime | None],
        after: dict[int, datetime | None],
        text: str,
    ) -> None:
        super().__init__(service, notify, text)
        self.before = before
        self.after = after

    def do(self) -> Changes:
        return self.service.set_trashed(self.after)

    def revert(self) -> Changes:
        return self.service.set_trashed(self.before)


class AddNoteCommand(ServiceCommand):
    """Add a note."""

    def __init__(self, service: LibraryService, notify: Notify, note: NoteView) -> None:
        super().__init__(service, notify, "Add note")
        self.note = note

    def do(self) -> Changes:
        self.service.restore_note(self.note)
        return Changes(papers=frozenset([self.note.paper_id]), notes=True)

    def revert(self) -> Changes:
        self.service.delete_note(self.note.id)
        return Changes(papers=frozenset([self.note.paper_id]), notes=True)


class DeleteNoteCommand(AddNoteCommand):
    """Delete a note (the reverse of adding it)."""

    def __init__(self, service: LibraryService, notify: Notify, note: NoteView) -> None:
        super().__init__(service, notify, note)
        self.setText("Delete note")

    def do(self) -> Changes:
        return AddNoteCommand.revert(self)

    def revert(self) -> Changes:
        return AddNoteCommand.do(self)


class EditNoteCommand(ServiceCommand):
    """Change a note's text; consecutive edits of one note merge into one step."""

    def __init__(
        self, service: LibraryService, notify: Notify, before: NoteView, after: NoteView
    ) -> None:
        super().__init__(service, notify, "Edit note")
        self.before = before
        self.after = after

    def id(self) -> int:
        return NOTE_EDIT_ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, EditNoteCommand) or other.after.id != self.after.id:
            return False
        self.after = other.after
        return True

    def do(self) -> Changes:
        self.service.set_note_exactly(self.after)
        return Changes(papers=frozenset([self.after.paper_id]), notes=True)

    def revert(self) -> Changes:
        self.service.set_note_exactly(self.before)
        return Changes(papers=frozenset([self.before.paper_id]), notes=True)


class DuplicateFlagCommand(ServiceCommand):
    """Mark a paper as not a duplicate (undo puts the flag back)."""

    def __init__(
        self, service: LibraryService, notify: Notify, paper_id: int, other: int | None
    ) -> None:
        super().__init__(service, notify, "Mark as not a duplicate")
        self.paper_id = paper_id
        self.other = other

    def do(self) -> Changes:
        return self.service.set_possible_duplicate(self.paper_id, None)

    def revert(self) -> Changes:
        return self.service.set_possible_duplicate(self.paper_id, self.other)


class ImportCommand(ServiceCommand):
    """A whole import: undo returns the library to exactly its state before it."""

    def __init__(
        self,
        service: LibraryService,
        notify: Notify,
        pages: Sequence[SourcedPage],
        choices: ImportChoices,
        result: ImportResult,
        at: datetime,
    ) -> None:
        owners = ", ".join(dict.fromkeys(p.page.owner for p in pages if p.page.owner))
        super().__init__(service, notify, f"Import {owners or 'author page'}")
        self.pages = list(pages)
        self.choices = choices
        self.result = result
        self.at = at

    def do(self) -> Changes:
        self.result = self.service.import_pages(self.pages, self.choices, at=self.at)
        return Changes(
            papers=frozenset(self.result.paper_ids),
            added=frozenset(self.result.new_ids),
            tags=True,
            structure=True,
        )

    def revert(self) -> Changes:
        return self.service.undo_import(self.result.batch_ids)
