"""The one way the window shows a problem to the user.

User-fixable failures (:class:`RefmanError`) get a non-blocking message box with the plain
message and hint; tests replace :data:`presenter` to capture what would be shown. A shared
library's server out of reach is said once, by the window's own notice (the amber strip of
:mod:`refman.ui.outage`), not in a box per refused change.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable

from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from refman.common.errors import (
    MergedAwayError,
    NotFoundError,
    RefmanError,
    ServerUnreachableError,
)

log = logging.getLogger("refman.ui")


def _show_box(parent: QWidget | None, title: str, text: str, informative: str) -> None:
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(title)
    box.setText(text)
    if informative:
        box.setInformativeText(informative)
    box.setModal(False)
    box.setObjectName("errorMessage")
    box.open()


#: What the window says of a paper, note, tag… it showed that is not in the library any more.
DELETED_SINCE = "It was deleted since (elsewhere, or in another window); nothing was changed."

#: Replaced by tests: called with (parent, title, text, informative text).
presenter: Callable[[QWidget | None, str, str, str], None] = _show_box


#: The windows that say a server out of reach themselves, and how (see :func:`notice_outages`).
_OUTAGE_NOTICES: weakref.WeakKeyDictionary[QWidget, Callable[[ServerUnreachableError], None]]
_OUTAGE_NOTICES = weakref.WeakKeyDictionary()


def notice_outages(window: QWidget, notice: Callable[[ServerUnreachableError], None]) -> None:
    """Have ``notice`` say that the library's server cannot be reached, for ``window`` and
    the dialogs over it, instead of a message box for every change refused meanwhile."""
    _OUTAGE_NOTICES[window] = notice


def _outage_notice(
    parent: QWidget | None,
) -> Callable[[ServerUnreachableError], None] | None:
    """The notice of the window in front when it is over ``parent`` (a dialog of the main
    window: the person looks at it), else of ``parent`` or the window it is in."""
    front = QApplication.activeWindow()
    over = front
    while over is not None and over is not parent:
        over = over.parentWidget()
    if front is not None and over is not None and (notice := _OUTAGE_NOTICES.get(front)):
        return notice
    while parent is not None:
        if (notice := _OUTAGE_NOTICES.get(parent)) is not None:
            return notice
        parent = parent.parentWidget()
    return None


def in_words(error: RefmanError) -> str:
    """An error as the window says it in one text: what happened, then what to do there."""
    return f"{error.message} {error.window_hint}".strip()


def show_error(parent: QWidget | None, error: RefmanError | str, title: str = "refman") -> None:
    """Tell the user what went wrong and what to do, without blocking the window (a server
    out of reach: by the window's notice, when it has one)."""
    if isinstance(error, ServerUnreachableError) and (notice := _outage_notice(parent)):
        log.info("refused while the library server cannot be reached: %s", error.message)
        notice(error)
        return
    if isinstance(error, NotFoundError) and not isinstance(error, MergedAwayError):
        # (the window names only what it showed: it is gone)
        text, hint = error.message, DELETED_SINCE  # (not the command line's hint)
    elif isinstance(error, RefmanError):  # (what to do with the window's menus and buttons)
        text, hint = error.message, error.window_hint
    else:
        text, hint = str(error), ""
    log.info("shown to user: %s %s", text, hint)
    presenter(parent, title, text, hint)
