"""Starting the window: the QApplication, the library, the crash handler, screenshots.

This is the GUI's composition root: it builds the pieces in a fixed order and logs each step.
"""

from __future__ import annotations

import gc
import logging
import os
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import shiboken6
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from refman import __version__, paths
from refman.common.errors import RefmanError
from refman.core.library import LibraryService
from refman.logging_setup import setup_logging

from refman.ui.citing import release_clipboard
from refman.ui.controller import LibraryController
from refman.ui.gui_collector import GuiCollector
from refman.ui.main_window import MainWindow
from refman.ui.messages import show_error
from refman.ui.qt_logging import install_qt_message_handler
from refman.ui.settings import WindowSettings
from refman.ui.starting import (
    first_tried,
    open_at_start,
    open_service,
    settings_not_kept,
    start_library,
)
from refman.ui.window_chrome import app_icon

log = logging.getLogger("refman.ui")


def _no_display() -> bool:
    """True on Linux without X11 or Wayland, unless a Qt platform was chosen explicitly."""
    return (
        sys.platform.startswith("linux")
        and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        and not os.environ.get("QT_QPA_PLATFORM")
    )


def _ensure_platform() -> None:
    """Render offscreen when there is no display (servers, CI, ``refman screenshot``)."""
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def create_app(argv: Sequence[str] | None = None) -> QCoreApplication:
    """The QApplication (created once), named and with its icon."""
    _ensure_platform()
    app = QApplication.instance()
    if app is None:
        install_qt_message_handler()
        app = QApplication(list(argv or sys.argv[:1]))
        app.setApplicationName("refman")
        app.setApplicationDisplayName("refman")
        app.setOrganizationName("refman")
        app.setApplicationVersion(__version__)
        app.setDesktopFileName("io.github.refman.Refman")
        app.setWindowIcon(app_icon())
        app.aboutToQuit.connect(release_clipboard)
        GuiCollector(app)  # Qt objects in garbage are destroyed on the GUI thread only
    return app


def _excepthook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    """Log a bug with its traceback and show a crash dialog with copyable details."""
    details = "".join(traceback.format_exception(kind, value, tb))
    log.critical("unexpected error\n%s", details)
    try:
        from refman.ui.crash_dialog import show_crash

        show_crash(details)
    except Exception:  # pragma: no cover - the dialog itself failed
        sys.__excepthook__(kind, value, tb)


def build_window(service: LibraryService, settings: WindowSettings | None = None) -> MainWindow:
    """The main window over an open library."""
    controller = LibraryController(service)
    window = MainWindow(controller, settings)
    controller.setParent(window)
    window.library_switch_requested.connect(lambda path: switch_library(window, path))
    return window


def settle_start_up() -> None:
    """Set what start-up made aside from the garbage collector, once the window is shown.

    Modules, classes, Qt's wrappers and the query cache live as long as the program; frozen,
    they are no longer walked by the collector's full passes, which then look only at what
    came later. A full pass over them took 30-80 ms and held up the window whenever it fell
    in the middle of work (reading the ids of a hundred thousand papers, say).
    """
    gc.freeze()


def run_gui(db: str | None = None, files: Sequence[str] = ()) -> int:
    """Open the main window (and the import wizard when files are given); run until quit.

    Raises:
        RefmanError: There is no screen to show the window on.
    """
    setup_logging()
    if _no_display():
        raise RefmanError(
            "There is no display to show the window on (DISPLAY is not set).",
            "Run refman in a desktop session, or use the command line: refman --help.",
        )
    app = create_app()
    sys.excepthook = _excepthook

    settings = WindowSettings()
    notice: RefmanError | None = None
    try:
        started: LibraryService | None
        started, notice = start_library(db, settings)
    except RefmanError as exc:  # (ask what to do: try again, open another, quit)
        started = open_at_start(first_tried(db, settings), exc)
    if started is None:
        return 2
    service = started
    window = build_window(service, settings)
    window.show()
    if notice is not None:
        show_error(window, notice)
    if settings.problem is not None:
        show_error(window, settings_not_kept(settings.problem))
    settle_start_up()
    if files:
        window.show_import_wizard(files=[Path(f) for f in files])
    code = int(app.exec())
    window.controller.shutdown()
    service.close()
    return code


def run_import_wizard(db: str | None, files: Sequence[str]) -> int:
    """Open the window with the import wizard prefilled with these files."""
    return run_gui(db, files)


def switch_library(window: MainWindow, location: str) -> None:
    """Close the window's library and open another in a new window."""
    try:
        service = open_service(location)
    except RefmanError as exc:
        show_error(window, exc)
        return
    new_window = build_window(service)
    new_window.restoreGeometry(window.saveGeometry())
    new_window.splitter.restoreState(window.splitter.saveState())
    new_window.show()
    old = window.controller.service
    window.close()  # saves what was typed, and its settings with the old library
    new_window.save_settings()  # now the new library is the one to reopen
    window.controller.shutdown()
    old.close()


def _size(size: str) -> tuple[int, int]:
    """WIDTHxHEIGHT as two positive numbers.

    Raises:
        RefmanError: The text is not a size.
    """
    try:
        width, height = (int(v) for v in size.lower().split("x"))
        if width <= 0 or height <= 0:
            raise ValueError(size)
    except ValueError as exc:
        raise RefmanError(
            f"“{size}” is not a size.", "Write it as WIDTHxHEIGHT, e.g. 1400x900."
        ) from exc
    return width, height


def _pose(
    window: MainWindow,
    select: int | None,
    search: str | None,
    tag: Sequence[str],
    person: int | None = None,
) -> None:
    """Put the window in the state a screenshot asks for.

    Raises:
        RefmanError: The paper to select is not in the list shown, or a tag or the person
            is not the library's.
    """
    if person is not None:
        if window.controller.service.person(person) is None:
            # as refman list --person says (not all papers shown)
            raise window.controller.service.no_person(person)
        window.tag_pane.select_person(person)
    window.controller.service.require_tags(list(tag), search or "")
    if tag:
        window.tag_pane.select_tags(list(tag))
    if search:
        window.search_box.set_text_now(search)
    window.controller.wait()
    if select is not None:
        if not window.table.select_paper(select):
            raise RefmanError(
                f"Paper #{select} is not in the list shown.", "Check the id with “refman list”."
            )
    elif window.model.rowCount() > 0:
        window.table.selectRow(0)


def screenshot(
    db: str | None,
    out: str,
    size: str = "1400x900",
    select: int | None = None,
    search: str | None = None,
    tag: Sequence[str] = (),
    person: int | None = None,
) -> int:
    """Render the main window in a given state to a PNG, without a display.

    Args:
        db: The library (``--db``), or None for the default.
        out: The PNG file to write.
        size: Window size as WIDTHxHEIGHT.
        select: A paper id to select (its details fill the right pane).
        search: Search text typed in the search field.
        tag: Tags selected in the navigation pane.
        person: A person whose papers and page to show.

    Returns:
        0 on success.
    """
    setup_logging()
    width, height = _size(size)
    app = create_app()
    service = LibraryService.open(
        paths.library_location(db), paths.check_record(), paths.backup_dir()
    )
    settings_file = paths.cache_dir() / "screenshot-settings.ini"
    settings_file.unlink(missing_ok=True)
    window = build_window(service, WindowSettings(settings_file))
    try:
        window.resize(width, height)
        window.show()
        app.processEvents()
        window.place_panes(window.splitter.width())
        if (window.width(), window.height()) != (width, height):
            sys.stderr.write(
                f"refman: the window cannot be smaller than {window.width()}x{window.height()}; "
                "the picture has that size.\n"
            )
        _pose(window, select, search, tag, person)
        window.controller.wait()
        for _ in range(5):
            app.processEvents()
        wait_for_drawings(app, window)
        _save(window, Path(out))
    finally:
        window.close()
        window.controller.shutdown()
        shiboken6.delete(window)  # now, not whenever the collector gets to it
        service.close()
    return 0


def wait_for_drawings(app: QCoreApplication, window: MainWindow, seconds: float = 20.0) -> None:
    """Let the detail pane draw the first page of its paper's PDF (off the GUI thread; a
    PDF that cannot be drawn ends the wait too), for at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while window.detail_pane.files.drawing() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    for _ in range(5):
        app.processEvents()


def _save(window: MainWindow, target: Path) -> None:
    """Write the window's picture to a PNG.

    Raises:
        RefmanError: The file cannot be written.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(target), "PNG"):
        raise RefmanError(
            f"Cannot write the screenshot to “{target}”.",
            "Check the folder exists and is writable.",
        )
