"""The search field: debounced while typing, immediate on Esc, clear and set_text_now."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from refman.ui.search_box import DEBOUNCE_MS, PLACEHOLDER, SearchBox

# The offscreen platform warns when a top-level widget is shown; nothing to do with us.
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


@pytest.fixture
def box(qtbot: QtBot) -> SearchBox:
    """A shown, focused search box."""
    widget = SearchBox()
    qtbot.add_widget(widget)
    widget.show()
    qtbot.wait_exposed(widget)
    widget.setFocus()
    return widget


@pytest.fixture
def emitted(box: SearchBox) -> list[str]:
    """Every text the box reports, in order."""
    texts: list[str] = []
    box.search_changed.connect(texts.append)
    return texts


def test_looks_like_a_search_field(box: SearchBox) -> None:
    assert box.objectName() == "searchBox"
    assert box.placeholderText() == PLACEHOLDER
    assert box.isClearButtonEnabled()
    assert not box.search_action.icon().isNull()


def test_typing_reports_once_after_a_pause(
    qtbot: QtBot, box: SearchBox, emitted: list[str]
) -> None:
    with qtbot.wait_signal(box.search_changed, timeout=2000) as blocker:
        qtbot.keyClicks(box, "graph net")
        assert emitted == []  # nothing while typing
    assert blocker.args == ["graph net"]
    with qtbot.assert_not_emitted(box.search_changed, wait=2 * DEBOUNCE_MS):
        pass
    assert emitted == ["graph net"]


def test_escape_clears_and_reports_at_once(
    qtbot: QtBot, box: SearchBox, emitted: list[str]
) -> None:
    with qtbot.wait_signal(box.search_changed, timeout=2000):
        qtbot.keyClicks(box, "kernel")
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert box.text() == ""
    assert emitted == ["kernel", ""]  # no waiting for the timer
    with qtbot.assert_not_emitted(box.search_changed, wait=2 * DEBOUNCE_MS):
        pass


def test_escape_mid_typing_cancels_the_pending_search(
    qtbot: QtBot, box: SearchBox, emitted: list[str]
) -> None:
    qtbot.keyClicks(box, "kern")
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert emitted == [""]
    with qtbot.assert_not_emitted(box.search_changed, wait=2 * DEBOUNCE_MS):
        pass


def test_clear_button_reports_at_once(qtbot: QtBot, box: SearchBox, emitted: list[str]) -> None:
    box.set_text_now("attention")
    (button,) = [
        b
        for b in box.findChildren(QToolButton)
        if b.defaultAction() and b.defaultAction().objectName() == "_q_qlineeditclearaction"
    ]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert box.text() == ""
    assert emitted == ["attention", ""]
    with qtbot.assert_not_emitted(box.search_changed, wait=2 * DEBOUNCE_MS):
        pass


def test_set_text_now_skips_the_wait(qtbot: QtBot, box: SearchBox, emitted: list[str]) -> None:
    box.set_text_now("diffusion")
    assert box.text() == "diffusion"
    assert emitted == ["diffusion"]
    box.set_text_now("")
    assert emitted == ["diffusion", ""]
    with qtbot.assert_not_emitted(box.search_changed, wait=2 * DEBOUNCE_MS):
        pass
