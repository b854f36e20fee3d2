"""Every action of the main window, created in one place with its text and shortcut.

Menus, toolbars and context menus fetch actions by :class:`ActionId`; the window connects
them and keeps their enabled state in step with the selection.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from refman.core.rules import RATING_MAX, stars


class ActionId(enum.Enum):
    """The actions of the main window."""

    IMPORT = enum.auto()
    IMPORT_HISTORY = enum.auto()
    NEW_PAPER = enum.auto()
    OPEN_LIBRARY = enum.auto()
    EXPORT_LIBRARY = enum.auto()
    EXPORT_SELECTED = enum.auto()
    QUIT = enum.auto()
    COPY_CITATION = enum.auto()
    COPY_IN_TEXT = enum.auto()
    COPY_CITEKEY = enum.auto()
    COPY_BIBTEX = enum.auto()
    PREFERENCES = enum.auto()
    UNDO = enum.auto()
    REDO = enum.auto()
    SELECT_ALL = enum.auto()
    DELETE = enum.auto()
    RESTORE = enum.auto()
    DELETE_PERMANENTLY = enum.auto()
    MERGE_PAPERS = enum.auto()
    EMPTY_TRASH = enum.auto()
    ATTACH_FILE = enum.auto()
    OPEN_FILE = enum.auto()
    MARK_UNREAD = enum.auto()
    MARK_READING = enum.auto()
    MARK_READ = enum.auto()
    # Ratings, 0 (none) to 5 stars, in this order.
    RATE_0 = enum.auto()
    RATE_1 = enum.auto()
    RATE_2 = enum.auto()
    RATE_3 = enum.auto()
    RATE_4 = enum.auto()
    RATE_5 = enum.auto()
    FIND = enum.auto()
    SAVE_SEARCH = enum.auto()
    SHOW_TAG_PANE = enum.auto()
    SHOW_DETAIL_PANE = enum.auto()
    SHOW_LIST_PANE = enum.auto()
    SHOW_PEOPLE = enum.auto()
    NEXT_PANE = enum.auto()
    PREVIOUS_PANE = enum.auto()
    ABOUT = enum.auto()
    CHECK_LIBRARY = enum.auto()
    BACK_UP = enum.auto()
    RESTORE_BACKUP = enum.auto()
    RENAME_TAG = enum.auto()
    SET_TAG_COLOUR = enum.auto()
    CLEAR_TAG_COLOUR = enum.auto()
    DELETE_TAG = enum.auto()
    EXPORT_TAG = enum.auto()
    # The import wizard's review table.
    REVIEW_IMPORT = enum.auto()
    REVIEW_SKIP = enum.auto()
    REVIEW_MERGE = enum.auto()
    REVIEW_KEEP_SEPARATE = enum.auto()


@dataclass(frozen=True)
class _Spec:
    text: str
    tip: str
    keys: tuple[QKeySequence.StandardKey | str, ...] = ()
    checkable: bool = False
    #: Where the action lives: the main window, or the import wizard's review table.
    scope: str = "window"


_SPECS: dict[ActionId, _Spec] = {
    ActionId.IMPORT: _Spec(
        "&Import…",
        "Import author pages, bibliographies (BibTeX, RIS, CSL-JSON), papers' PDFs or a Zotero "
        "or Mendeley library: files or pasted text",
        ("Ctrl+I",),
    ),
    ActionId.NEW_PAPER: _Spec(
        "&New Paper…",
        "Add a paper by hand: its title, authors, year and identifiers",
        (QKeySequence.StandardKey.New,),
    ),
    ActionId.IMPORT_HISTORY: _Spec(
        "Import &History…", "Every import, newest first; revert any of them (undoable)"
    ),
    ActionId.OPEN_LIBRARY: _Spec(
        "&Open Library…", "Open another library file", (QKeySequence.StandardKey.Open,)
    ),
    ActionId.EXPORT_LIBRARY: _Spec(
        "&Export Library…", "Save every paper as BibTeX, BibLaTeX, RIS, CSL-JSON or CSV"
    ),
    ActionId.EXPORT_SELECTED: _Spec(
        "Export &Selected…", "Save the selected papers as BibTeX, RIS, CSL-JSON or CSV", ("Ctrl+E",)
    ),
    ActionId.QUIT: _Spec("&Quit", "Quit refman", (QKeySequence.StandardKey.Quit, "Ctrl+Q")),
    ActionId.COPY_CITATION: _Spec(
        "Copy &Citation",
        "Copy the selected papers' bibliography entries in the chosen style",
        ("Ctrl+Shift+C",),
    ),
    ActionId.COPY_IN_TEXT: _Spec(
        "Copy &In-Text Citation",
        "Copy the selected papers' in-text citation, (Doe & Roe, 2023), in the chosen style",
        ("Ctrl+Shift+I",),
    ),
    ActionId.COPY_CITEKEY: _Spec(
        "Copy Citation &Key", "Copy \\cite{…} with the selected papers' keys", ("Ctrl+Shift+K",)
    ),
    ActionId.COPY_BIBTEX: _Spec(
        "Copy &BibTeX", "Copy the selected papers' BibTeX entries", ("Ctrl+Shift+B",)
    ),
    ActionId.PREFERENCES: _Spec(
        "&Preferences…",
        "Citation style, export format",
        (QKeySequence.StandardKey.Preferences, "Ctrl+,"),
    ),
    ActionId.UNDO: _Spec("&Undo", "Take the last change back", ("Ctrl+Z",)),
    ActionId.REDO: _Spec("&Redo", "Make the last undone change again", ("Ctrl+Shift+Z", "Ctrl+Y")),
    ActionId.SELECT_ALL: _Spec(
        "Select &All", "Select every paper in the list", (QKeySequence.StandardKey.SelectAll,)
    ),
    ActionId.DELETE: _Spec(
        "&Move to Trash",
        "Move the selected papers to the Trash",
        (QKeySequence.StandardKey.Delete,),
    ),
    ActionId.RESTORE: _Spec("Rest&ore from Trash", "Bring the selected papers back"),
    ActionId.DELETE_PERMANENTLY: _Spec(
        "&Delete Permanently…",
        "Delete the selected papers of the Trash for good",
        ("Shift+Delete",),
    ),
    ActionId.MERGE_PAPERS: _Spec(
        "Mer&ge Papers",
        "The selected papers are one: the one added first is kept and gains what it lacks; "
        "the others go to the Trash",
    ),
    ActionId.EMPTY_TRASH: _Spec("&Empty Trash…", "Delete the papers in the Trash for good"),
    ActionId.ATTACH_FILE: _Spec(
        "&Attach File…", "Attach PDFs or other files to the current paper", ("Ctrl+Shift+A",)
    ),
    ActionId.OPEN_FILE: _Spec(
        "Open &File",
        "Open the current paper's first file with the system's viewer, else its DOI or link "
        "in the browser (Enter or a double-click in the list)",
    ),
    ActionId.MARK_UNREAD: _Spec(
        "Mark as &Unread", "Mark the selected papers as not read yet", ("Ctrl+Shift+U",)
    ),
    ActionId.MARK_READING: _Spec("Mark as Rea&ding", "Mark the selected papers as being read"),
    ActionId.MARK_READ: _Spec(
        "Mark as &Read", "Mark the selected papers as read", ("Ctrl+Shift+R",)
    ),
    ActionId.RATE_0: _Spec(
        "&0  No Rating", "Clear the selected papers' rating (key 0 in the list)"
    ),
    **{
        getattr(ActionId, f"RATE_{n}"): _Spec(
            f"&{n}  {stars(n)}",
            f"Rate the selected papers {n} star{'s' if n > 1 else ''} (key {n} in the list)",
        )
        for n in range(1, RATING_MAX + 1)
    },
    ActionId.FIND: _Spec("&Find", "Search the library", (QKeySequence.StandardKey.Find, "Ctrl+L")),
    ActionId.SAVE_SEARCH: _Spec(
        "Sa&ve Search…",
        "Keep the search and the tags picked under a name, in the sidebar with a live count",
        ("Ctrl+Shift+F",),
    ),
    ActionId.SHOW_TAG_PANE: _Spec(
        "&Navigation Pane", "Show or hide the sections, people and tags", ("Ctrl+1",), True
    ),
    ActionId.SHOW_LIST_PANE: _Spec("&Paper List", "Show or hide the paper list", ("Ctrl+2",), True),
    ActionId.SHOW_DETAIL_PANE: _Spec(
        "&Detail Pane", "Show or hide the details of the current paper", ("Ctrl+3",), True
    ),
    ActionId.SHOW_PEOPLE: _Spec(
        "P&eople…",
        "Every author and page owner with their papers, and names that may be one person",
        ("Ctrl+Shift+P",),
    ),
    ActionId.NEXT_PANE: _Spec(
        "Ne&xt Pane",
        "Put the keyboard in the next part of the window: search, navigation, list, details",
        ("F6",),
    ),
    ActionId.PREVIOUS_PANE: _Spec(
        "Pre&vious Pane", "Put the keyboard in the part of the window before", ("Shift+F6",)
    ),
    ActionId.ABOUT: _Spec("&About refman", "Version and licence"),
    ActionId.CHECK_LIBRARY: _Spec(
        "&Check Library…", "Check that the library file is whole (every page and index)"
    ),
    ActionId.BACK_UP: _Spec("&Back Up Now", "Make a verified copy of the library now"),
    ActionId.RESTORE_BACKUP: _Spec(
        "&Restore from Backup…", "Put an earlier copy of the library in place of this one"
    ),
    ActionId.RENAME_TAG: _Spec(
        "&Rename…", "Rename the tag; a name that is already taken merges the two tags"
    ),
    ActionId.SET_TAG_COLOUR: _Spec("Set &Colour…", "Give the tag a colour"),
    ActionId.CLEAR_TAG_COLOUR: _Spec("&No Colour", "Show the tag in the default colour"),
    ActionId.DELETE_TAG: _Spec(
        "&Delete Tag", "Remove the tag from every paper (Undo brings it back)"
    ),
    ActionId.EXPORT_TAG: _Spec("&Export Papers…", "Save the papers with this tag to a file"),
    ActionId.REVIEW_IMPORT: _Spec("Import", "Import the selected records", scope="review"),
    ActionId.REVIEW_SKIP: _Spec("Skip", "Leave the selected records out", scope="review"),
    ActionId.REVIEW_MERGE: _Spec(
        "Merge with the paper in the library",
        "Merge the selected possible duplicates with the papers they resemble",
        scope="review",
    ),
    ActionId.REVIEW_KEEP_SEPARATE: _Spec(
        "Keep as a separate paper",
        "Import the selected possible duplicates as papers of their own",
        scope="review",
    ),
}


def _sequence(key: QKeySequence.StandardKey | str) -> list[QKeySequence]:
    if isinstance(key, str):
        return [QKeySequence(key)]
    return list(QKeySequence.keyBindings(key))


def build_actions(parent: QWidget, scope: str = "window") -> dict[ActionId, QAction]:
    """Create the actions of one place (the main window, or the wizard's "review" table),
    parented to ``parent``."""
    actions: dict[ActionId, QAction] = {}
    for action_id, spec in _SPECS.items():
        if spec.scope != scope:
            continue
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
