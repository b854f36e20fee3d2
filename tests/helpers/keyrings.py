"""A system keyring in memory (the test machine has none), for the passwords of shared
libraries; every test that uses it starts a session with no password typed."""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest
from keyring.backend import KeyringBackend

from refman.store import shared


class MemoryKeyring(KeyringBackend):
    """A system keyring that keeps passwords in memory."""

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
    """The system keyring, empty, and no password typed this session."""
    before = keyring.get_keyring()
    made = MemoryKeyring()
    keyring.set_keyring(made)
    monkeypatch.setattr(shared, "_SESSION", {})
    monkeypatch.setattr(shared, "_TO_KEEP", set())
    yield made
    keyring.set_keyring(before)
