"""The window's undo history: one :class:`UndoStep` per change, on one QUndoStack.

A step holds no logic: the controller applied the change before pushing it, and undo and redo
apply the operations it holds (:meth:`LibraryController.undo
<refman.ui.controller.LibraryController.undo>`). Each step keeps the operation that takes it
back and, once undone, the one that makes it again.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QUndoCommand

from refman.core.notes import merged_inverse
from refman.core.operations import Operation, SetNote

#: Steps whose inverses may merge (typing in one note) share this id.
NOTE_EDIT_ID = 1001


class UndoStep(QUndoCommand):
    """One change in the Edit menu's history.

    Attributes:
        inverse: Takes the change back (while the change is done).
        redo_op: Makes the change again (while it is undone).
    """

    def __init__(self, label: str, inverse: Operation[Any]) -> None:
        super().__init__(label)
        self.inverse: Operation[Any] = inverse
        self.redo_op: Operation[Any] | None = None
        self.undone = False

    def swap(self, opposite: Operation[Any] | None) -> None:
        """After undo or redo: the operation just applied gave ``opposite`` as its inverse.

        When it gave none (it found nothing left to change), the step leaves the history as
        the stack moves past it.
        """
        if opposite is None:
            self.setObsolete(True)
        elif self.undone:
            self.inverse, self.redo_op = opposite, None
        else:
            self.redo_op = opposite
        self.undone = not self.undone

    def id(self) -> int:
        """Saving a note merges with the step before it when it is the same note's."""
        return NOTE_EDIT_ID if isinstance(self.inverse, SetNote) else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        """Typing in one note undoes as one step: keep the oldest text to go back to."""
        if not isinstance(other, UndoStep) or self.undone:
            return False
        merged = merged_inverse(self.inverse, other.inverse)
        if merged is None:
            return False
        self.inverse = merged
        return True

    def undo(self) -> None:
        """Nothing: the controller applied the inverse before moving the history."""

    def redo(self) -> None:
        """Nothing: the change was made before the step was pushed."""
