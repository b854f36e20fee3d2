"""The main window: navigation and tags, the paper list and the detail pane."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import shiboken6
from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QCloseEvent, QShowEvent
from PySide6.QtWidgets import QMainWindow, QWidget

from refman.core.operations import Outcome
from refman.core.saved_searches import within_saved
from refman.core.values import Changes, PaperQuery, Section, SortKey
from refman.importers.sources import LoadedSource

from refman.ui import window_chrome
from refman.ui.actions import ActionId, build_actions
from refman.ui.citing import CitingActions
from refman.ui.controller import LibraryController
from refman.ui.detail_pane import DetailPane
from refman.ui.drop import DropInputs, install_drop_target
from refman.ui.file_actions import FileActions
from refman.ui.history_dialog import HistoryActions
from refman.ui.merge_action import MergeSelected
from refman.ui.messages import show_error
from refman.ui.new_paper import NewPaper
from refman.ui.outage import ServerOutage
from refman.ui.pane_focus import install_pane_focus
from refman.ui.pane_splitter import PaneSplitter
from refman.ui.paper_count import PaperCount, whole_section
from refman.ui.paper_panel import PaperPanel
from refman.ui.people_view import PeopleView
from refman.ui.read_only import enable_action, locked
from refman.ui.reading_actions import ReadingActions
from refman.ui.safety import LibrarySafety, install_banner
from refman.ui.saved_search_actions import SavedSearchActions
from refman.ui.search_box import SearchBox
from refman.ui.selection_summary import SelectionShown
from refman.ui.settings import WindowSettings
from refman.ui.tag_pane import NavFilter, TagPane
from refman.ui.trash_actions import TrashActions
from refman.ui.window_state import restore_window, save_window

log = logging.getLogger("refman.ui")

#: Orders no edit alters (relevance: "added" without a search; a search is a filtered list).
_FIXED_ORDERS = frozenset({SortKey.ADDED, SortKey.RELEVANCE})


class MainWindow(QMainWindow):
    """The window people live in: three panes over one library.

    The panes present the library through the controller's service and change it only
    through the controller, whose ``changed`` signal fans out to every pane.

    Signals:
        library_switch_requested(str): The user picked another library file.
    """

    library_switch_requested = Signal(str)

    def __init__(
        self,
        controller: LibraryController,
        settings: WindowSettings | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        controller.window = self
        self.settings = settings or WindowSettings()
        self.setObjectName("mainWindow")
        self.setWindowIcon(window_chrome.app_icon())
        self.setAcceptDrops(True)
        self.actions_by_id = build_actions(self)
        self._search_text = ""
        self._nav = NavFilter(section=Section.ALL, person_id=None, tags=())
        self._build()
        self._build_menus()
        self._connect_signals()
        self._panes_placed = restore_window(self)
        self._update_title()
        self._apply_query(now=True)
        self.on_undo_stack_changed()

    # -- building ---------------------------------------------------------------------------

    def _build(self) -> None:
        self.search_box = SearchBox(self)
        self.tag_pane = TagPane(self.controller, self.actions_by_id, self)
        self.paper_panel = PaperPanel(self.controller, self)
        self.table = self.paper_panel.table
        self.model = self.paper_panel.model
        self.detail_pane = DetailPane(self.controller, self)
        a = self.actions_by_id
        self.people = PeopleView(self.controller, self.tag_pane, self.paper_panel, a, self)
        self.history = HistoryActions(self.controller, a[ActionId.IMPORT_HISTORY], self)
        self.saved = SavedSearchActions(self.controller, self.tag_pane, self.search_box, a, self)

        window_chrome.build_toolbar(self, self.actions_by_id[ActionId.IMPORT], self.search_box)

        self.splitter = PaneSplitter((self.tag_pane, self.people.middle, self.detail_pane), self)
        self.splitter.setSizes([240, 760, 400])
        self.banner = install_banner(self, self.splitter)

        self.busy_indicator = window_chrome.BusyIndicator(self)
        self.count_label = PaperCount(self.table, self.controller.lists, self)
        self.statusBar().addPermanentWidget(self.busy_indicator)
        self.statusBar().addPermanentWidget(self.count_label)
        self.resize(1400, 900)

    def _build_menus(self) -> None:
        window_chrome.build_menus(self, self.actions_by_id)
        self.undo_action = self.actions_by_id[ActionId.UNDO]
        self.redo_action = self.actions_by_id[ActionId.REDO]

    def _connect_signals(self) -> None:
        a = self.actions_by_id
        c = self.controller
        c.changed.connect(self.on_controller_changed)
        c.runner.busy.connect(self.busy_indicator.on_runner_busy)
        c.undo_stack.indexChanged.connect(self.on_undo_stack_changed)
        c.undo_stack.cleanChanged.connect(self.on_undo_stack_changed)
        a[ActionId.UNDO].triggered.connect(c.undo)
        a[ActionId.REDO].triggered.connect(c.redo)
        self.search_box.search_changed.connect(self.on_search_changed)
        self.search_box.results_wanted.connect(self.paper_panel.focus_first)
        self.tag_pane.filter_changed.connect(self.on_tag_pane_filter_changed)
        self.tag_pane.subject_gone.connect(lambda text: self.statusBar().showMessage(text, 30_000))
        self.table.current_paper_changed.connect(self.on_table_current_changed)
        self.table.selection_changed.connect(self.on_table_selection_changed)
        self.detail_pane.person_clicked.connect(self.tag_pane.select_person)
        self.table.keeps_left_out = self.detail_pane.kept.keeps  # a paper being written in
        self.detail_pane.kept.go_to = self.go_to_paper
        self.detail_pane.paper_link_activated.connect(self.go_to_paper)
        self.paper_panel.welcome.import_requested.connect(self.open_import_wizard)
        a[ActionId.IMPORT].triggered.connect(self.open_import_wizard)
        a[ActionId.OPEN_LIBRARY].triggered.connect(self.on_open_library)
        a[ActionId.QUIT].triggered.connect(self.close)
        a[ActionId.FIND].triggered.connect(self.focus_search)
        a[ActionId.SELECT_ALL].triggered.connect(self.table.selectAll)
        a[ActionId.DELETE].triggered.connect(self.on_delete)
        # The Delete key moves papers to the Trash where the list has the keyboard; elsewhere
        # it is the focused widget's (a tag, a saved search, a character in a field).
        a[ActionId.DELETE].setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.table.addAction(a[ActionId.DELETE])
        a[ActionId.RESTORE].triggered.connect(self.on_restore)
        a[ActionId.ABOUT].triggered.connect(self.on_about)
        a[ActionId.SHOW_TAG_PANE].toggled.connect(self.tag_pane.setVisible)
        a[ActionId.SHOW_LIST_PANE].toggled.connect(self.people.middle.setVisible)
        a[ActionId.SHOW_DETAIL_PANE].toggled.connect(self.detail_pane.setVisible)
        self.drops = install_drop_target(self, self.on_dropped, action=a[ActionId.IMPORT])
        self.files = FileActions(self, self.drops)
        say = self.say_for_a_while
        self.citing = CitingActions(
            self, c, self.settings, a, self.table, lambda: self.tag_pane.menu_tag, say
        )
        self.selection = SelectionShown(c, a, self.table, self.detail_pane)
        self.safety = LibrarySafety(self, c, a, self.banner, say)
        self.safety.start()
        self.reading = ReadingActions(c, a, self.table)
        self.merging = MergeSelected(c, a, self.table)
        self.trash = TrashActions(c, a, self.table, say)
        self.new_paper = NewPaper(self, c, a, say, self.go_to_paper)
        self.outage = ServerOutage(self, c)
        self.pane_focus = install_pane_focus(self)  # (F6, Shift+F6)
        c.stepped.connect(lambda *step: say(window_chrome.stepped_text(*step)))
        self.table.trashed.connect(lambda count: say(window_chrome.trashed_text(count)))
        self.table.in_trash_already.connect(lambda: say(window_chrome.IN_TRASH_ALREADY))
        c.watch()
        c.purger.later()  # what an undo left to do when the window closed

    def save_settings(self) -> None:
        """Remember geometry, panes, columns and the current library."""
        save_window(self)

    def showEvent(self, event: QShowEvent) -> None:
        """On first show without remembered sizes, share the width out to suit the window."""
        super().showEvent(event)
        if not self._panes_placed:
            self._panes_placed = True
            self.place_panes(self.splitter.width())

    def place_panes(self, width: int) -> None:
        """Give the navigation and detail panes a share of ``width`` and the list the rest."""
        tags = max(180, min(260, int(width * 0.17)))
        detail = max(300, min(440, int(width * 0.29)))
        self.splitter.place([tags, max(300, width - tags - detail), detail])

    def closeEvent(self, event: QCloseEvent) -> None:
        """Save whatever is being typed and the window state, then close."""
        self.controller.watcher.stop()
        self.detail_pane.flush()
        self.controller.runner.finish(lambda: self.controller.service.db.answers(2.0))
        self.save_settings()
        super().closeEvent(event)

    # -- the list's query -------------------------------------------------------------------

    def current_query(self) -> PaperQuery:
        """What the list shows: the navigation filter (within a saved search picked), the
        search text and the sort; a search keeps the list's sort (as its headers show it), so
        results appear in place as the user types."""
        current = self.model.query
        sort, descending = current.sort, current.descending
        if sort is SortKey.RELEVANCE:
            sort, descending = SortKey.ADDED, True
        query = PaperQuery(
            text=self._search_text,
            tags=self._nav.tags,
            any_tags=self._nav.any_tags,
            section=self._nav.section,
            person_id=self._nav.person_id,
            sort=sort,
            descending=descending,
            everything=self.search_box.everything,
        )
        return within_saved(self._nav.saved, query) if self._nav.saved is not None else query

    def _apply_query(self, *, now: bool = False) -> None:
        query = self.current_query()
        self.paper_panel.empty_note.saved = self._nav.saved
        self.model.set_query(query, now=now)
        self.count_label.count_library(query)
        self._update_actions()

    def _update_title(self) -> None:
        location = self.controller.service.location
        self.setWindowTitle(f"{Path(location).name} — refman")

    def _update_actions(self) -> None:
        a, selected = self.actions_by_id, self.table.has_selection()
        in_trash = self._nav.section is Section.TRASH
        enable_action(a[ActionId.DELETE], selected and not in_trash)
        enable_action(a[ActionId.RESTORE], selected and in_trash)
        self.citing.enable(selected)

    # -- slots ------------------------------------------------------------------------------

    @Slot(object)
    def on_controller_changed(self, changes: Changes) -> None:
        """Fan a change out to the list, the count and the detail pane.

        A change to papers may move them in or out of a filtered list (a search, tags, a
        section other than All, a person), or within a list sorted by a column an edit alters
        (a title, a rating): the list's query runs again, and the selection follows its papers.
        """
        filtered = whole_section(self.model.query) is not Section.ALL
        moving = self.model.query.sort not in _FIXED_ORDERS and changes.papers and not changes.tags
        if moving or (filtered and (changes.papers or changes.tags or changes.notes)):
            changes = replace(changes, structure=True)
        self.paper_panel.refresh(changes)
        if changes.structure or changes.added:
            self.count_label.count_library(self.current_query(), again=True)
        self._update_actions()

    @Slot()
    def on_undo_stack_changed(self) -> None:
        """Keep Undo and Redo named after the changes they take back and make again."""
        stack = self.controller.undo_stack
        if not shiboken6.isValid(stack):
            return  # a stack being destroyed clears itself (and says so) as it goes
        for action, can, text, verb in (
            (self.undo_action, stack.canUndo(), stack.undoText(), "&Undo"),
            (self.redo_action, stack.canRedo(), stack.redoText(), "&Redo"),
        ):
            action.setEnabled(can)
            action.setText(f"{verb} {text}" if can and text else verb)

    @Slot(str)
    def on_search_changed(self, text: str) -> None:
        """Filter the list as the user types."""
        self._search_text = text
        self._apply_query()

    @Slot(object)
    def on_tag_pane_filter_changed(self, nav: NavFilter) -> None:
        """Show the section, person or tags picked in the navigation pane."""
        self._nav = nav
        self._apply_query()

    @Slot(object)
    def on_table_current_changed(self, paper_id: int | None) -> None:
        """Show the current paper's details."""
        self.detail_pane.show_paper(paper_id)

    @Slot()
    def on_table_selection_changed(self) -> None:
        """Keep Delete and Restore in step with the selection."""
        self._update_actions()

    def say_for_a_while(self, text: str) -> None:
        """Show a message in the status bar for eight seconds."""
        self.statusBar().showMessage(text, 8000)

    @Slot()
    def focus_search(self) -> None:
        """Put the cursor in the search field."""
        self.search_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_box.selectAll()

    @Slot()
    def on_delete(self) -> None:
        """Move the selected papers to the Trash."""
        if self._nav.section is not Section.TRASH:
            self.table.trash_selected()

    @Slot()
    def on_restore(self) -> None:
        """Bring the selected papers back from the Trash (the status bar says how many)."""

        def said(done: Outcome[tuple[int, ...]]) -> None:
            self.say_for_a_while(window_chrome.restored_text(len(done.value)))

        self.table.with_selected_ids(lambda ids: self.controller.restore(ids, said))

    @Slot()
    def on_about(self) -> None:
        """Show the version."""
        window_chrome.show_about(self, self.controller.service.location)

    @Slot()
    def on_open_library(self) -> None:
        """Switch to another library file (opened, or created when new)."""
        path = window_chrome.ask_library_file(self)
        if path:
            self.library_switch_requested.emit(path)

    @Slot()
    def open_import_wizard(self) -> None:
        """Open the import wizard."""
        self.show_import_wizard()

    def show_import_wizard(
        self, files: Sequence[Path] = (), texts: Sequence[LoadedSource] = ()
    ) -> QWidget | None:
        """Open the import wizard prefilled with files and texts (not on a library that can
        only be read: the reason is shown instead, and None returned)."""
        from refman.ui.wizard import ImportWizard

        if (refused := locked(self.actions_by_id[ActionId.IMPORT])) is not None:
            show_error(self, refused, "Cannot import")
            return None
        wizard = ImportWizard(self.controller, self)
        wizard.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        if files:
            wizard.add_files([Path(f) for f in files])
        for text in texts:
            wizard.add_text(text.text, text.source, text.links)
        wizard.show_papers_requested.connect(self.show_papers)
        wizard.finished.connect(self.on_wizard_finished)
        self.wizard = wizard
        wizard.open()
        return wizard

    @Slot()
    def on_wizard_finished(self) -> None:
        """Say what the import did once its wizard closes (the list shows it only by the papers
        that came)."""
        from refman.ui.wizard import ImportWizard

        wizard = self.sender()
        if isinstance(wizard, ImportWizard) and wizard.result is not None:
            self.say_for_a_while(window_chrome.imported_text(wizard.result))

    def on_dropped(self, inputs: DropInputs) -> None:
        """Open the wizard with what was dropped on the window."""
        self.show_import_wizard(inputs.files, inputs.texts)

    @Slot(int)
    def _select(self, paper_id: int) -> None:
        self.table.select_paper(paper_id)

    def go_to_paper(self, paper_id: int) -> None:
        """Select a paper, widening the list to All papers only when it is filtered out."""
        self.table.select_paper(paper_id, on_missing=lambda: self._widen_to(paper_id))

    def _widen_to(self, paper_id: int) -> None:
        self.search_box.set_text_now("")
        self.tag_pane.clear_tags()
        self.tag_pane.select_section(Section.ALL)
        self.model.when_read(lambda: self._select(paper_id))

    @Slot(list)
    def show_papers(self, ids: list[int]) -> None:
        """Show exactly these papers: the Recently added section, first one selected."""
        self.search_box.set_text_now("")
        self.tag_pane.clear_tags()
        self.tag_pane.select_section(Section.RECENT)
        if ids:
            first = ids[0]
            self.model.when_read(lambda: self._select(first))
