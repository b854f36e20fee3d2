"""The detail pane while several papers are selected: how many, and what can be done to all
of them at once — tag them, mark them, merge them, cite, export or trash them (in the Trash:
restore them or delete them for good) — as Zotero shows "4 items selected" rather than one
paper's details that its controls would change alone.

The page stays on top of the pane's pages while the selection holds several papers (the
current paper's details, read as the selection moves, wait underneath), and every button
is the window's own action (:mod:`refman.ui.actions`): enabled, locked in a library that
can only be read, and undone as the menus' are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction, QFont
from PySide6.QtWidgets import (
    QApplication,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from refman.common.text import plural
from refman.core.values import Changes, TagView

from refman.ui.actions import ActionId
from refman.ui.controller import LibraryController
from refman.ui.list_worker import SOON
from refman.ui.look import GAP, heading_label, plain_label, scaled_font, set_muted
from refman.ui.paper_columns import papers_in
from refman.ui.paper_table import PaperTable
from refman.ui.read_only import lock
from refman.ui.tag_chips import TagChips

if TYPE_CHECKING:  # (the pane builds its stack from this module)
    from refman.ui.detail_pane import DetailPane


#: The most selected papers whose tags the summary shows (their ids are read for it).
TAGS_SHOWN_UP_TO = 10_000


class PaneStack(QStackedWidget):
    """The detail pane's pages. While a page is :meth:`held` (the summary of several papers,
    or the empty page when none is selected) it stays shown, whichever page the pane asks
    for as it reads a paper; the page the pane asked for shows once the hold ends."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.held: QWidget | None = None
        self._wanted: QWidget | None = None

    def setCurrentWidget(self, widget: QWidget) -> None:
        """Show a page of the pane (the page held instead, while one is)."""
        self._wanted = widget
        super().setCurrentWidget(self.held or widget)

    def hold(self, page: QWidget | None) -> None:
        """Keep this page shown (None: show the page the pane asked for)."""
        self.held = page
        wanted = page or self._wanted
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
        self.tags = TagChips(self, from_what="the selected papers")  # the tags they carry
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
                ("Delete Permanently…", ActionId.DELETE_PERMANENTLY),
            )
        ):
            off = action_id in (ActionId.RESTORE, ActionId.DELETE_PERMANENTLY)
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
    """Keeps the detail pane on what the list selects: the summary for several papers, the
    one paper selected (not the current row a Ctrl-click took out of the selection), or the
    empty page when none is; tags them all from the summary's tag field, shows the tags they
    carry (how many of them, when not all) and takes a tag off them all with its chip's ×."""

    def __init__(
        self,
        controller: LibraryController,
        actions: dict[ActionId, QAction],
        table: PaperTable,
        pane: DetailPane,
    ) -> None:
        super().__init__(table)
        self.controller = controller
        self.table = table
        self.pane = pane
        self.stack = pane.stack
        self.summary = SelectionSummary(actions, self.stack)
        self.stack.addWidget(self.summary)
        self.summary.tags.tags_added.connect(self.tag_all)
        self.summary.tags.tag_removed.connect(self.untag_all)
        self.summary.tags.set_known_tags(controller.service.tag_names())
        self._tag_reads = controller.lists.channel(self.summary, rank=SOON)  # the list first
        controller.changed.connect(self.on_changed)
        # (after the window's own handler, which shows the current paper)
        table.selection_changed.connect(self.follow)
        table.current_paper_changed.connect(self.follow)
        self.follow()

    @Slot()
    def follow(self) -> None:
        """The summary for two papers or more; the paper selected; nothing for none."""
        count = papers_in(self.table.selected_runs())
        if count > 1:
            self.summary.set_count(count)
            self._read_tags(count)
        elif count == 1 and (one := self.table.selected_ids()) != [self.pane.current_paper()]:
            self.pane.show_paper(one[0])
        focused = QApplication.focusWidget()
        if count <= 1 and focused is not None and self.summary.isAncestorOf(focused):
            self.table.setFocus()  # the summary goes: the keyboard goes back to the list
        page = self.summary if count > 1 else None
        empty = count == 0 and self._rows() and not self.pane.kept.holds()
        self.stack.hold(page or (self.pane.empty if empty else None))

    def _rows(self) -> bool:
        """The list shows papers (none selected among them: the pane says to select one)."""
        return self.table.paper_model.rowCount() > 0

    @Slot(list)
    def tag_all(self, names: list[str]) -> None:
        """Give every selected paper these tags (one undo step)."""
        self.table.with_selected_ids(lambda ids: self.controller.tag(ids, names))
        self.summary.tags.field.clear()

    def _read_tags(self, count: int) -> None:
        """Show the tags the selected papers carry (read off the GUI thread; none for more
        than :data:`TAGS_SHOWN_UP_TO` papers, whose ids are not read for it)."""
        reads = self._tag_reads
        reads.new_generation()
        if count > TAGS_SHOWN_UP_TO:
            self.summary.tags.set_tags([])
            return

        def ask(ids: Sequence[int]) -> None:
            reads.ask(lambda reader: reader.tags_among(ids), lambda tags: shown(tags, len(ids)))

        def shown(tags: list[TagView], of: int) -> None:
            self.summary.tags.set_tags(tags, of)
            if self.pane.locked is not None:
                lock(self.summary, self.pane.locked)  # the chips shown now too

        self.table.with_selected_ids(ask)

    @Slot(str)
    def untag_all(self, name: str) -> None:
        """Take a tag off every selected paper (one undo step)."""
        self.table.with_selected_ids(lambda ids: self.controller.untag(ids, name))

    @Slot(object)
    def on_changed(self, changes: Changes) -> None:
        """New tag names to complete; the tags of the papers selected read again."""
        if changes.tags:
            self.summary.tags.set_known_tags(self.controller.service.tag_names())
            if self.stack.held is self.summary:
                self._read_tags(papers_in(self.table.selected_runs()))


__all__ = ["PaneStack", "SelectionShown", "SelectionSummary"]
