"""Route Qt's own messages into Python logging (logger ``refman.qt``).

A fatal message ends the process: Qt would abort (the shell says "Aborted" and nothing
else), most often because it cannot start at all — no display, or X libraries missing. refman
prints Qt's message and what to do on stderr, logs it, and exits with status 2 instead.
"""

from __future__ import annotations

import logging
import os
import sys

from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

log = logging.getLogger("refman.qt")

_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}

#: What to do when Qt cannot start (the README's note on the X libraries).
START_HINT = (
    "The window cannot start. Check that a display is available (DISPLAY or WAYLAND_DISPLAY; "
    "over ssh use ssh -X, or run the command line without the window). If Qt could not load "
    "the platform plugin xcb, install the X libraries it needs, e.g. on Debian and Ubuntu: "
    "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0"
)


#: How Qt begins a note that the platform (offscreen, a Wayland compositor) lacks a window
#: feature it has no use for there, such as sizing hints: nothing went wrong, so it is logged
#: as information, not as a warning.
UNSUPPORTED = "This plugin does not support "


def _handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    level = _LEVELS.get(kind, logging.WARNING)
    if level == logging.WARNING and message.startswith(UNSUPPORTED):
        level = logging.INFO
    log.log(level, "%s", message)
    if kind == QtMsgType.QtFatalMsg:
        fatal(message)


def fatal(message: str) -> None:
    """Say on stderr what Qt could not do and how to fix it, then exit with status 2."""
    first = " ".join(message.split())
    sys.stderr.write(f"refman: Qt cannot go on: {first}\nrefman: {START_HINT}\n")
    sys.stderr.flush()
    logging.shutdown()
    os._exit(2)  # Qt would abort() right after this handler: leave first, plainly


def install_qt_message_handler() -> None:
    """Send Qt's warnings and errors to the log file instead of the terminal."""
    qInstallMessageHandler(_handler)
