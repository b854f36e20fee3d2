"""The window's one way to change the library: operations run off the GUI thread, then pushed
on the undo stack and fanned out to the panes.

Every change is a :class:`~refman.core.operations.Operation` the library service applies in
one transaction (the command line applies the very same ones). The controller runs it through
the window's :class:`~refman.ui.runner.OperationRunner`, pushes the :class:`Outcome`'s inverse
as one undo step, and emits
:attr:`LibraryController.changed` so each pane refreshes what the change touched. Undo and redo
apply the inverse the same way; one refused because its paper was changed or deleted
elsewhere is dropped from the history with a message, never applied to the wrong state (one
the library could not take now, its server away, stays in it: tried again later).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QWidget

from refman.common.errors import EditConflictError, LibraryUnavailableError, RefmanError
from refman.common.sequences import frozen
from refman.core import operations as ops
from refman.core.library import LibraryService
from refman.core.listing import ListReader
from refman.core.merged_edits import EditShownPaper
from refman.core.operations import Operation, Outcome
from refman.core.reading_status import MarkPapers
from refman.core.rules import FieldEdits
from refman.core.values import Changes, NoteView
from refman.core.watching import change_feed

from refman.ui.list_worker import ListWorker
from refman.ui.messages import show_error
from refman.ui.purging import Purger
from refman.ui.runner import Job, OperationRunner
from refman.ui.undo import UndoStep
from refman.ui.watcher import LibraryWatcher

log = logging.getLogger("refman.ui")

T = TypeVar("T")
#: What a change made elsewhere may have touched: anything (the panes read again what they
#: show, keeping the selection and what is being typed).
CHANGED_ELSEWHERE = Changes(tags=True, notes=True, structure=True, people=True)
OnError = Callable[[RefmanError], None]
OnConflict = Callable[[EditConflictError], None]
OnPapers = Callable[[Outcome[tuple[int, ...]]], None]  # told the ids of the papers changed


class LibraryController(QObject):
    """Owns the library service, the undo stack and the runner of one window.

    Signals:
        changed(Changes): The library changed; views refresh what it names.
        select_wanted(tuple): Papers the list should select when it shows them (those an
            undo or redo brought back, the paper a merge kept).
        stepped(str, str, bool): An undo or redo landed: "undo" or "redo", the step's text,
            and whether it changed anything (not when changed elsewhere since).
    """

    changed = Signal(object)
    select_wanted = Signal(object)
    stepped = Signal(str, str, bool)

    def __init__(
        self, service: LibraryService, parent: QObject | None = None, window: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.service = service
        self.undo_stack = QUndoStack(self)
        self.runner = OperationRunner(self, window)
        self.lists = ListWorker(lambda: ListReader(service.db, service.files), self)
        #: Called first when the controller shuts down.
        self.on_shutdown: list[Callable[[], None]] = []
        self._stepping = False
        #: Deletes for good, in the background, the papers undone imports withdrew.
        self.purger = Purger(service, self.runner, self._tell)
        self.on_shutdown.append(self.purger.stop)
        #: Hears about changes made elsewhere (started by :meth:`watch`).
        self.watcher = LibraryWatcher(lambda: change_feed(service), self)
        self.watcher.changed_elsewhere.connect(self._on_changed_elsewhere)

    def watch(self) -> None:
        """Follow changes made elsewhere to the library: the panes refresh within a second
        (keeping the selection, and what is being typed)."""
        self.watcher.start()

    def _on_changed_elsewhere(self) -> None:
        log.info("the library was changed elsewhere")
        self.changed.emit(CHANGED_ELSEWHERE)

    @property
    def window(self) -> QWidget | None:
        """The window that shows this controller's messages."""
        return self.runner.window

    @window.setter
    def window(self, window: QWidget | None) -> None:
        self.runner.window = window

    def wait(self, timeout_ms: int = 20_000) -> bool:
        """Process events until every change has landed and the list read what it asked
        (tests, screenshots, closing). Returns True when both are idle."""
        deadline = time.monotonic() + timeout_ms / 1000
        while (left := int((deadline - time.monotonic()) * 1000)) > 0:
            # A job that ends may queue another (a conflict answered): wait for that too.
            self.runner.wait(left)
            self.lists.wait(max(1, int((deadline - time.monotonic()) * 1000)))
            if self.runner.idle and self.lists.idle:
                return True
        return self.runner.idle and self.lists.idle

    def shutdown(self) -> None:
        """Finish the queued changes and stop the worker threads (and what else registered
        in :attr:`on_shutdown`: the reading of PDFs' text)."""
        for stop in self.on_shutdown:
            stop()
        self.watcher.stop()
        self.runner.shutdown()
        self.lists.shutdown()

    # -- running operations -----------------------------------------------------------------

    def apply(
        self,
        op: Operation[T],
        on_done: Callable[[Outcome[T]], None] | None = None,
        *,
        on_error: OnError | None = None,
        on_end: Callable[[], None] | None = None,
        label: str = "Saving your change…",
        on_conflict: OnConflict | None = None,
    ) -> Job[Outcome[T]]:
        """Run an operation; when it ends, record its undo step and tell the panes.

        Args:
            op: The change.
            on_done: Called with the outcome after the panes were told.
            on_error: Called with a refused change, after the user was shown why.
            on_end: Called first when the change ended, however it ended.
            label: What the busy indicator says if the change takes a while.
            on_conflict: Asks the person instead of showing the error when the change was
                based on something someone else has changed since.
        """
        return self.apply_built(
            lambda: op,
            on_done,
            on_error=on_error,
            on_end=on_end,
            label=label,
            on_conflict=on_conflict,
        )

    def apply_built(
        self,
        make: Callable[[], Operation[T]],
        on_done: Callable[[Outcome[T]], None] | None = None,
        *,
        on_error: OnError | None = None,
        on_end: Callable[[], None] | None = None,
        label: str = "Saving your change…",
        on_conflict: OnConflict | None = None,
    ) -> Job[Outcome[T]]:
        """:meth:`apply` for an operation built on the worker (one over a selection of a
        million papers is not copied and checked on the GUI thread): ``make`` may only use
        plain values, never widgets; a value it refuses is shown as a refused change."""

        def done(outcome: Outcome[T]) -> None:
            self._record(outcome)
            if on_done is not None:
                on_done(outcome)

        return self.runner.submit(
            lambda progress, cancelled: self.service.apply(
                make(), progress=progress, cancelled=cancelled
            ),
            done,
            on_error=self._failed(on_error, on_conflict),
            label=label,
            on_end=on_end,
        )

    def apply_now(self, op: Operation[T]) -> Outcome[T]:
        """Run an operation on this thread, after the queued ones (when the window closes).

        Raises:
            RefmanError: The change was refused.
        """
        outcome = self.runner.run_now(lambda _p, _c: self.service.apply(op))
        self._record(outcome)
        return outcome

    def record(self, outcome: Outcome[Any]) -> None:
        """Push the undo step of an operation that ran elsewhere (the import wizard's)."""
        self._record(outcome)

    def _record(self, outcome: Outcome[Any]) -> None:
        if outcome.irreversible:
            self.undo_stack.clear()  # the history may refer to what is gone for good
        elif outcome.inverse is not None:
            self.undo_stack.push(UndoStep(outcome.label, outcome.inverse))
        self._tell(outcome.changes)

    def _tell(self, changes: Changes) -> None:
        if changes:
            self.changed.emit(changes)
        if changes.purging:
            self.purger.later()

    def _failed(self, extra: OnError | None, on_conflict: OnConflict | None = None) -> OnError:
        def failed(error: RefmanError) -> None:
            if on_conflict is not None and isinstance(error, EditConflictError):
                on_conflict(error)
                return
            show_error(self.window, error)
            if extra is not None:
                extra(error)

        return failed

    def _try(
        self,
        make: Callable[[], Operation[T]],
        on_done: Callable[[Outcome[T]], None] | None = None,
        on_error: OnError | None = None,
        on_conflict: OnConflict | None = None,
    ) -> Job[Outcome[T]] | None:
        """Build an operation (its values are checked then) and run it."""
        try:
            op = make()
        except RefmanError as error:
            self._failed(on_error)(error)
            return None
        return self.apply(op, on_done, on_error=on_error, on_conflict=on_conflict)

    # -- undo and redo ----------------------------------------------------------------------

    def undo(self) -> None:
        """Take the last change back (off the GUI thread), once the changes asked for before
        have landed (so that it is the last one that is taken back)."""
        if not self.runner.idle:
            self.runner.when_idle(self.undo)
            return
        index = self.undo_stack.index()
        if self._stepping or index == 0:
            return
        step = self.undo_stack.command(index - 1)
        assert isinstance(step, UndoStep)
        self._step(step, step.inverse, self.undo_stack.undo, "undo")

    def redo(self) -> None:
        """Make the last undone change again (once the changes asked for before landed)."""
        if not self.runner.idle:
            self.runner.when_idle(self.redo)
            return
        index = self.undo_stack.index()
        if self._stepping or index >= self.undo_stack.count():
            return
        step = self.undo_stack.command(index)
        assert isinstance(step, UndoStep) and step.redo_op is not None
        self._step(step, step.redo_op, self.undo_stack.redo, "redo")

    def _step(
        self, step: UndoStep, op: Operation[Any], move: Callable[[], None], verb: str
    ) -> None:
        self._stepping, text = True, step.text()

        def done(outcome: Outcome[Any]) -> None:
            self._stepping = False
            step.swap(outcome.inverse)
            move()
            if isinstance(ids := outcome.value, tuple) and ids and isinstance(ids[0], int):
                self.select_wanted.emit(ids)
            self._tell(outcome.changes)
            self.stepped.emit(verb, text, outcome.inverse is not None)

        def refused(error: RefmanError) -> None:
            self._stepping = False
            log.info("%s refused: %s", text, error)
            if not isinstance(error, LibraryUnavailableError):  # (else kept: tried again)
                step.setObsolete(True)
                move()  # an obsolete step leaves the history (and is deleted)
            show_error(self.window, error, f"Cannot {verb} “{text}”")

        self.runner.submit(
            lambda progress, cancelled: self.service.apply(
                op, progress=progress, cancelled=cancelled
            ),
            done,
            on_error=refused,
            label=f"{text}…",
        )

    # -- the changes the panes ask for ------------------------------------------------------

    def tag(self, paper_ids: Sequence[int], names: Sequence[str]) -> None:
        """Put tags on papers (one undo step)."""
        if paper_ids and names:
            chosen = tuple(names)
            self.apply_built(lambda: ops.TagPapers(frozen(paper_ids), chosen))

    def untag(self, paper_ids: Sequence[int], name: str) -> None:
        """Take a tag off papers (one undo step)."""
        if paper_ids:
            self.apply_built(lambda: ops.UntagPapers(frozen(paper_ids), (name,)))

    def rename_tag(self, old: str, new: str, on_error: OnError | None = None) -> None:
        """Rename a tag; renaming onto an existing tag merges them (one undo step)."""
        self._try(lambda: ops.RenameTag(old, new), on_error=on_error)

    def delete_tag(self, name: str) -> None:
        """Delete a tag from every paper (one undo step)."""
        self.apply(ops.DeleteTag(name))

    def set_tag_colour(self, name: str, colour: str | None) -> None:
        """Give a tag a colour (one undo step)."""
        self.apply(ops.SetTagColour(name, colour))

    def edit_fields(
        self,
        paper_id: int,
        make_edits: Callable[[], FieldEdits],
        on_error: OnError | None = None,
        *,
        based_on: ops.FieldValues = (),
        on_conflict: OnConflict | None = None,
        on_moved: Callable[[int], None] | None = None,
    ) -> None:
        """Edit a paper's fields by hand (one undo step); the edit survives imports.

        Args:
            make_edits: Makes the edits (a value its rule refuses is shown, changing nothing).
            on_error: Called when the edit is refused (the field shows its old value again).
            based_on: The values the person saw of the fields edited.
            on_conflict: Asks the person when someone else changed such a field since.
            on_moved: For a paper seen in the library: told the paper it was merged into
                since (the edit went there).
        """
        self._try(
            lambda: EditShownPaper(paper_id, make_edits(), based_on, follow=on_moved is not None),
            lambda done: on_moved(done.value) if on_moved and done.value != paper_id else None,
            on_error=on_error,
            on_conflict=on_conflict,
        )

    def trash(self, paper_ids: Sequence[int], on_done: OnPapers | None = None) -> None:
        """Move papers to the Trash (one undo step)."""
        if paper_ids:
            self.apply_built(lambda: ops.TrashPapers(frozen(paper_ids)), on_done)

    def mark(
        self, paper_ids: Sequence[int], status: str | None = None, rating: int | None = None
    ) -> None:
        """Set papers' reading status and/or rating (one undo step)."""
        if paper_ids:
            self.apply_built(lambda: MarkPapers(frozen(paper_ids), status, rating))

    def restore(self, paper_ids: Sequence[int], on_done: OnPapers | None = None) -> None:
        """Restore papers from the Trash (one undo step)."""
        if paper_ids:
            self.apply_built(lambda: ops.RestorePapers(frozen(paper_ids)), on_done)

    def empty_trash(self) -> None:
        """Delete the papers in the Trash for good; the undo history is cleared with them."""
        self.apply(ops.EmptyTrash(), label="Emptying the Trash…")

    def add_note(
        self, paper_id: int, on_done: Callable[[Outcome[NoteView]], None] | None = None
    ) -> None:
        """Add an empty note to a paper (one undo step)."""
        self.apply(ops.AddNote(paper_id), on_done)

    def edit_note(
        self,
        note_id: int,
        text: str,
        on_done: Callable[[Outcome[NoteView]], None] | None = None,
        on_end: Callable[[], None] | None = None,
        *,
        based_on: str | None = None,
        on_conflict: OnConflict | None = None,
    ) -> None:
        """Save a note's text (typing in one note: one undo step); ``on_conflict`` asks the
        person when someone else changed it since ``based_on``, the text they started from."""
        self.apply(
            ops.EditNote(note_id, text, based_on),
            on_done,
            on_end=on_end,
            label="Saving your note…",
            on_conflict=on_conflict,
        )

    def delete_note(self, note_id: int) -> None:
        """Delete a note (one undo step)."""
        self.apply(ops.DeleteNote(note_id))
