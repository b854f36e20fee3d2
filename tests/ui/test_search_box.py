"""The search field: every keystroke reports at once (no typing delay), as do Esc, the clear
button and set_text_now; the same text is never reported twice in a row."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from refman.ui.search_box import PLACEHOLDER, SearchBox

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


def test_every_keystroke_reports_at_once(qtbot: QtBot, box: SearchBox, emitted: list[str]) -> None:
    qtbot.keyClicks(box, "graph")
    assert emitted == ["g", "gr", "gra", "grap", "graph"]  # no waiting for a pause
    qtbot.keyClick(box, Qt.Key.Key_Backspace)
    assert emitted[-1] == "grap"


def test_escape_clears_and_reports(qtbot: QtBot, box: SearchBox, emitted: list[str]) -> None:
    qtbot.keyClicks(box, "kernel")
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert box.text() == ""
    assert emitted[-2:] == ["kernel", ""]


def test_clear_button_reports(qtbot: QtBot, box: SearchBox, emitted: list[str]) -> None:
    box.set_text_now("attention")
    (button,) = [
        b
        for b in box.findChildren(QToolButton)
        if b.defaultAction() and b.defaultAction().objectName() == "_q_qlineeditclearaction"
    ]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert box.text() == ""
    assert emitted == ["attention", ""]


def test_set_text_now_reports_once(qtbot: QtBot, box: SearchBox, emitted: list[str]) -> None:
    box.set_text_now("diffusion")
    box.set_text_now("diffusion")
    assert box.text() == "diffusion"
    assert emitted == ["diffusion"]
    box.set_text_now("")
    assert emitted == ["diffusion", ""]
