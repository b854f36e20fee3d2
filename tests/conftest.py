"""Shared test set-up: headless Qt, throwaway data dirs, real temporary libraries."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest_plugins = [
    "tests.helpers.cli",
    "tests.helpers.fixtures",
    "tests.helpers.keyrings",
    "tests.helpers.logfail",
    "tests.helpers.panes",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test under tests/ui as a GUI test."""
    for item in items:
        if "tests/ui/" in Path(str(item.fspath)).as_posix():
            item.add_marker(pytest.mark.gui)


@pytest.fixture(autouse=True)
def _collector_on_the_gui_thread(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test with Qt collects garbage on the GUI thread only, as the window does
    (:mod:`refman.ui.gui_collector`); the automatic collector comes back after it."""
    if not {"qtbot", "qapp"} & set(request.fixturenames):
        yield
        return
    from refman.ui.gui_collector import GuiCollector

    collector = GuiCollector(request.getfixturevalue("qapp"))
    yield
    collector.uninstall()
