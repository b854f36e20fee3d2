"""The navigation pane: library sections, people and tags, each with its count.

A click on a section or a person shows it (one of them at a time); tags filter on top of
that: a click shows one tag, Ctrl-click (Cmd on macOS) adds or removes tags and the list
shows papers carrying all of them. Every change to a tag goes through the controller, so
it can be undone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace

from PySide6.QtCore import QSignalBlocker, Qt, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from refman.common.errors import RefmanError
from refman.common.text import squash_spaces
from refman.core.gone_subjects import GoneSubjects
from refman.core.rules import tag_key
from refman.core.values import Changes, Navigation, SavedSearchView, Section, TagView

from refman.ui.actions import ActionId, build_actions
from refman.ui.controller import LibraryController
from refman.ui.list_worker import LATER
from refman.ui.look import heading_label, link_button_style, plain_label, set_muted
from refman.ui.nav_rows import SECTION_NAMES, NavFilter, fill_nav, kept_shown, match_mode_button
from refman.ui.read_only import enable_action
from refman.ui.sidebar import KEY_ROLE, KIND_ROLE, SidebarList, TagList
from refman.ui.tag_dialogs import ask_colour, ask_tag_name
from refman.ui.tag_keeping import fill_tags, followed_tags, gone_text, picked_ids
from refman.ui.tag_menu import TagMenu

log = logging.getLogger("refman.ui")


class TagPane(QWidget):
    """The left pane: library sections, people and tags with their counts.

    Signals:
        filter_changed(NavFilter): The user (or a ``select_*`` call) changed what the paper
            list should show.
        people_requested(): The user asked for the list of everyone ("All people…").
        subject_gone(str): A tag or the person of the filter was merged or deleted elsewhere
            (followed, or no longer filtered by): what to tell the user.
    """

    filter_changed = Signal(object)
    people_requested = Signal()
    subject_gone = Signal(str)

    def __init__(
        self,
        controller: LibraryController,
        actions: dict[ActionId, QAction] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("tagPane")
        self.controller = controller
        self.actions_by_id = actions if actions is not None else build_actions(self)
        self._last = NavFilter()
        self._extra_person: tuple[int, str] | None = None  # an author who owns no page
        self._renaming: tuple[str, str] | None = None
        self._reads = controller.lists.channel(self, rank=LATER)
        self._nav: Navigation | None = None
        self._whole_pending = False  # a reload of everything asked and not shown yet
        self._build()
        self._connect_signals()
        self._rebuild_nav(None)
        self.refresh()

    # -- building ---------------------------------------------------------------------------

    def _build(self) -> None:
        self.setMinimumWidth(180)
        self.nav_list = SidebarList(self)
        self.nav_list.setObjectName("navList")
        self.nav_list.setAccessibleName("Library sections and people")
        self.nav_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.nav_list.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)

        self.tag_list = TagList(self)
        self.tag_list.setObjectName("tagList")
        self.tag_list.setAccessibleName("Tags")
        self.tag_list.setToolTip(
            "Click a tag to show its papers; Ctrl-click to combine tags. F2 renames the tag."
        )

        self.clear_button = QPushButton("Clear tag filter", self)
        self.clear_button.setObjectName("clearTagFilter")
        self.clear_button.setFlat(True)
        self.clear_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.clear_button.setToolTip("Show papers regardless of tags (Esc)")
        self.clear_button.setStyleSheet(link_button_style("padding: 0 2px;"))
        self.clear_button.setEnabled(False)

        header = QHBoxLayout()
        header.setContentsMargins(10, 14, 10, 4)
        header.addWidget(heading_label("Tags", self))
        header.addStretch(1)
        self.match_button = match_mode_button(self)
        header.addWidget(self.match_button)
        header.addWidget(self.clear_button)

        self.no_tags = plain_label(
            "No tags yet. Add tags to a paper in its details, then drop papers onto a tag "
            "here to tag them.",
            self,
        )
        self.no_tags.setContentsMargins(14, 4, 14, 4)
        set_muted(self.no_tags)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 6, 4, 6)
        layout.setSpacing(0)
        layout.addWidget(self.nav_list, 0)
        layout.addLayout(header)
        layout.addWidget(self.tag_list, 1)
        layout.addWidget(self.no_tags, 0)
        layout.addStretch(0)

    def _connect_signals(self) -> None:
        self.controller.changed.connect(self.on_controller_changed)
        self.nav_list.itemSelectionChanged.connect(self.on_nav_list_selection_changed)
        self.nav_list.itemClicked.connect(self.on_nav_list_item_activated)
        self.nav_list.itemActivated.connect(self.on_nav_list_item_activated)  # (Enter)
        self.tag_list.itemSelectionChanged.connect(self.on_tag_list_selection_changed)
        self.tag_list.papers_dropped.connect(self.on_tag_list_papers_dropped)
        self.tag_list.rename_requested.connect(self.rename_tag)
        self.clear_button.clicked.connect(self.clear_tags)
        self.match_button.toggled.connect(lambda _on: self._emit_if_changed())
        self.menu = TagMenu(self)

    # -- reading the selection --------------------------------------------------------------

    def current_filter(self) -> NavFilter:
        """What the pane's selection shows."""
        section, person, saved = Section.ALL, None, None
        selected = self.nav_list.selectedItems()
        if selected:
            kind, key = selected[0].data(KIND_ROLE), selected[0].data(KEY_ROLE)
            if kind == "section":
                section = Section(key)
            elif kind == "person":
                person = int(key)
            elif kind == "saved" and self._nav is not None:
                saved = next((replace(v, count=-1) for v in self._nav.saved if v.id == key), None)
        tags = self.selected_tags()
        any_tags = self.match_button.isChecked() and len(tags) > 1
        return NavFilter(section, person, tags, saved, any_tags)

    def saved_searches(self) -> list[SavedSearchView]:
        """The saved searches the pane lists."""
        return self._nav.saved if self._nav is not None else []

    def selected_tags(self) -> tuple[str, ...]:
        """The selected tag names, in list order."""
        rows = sorted(self.tag_list.row(i) for i in self.tag_list.selectedItems())
        return tuple(str(self.tag_list.item(r).data(KEY_ROLE)) for r in rows)

    def _emit_if_changed(self) -> None:
        current = self.current_filter()
        self.clear_button.setEnabled(bool(current.tags))
        self.match_button.setVisible(len(current.tags) > 1)
        if current != self._last:
            self._last = current
            log.debug("navigation filter: %s", current)
            self.filter_changed.emit(current)

    def _select_nav(self, kind: str, key: object) -> bool:
        item = self.nav_list.find_row(kind, key)
        if item is None:
            return False
        with QSignalBlocker(self.nav_list):
            self.nav_list.setCurrentItem(item)
            item.setSelected(True)
        self.nav_list.viewport().update()
        return True

    def select_section(self, section: Section) -> None:
        """Show a library section (keeping the tag filter)."""
        if self._extra_person is not None:
            self._extra_person = None
            self._rebuild_nav(self._nav)
        self._select_nav("section", Section(section))
        self._emit_if_changed()

    def select_person(self, person_id: int) -> None:
        """Show the papers of a person: a page owner, or any author (listed while shown)."""
        if self.nav_list.find_row("person", person_id) is None:
            person = self.controller.service.person(person_id)  # any author, not only owners
            name = person.name if person is not None else None
            if name is None:
                log.info("no person #%s to show", person_id)
                return
            self._extra_person = (person_id, name)
            self._rebuild_nav(None if self._nav is None else replace(self._nav, person_count=None))
            self.refresh()  # the person's count
        self._select_nav("person", person_id)
        self._emit_if_changed()

    def select_tags(self, names: Iterable[str]) -> None:
        """Filter by exactly these tags (names that do not exist are ignored)."""
        wanted = {tag_key(n) for n in names}
        with QSignalBlocker(self.tag_list):
            self.tag_list.clearSelection()
            for r in range(self.tag_list.count()):
                item = self.tag_list.item(r)
                if tag_key(str(item.data(KEY_ROLE))) in wanted:
                    item.setSelected(True)
        self.tag_list.viewport().update()
        self._emit_if_changed()

    @Slot()
    def clear_tags(self) -> None:
        """Stop filtering by tags."""
        self.select_tags(())

    def when_read(self, call: Callable[[], None]) -> None:
        """Call ``call`` once the pane shows what it was last asked to read."""
        self._reads.ask(lambda _reader: None, lambda _none: call())

    # -- loading ----------------------------------------------------------------------------

    def _rebuild_nav(self, nav: Navigation | None) -> None:
        """Sections and people (without counts until the first read arrived)."""
        selected = self.nav_list.selectedItems()
        keep = (selected[0].data(KIND_ROLE), selected[0].data(KEY_ROLE)) if selected else None
        with QSignalBlocker(self.nav_list):
            self.nav_list.clear()
            self._extra_person = fill_nav(self.nav_list, nav, self._extra_person)
            if keep is None or not self._select_nav(*keep):
                self._select_nav("section", Section.ALL)
        self.nav_list.updateGeometry()

    def _rebuild_tags(self, tags: list[TagView], gone: GoneSubjects) -> None:
        keep = {tag_key(n) for n in self.selected_tags()} | followed_tags(gone)
        if self._renaming is not None and all(t.name != self._renaming[0] for t in tags):
            # The rename landed (a change queued before it may refresh the list first).
            if tag_key(self._renaming[0]) in keep:
                keep.add(tag_key(self._renaming[1]))
            self._renaming = None
        fill_tags(self.tag_list, tags, keep, picked_ids(self._nav, self.selected_tags()))
        self.tag_list.setVisible(bool(tags))
        self.no_tags.setVisible(not tags)

    def refresh(self, *, tags_only: bool = False) -> None:
        """Reload counts, people and tags off the GUI thread, keeping the selection (a tag or
        person of the filter merged elsewhere followed, one gone said); after a change to
        tags alone only what tags change, unless a whole reload is not shown yet."""
        person = self._extra_person[0] if self._extra_person is not None else None
        whole = not tags_only or self._whole_pending or self._nav is None
        self._whole_pending, since = whole, (None if whole else self._nav)
        held, shown = list(picked_ids(self._nav, self.selected_tags())), self._last.person_id
        self._reads.new_generation()
        self._reads.ask(
            lambda reader: (reader.navigation(person, since), reader.gone_subjects(held, shown)),
            self._show,
        )

    def _show(self, answer: tuple[Navigation, GoneSubjects]) -> None:
        nav, gone = answer
        self._whole_pending = False
        picked, shown = picked_ids(self._nav, self.selected_tags()), self._shown_person()
        self._rebuild_tags(nav.tags, gone)  # (before the tags shown until now are let go)
        self._nav = nav
        went = gone.person_went
        if gone.person_gone and self._extra_person is not None:
            self._extra_person = None  # (the author shown, not a page owner)
        if went is not None and all(p.id != went[0] for p in nav.people):
            self._extra_person = went
        self._rebuild_nav(nav)
        if went is not None:
            self._select_nav("person", went[0])
        enable_action(self.actions_by_id[ActionId.EMPTY_TRASH], nav.counts.trash > 0)
        self._emit_if_changed()
        if text := gone_text(gone, picked, shown):
            self.subject_gone.emit(text)
        if went is not None and self._extra_person == went:
            self.refresh()  # (their count)

    def _shown_person(self) -> str | None:
        selected = self.nav_list.selectedItems()
        person = selected and selected[0].data(KIND_ROLE) == "person"
        return str(selected[0].data(Qt.ItemDataRole.DisplayRole)) if person else None

    def build_tag_menu(self, name: str) -> QMenu:
        """The context menu of a tag (:class:`TagMenu`): its actions act on ``name``."""
        return self.menu.build(name)

    @property
    def menu_tag(self) -> str | None:
        """The tag whose menu was built last."""
        return self.menu.tag

    def tag_colour(self, name: str) -> str | None:
        """The colour of a tag the pane lists (None: none, or no such tag)."""
        tags = self._nav.tags if self._nav is not None else []
        return next((tag.colour for tag in tags if tag.name == name), None)

    def rename_tag(self, name: str) -> None:
        """Ask for a new name and rename the tag (merging into a tag of that name)."""
        new = ask_tag_name(self, name)
        if new is None or squash_spaces(new) == name:
            return
        self._renaming = (name, squash_spaces(new))
        self.controller.rename_tag(name, new, on_error=self._rename_refused)

    def _rename_refused(self, _error: RefmanError) -> None:
        self._renaming = None

    def choose_colour(self, name: str) -> None:
        """Ask for a colour and give it to the tag."""
        colour = ask_colour(self, self.tag_colour(name))
        if colour is not ...:
            self.controller.set_tag_colour(name, colour)

    # -- slots ------------------------------------------------------------------------------

    @Slot(object)
    def on_controller_changed(self, changes: Changes) -> None:
        """Reload when tags, papers or the structure changed (a saved note changes no count
        but those of saved searches of words, which notes hold too; a change to tags alone
        leaves the people's counts)."""
        counted = changes.tags or changes.structure or changes.people or changes.searches
        if counted or (changes.papers and not changes.notes):
            others = changes.structure or changes.people or changes.searches or changes.added
            self.refresh(tags_only=changes.tags and not (others or changes.notes))
        elif changes.notes and any(v.text for v in self.saved_searches()):
            self.refresh(tags_only=True)  # (the saved searches counted again, not the people)

    @Slot()
    def on_nav_list_selection_changed(self) -> None:
        """A section, a person or a saved search was picked (the keyboard on "All people…"
        keeps the list as it is: a click or Enter there opens the People window)."""
        if not self.nav_list.selectedItems() and not kept_shown(self.nav_list, self._last):
            self._select_nav("section", Section.ALL)
        self._emit_if_changed()

    @Slot(QListWidgetItem)
    def on_nav_list_item_activated(self, item: QListWidgetItem) -> None:
        """A click or Enter on "All people…" opens the People window."""
        if item.data(KIND_ROLE) == "people":
            self.people_requested.emit()

    @Slot()
    def on_tag_list_selection_changed(self) -> None:
        """Tags were picked or dropped from the filter."""
        self._emit_if_changed()

    @Slot(list, str)
    def on_tag_list_papers_dropped(self, ids: list[int], name: str) -> None:
        """Papers dropped on a tag get that tag."""
        self.controller.tag(ids, [name])


__all__ = ["SECTION_NAMES", "NavFilter", "TagPane", "ask_colour", "ask_tag_name"]
