"""Note text on its way to the library: typed and not yet saved, or saved and not yet landed.

Kept outside the note widgets so that it outlives them: text still waiting when the editor is
destroyed is saved at once, so nothing typed is lost.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from refman.common.errors import EditConflictError, LibraryUnavailableError, RefmanError
from refman.core.operations import DeleteNote, EditNote, Outcome
from refman.core.values import NoteView

from refman.ui.conflicts import resolve_note
from refman.ui.controller import LibraryController
from refman.ui.undo import UndoStep

log = logging.getLogger("refman.ui")


class PendingNotes:
    """Note text typed but not yet saved, kept outside the widgets so it outlives them.

    Attributes:
        texts: Text typed and not yet handed to the runner, by note id.
        saving: Text handed to the runner that has not landed yet, by note id (the newest).
    """

    def __init__(self, controller: LibraryController) -> None:
        self.controller = controller
        #: Notes say who changed them last (on a shared library).
        self.shared = controller.service.db.shared
        self.texts: dict[int, str] = {}
        self.saving: dict[int, str] = {}
        #: The text each note's waiting typing started from (what its save is based on).
        self.bases: dict[int, str] = {}
        #: The paper of each note shown (a note kept as a second one goes to it).
        self.papers: dict[int, int] = {}
        #: The note typed in last (None: none yet).
        self.last: int | None = None
        #: Papers deleted for good while written in: their notes' text is held back here
        #: (:mod:`refman.ui.kept_paper`).
        self.gone: set[int] = set()
        #: Notes never kept again once deleted: deleted here, or kept again already.
        self.let_go: set[int] = set()
        #: Told (the note deleted, the new one) when a note deleted elsewhere while written
        #: in was kept as a new note.
        self.on_kept: Callable[[int, Outcome[NoteView]], None] | None = None
        self.closed = False

    def stored_text(self, note: NoteView) -> str:
        """A note's text as it is once the saves on their way have landed."""
        return self.saving.get(note.id, note.text)

    def save(
        self,
        note_id: int,
        on_saved: Callable[[], None] | None = None,
        on_refused: Callable[[], None] | None = None,
    ) -> None:
        """Save one note's waiting text (off the GUI thread); ``on_saved`` when it landed.
        A library that cannot take it now (its server out of reach, a file locked or full)
        leaves the text waiting, saved with the next save; ``on_refused`` is told."""
        if self.papers.get(note_id) in self.gone:
            return  # (its paper was deleted for good: the text stays where it was typed)
        text = self.texts.pop(note_id, None)
        if text is None:
            return
        base = self.bases.pop(note_id, None)
        self.saving[note_id] = text

        def ended() -> None:
            if self.saving.get(note_id) == text:
                del self.saving[note_id]

        def refused(error: RefmanError) -> None:
            if isinstance(error, LibraryUnavailableError) and note_id not in self.texts:
                self.texts[note_id] = text  # (nothing newer typed meanwhile)
                if base is not None:
                    self.bases.setdefault(note_id, base)
                if on_refused is not None:
                    on_refused()

        self.controller.apply(
            EditNote(note_id, text, base),
            (lambda _outcome: on_saved()) if on_saved else None,
            on_error=refused,
            on_end=ended,
            label="Saving your note…",
            on_conflict=lambda e: self._conflicted(note_id, e),
        )

    def _conflicted(self, note_id: int, error: EditConflictError) -> None:
        deleted = error.fields[0][3] is None
        if deleted and note_id in self.let_go:
            return
        if deleted:
            self.let_go.add(note_id)
        resolve_note(self.controller, note_id, self.papers.get(note_id), error, self._kept(note_id))

    def _kept(self, note_id: int) -> Callable[[Outcome[NoteView]], None]:
        def kept(outcome: Outcome[NoteView]) -> None:
            if self.on_kept is not None:
                self.on_kept(note_id, outcome)

        return kept

    def take_back(self, note_id: int) -> None:
        """A note added and left with nothing in it goes: its Add Note is undone while it is
        the last change (the history as before it; Redo brings the note back), else the
        note is deleted (an undo step), once the changes asked for before have landed."""
        runner, stack = self.controller.runner, self.controller.undo_stack
        if not runner.idle:
            runner.when_idle(lambda: self.take_back(note_id))
            return
        step = stack.command(stack.index() - 1) if stack.index() else None
        if isinstance(step, UndoStep) and step.inverse == DeleteNote(note_id, expect_text=""):
            self.controller.undo()
        else:
            self.controller.apply(DeleteNote(note_id, expect_text=""))

    def forget(self, paper_id: int) -> None:
        """Drop the waiting text of a paper's notes (its paper is gone, and what was typed
        went with it where it was kept)."""
        for note_id in [n for n, p in self.papers.items() if p == paper_id]:
            self.texts.pop(note_id, None)
            self.bases.pop(note_id, None)

    def save_all(self) -> None:
        """Save everything still waiting."""
        for note_id in list(self.texts):
            self.save(note_id)

    def on_editor_destroyed(self, *_args: object) -> None:
        """The editor is gone: save what it left, now, and let its pane ignore changes."""
        self.closed = True
        for note_id, text in list(self.texts.items()):
            self.texts.pop(note_id, None)
            if self.papers.get(note_id) in self.gone:
                continue  # (kept with its paper by then: see refman.ui.kept_paper)
            try:
                self.controller.apply_now(EditNote(note_id, text))
            except Exception:  # a last resort while tearing down: log, never crash the exit
                log.exception("could not save note #%s while closing", note_id)
