"""Logging of refman: a rotating ``refman.log`` in the log folder, and stderr when asked.

Everything refman logs goes through loggers below ``"refman"``. :func:`setup_logging` gives
that logger its handlers; calling it again replaces them (it never stacks duplicates), and
:func:`shutdown_logging` removes and closes them.

Example:
    >>> log_file = setup_logging(verbose=True)  # doctest: +SKIP
"""

from __future__ import annotations

import logging
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import TextIO

from refman import paths

__all__ = ["LOG_FILE", "setup_logging", "shutdown_logging"]

#: The name of the log file inside :func:`refman.paths.log_dir`.
LOG_FILE = "refman.log"
_MAX_BYTES = 1_000_000
_BACKUPS = 3
_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
_ROOT = "refman"
_MARK = "_refman_handler"


class _StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stderr`` is when a record is emitted.

    Holding on to the stream object of the moment would break once that stream is replaced
    or closed (as test harnesses do).
    """

    def emit(self, record: logging.LogRecord) -> None:
        """Write one record to the current standard error."""
        self.stream = sys.stderr
        super().emit(record)


def _mark(handler: logging.Handler) -> logging.Handler:
    setattr(handler, _MARK, True)
    return handler


def shutdown_logging() -> None:
    """Remove and close the handlers :func:`setup_logging` installed."""
    logger = logging.getLogger(_ROOT)
    for handler in list(logger.handlers):
        if getattr(handler, _MARK, False):
            logger.removeHandler(handler)
            handler.close()


def _file_handler() -> tuple[logging.Handler | None, Path | None]:
    """A rotating file handler in the log folder, or ``(None, None)`` if that is impossible."""
    try:
        folder = paths.log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / LOG_FILE
        handler = RotatingFileHandler(
            path, maxBytes=_MAX_BYTES, backupCount=_BACKUPS, encoding="utf-8", delay=True
        )
    except (OSError, ValueError):
        return None, None
    handler.setLevel(logging.INFO)
    handler.setFormatter(logging.Formatter(_FORMAT))
    return handler, path


def setup_logging(verbose: bool = False) -> Path | None:
    """Send refman's log records to ``refman.log`` (and to stderr when ``verbose``).

    The log file rotates at about 1 MB, keeping three old files. When the log folder cannot
    be created or written, records go nowhere instead of failing the program; in particular
    they never fall through to Python's last-resort handler on stderr.

    Args:
        verbose: Also echo INFO and higher records to standard error.

    Returns:
        The log file, or None when no log file could be opened.
    """
    shutdown_logging()
    logger = logging.getLogger(_ROOT)
    logger.setLevel(logging.INFO)
    handler, path = _file_handler()
    logger.addHandler(_mark(handler if handler is not None else logging.NullHandler()))
    if verbose:
        echo = _StderrHandler()
        echo.setLevel(logging.INFO)
        echo.setFormatter(logging.Formatter("refman: %(levelname)s: %(name)s: %(message)s"))
        logger.addHandler(_mark(echo))
    return path
