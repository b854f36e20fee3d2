"""The main window's chrome: icon, toolbar, menus and status bar pieces.

The menus are a table of action ids (from :mod:`refman.ui.actions`), so what each menu holds
reads at a glance and every entry is the one action the shortcuts and toolbars use.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Slot
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QToolBar,
    QToolButton,
    QWidget,
)

from refman import __version__
from refman.common.errors import RefmanError, ServerUnreachableError
from refman.common.text import plural
from refman.core.importing.values import ImportResult
from refman.core.importing.wording import result_headline
from refman.resources import icon_path

from refman.ui.actions import ActionId
from refman.ui.look import plain_label, set_muted

#: The rating actions, from 5 stars down to none.
RATINGS = tuple(getattr(ActionId, f"RATE_{n}") for n in range(5, -1, -1))

#: The menu bar: each menu's title and its actions (None is a separator).
MENUS: tuple[tuple[str, tuple[ActionId | None, ...]], ...] = (
    (
        "&File",
        (
            ActionId.IMPORT,
            ActionId.IMPORT_HISTORY,
            ActionId.OPEN_LIBRARY,
            None,
            ActionId.EXPORT_LIBRARY,
            ActionId.EXPORT_SELECTED,
            None,
            ActionId.BACK_UP,
            ActionId.RESTORE_BACKUP,
            None,
            ActionId.QUIT,
        ),
    ),
    (
        "&Edit",
        (
            ActionId.UNDO,
            ActionId.REDO,
            None,
            ActionId.COPY_CITATION,
            ActionId.COPY_IN_TEXT,
            ActionId.COPY_CITEKEY,
            ActionId.COPY_BIBTEX,
            None,
            ActionId.FIND,
            ActionId.SAVE_SEARCH,
            ActionId.SELECT_ALL,
            None,
            ActionId.DELETE,
            ActionId.RESTORE,
            ActionId.DELETE_PERMANENTLY,
            ActionId.EMPTY_TRASH,
            None,
            ActionId.PREFERENCES,
        ),
    ),
    (
        "&Paper",
        (
            ActionId.NEW_PAPER,
            None,
            ActionId.OPEN_FILE,
            ActionId.ATTACH_FILE,
            ActionId.MERGE_PAPERS,
            None,
            ActionId.MARK_UNREAD,
            ActionId.MARK_READING,
            ActionId.MARK_READ,
            None,
            *RATINGS,
        ),
    ),
    (
        "&View",
        (
            ActionId.SHOW_TAG_PANE,
            ActionId.SHOW_LIST_PANE,
            ActionId.SHOW_DETAIL_PANE,
            None,
            ActionId.NEXT_PANE,
            ActionId.PREVIOUS_PANE,
            None,
            ActionId.SHOW_PEOPLE,
        ),
    ),
    ("&Help", (ActionId.CHECK_LIBRARY, None, ActionId.ABOUT)),
)


def app_icon() -> QIcon:
    """The application icon in every size refman ships."""
    icon = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        icon.addFile(str(icon_path(size)), QSize(size, size))
    return icon


def build_menus(window: QMainWindow, actions: dict[ActionId, QAction]) -> None:
    """Fill the window's menu bar from :data:`MENUS`; every action's shortcut works anywhere
    in the window."""
    bar = window.menuBar()
    for title, entries in MENUS:
        menu = build_menu(bar, actions, entries)
        menu.setTitle(title)
        bar.addMenu(menu)
    for action in actions.values():
        window.addAction(action)


def build_toolbar(window: QMainWindow, import_action: QAction, search: QWidget) -> QToolBar:
    """The toolbar: the Import button (in the accent colour) and the search field."""
    toolbar = QToolBar("Main", window)
    toolbar.setObjectName("mainToolBar")
    toolbar.setMovable(False)
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    toolbar.setContentsMargins(6, 4, 6, 4)
    button = QToolButton(toolbar)
    button.setDefaultAction(import_action)
    button.setText("Import…")
    button.setObjectName("toolbarImportButton")
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    palette = window.palette()
    button.setStyleSheet(
        "QToolButton#toolbarImportButton {"
        f" background: {palette.highlight().color().name()};"
        f" color: {palette.highlightedText().color().name()};"
        " border: none; border-radius: 5px; padding: 5px 14px; font-weight: 600; }"
        "QToolButton#toolbarImportButton:hover { background:"
        f" {palette.highlight().color().darker(115).name()}; }}"
        "QToolButton#toolbarImportButton:disabled {"
        f" background: {palette.mid().color().name()}; }}"
    )
    toolbar.addWidget(button)
    spacer = QWidget(toolbar)
    spacer.setFixedWidth(12)
    toolbar.addWidget(spacer)
    toolbar.addWidget(search)
    search.setMinimumWidth(360)
    window.addToolBar(Qt.ToolBarArea.TopToolBarArea, toolbar)
    return toolbar


class BusyIndicator(QWidget):
    """A quiet "Saving your change…" with a busy bar in the status bar, shown only while a
    change takes longer than a moment (the runner's ``busy`` signal)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("busyIndicator")
        self.label: QLabel = plain_label("", self, wrap=False)
        set_muted(self.label)
        bar = QProgressBar(self)
        bar.setRange(0, 0)
        bar.setTextVisible(False)
        bar.setFixedSize(80, 10)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 8, 0)
        layout.addWidget(self.label)
        layout.addWidget(bar)
        self.hide()

    @Slot(str)
    def on_runner_busy(self, label: str) -> None:
        """Show what runs ("" hides the indicator)."""
        self.label.setText(label)
        self.setVisible(bool(label))


def trashed_text(count: int) -> str:
    """What the status bar says once papers were moved to the Trash."""
    return f"Moved {plural(count, 'paper')} to the Trash."


def no_file_text(title: str) -> str:
    """What the status bar says when a paper without a file, DOI, arXiv id or link is opened
    (Enter in the list)."""
    named = f"“{title}”" if title.strip() else "This paper"
    return (
        f"{named} has no file, DOI or link to open: Paper ▸ Attach File… (Ctrl+Shift+A) "
        "attaches a file."
    )


def opened_online_text(title: str, what: str, address: str, opened: bool) -> str:
    """What the status bar says when a paper without a file is opened (Enter in the list):
    its DOI, arXiv page or link was opened in the browser instead (or could not be)."""
    named = f"“{title}”" if title.strip() else "This paper"
    if not opened:
        return f"{named} has no file, and its {what} could not be opened: {address}"
    return f"{named} has no file: its {what} was opened in the browser ({address})."


#: What the status bar says when Delete is pressed on papers of the Trash.
IN_TRASH_ALREADY = (
    "These papers are in the Trash already: Restore from Trash brings them back, "
    "Delete Permanently… (Shift+Delete) deletes them for good (both in the Edit menu)."
)


def restored_text(count: int) -> str:
    """What the status bar says once papers were brought back from the Trash."""
    return f"Restored {plural(count, 'paper')} from the Trash."


def imported_text(result: ImportResult) -> str:
    """What the status bar says once an import's wizard closed: "Imported: 3 new papers, 0
    already in library."."""
    return f"Imported: {result_headline(result)}."


def stepped_text(verb: str, text: str, changed: bool = True) -> str:
    """What the status bar says once an undo ("undo") or a redo of a step landed (that
    changed nothing when what it would take back was changed elsewhere since)."""
    if not changed:
        return f"Nothing left to {verb} of “{text}”: it was changed elsewhere since."
    return f"{'Undid' if verb == 'undo' else 'Redid'} “{text}”."


def ask_library_file(parent: QWidget | None, tried: str | None = None) -> str | None:
    """Ask which library to open: a file or a shared library (``tried``: a shared library
    that could not be opened, shown to mend; tests replace this)."""
    from refman.ui.open_library import ask_library

    return ask_library(parent, tried)


def ask_after_failed_open(error: RefmanError) -> str:
    """Say why the library to start on cannot be opened, and ask what to do: ``"retry"``,
    ``"other"`` (open another library) or ``"quit"``; trying again comes first for a
    server out of reach, another library for anything else."""
    box = QMessageBox(QMessageBox.Icon.Critical, "refman", error.message)
    box.setObjectName("notOpenedBox")
    box.setInformativeText(error.window_hint)
    retry = box.addButton("Try Again", QMessageBox.ButtonRole.AcceptRole)
    other = box.addButton("Open Another Library…", QMessageBox.ButtonRole.ActionRole)
    box.addButton("Quit", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(retry if isinstance(error, ServerUnreachableError) else other)
    box.exec()
    clicked = box.clickedButton()
    return "retry" if clicked is retry else "other" if clicked is other else "quit"


def confirm_empty_trash(parent: QWidget, count: int, *, selected: bool = False) -> bool:
    """Ask before deleting ``count`` papers for good (``selected``: those selected in the
    Trash, not the whole Trash)."""
    what = "the paper" if count == 1 else f"the {count} papers"
    where = "selected in the Trash" if selected else "in the Trash"
    answer = QMessageBox.question(
        parent,
        "Delete Permanently" if selected else "Empty Trash",
        f"Delete {what} {where} for good? This cannot be undone, and it also "
        "clears the Undo history.",
    )
    return answer == QMessageBox.StandardButton.Yes


def show_about(parent: QWidget, library: str) -> None:
    """The version, what refman is, and the library open."""
    QMessageBox.about(
        parent,
        "About refman",
        f"refman {__version__}\n\nA reference manager for researchers: import author "
        "pages without duplicates, tag papers, and keep notes.\n\n"
        f"Library: {library}",
    )


#: The paper list's context menu.
LIST_MENU: tuple[ActionId | None, ...] = (
    ActionId.COPY_CITATION,
    ActionId.COPY_IN_TEXT,
    ActionId.COPY_CITEKEY,
    ActionId.COPY_BIBTEX,
    None,
    ActionId.EXPORT_SELECTED,
    None,
    ActionId.OPEN_FILE,
    ActionId.ATTACH_FILE,
    ActionId.MARK_UNREAD,
    ActionId.MARK_READ,
    ActionId.MERGE_PAPERS,
    None,
    ActionId.DELETE,
    ActionId.RESTORE,
    ActionId.DELETE_PERMANENTLY,
)


def build_menu(
    parent: QWidget, actions: dict[ActionId, QAction], entries: tuple[ActionId | None, ...]
) -> QMenu:
    """A menu of registry actions (None is a separator)."""
    menu = QMenu(parent)
    for entry in entries:
        if entry is None:
            menu.addSeparator()
        else:
            menu.addAction(actions[entry])
    return menu
