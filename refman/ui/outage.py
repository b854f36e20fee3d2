"""While a shared library's server cannot be reached, or stops answering: a strip above the
panes says so, and goes away by itself once the server answers again.

An outage is not damage: the library is as it was, and nothing needs restoring. The window
hears of one from the change feed (:class:`~refman.ui.watcher.LibraryWatcher`, which tries
again every few seconds) or from a read of the list that could not reach the server; it is
over when the feed connects again or a read succeeds, and the panes then read again what
they show (a search typed meanwhile runs then). A change refused meanwhile (a note, a field
typed: kept, and saved once the server is back) or an action that reads (a citation copied)
is said by the strip and the status bar, not by a message box each.

A server whose processes stop answering (stopped, swapping) keeps its connections open: a
change or a read just waits. When one has waited a few seconds, the window asks the server a
question of its own on a new connection (:meth:`~refman.store.database.Database.answers`);
no answer, and the strip says the server is not answering and that the change is saved when
it does (a change that is merely large, or waits for another one, is not mistaken for that:
the server answers the question at once).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import weakref

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QMainWindow, QVBoxLayout, QWidget

from refman.common.errors import RefmanError, ServerUnreachableError

from refman.ui.controller import CHANGED_ELSEWHERE, LibraryController
from refman.ui.messages import notice_outages

log = logging.getLogger("refman.ui")

#: What the strip says while the server cannot be reached.
UNREACHABLE = (
    "The library server cannot be reached — retrying… Changes cannot be saved until it is "
    "back; this window catches up by itself then."
)
#: What it says while the server does not answer, with a change waiting, or without.
SILENT_CHANGE = "The library server is not answering; your change will be saved when it does."
SILENT = "The library server is not answering — waiting for it…"
#: What the status bar says of an action refused while the server cannot be reached (a
#: change, or a read: a citation copied).
NOT_DONE = "Not done: the library server cannot be reached. Try again once it is back."
#: How long work may wait on a shared library before the window asks its server (ms), and
#: how long the server has to answer that (seconds).
ASK_AFTER_MS = 4000
ANSWER_SECONDS = 3.0


class OutageStrip(QFrame):
    """A strip above the panes (amber: a passing state, not damage) saying what the
    library's server is doing; hidden while all is well. It says one thing at a time: a
    change refused (in a window over the main one), that the server cannot be reached,
    before that it does not answer.

    Signals:
        said(str, str): What the strip says now and its tooltip (empty: nothing, hidden).
    """

    said = Signal(str, str)

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
        self._said: dict[str, tuple[str, str]] = {}
        self.hide()

    def say(self, kind: str, text: str, detail: str = "") -> None:
        """Say ``text`` about the server (``kind``: "unreachable" or "silent"), ``detail``
        (the server's own words) as the tooltip."""
        self._said[kind] = (text, detail)
        self._update()

    def clear(self, kind: str) -> None:
        """Stop saying what was said of this kind."""
        self._said.pop(kind, None)
        self._update()

    def saying(self, kind: str) -> bool:
        """True while the strip has something of this kind to say."""
        return kind in self._said

    def now(self) -> tuple[str, str]:
        """What the strip says and its tooltip (empty while it says nothing)."""
        kind = next((k for k in ("refused", "unreachable", "silent") if k in self._said), None)
        return self._said[kind] if kind is not None else ("", "")

    def _update(self) -> None:
        text, detail = self.now()
        self.label.setText(text)
        self.setToolTip(detail)
        self.setVisible(bool(text))
        self.said.emit(text, detail)


class ServerOutage(QObject):
    """Shows the strip while the server cannot be reached (and, through
    :class:`ServerSilence`, while it does not answer), and the change feed's other troubles
    (a library file that cannot be heard from) in the status bar."""

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
        self.silence = ServerSilence(controller, self.strip)
        self.window = window
        notice_outages(window, self.on_change_refused)
        _OUTAGES[window] = self
        controller.changed.connect(lambda _changes: self._back(refresh=False))

    @property
    def shown(self) -> bool:
        """True while the window says the server cannot be reached."""
        return self.strip.saying("unreachable")

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

    def on_change_refused(self, error: ServerUnreachableError) -> None:
        """An action (a change, a citation copied) could not reach the server: the strip
        says so (once), the status bar that this one was not done."""
        self._lost(error)
        self.window.statusBar().showMessage(NOT_DONE, 8000)

    @Slot()
    def on_lists_recovered(self) -> None:
        """A read succeeded again: the panes read again what failed meanwhile."""
        self._back(refresh=True)

    def _lost(self, error: ServerUnreachableError) -> None:
        if not self.shown:
            log.warning("the library server cannot be reached: %s", error.message)
        self.strip.say("unreachable", UNREACHABLE, error.message)

    def _back(self, *, refresh: bool) -> None:
        if not self.shown:
            return
        log.info("the library server can be reached again")
        self.strip.clear("unreachable")
        if refresh:
            self.controller.changed.emit(CHANGED_ELSEWHERE)


#: The main windows' outages, for the windows over them (:class:`DialogOutage`).
_OUTAGES: weakref.WeakKeyDictionary[QWidget, ServerOutage] = weakref.WeakKeyDictionary()


class DialogOutage(QObject):
    """The strip of a window over the main one (People, Import History): it says what the
    main window's strip says, and that a change asked there was not done while the server
    cannot be reached (the main window, behind it, says so too): else the window in front
    seemed to do nothing."""

    def __init__(self, dialog: QWidget, layout: QVBoxLayout) -> None:
        super().__init__(dialog)
        self.strip = OutageStrip(dialog)
        layout.insertWidget(0, self.strip)
        window = dialog.parentWidget()
        self.main = _OUTAGES.get(window) if window is not None else None
        if self.main is not None:
            self.main.strip.said.connect(self._mirror)
            self._mirror(*self.main.strip.now())
            notice_outages(dialog, self.on_change_refused)

    @Slot(str, str)
    def _mirror(self, text: str, detail: str) -> None:
        if text:
            self.strip.say("unreachable", text, detail)
        else:  # (the server is back: what was refused can be asked again)
            self.strip.clear("refused")
            self.strip.clear("unreachable")

    def on_change_refused(self, error: ServerUnreachableError) -> None:
        """A change asked in this window could not reach the server: said here, and by the
        main window."""
        if self.main is not None:
            self.main.on_change_refused(error)
        self.strip.say("refused", NOT_DONE, error.message)


class ServerSilence(QObject):
    """Says so when a shared library's server stops answering while a change or a read
    waits for it (see the module), and stops saying it when the server answers."""

    _answered = Signal(bool)

    def __init__(self, controller: LibraryController, strip: OutageStrip) -> None:
        super().__init__(strip)
        self.controller, self.strip = controller, strip
        self._asking = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(ASK_AFTER_MS)
        self._timer.timeout.connect(self._ask)
        self._answered.connect(self._on_answered, Qt.ConnectionType.QueuedConnection)
        if controller.service.db.shared:  # (a library file always answers)
            controller.runner.idle_changed.connect(self._on_idle_changed)
            controller.lists.idle_changed.connect(self._on_idle_changed)

    def _waiting(self) -> bool:
        return not (self.controller.runner.idle and self.controller.lists.idle)

    @Slot(bool)
    def _on_idle_changed(self, _idle: bool) -> None:
        if not self._waiting():
            self._timer.stop()
            self.strip.clear("silent")
        elif not self._timer.isActive() and not self._asking:
            self._timer.start()

    def _ask(self) -> None:
        if not self._waiting():
            return
        self._asking = True
        db, answered = self.controller.service.db, self._answered

        def ask() -> None:
            said = db.answers(ANSWER_SECONDS)
            with contextlib.suppress(RuntimeError):  # the window closed meanwhile
                answered.emit(said)

        threading.Thread(target=ask, name="refman-ask", daemon=True).start()

    @Slot(bool)
    def _on_answered(self, answered: bool) -> None:
        self._asking = False
        if answered or not self._waiting():
            self.strip.clear("silent")
        else:
            if not self.strip.saying("silent"):
                log.warning("the library server is not answering")
            changing = not self.controller.runner.idle
            self.strip.say("silent", SILENT_CHANGE if changing else SILENT)
        if self._waiting():
            self._timer.start()  # asked again while the work waits
