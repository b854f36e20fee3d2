"""The paper list header's menu: which columns the list shows (as Zotero's and JabRef's).

A right-click on the header lists the columns beside the title, each ticked when shown;
unticking one hides it, ticking it shows it again at the width it had. The title is always
shown; *Default Columns* puts every column back in its place at its default width. The
columns hidden are remembered between sessions by their names
(:func:`hidden_names`, :func:`hidden_columns`), as the window's settings keep them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, Qt, Slot
from PySide6.QtWidgets import QHeaderView, QMenu

from refman.ui.paper_columns import HEADERS, SORT_KEYS, TITLE

if TYPE_CHECKING:
    from refman.ui.column_widths import ColumnWidths

#: The columns the person may hide (all but the title), in the header's first order.
HIDEABLE = tuple(column for column in range(len(HEADERS)) if column != TITLE)


def hidden_names(columns: Iterable[int]) -> list[str]:
    """The names the settings keep hidden columns by (their sort keys' names: "venue")."""
    return [SORT_KEYS[column].value for column in sorted(columns) if column in HIDEABLE]


def hidden_columns(names: Iterable[str]) -> set[int]:
    """The columns named by :func:`hidden_names` (a name this refman does not know: none)."""
    by_name = {SORT_KEYS[column].value: column for column in HIDEABLE}
    return {by_name[name] for name in names if name in by_name}


class ColumnMenu(QObject):
    """The header's context menu of columns to show or hide."""

    def __init__(self, header: QHeaderView, widths: ColumnWidths) -> None:
        super().__init__(header)
        self._header = header
        self._widths = widths
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self.on_header_context_menu_requested)

    def menu(self) -> QMenu:
        """The menu: a ticked entry per column, in the order the header shows them."""
        menu = QMenu(self._header)
        menu.setObjectName("columnMenu")
        header = self._header
        for visual in range(header.count()):
            column = header.logicalIndex(visual)
            action = menu.addAction(HEADERS[column])
            action.setCheckable(True)
            action.setChecked(column not in self._widths.hidden)
            if column == TITLE:
                action.setEnabled(False)  # (the list's one column that is always shown)
                continue
            action.toggled.connect(
                lambda shown, column=column: self._widths.set_hidden(column, not shown)
            )
        menu.addSeparator()
        menu.addAction("Default Columns", self._widths.reset)
        return menu

    @Slot(QPoint)
    def on_header_context_menu_requested(self, pos: QPoint) -> None:
        """The menu, under the cursor."""
        menu = self.menu()
        menu.exec(self._header.viewport().mapToGlobal(pos))
        menu.deleteLater()
