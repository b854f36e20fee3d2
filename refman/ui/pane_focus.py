"""F6 and Shift+F6: the keyboard from one part of the window to the next — the search field,
the navigation pane, the paper list, the detail pane — as in most programs of panes (Tab
goes through every control of each on the way)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QWidget

from refman.ui.actions import ActionId

if TYPE_CHECKING:
    from refman.ui.main_window import MainWindow


def first_control(pane: QWidget) -> QWidget | None:
    """The first control of a pane that Tab stops on (in its focus chain), if one shows."""
    if _takes_tab(pane):
        return pane
    seen: QWidget | None = pane.nextInFocusChain()
    while seen is not None and seen is not pane:
        if pane.isAncestorOf(seen) and _takes_tab(seen):
            return seen
        seen = seen.nextInFocusChain()
    return None


def _takes_tab(widget: QWidget) -> bool:
    tab = Qt.FocusPolicy.TabFocus
    return widget.isVisible() and widget.isEnabled() and bool(widget.focusPolicy() & tab)


class PaneFocus(QObject):
    """Moves the keyboard between the window's parts in order (those hidden are passed by).

    Each part is given as the widget that holds it and the control the keyboard goes to
    there (None: the part's first control, as it is also when that control does not show).
    """

    def __init__(
        self,
        parts: Sequence[tuple[QWidget, QWidget | None]],
        forward: QAction,
        backward: QAction,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.parts = list(parts)
        forward.triggered.connect(self.on_forward_triggered)
        backward.triggered.connect(self.on_backward_triggered)

    def current(self) -> int | None:
        """Which part holds the keyboard now (None: none of them)."""
        focus = QApplication.focusWidget()
        for index, (holder, _control) in enumerate(self.parts):
            if focus is not None and (focus is holder or holder.isAncestorOf(focus)):
                return index
        return None

    def move(self, step: int) -> QWidget | None:
        """Put the keyboard in the next part that shows (``step`` 1) or the one before
        (-1); returns the control that has it then."""
        here = self.current()
        count = len(self.parts)
        start = (-1 if step > 0 else count) if here is None else here
        for offset in range(1, count + 1):
            holder, control = self.parts[(start + step * offset) % count]
            if not holder.isVisible():
                continue
            target = control if control is not None and _takes_tab(control) else None
            if (target := target or first_control(holder)) is not None:
                target.setFocus(Qt.FocusReason.ShortcutFocusReason)
                return target
        return None

    @Slot()
    def on_forward_triggered(self) -> None:
        """F6: the next part."""
        self.move(1)

    @Slot()
    def on_backward_triggered(self) -> None:
        """Shift+F6: the part before."""
        self.move(-1)


def install_pane_focus(window: MainWindow) -> PaneFocus:
    """F6 and Shift+F6 (View ▸ Next Pane, Previous Pane) over the window's parts: the search
    field, the navigation pane, the paper list and the detail pane."""
    parts: list[tuple[QWidget, QWidget | None]] = [
        (window.search_box, None),
        (window.tag_pane, None),
        (window.people.middle, window.table),  # (not the person's page above it)
        (window.detail_pane, None),
    ]
    actions = window.actions_by_id
    return PaneFocus(parts, actions[ActionId.NEXT_PANE], actions[ActionId.PREVIOUS_PANE], window)
