"""Qt's own messages reach refman's log at the level they deserve."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from PySide6.QtCore import qInstallMessageHandler, qWarning

from refman.ui.qt_logging import install_qt_message_handler


@pytest.fixture
def refman_handler() -> Iterator[None]:
    """refman's handler of Qt's messages, pytest-qt's again after the test."""
    install_qt_message_handler()
    yield
    qInstallMessageHandler(None)


@pytest.mark.logs_warnings("refman.qt")
def test_a_platform_without_a_window_feature_is_information_and_a_problem_a_warning(
    refman_handler: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="refman.qt")
    qWarning("This plugin does not support propagateSizeHints()")
    qWarning("QPainter::begin: Paint device returned engine == 0")
    levels = {r.getMessage(): r.levelno for r in caplog.records if r.name == "refman.qt"}
    assert levels == {
        "This plugin does not support propagateSizeHints()": logging.INFO,
        "QPainter::begin: Paint device returned engine == 0": logging.WARNING,
    }
