"""Ctrl+Z in a field that has nothing of its own to undo undoes the library's last change.

A text field takes Ctrl+Z (and Ctrl+Shift+Z, Ctrl+Y) for itself, to undo its own typing,
even when there is none: after a title, a year or a tag is typed and Enter pressed, the
cursor is still in the field, the Edit menu says "Undo Edit title", and Ctrl+Z did nothing.
While a field holds typing not yet handed over, the keys undo the typing as before; once it
holds none, they go to the window's Undo and Redo.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence

_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)


def passes_undo(event: QEvent, typing: bool) -> bool:
    """True (the event left unaccepted) when the event asks a field without ``typing`` of its
    own to let Undo or Redo through to the window's actions; the field then skips it."""
    if typing or event.type() != QEvent.Type.ShortcutOverride:
        return False
    if not isinstance(event, QKeyEvent) or not any(event.matches(key) for key in _KEYS):
        return False
    event.ignore()
    return True


class UndoPassing(QObject):
    """An event filter that lets Undo and Redo through a plain line edit while it is empty
    (the field that adds tags: what it held is handed over on Enter)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        text = watched.property("text")
        return passes_undo(event, bool(text))
