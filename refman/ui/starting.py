"""Which library the window starts on, and opening a library off the GUI thread while the
window waits: the one open last, the default one standing in for a library gone, and what
to ask when the library to start on cannot be opened (try again, open another, quit)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from refman import paths
from refman.common.errors import RefmanError, ServerUnreachableError
from refman.core.library import LibraryService

from refman.ui import window_chrome
from refman.ui.runner import OperationRunner
from refman.ui.settings import WindowSettings

log = logging.getLogger("refman.ui.app")

__all__ = ["first_tried", "open_at_start", "open_service", "settings_not_kept", "start_library"]


def start_library(
    db: str | None, settings: WindowSettings
) -> tuple[LibraryService, RefmanError | None]:
    """Open the library the window starts with: ``--db``, ``REFMAN_DB``, the one open when
    the window last closed, the default. A remembered library that is not there any more
    (moved, deleted, on a disk not connected) or cannot be opened gives way to the default
    one, and stays the one tried first next time (``settings.library_kept``); a shared one
    out of reach is no reason to open another (the error goes to :func:`open_at_start`).

    Returns:
        The library, and what to tell of the remembered one when it could not be opened.

    Raises:
        RefmanError: The library to open cannot be opened.
    """
    named = paths.library_location(db)  # --db, REFMAN_DB, else the default library
    last = _remembered(db, settings)
    if not last or last == named:
        return open_service(named), None
    advice = "File ▸ Open Library… opens it from where it is now."
    if "://" not in last and not Path(last).is_file():
        why = (
            "is not there any more: it was moved, renamed or deleted, or is on a disk that is "
            "not connected"
        )
    else:
        try:
            return open_service(last), None
        except RefmanError as exc:
            if "://" in last:
                raise  # (a shared library out of reach: try again, or open another)
            why = f"could not be opened: {exc.message[:1].lower()}{exc.message[1:].rstrip('.')}"
            advice = exc.window_hint
    service = open_service(named)
    settings.library_kept = True
    return service, RefmanError(
        f"The library refman had open last, “{last}”, {why}.",
        f"The default library is open instead, and the other one is tried again next time. "
        f"{advice}".strip(),
    )


def first_tried(db: str | None, settings: WindowSettings) -> str:
    """The library :func:`start_library` could not open: the shared library open last,
    else the one named (``--db``, ``REFMAN_DB``, the default)."""
    last = _remembered(db, settings)
    return last if last and "://" in last else paths.library_location(db)


def _remembered(db: str | None, settings: WindowSettings) -> str | None:
    """The library open when the window last closed, unless one is named (``--db``,
    ``REFMAN_DB``)."""
    return None if db or os.environ.get("REFMAN_DB") else settings.last_library()


def settings_not_kept(problem: str) -> RefmanError:
    """What the window says when its settings file cannot be kept (``problem``: why)."""
    return RefmanError(
        f"refman cannot keep its settings: {problem}.",
        "The window works as usual, but its size, columns and sort, the library open and "
        "your preferences are not remembered for the next start.",
    )


def open_service(location: str) -> LibraryService:
    """Open a library off the GUI thread, with a busy indicator when it takes a while (an
    upgrade of a large library).

    Raises:
        RefmanError: The library cannot be opened.
    """
    log.info("opening library %s", location)
    runner = OperationRunner()
    opened: list[LibraryService] = []
    failed: list[RefmanError] = []
    runner.submit(
        lambda _progress, _cancelled: LibraryService.open(
            location, paths.check_record(), paths.backup_dir()
        ),
        opened.append,
        on_error=failed.append,
        label=f"Opening library {Path(location).name}…",
    )
    runner.wait(timeout_ms=24 * 3600 * 1000)
    runner.shutdown()
    if failed:
        raise failed[0]
    return opened[0]


def _to_mend(location: str, error: RefmanError) -> str | None:
    """The library Open Another Library… shows to mend: one the server turned away (its
    password refused, say), not one out of reach (another library is wanted meanwhile)."""
    return None if isinstance(error, ServerUnreachableError) else location


def open_at_start(location: str, error: RefmanError | None = None) -> LibraryService | None:
    """The library to start on: ``location``, or, when it cannot be opened (its server
    away, its password changed; ``error``: it could not be opened just now), whichever the
    person then picks: they may try it again or open another library; None when they quit.
    """
    while True:
        if error is None:
            try:
                return open_service(location)
            except RefmanError as exc:
                log.info("library %s not opened: %s", location, exc)
                error = exc
        choice = window_chrome.ask_after_failed_open(error)
        if choice == "quit":
            return None
        if choice == "retry":
            error = None
        elif (
            chosen := window_chrome.ask_library_file(None, _to_mend(location, error))
        ) is not None:
            location, error = chosen, None
