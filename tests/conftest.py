"""Shared test set-up: headless Qt, throwaway data dirs, real temporary libraries."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import pytest

pytest_plugins = [
    "tests.helpers.cli",
    "tests.helpers.fixtures",
    "tests.helpers.logfail",
    "tests.helpers.panes",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test under tests/ui as a GUI test."""
    for item in items:
        if "tests/ui/" in Path(str(item.fspath)).as_posix():
            item.add_marker(pytest.mark.gui)
