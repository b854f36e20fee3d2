"""Starting the window on a library that cannot be opened (the shared library it reopens
is out of reach, a file is not a library): the person is told why and may try again, open
another library, or quit; the window no longer just closed with a message box."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from refman.ui.open_library import OpenLibraryDialog
from refman.ui.starting import open_at_start

AWAY = "postgresql+psycopg://alice@127.0.0.1:9/lab_papers"


def _when_shown(name: str, act: Callable[[QWidget], None]) -> None:
    """Act on the modal window named ``name`` once it is shown (it runs its own loop)."""

    def look() -> None:
        shown = QApplication.activeModalWidget()
        if shown is not None and shown.objectName() == name:
            act(shown)
        else:
            QTimer.singleShot(20, look)

    QTimer.singleShot(0, look)


class Answer:
    """Clicks a button of the box that says why the library was not opened, after ``then``,
    keeping what the box said: (text, hint, default button) each time."""

    def __init__(self, label: str, then: Callable[[], None] = lambda: None) -> None:
        self.label, self.then = label, then
        self.said: list[tuple[str, str, str]] = []

    def __call__(self, shown: QWidget) -> None:
        assert isinstance(shown, QMessageBox)
        self.said.append((shown.text(), shown.informativeText(), shown.defaultButton().text()))
        (button,) = (b for b in shown.buttons() if b.text() == self.label)
        self.then()
        button.click()


def test_a_shared_library_out_of_reach_at_start_lets_the_person_open_another(
    qtbot: QtBot, tmp_path: Path
) -> None:
    mine = tmp_path / "mine.sqlite"

    def pick_a_file(dialog: QWidget) -> None:
        assert isinstance(dialog, OpenLibraryDialog)
        dialog.file_edit.setText(str(mine))
        dialog.accept()

    other = Answer("Open Another Library…", lambda: _when_shown("openLibraryDialog", pick_a_file))
    _when_shown("notOpenedBox", other)
    service = open_at_start(AWAY)
    assert service is not None
    try:
        assert Path(service.location) == mine
    finally:
        service.close()
    ((text, hint, default),) = other.said
    assert f"The shared library “{AWAY}” cannot be reached" in text
    assert "database server is running" in hint
    assert default == "Try Again"  # an outage: trying again comes first


def test_a_file_that_is_no_library_is_said_and_quit_leaves(qtbot: QtBot, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a library\n")
    quit_ = Answer("Quit")
    _when_shown("notOpenedBox", quit_)
    assert open_at_start(str(notes)) is None
    ((text, _hint, default),) = quit_.said
    assert "is not a refman library" in text
    assert default == "Open Another Library…"


def test_try_again_opens_the_library_once_it_can_be(qtbot: QtBot, tmp_path: Path) -> None:
    """A folder where the library file should be: moved away, then tried again."""
    place = tmp_path / "library.sqlite"
    place.mkdir()
    again = Answer("Try Again", place.rmdir)
    _when_shown("notOpenedBox", again)
    service = open_at_start(str(place))
    assert service is not None
    try:
        assert service.paper_ids() == []
    finally:
        service.close()
    ((text, _hint, _default),) = again.said
    assert "is a folder, not a library file" in text
