"""Tab goes through a pane in the order its controls are laid out.

Qt appends a widget made after the window was built to the end of the window's Tab chain,
wherever it is shown: the detail pane's author links, the × of its tag chips and its notes'
editors came after the search field, away from the pane, and Tab out of a note went on to
the navigation pane. :func:`follow_layout` puts a pane's controls back in the chain in the
order its layouts place them, top to bottom and left to right, the pane's first control
staying where it is: Tab leaves the pane's last control for what follows the pane.
"""

from __future__ import annotations

from itertools import pairwise

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLayout, QWidget


def _takes_tab(widget: QWidget) -> bool:
    return bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)


def _in_layout(layout: QLayout) -> list[QWidget]:
    """The widgets a layout places (those of its inner layouts too), in its order."""
    found: list[QWidget] = []
    for index in range(layout.count()):
        item = layout.itemAt(index)
        if item is None:
            continue
        widget, inner = item.widget(), item.layout()
        if widget is not None:
            found.append(widget)
        elif inner is not None:
            found.extend(_in_layout(inner))
    return found


def laid_out(root: QWidget) -> list[QWidget]:
    """The controls under ``root`` that Tab stops at, in the order the layouts place them.

    A control is not looked into (a combo box's own parts keep their order); a widget
    without a layout gives its child widgets in the order they were made.
    """
    found: list[QWidget] = []

    def visit(widget: QWidget) -> None:
        if widget is not root and _takes_tab(widget):
            found.append(widget)
            return
        layout = widget.layout()
        if layout is not None:
            children = _in_layout(layout)
        else:
            children = [c for c in widget.children() if isinstance(c, QWidget)]
        for child in children:
            if not child.isWindow():
                visit(child)

    visit(root)
    return found


def follow_layout(root: QWidget) -> None:
    """Put the controls under ``root`` in the Tab chain in the order they are laid out."""
    for first, second in pairwise(laid_out(root)):
        if first.nextInFocusChain() is not second:
            QWidget.setTabOrder(first, second)
