"""The window's tests: a question a headless test cannot answer has its answer set; what the
Open Library dialog remembers of the session starts empty in each test."""

from __future__ import annotations

import pytest

from refman.ui import open_library
from refman.ui.wizard import wizard


@pytest.fixture(autouse=True)
def _closing_discards_pasted_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Closing an import wizard that holds pasted text asks first (a modal question nobody
    answers in a test): the person says Discard, unless a test says otherwise."""
    monkeypatch.setattr(wizard, "confirm_discard", lambda _parent: True)


@pytest.fixture(autouse=True)
def _a_session_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Open Library dialog shows what was typed last this session: each test is one."""
    monkeypatch.setattr(open_library, "_LAST", {})
