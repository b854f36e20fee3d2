"""Route Qt's own messages into Python logging (logger ``refman.qt``)."""

from __future__ import annotations

import logging

from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

log = logging.getLogger("refman.qt")

_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}


def _handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    log.log(_LEVELS.get(kind, logging.WARNING), "%s", message)


def install_qt_message_handler() -> None:
    """Send Qt's warnings and errors to the log file instead of the terminal."""
    qInstallMessageHandler(_handler)
