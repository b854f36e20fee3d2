"""A library that can only be read: every editor read-only and every control that would
change the library disabled, each saying why (its tooltip)."""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QTextEdit, QWidget

#: The property that marks a control whose use changes the library.
CHANGES = "changesLibrary"


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
