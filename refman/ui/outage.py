"""While a shared library's server cannot be reached: a strip above the panes says so, and
goes away by itself once the server is back.

An outage is not damage: the library is as it was, and nothing needs restoring. The window
hears of one from the change feed (:class:`~refman.ui.watcher.LibraryWatcher`, which tries
again every few seconds) or from a read of the list that could not reach the server; it is
over when the feed connects again or a read succeeds, and the panes then read again what
they show (a search typed meanwhile runs then).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMainWindow, QVBoxLayout, QWidget

from refman.common.errors import RefmanError, ServerUnreachableError

from refman.ui.controller import CHANGED_ELSEWHERE, LibraryController

log = logging.getLogger("refman.ui")

#: What the strip says while the server cannot be reached.
UNREACHABLE = (
    "The library server cannot be reached — retrying… Changes cannot be saved until it is "
    "back; this window catches up by itself then."
)


class OutageStrip(QFrame):
    """A strip above the panes (amber: a passing state, not damage) saying what the
    library's server is doing; hidden while all is well."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("outageStrip")
        self.setStyleSheet(
            "QFrame#outageStrip { background: #fff4d6; border-bottom: 1px solid #f0d58c; }"
            "QFrame#outageStrip QLabel { color: #5c4300; }"
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 12, 6)
        self.label = QLabel(self)
        self.label.setObjectName("outageText")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.label, 1)
        self.hide()

    def say(self, text: str, detail: str = "") -> None:
        """Show the strip with ``text`` (``detail``, the server's own words, as its tooltip)."""
        self.label.setText(text)
        self.setToolTip(detail)
        self.show()


class ServerOutage(QObject):
    """Shows the strip while the server cannot be reached, and the change feed's other
    troubles (a library file that cannot be heard from) in the status bar."""

    def __init__(self, window: QMainWindow, controller: LibraryController) -> None:
        super().__init__(window)
        self.controller = controller
        central = window.centralWidget()  # the banner over the panes (ui/safety.py)
        column = central.layout() if central is not None else None
        assert isinstance(column, QVBoxLayout)
        self.strip = OutageStrip(central)
        column.insertWidget(1, self.strip)  # under the banner of a library only readable
        watcher, lists = controller.watcher, controller.lists
        watcher.reachable.connect(lambda text: window.statusBar().showMessage(text))
        watcher.server.connect(self.on_watcher_server)
        lists.failed.connect(self.on_lists_failed)
        lists.recovered.connect(self.on_lists_recovered)

    @property
    def shown(self) -> bool:
        """True while the window says the server cannot be reached."""
        return not self.strip.isHidden()

    @Slot(object)
    def on_watcher_server(self, error: ServerUnreachableError | None) -> None:
        """The change feed lost the server (``error``) or reached it again (None: it then
        has the panes read again, see :class:`~refman.ui.watcher.LibraryWatcher`)."""
        if error is None:
            self._back(refresh=False)
        else:
            self._lost(error)

    @Slot(object)
    def on_lists_failed(self, error: RefmanError) -> None:
        """A read of the list could not reach the server."""
        if isinstance(error, ServerUnreachableError):
            self._lost(error)

    @Slot()
    def on_lists_recovered(self) -> None:
        """A read succeeded again: the panes read again what failed meanwhile."""
        self._back(refresh=True)

    def _lost(self, error: ServerUnreachableError) -> None:
        if not self.shown:
            log.warning("the library server cannot be reached: %s", error.message)
        self.strip.say(UNREACHABLE, error.message)

    def _back(self, *, refresh: bool) -> None:
        if not self.shown:
            return
        log.info("the library server can be reached again")
        self.strip.hide()
        if refresh:
            self.controller.changed.emit(CHANGED_ELSEWHERE)
