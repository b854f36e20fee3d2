"""File ▸ Open Library…: a library file, or a shared library on a PostgreSQL server, whose
password is used for the session or kept in the system keyring, never in refman's settings."""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest
from keyring.backend import KeyringBackend
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from sqlalchemy.engine import make_url

from refman.store import shared
from refman.store.connection import shared_arguments

from refman.ui.open_library import OpenLibraryDialog


class MemoryKeyring(KeyringBackend):
    """A system keyring that keeps passwords in memory (the test machine has none)."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()
        self.kept: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.kept.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.kept[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.kept.pop((service, username), None)


@pytest.fixture
def memory_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    before = keyring.get_keyring()
    made = MemoryKeyring()
    keyring.set_keyring(made)
    monkeypatch.setattr(shared, "_SESSION", {})
    yield made
    keyring.set_keyring(before)


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


def test_a_password_is_kept_in_the_keyring_only_when_asked_and_never_in_the_address(
    qtbot: QtBot, dialog: OpenLibraryDialog, memory_keyring: MemoryKeyring
) -> None:
    _fill_shared(qtbot, dialog, "s3cret")
    dialog.keyring_box.setChecked(True)
    dialog.accept()
    address = str(dialog.chosen)
    assert "s3cret" not in address
    assert memory_keyring.kept == {("refman", "alice@db.lab.example:5433/lab_papers"): "s3cret"}
    shared._SESSION.clear()  # a later session: the keyring gives it back
    assert shared_arguments(address)["password"] == "s3cret"


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
