"""The detail pane while several papers are selected: how many, and what can be done to all
of them at once — tag them, mark them, merge them, cite, export or trash them — as Zotero
shows "4 items selected" rather than one paper's details that its controls would change
alone.

The page stays on top of the pane's pages while the selection holds several papers (the
current paper's details, read as the selection moves, wait underneath), and every button
is the window's own action (:mod:`refman.ui.actions`): enabled, locked in a library that
can only be read, and undone as the menus' are.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction, QFont
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from refman.common.text import plural
from refman.core.values import Changes

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.look import GAP, heading_label, plain_label, scaled_font, set_muted
from refman.ui.paper_table import PaperTable
from refman.ui.tag_chips import TagChips


class PaneStack(QStackedWidget):
    """The detail pane's pages; while :attr:`held` the summary of a selection stays shown,
    whichever page the pane asks for (it shows that one once the selection is one paper)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary: QWidget | None = None
        self.held = False
        self._wanted: QWidget | None = None

    def setCurrentWidget(self, widget: QWidget) -> None:
        """Show a page of the pane (the summary instead, while held)."""
        self._wanted = widget
        super().setCurrentWidget(self.summary if self.held and self.summary else widget)

    def hold(self, held: bool) -> None:
        """Keep the summary on top (True), or show the page the pane asked for."""
        self.held = held
        wanted = self.summary if held else self._wanted
        if wanted is not None:
            super().setCurrentWidget(wanted)


def action_button(
    text: str, action: QAction, parent: QWidget, *, hidden_when_off: bool = False
) -> QPushButton:
    """A button that triggers a window action and is enabled (and explains itself) as it is;
    ``hidden_when_off``: shown only while the action can be used (Restore, in the Trash)."""
    button = QPushButton(text, parent)

    def follow() -> None:
        button.setEnabled(action.isEnabled())
        button.setToolTip(action.toolTip() or action.statusTip())
        if hidden_when_off:
            button.setHidden(not action.isEnabled())

    button.clicked.connect(action.trigger)
    action.changed.connect(follow)
    follow()
    return button


class SelectionSummary(QWidget):
    """The page: "4 papers selected", then what to do to all of them."""

    def __init__(self, actions: dict[ActionId, QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("selectionSummary")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(GAP + 2, GAP + 2, GAP + 2, GAP * 2)
        layout.setSpacing(6)
        self.heading = QLabel(self)
        self.heading.setObjectName("selectionHeading")
        self.heading.setFont(scaled_font(self.heading.font(), 1.45, QFont.Weight.Bold))
        layout.addWidget(self.heading)
        note = plain_label(
            "What you do here applies to all of them; Undo takes each step back.", self
        )
        set_muted(note)
        layout.addWidget(note)
        self.tags = TagChips(self)
        self.tags.field.setPlaceholderText("Add tag to all…")
        self.tags.field.setAccessibleName("Add tag to the selected papers")
        self._block(layout, "Tags", self.tags)
        reading = QWidget(self)
        row = QHBoxLayout(reading)
        row.setContentsMargins(0, 0, 0, 0)
        for text, action_id in (
            ("Unread", ActionId.MARK_UNREAD),
            ("Reading", ActionId.MARK_READING),
            ("Read", ActionId.MARK_READ),
        ):
            row.addWidget(action_button(text, actions[action_id], reading))
        row.addStretch(1)
        self._block(layout, "Reading", reading)
        self._block(layout, "Papers", self._paper_buttons(actions))
        layout.addStretch(1)

    def _paper_buttons(self, actions: dict[ActionId, QAction]) -> QWidget:
        box = QWidget(self)
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        for i, (text, action_id) in enumerate(
            (
                ("Copy Citations", ActionId.COPY_CITATION),
                ("Export…", ActionId.EXPORT_SELECTED),
                ("Merge Papers", ActionId.MERGE_PAPERS),
                ("Move to Trash", ActionId.DELETE),
                ("Restore", ActionId.RESTORE),
            )
        ):
            off = action_id is ActionId.RESTORE
            button = action_button(text, actions[action_id], box, hidden_when_off=off)
            button.setObjectName(f"selection{text.split()[0].rstrip('…')}Button")
            grid.addWidget(button, i // 2, i % 2)
        return box

    def _block(self, layout: QVBoxLayout, title: str, widget: QWidget) -> None:
        layout.addSpacing(GAP)
        layout.addWidget(heading_label(title, self))
        layout.addWidget(widget)

    def set_count(self, count: int) -> None:
        """Say how many papers are selected."""
        self.heading.setText(f"{plural(count, 'paper')} selected")


class SelectionShown(QObject):
    """Shows the summary in the detail pane while the list's selection holds several papers,
    and tags them all from its tag field."""

    def __init__(
        self,
        controller: LibraryController,
        actions: dict[ActionId, QAction],
        table: PaperTable,
        stack: PaneStack,
    ) -> None:
        super().__init__(table)
        self.controller = controller
        self.table = table
        self.stack = stack
        self.summary = SelectionSummary(actions, stack)
        stack.addWidget(self.summary)
        stack.summary = self.summary
        self.summary.tags.tags_added.connect(self.tag_all)
        self.summary.tags.set_known_tags(controller.service.tag_names())
        controller.changed.connect(self.on_changed)
        table.selection_changed.connect(self.follow)
        self.follow()

    @Slot()
    def follow(self) -> None:
        """The summary for two papers or more; one paper's details otherwise."""
        count = sum(last - first + 1 for first, last in self.table.selected_runs())
        if count > 1:
            self.summary.set_count(count)
        self.stack.hold(count > 1)

    @Slot(list)
    def tag_all(self, names: list[str]) -> None:
        """Give every selected paper these tags (one undo step)."""
        self.table.with_selected_ids(lambda ids: self.controller.tag(ids, names))
        self.summary.tags.field.clear()

    @Slot(object)
    def on_changed(self, changes: Changes) -> None:
        """New tag names to complete."""
        if changes.tags:
            self.summary.tags.set_known_tags(self.controller.service.tag_names())


__all__ = ["PaneStack", "SelectionShown", "SelectionSummary"]
