"""A library that can only be read: every editor read-only and every control that would
change the library disabled, each saying why (its tooltip)."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QTextEdit, QWidget

from refman.common.errors import LibraryUnavailableError

#: The property that marks a control whose use changes the library.
CHANGES = "changesLibrary"
#: The property of an action locked because the library can only be read (the reason).
LOCKED = "lockedReason"


def lock_action(action: QAction, reason: str | None) -> None:
    """Disable an action that changes the library while it can only be read, saying why
    (None: the library can be changed again; the action is enabled)."""
    action.setProperty(LOCKED, reason or "")
    action.setEnabled(reason is None)
    action.setToolTip(reason or "")


def locked(action: QAction | None, hint: str = "") -> LibraryUnavailableError | None:
    """Why an action cannot be done another way (a drop, a button of its own) either: it is
    locked by :func:`lock_action` (None: it is not)."""
    reason = action.property(LOCKED) if action is not None else None
    return LibraryUnavailableError(str(reason), hint) if reason else None


def enable_action(action: QAction, enabled: bool) -> None:
    """Enable an action as its selection allows, unless it is locked (:func:`lock_action`):
    the one way actions that follow the selection are enabled."""
    action.setEnabled(enabled and not action.property(LOCKED))


def mark_changing(*widgets: QWidget) -> None:
    """Mark controls whose use changes the library (a delete button, a type picker)."""
    for widget in widgets:
        widget.setProperty(CHANGES, True)


def lock(root: QWidget, reason: str) -> None:
    """Make every editor under ``root`` read-only and disable every control marked with
    :func:`mark_changing`, each with ``reason`` as its tooltip."""
    editors: list[QLineEdit | QTextEdit | QPlainTextEdit] = [
        *root.findChildren(QLineEdit),
        *root.findChildren(QTextEdit),
        *root.findChildren(QPlainTextEdit),
    ]
    for editor in editors:
        if not editor.isReadOnly():
            editor.setReadOnly(True)
            editor.setToolTip(reason)
    for widget in root.findChildren(QWidget):
        if widget.property(CHANGES):
            widget.setEnabled(False)
            widget.setToolTip(reason)
