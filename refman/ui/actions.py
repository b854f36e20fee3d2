"""Every action of the main window, created in one place with its text and shortcut.

Menus, toolbars and context menus fetch actions by :class:`ActionId`; the window connects
them and keeps their enabled state in step with the selection.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget


class ActionId(enum.Enum):
    """The actions of the main window."""

    IMPORT = enum.auto()
    OPEN_LIBRARY = enum.auto()
    QUIT = enum.auto()
    SELECT_ALL = enum.auto()
    DELETE = enum.auto()
    RESTORE = enum.auto()
    EMPTY_TRASH = enum.auto()
    FIND = enum.auto()
    SHOW_TAG_PANE = enum.auto()
    SHOW_DETAIL_PANE = enum.auto()
    SHOW_LIST_PANE = enum.auto()
    ABOUT = enum.auto()


@dataclass(frozen=True)
class _Spec:
    text: str
    tip: str
    keys: tuple[QKeySequence.StandardKey | str, ...] = ()
    checkable: bool = False


_SPECS: dict[ActionId, _Spec] = {
    ActionId.IMPORT: _Spec(
        "&Import Author Page…",
        "Import a researcher's publication page (pasted text or files)",
        ("Ctrl+I",),
    ),
    ActionId.OPEN_LIBRARY: _Spec(
        "&Open Library…", "Open another library file", (QKeySequence.StandardKey.Open,)
    ),
    ActionId.QUIT: _Spec("&Quit", "Quit refman", (QKeySequence.StandardKey.Quit, "Ctrl+Q")),
    ActionId.SELECT_ALL: _Spec(
        "Select &All", "Select every paper in the list", (QKeySequence.StandardKey.SelectAll,)
    ),
    ActionId.DELETE: _Spec(
        "&Move to Trash",
        "Move the selected papers to the Trash",
        (QKeySequence.StandardKey.Delete,),
    ),
    ActionId.RESTORE: _Spec("&Restore from Trash", "Bring the selected papers back"),
    ActionId.EMPTY_TRASH: _Spec("&Empty Trash…", "Delete the papers in the Trash for good"),
    ActionId.FIND: _Spec("&Find", "Search the library", (QKeySequence.StandardKey.Find,)),
    ActionId.SHOW_TAG_PANE: _Spec(
        "&Navigation Pane", "Show or hide the sections, people and tags", ("Ctrl+1",), True
    ),
    ActionId.SHOW_LIST_PANE: _Spec("&Paper List", "Show or hide the paper list", ("Ctrl+2",), True),
    ActionId.SHOW_DETAIL_PANE: _Spec(
        "&Detail Pane", "Show or hide the details of the current paper", ("Ctrl+3",), True
    ),
    ActionId.ABOUT: _Spec("&About refman", "Version and licence"),
}


def _sequence(key: QKeySequence.StandardKey | str) -> list[QKeySequence]:
    if isinstance(key, str):
        return [QKeySequence(key)]
    return list(QKeySequence.keyBindings(key))


def build_actions(parent: QWidget) -> dict[ActionId, QAction]:
    """Create every action, parented to the window."""
    actions: dict[ActionId, QAction] = {}
    for action_id, spec in _SPECS.items():
        action = QAction(spec.text, parent)
        action.setObjectName(f"action{action_id.name.title().replace('_', '')}")
        action.setStatusTip(spec.tip)
        action.setToolTip(spec.tip)
        sequences: list[QKeySequence] = []
        for key in spec.keys:
            for seq in _sequence(key):
                if not seq.isEmpty() and seq not in sequences:
                    sequences.append(seq)
        if sequences:
            action.setShortcuts(sequences)
        action.setCheckable(spec.checkable)
        if spec.checkable:
            action.setChecked(True)
        actions[action_id] = action
    return actions
