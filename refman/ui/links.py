"""Links in notes: never followed in place, opened in the browser only after asking.

A note's preview shows its Markdown links; a click on an ``http(s)``, ``mailto`` or ``doi``
link asks first, showing the full address (a link's text can say anything), then opens it
with the system's browser or mail program. ``file`` links and every other scheme are refused
with a message: a note imported from a page must not open local files or programs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QWidget

from refman.common.controls import terminal_safe
from refman.common.errors import RefmanError
from refman.common.identifiers import doi_url, row_id

from refman.ui.messages import show_error

log = logging.getLogger("refman.ui")

#: The schemes a note's link may open (after asking).
OPENED = ("http", "https", "mailto")


def _ask(parent: QWidget | None, address: str) -> bool:
    answer = QMessageBox.question(
        parent,
        "Open Link",
        f"Open this address?\n\n{address}",
        QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel,
    )
    return answer == QMessageBox.StandardButton.Open


#: Replaced by tests: asks (parent, full address) whether to open a link.
asker: Callable[[QWidget | None, str], bool] = _ask
#: Replaced by tests: opens an address with the system.
opener: Callable[[QUrl], bool] = QDesktopServices.openUrl


def target(address: str) -> QUrl | None:
    """What a note's link opens: the address itself for http(s) and mailto, the DOI's web
    address for ``doi:``; None for anything else (files, programs, unknown schemes)."""
    url = QUrl(address.strip())
    scheme = url.scheme().lower()
    if scheme == "doi":
        return QUrl(doi_url(url.path()))
    if scheme in OPENED and url.isValid():
        return url
    return None


def open_note_link(parent: QWidget | None, address: str) -> bool:
    """Open a link clicked in a note, after asking; refuse the kinds refman never opens.

    Returns:
        True when the link was opened.
    """
    url = target(address)
    shown = terminal_safe(address)
    if url is None:
        log.info("refused to open a note's link: %s", shown)
        refused = RefmanError(
            f"refman does not open this link: {shown}",
            "Notes may open web and e-mail addresses (http, https, mailto) and DOIs; "
            "copy other addresses yourself if you trust them.",
        )
        show_error(parent, refused)
        return False
    full = url.toString()
    if not asker(parent, terminal_safe(full)):
        return False
    return bool(opener(url))


def inner_link(link: str, kind: str) -> int | None:
    """The id an in-app link (``person:12``, ``paper:7``) of this kind names, or None."""
    found, _, value = link.partition(":")
    return row_id(value) if found == kind else None
