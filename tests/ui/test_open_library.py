"""File ▸ Open Library…: a library file, or a shared library on a PostgreSQL server, whose
password is used for the session or kept in the system keyring, never in refman's settings."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from sqlalchemy.engine import make_url

from refman.store import shared
from refman.store.connection import shared_arguments
from tests.helpers.keyrings import MemoryKeyring

from refman.ui.open_library import OpenLibraryDialog


@pytest.fixture
def dialog(qtbot: QtBot) -> OpenLibraryDialog:
    made = OpenLibraryDialog()
    qtbot.add_widget(made)
    made.show()
    return made


def _fill_shared(qtbot: QtBot, dialog: OpenLibraryDialog, password: str = "") -> None:
    dialog.tabs.setCurrentIndex(1)
    qtbot.keyClicks(dialog.host_edit, "db.lab.example")
    dialog.port_box.setValue(5433)
    qtbot.keyClicks(dialog.database_edit, "lab_papers")
    qtbot.keyClicks(dialog.user_edit, "alice")
    if password:
        qtbot.keyClicks(dialog.password_edit, password)


def test_a_file_is_opened_by_its_path(qtbot: QtBot, dialog: OpenLibraryDialog) -> None:
    qtbot.keyClicks(dialog.file_edit, "/tmp/papers/other.sqlite")
    dialog.accept()
    assert dialog.chosen == "/tmp/papers/other.sqlite"


def test_a_shared_library_is_named_by_server_database_and_user(
    qtbot: QtBot, dialog: OpenLibraryDialog, memory_keyring: MemoryKeyring
) -> None:
    _fill_shared(qtbot, dialog)
    dialog.accept()
    url = make_url(str(dialog.chosen))
    assert (url.drivername, url.host, url.port, url.database, url.username) == (
        "postgresql+psycopg",
        "db.lab.example",
        5433,
        "lab_papers",
        "alice",
    )
    assert url.query == {"sslmode": "require"}  # TLS unless unticked
    assert memory_keyring.kept == {}


def test_without_the_server_the_dialog_stays_and_says_what_is_missing(
    qtbot: QtBot, dialog: OpenLibraryDialog
) -> None:
    dialog.tabs.setCurrentIndex(1)
    qtbot.keyClicks(dialog.database_edit, "lab_papers")
    qtbot.mouseClick(dialog.buttons.buttons()[0], Qt.MouseButton.LeftButton)
    assert dialog.isVisible()
    assert dialog.problem.text() == "Give the server, the database and the user."


def test_a_password_to_remember_is_used_but_not_kept_before_the_library_opened_with_it(
    qtbot: QtBot, dialog: OpenLibraryDialog, memory_keyring: MemoryKeyring
) -> None:
    """It went to the keyring as the dialog closed, a mistyped one too (the keyring keeps
    it once the server took it: tests/unit/store/test_shared_passwords.py)."""
    _fill_shared(qtbot, dialog, "s3cret")
    dialog.keyring_box.setChecked(True)
    dialog.accept()
    address = str(dialog.chosen)
    assert "s3cret" not in address
    assert shared_arguments(address)["password"] == "s3cret"
    assert memory_keyring.kept == {}


def test_a_password_not_kept_is_used_for_this_session_only(
    qtbot: QtBot, dialog: OpenLibraryDialog, memory_keyring: MemoryKeyring
) -> None:
    _fill_shared(qtbot, dialog, "just-now")
    dialog.accept()
    assert shared_arguments(str(dialog.chosen))["password"] == "just-now"
    assert memory_keyring.kept == {}
    shared._SESSION.clear()
    assert "password" not in shared_arguments(str(dialog.chosen))  # libpq's ~/.pgpass then


def test_the_dialog_shows_again_what_was_typed_last_but_never_the_password(
    qtbot: QtBot, dialog: OpenLibraryDialog, memory_keyring: MemoryKeyring
) -> None:
    """The library named could not be opened (a database name mistyped, say): the dialog
    opened again holds the address to mend; it was empty, on the file tab."""
    _fill_shared(qtbot, dialog, "s3cret")
    dialog.tls_box.setChecked(False)
    dialog.accept()
    again = OpenLibraryDialog()
    qtbot.add_widget(again)
    assert again.tabs.currentIndex() == 1
    shown = (
        again.host_edit.text(),
        again.port_box.value(),
        again.database_edit.text(),
        again.user_edit.text(),
        again.tls_box.isChecked(),
    )
    assert shown == ("db.lab.example", 5433, "lab_papers", "alice", False)
    assert again.password_edit.text() == ""
    again.database_edit.setText("lab_papers2")
    again.accept()
    assert make_url(str(again.chosen)).database == "lab_papers2"


def test_a_shared_library_that_could_not_be_opened_is_shown_for_its_password_again(
    qtbot: QtBot, memory_keyring: MemoryKeyring
) -> None:
    """Its password refused at the start (changed on the server): Open Another Library…
    showed an empty dialog, on the file tab; the library is shown, the password asked."""
    tried = "postgresql+psycopg://alice@db.lab.example:5433/lab_papers?sslmode=require"
    again = OpenLibraryDialog(None, tried)
    qtbot.add_widget(again)
    again.show()
    qtbot.waitUntil(again.password_edit.hasFocus)
    assert again.tabs.currentIndex() == 1
    shown = (
        again.host_edit.text(),
        again.port_box.value(),
        again.database_edit.text(),
        again.user_edit.text(),
        again.tls_box.isChecked(),
    )
    assert shown == ("db.lab.example", 5433, "lab_papers", "alice", True)
    qtbot.keyClicks(again.password_edit, "n3w")
    again.accept()
    assert again.chosen == tried
    assert shared_arguments(tried)["password"] == "n3w"


def test_the_start_asks_again_about_the_library_it_could_not_open(
    qapp: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from refman.common.errors import RefmanError, ServerUnreachableError

    from refman.ui import starting, window_chrome

    answers, asked = iter(["other", "quit"]), []
    monkeypatch.setattr(window_chrome, "ask_after_failed_open", lambda _e: next(answers))
    monkeypatch.setattr(
        window_chrome, "ask_library_file", lambda _p, tried=None: asked.append(tried)
    )
    refused = RefmanError("The server did not accept the password of user “alice”.")
    tried = "postgresql+psycopg://alice@db.lab.example/lab_papers"
    assert starting.open_at_start(tried, refused) is None
    assert asked == [tried]
    answers = iter(["other", "quit"])  # out of reach: a file of one's own meanwhile
    assert starting.open_at_start(tried, ServerUnreachableError("It cannot be reached.")) is None
    assert asked == [tried, None]
