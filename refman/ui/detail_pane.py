"""The right pane: everything about the current paper, editable in place.

Text that came from author pages (titles, names, abstracts) is always shown as plain text,
never as HTML. Every edit goes through the controller, so it can be undone.
"""

from __future__ import annotations

import logging
from functools import partial

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QHideEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from refman.core.contributors import editor_names
from refman.core.publication_status import publication_status, year_text
from refman.core.values import Changes, PaperDetail

from refman.ui.author_links import AuthorLinks
from refman.ui.controller import LibraryController
from refman.ui.detail_banner import PaperBanner
from refman.ui.detail_biblio import BibliographicFields
from refman.ui.detail_fields import (
    KEEP_TITLE,
    PROVISIONAL_NOTE,
    FieldEdit,
    ProvisionalNote,
    TitleEdit,
)
from refman.ui.detail_saving import save_edits
from refman.ui.detail_waiting import EmptyPage
from refman.ui.files_view import FilesView
from refman.ui.held_edits import HeldEdits
from refman.ui.keep_in_view import KeepInView
from refman.ui.kept_paper import KeptPaper
from refman.ui.look import (
    GAP,
    heading_label,
    heading_with,
    plain_label,
    scaled_font,
)
from refman.ui.paper_notes import NotesEditor
from refman.ui.provenance import source_text
from refman.ui.read_only import lock, mark_changing
from refman.ui.reading_bar import ReadingBar
from refman.ui.related_view import RelatedView
from refman.ui.selection_summary import PaneStack
from refman.ui.shown_changes import seen_in_library, tag_shown, untag_shown
from refman.ui.subject_pills import SubjectPills
from refman.ui.tab_order import follow_layout
from refman.ui.tag_chips import TagChips

log = logging.getLogger("refman.ui")


#: The detail pane's narrowest width, in pixels (wider when a paper's details need it).
_NARROWEST = 280


class DetailPane(QWidget):
    """The details of one paper: title, authors, fields, subjects, tags, abstract, notes.

    Signals:
        person_clicked(int): An author was clicked; the argument is the person id.
        paper_link_activated(int): The user asked to see another paper (the one this paper
            may duplicate); the argument is that paper's id.
    """

    person_clicked = Signal(int)
    paper_link_activated = Signal(int)

    def __init__(self, controller: LibraryController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("detailPane")
        self.controller = controller
        self._paper: PaperDetail | None = None  # shown
        self._wanted: int | None = None  # shown, or asked for and shown when read
        #: Why nothing here may change the library (it can only be read), or None.
        self.locked: str | None = None
        #: The paper kept while written in, though the list left it (moved to the Trash).
        self.kept = KeptPaper(self)
        self._build()
        self._pending = self.notes.pending
        self._reads = controller.lists.channel(self)
        self._connect_signals()
        self._load_known_tags()
        self.show_paper(None)

    def _build(self) -> None:
        self.setMinimumWidth(_NARROWEST)
        self.empty_page = EmptyPage(self)  # (or that the paper picked is being read)
        self.empty = self.empty_page.label

        body = QWidget()
        body.setObjectName("detailBody")
        layout = QVBoxLayout(body)
        layout.setContentsMargins(GAP + 2, GAP + 2, GAP + 2, GAP * 2)
        layout.setSpacing(6)
        self.banner = PaperBanner(self.controller, body)
        layout.addWidget(self.banner)
        self._build_heading(body, layout)
        self._build_blocks(body, layout)
        layout.addStretch(1)

        self.scroll_area = QScrollArea(self)
        self.scroll_area.setObjectName("detailScroll")
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setWidget(body)
        # (no Tab stop of its own: it shows no focus, Tab from the list reaches the title)
        self.scroll_area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.keep_in_view = KeepInView(self.scroll_area)

        self.stack = PaneStack(self)  # (several papers selected: their summary on top)
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.scroll_area)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.kept.notice)  # (above the paper, however far it is scrolled)
        outer.addWidget(self.stack)

    def _build_heading(self, body: QWidget, layout: QVBoxLayout) -> None:
        """The title (with the note on a suggested one), the authors, year and venue."""
        self.title_edit = TitleEdit(body)
        provisional_row = ProvisionalNote(body)
        self.provisional, self.keep_title_button = provisional_row.note, provisional_row.keep
        self.held = HeldEdits(self, body)  # edits not saved, to decide about later
        self.authors = AuthorLinks(body)
        self.year_field = FieldEdit("yearField", "Add year", body, label="Year")
        self.year_field.setMaximumWidth(90)
        self.venue_field = FieldEdit("venueField", "Add venue", body, label="Venue")
        fields = QGridLayout()
        fields.setContentsMargins(0, 0, 0, 0)
        fields.setHorizontalSpacing(16)
        fields.setVerticalSpacing(2)
        fields.addWidget(heading_label("Year", body), 0, 0)
        fields.addWidget(heading_label("Venue", body), 0, 1)
        fields.addWidget(self.year_field, 1, 0)
        fields.addWidget(self.venue_field, 1, 1)
        fields.setColumnStretch(1, 1)
        layout.addWidget(self.title_edit)
        layout.addWidget(self.held.note)
        layout.addWidget(provisional_row)
        layout.addWidget(self.authors)
        layout.addSpacing(GAP - 6)
        layout.addLayout(fields)

    def _build_blocks(self, body: QWidget, layout: QVBoxLayout) -> None:
        """Subjects, tags, abstract, notes, source and attribution, each under a heading."""
        self.subjects = SubjectPills(body)
        self.tag_chips = TagChips(body)
        self.biblio = BibliographicFields(body)
        self.abstract = plain_label("", body)
        self.abstract.setObjectName("abstractText")
        self.abstract.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.notes = NotesEditor(self.controller, body)
        self.add_note_button = QPushButton("Add Note", body)
        mark_changing(self.add_note_button, self.keep_title_button)
        self.add_note_button.setObjectName("addNote")
        self.add_note_button.setToolTip("Add a Markdown note to this paper")
        self.provenance = plain_label("", body)
        self.provenance.setObjectName("provenance")
        self.attributed = plain_label("", body)
        self.attributed.setObjectName("attributedTo")
        for label in (self.provenance, self.attributed):
            label.setFont(scaled_font(label.font(), 0.92))
        notes_heading = heading_with("Notes", self.add_note_button, body)
        self.subjects_block = self._block(layout, "Subjects", self.subjects)
        self._block(layout, "Tags", self.tag_chips)
        self.reading = ReadingBar(self.controller, body)
        self._block(layout, "Reading", self.reading)
        self.files = FilesView(self.controller, body)
        self._block(layout, self.files.heading, self.files)
        self._block(layout, "Publication", self.biblio)
        self._block(layout, "Abstract", self.abstract)
        self._block(layout, notes_heading, self.notes)
        self.related = RelatedView(self.controller, body)
        self._block(layout, "Related", self.related)
        follows = partial(seen_in_library, self)  # (a change of the paper follows its merge)
        self.reading.follows = self.files.follows = self.notes.follows = follows
        self.notes.go_to = lambda paper_id: self.kept.go_to(paper_id)
        self._block(layout, "Source", self.provenance)
        self.attributed_block = self._block(layout, "Attributed to", self.attributed)

    def _block(self, layout: QVBoxLayout, title: str | QWidget, widget: QWidget) -> QWidget:
        """Add a headed block (heading, then content) that hides as a whole."""
        block = QWidget(widget.parentWidget())
        inner = QVBoxLayout(block)
        inner.setContentsMargins(0, GAP, 0, 0)
        inner.setSpacing(5)
        inner.addWidget(heading_label(title, block) if isinstance(title, str) else title)
        inner.addWidget(widget)
        layout.addWidget(block)
        return block

    def _connect_signals(self) -> None:
        self.controller.changed.connect(self.on_controller_changed)
        save_edits(self)
        self.held.watch()
        self.authors.person_clicked.connect(self.person_clicked)
        self.tag_chips.tags_added.connect(self.on_tag_chips_tags_added)
        self.tag_chips.tag_removed.connect(self.on_tag_chips_tag_removed)
        self.add_note_button.clicked.connect(self.on_add_note_button_clicked)
        self.notes.note_opened.connect(self.on_notes_note_opened)
        self.keep_title_button.clicked.connect(self.on_keep_title_button_clicked)
        self.banner.show_requested.connect(self.paper_link_activated)
        self.related.paper_activated.connect(self.paper_link_activated)

    # -- public API -------------------------------------------------------------------------

    def current_paper(self) -> int | None:
        """The id of the paper shown (or asked for, and shown as soon as it is read)."""
        return self._wanted

    def shown_paper(self) -> PaperDetail | None:
        """The paper on screen now."""
        return self._paper

    def flush(self) -> None:
        """Save any note text still waiting, now (a paper deleted for good while written in
        is kept with it: :meth:`KeptPaper.leave`)."""
        self.kept.leave()
        self.notes.flush()

    def editable_fields(self) -> dict[str, TitleEdit | FieldEdit]:
        """The fields typed in, by the name of the paper's field each edits."""
        named: dict[str, TitleEdit | FieldEdit] = {"title": self.title_edit}
        return named | {"year": self.year_field, "venue": self.venue_field, **self.biblio.fields}

    def show_paper(self, paper_id: int | None) -> None:
        """Show a paper (None for the empty state), saving what was typed first.

        The paper is read off the GUI thread (on the list reader's thread) and shown when
        its answer comes; the pane shows the paper before until then, and a newer paper
        asked drops the older question, so moving through the list never waits for it.
        While the person writes in the paper shown, "no paper" (the list left it out: moved
        to the Trash elsewhere, say) leaves it shown (:mod:`refman.ui.kept_paper`).
        """
        if paper_id is None and self.kept.holds():
            return
        self.kept.paper_id = None
        self.flush()
        if paper_id is not None and paper_id == self.current_paper():
            self.reload()
            return
        for field in self.editable_fields().values():
            if field.is_edited():
                field.commit()  # saves to the paper still shown
            field.revert()
        self._read(paper_id, to_top=True)

    # -- filling in -------------------------------------------------------------------------

    def reload(self) -> None:
        """Show the paper again as the library has it now."""
        if self._wanted is not None:
            self._read(self._wanted, to_top=False)

    def _read(self, paper_id: int | None, to_top: bool) -> None:
        self._reads.new_generation()
        self._wanted = paper_id
        if paper_id is None:
            self._show(None, None)
            return
        if to_top:  # another paper: says so if the library is slow to give it
            self.empty_page.asked(self.stack)

        def answered(found: tuple[PaperDetail | None, PaperDetail | None]) -> None:
            if found[0] is None and self.kept.gone(paper_id):
                return  # deleted for good while written in: kept as last shown
            self._show(*found)
            if to_top:
                self.scroll_area.verticalScrollBar().setValue(0)

        self._reads.ask(lambda reader: reader.details(paper_id), answered)

    def _show(self, paper: PaperDetail | None, other: PaperDetail | None) -> None:
        self.empty_page.answered()
        self._paper = paper
        self.kept.show_for(paper)
        self._wanted = paper.id if paper is not None else None
        self.related.show_paper(paper.id if paper is not None else None)
        self.files.show_paper(paper)
        if paper is None:
            self.notes.show_notes(None, [])
            self.stack.setCurrentWidget(self.empty)
            return
        self.stack.setCurrentWidget(self.scroll_area)
        self.banner.show_for(paper, other)
        if not self.title_edit.is_edited():
            self.title_edit.set_title(paper.title)
        self.title_edit.set_provisional(paper.title_provisional)
        self.provisional.setVisible(paper.title_provisional)
        self.keep_title_button.setVisible(paper.title_provisional)
        self.authors.set_authors(
            paper.authors, paper.author_ids, paper.authors_complete, editor_names(paper.extra)
        )
        if not self.year_field.is_edited():
            self.year_field.set_value("" if paper.year is None else str(paper.year))
        self.year_field.setPlaceholderText(
            year_text(None, publication_status(paper.extra), "Add year")
        )
        if not self.venue_field.is_edited():
            self.venue_field.set_value(paper.venue or "")
        self.biblio.show_paper(paper)
        self.held.put_back(paper.id)
        self.subjects.set_subjects(paper.subjects)
        self.subjects_block.setVisible(bool(paper.subjects))
        self.tag_chips.set_tags(paper.tags)
        self.reading.show_paper(paper)
        self.abstract.setText(paper.abstract_text or "No abstract.")
        self.notes.show_notes(paper.id, paper.notes)
        self.provenance.setText(source_text(paper, self.controller.service.db.shared))
        self.attributed.setText(", ".join(paper.attributed_to))
        self.attributed_block.setVisible(bool(paper.attributed_to))
        if self.locked is not None:
            lock(self, self.locked)  # the notes and tags shown now too
        self._fit_width()
        follow_layout(self.scroll_area.widget() or self)

    def _fit_width(self) -> None:
        """Never narrower than what the paper shows needs (a banner's buttons), which would
        run under the scroll bar otherwise: the list beside gives way."""
        body, bar = self.scroll_area.widget(), self.scroll_area.verticalScrollBar()
        if body is not None:
            needed = body.minimumSizeHint().width() + bar.sizeHint().width()
            self.setMinimumWidth(max(_NARROWEST, needed))

    def _load_known_tags(self) -> None:
        self.tag_chips.set_known_tags(self.controller.service.tag_names())

    def subject_texts(self) -> list[str]:
        """The subject labels shown (for tests and accessibility)."""
        return self.subjects.texts()

    # -- events and slots -------------------------------------------------------------------

    def hideEvent(self, event: QHideEvent) -> None:
        """Save note text when the pane (or its window) is hidden or closed."""
        if hasattr(self, "notes"):  # not while Qt tears the pane down
            self.flush()
        super().hideEvent(event)

    @Slot(object)
    def on_controller_changed(self, changes: Changes) -> None:
        """Refresh when a change concerns the paper shown (or tags in general)."""
        if self._pending.closed:
            return
        if changes.tags:
            self._load_known_tags()
        pid = self._wanted
        if pid is None:
            return
        if pid in changes.papers or pid in changes.added or changes.structure or changes.tags:
            self.reload()

    @Slot(list)
    def on_tag_chips_tags_added(self, names: list[str]) -> None:
        """Tag the paper (several tags typed at once are one undo step)."""
        tag_shown(self, names)

    @Slot(str)
    def on_tag_chips_tag_removed(self, name: str) -> None:
        """Take a tag off the paper."""
        untag_shown(self, name)

    @Slot()
    def on_keep_title_button_clicked(self) -> None:
        """Confirm the suggested title as it reads now (typing in it included)."""
        self.title_edit.commit(confirm=True)

    @Slot()
    def on_add_note_button_clicked(self) -> None:
        """Add a note; typing starts in it once it is saved (:meth:`on_notes_note_opened`)."""
        self.notes.add_note()

    @Slot(object)
    def on_notes_note_opened(self, card: QWidget) -> None:
        """Scroll the note just added into view, and its lines as they are typed."""
        self.keep_in_view.show(card)

    def focusNextPrevChild(self, forward: bool) -> bool:
        """Tab goes through the pane in the order it is laid out (:mod:`.tab_order`)."""
        if (body := self.scroll_area.widget()) is not None:
            follow_layout(body)
        return super().focusNextPrevChild(forward)


__all__ = ["KEEP_TITLE", "PROVISIONAL_NOTE", "DetailPane"]
