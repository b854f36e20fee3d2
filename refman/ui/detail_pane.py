"""The right pane: everything about the current paper, editable in place.

Text that came from author pages (titles, names, abstracts) is always shown as plain text,
never as HTML. Every edit goes through the controller, so it can be undone.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QHideEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from refman.common.errors import InvalidValueError, NotFoundError
from refman.core.subjects import subject_label
from refman.core.values import Changes, PaperDetail

from refman.ui.controller import LibraryController
from refman.ui.detail_fields import AuthorLinks, FieldEdit, TitleEdit
from refman.ui.flow_layout import FlowLayout
from refman.ui.look import GAP, heading_label, plain_label, scaled_font, set_muted, subtle_fill
from refman.ui.messages import show_error
from refman.ui.notes_editor import NotesEditor
from refman.ui.tag_chips import TagChips

log = logging.getLogger("refman.ui")

PROVISIONAL_NOTE = "Title suggested from the abstract — edit to confirm"
KEEP_TITLE = "Keep this title"


def parse_year(text: str) -> int | None:
    """A year typed by the user: empty clears it.

    Raises:
        InvalidValueError: The text is not a whole number from 1000 to 2100.
    """
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or not 1000 <= int(text) <= 2100:
        raise InvalidValueError(
            f"“{text}” is not a year.", "Type a year from 1000 to 2100, or leave it empty."
        )
    return int(text)


def duplicate_line(title: str | None, *, trashed: bool = False) -> str:
    """The banner of a paper an import kept apart from a near-identical one.

    Args:
        title: The other paper's title; None when it is no longer in the library.
        trashed: The other paper is in the Trash.
    """
    if title is None:
        return "Possibly the same paper as one no longer in the library"
    return f"Possibly the same paper as “{title}”" + (", now in the Trash" if trashed else "")


def provenance_line(owner: str, file: str, when: str) -> str:
    """One line of where a paper came from, e.g. "From Zhuo Jiang's page · a.txt · imported …"."""
    start = f"From {owner}'s page · {file}" if owner else f"From {file}"
    return f"{start} · imported {when}"


#: Widest a subject pill's text may be (px), so the pane fits a narrow column.
SUBJECT_WIDTH = 230


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
        self._paper: PaperDetail | None = None
        self._duplicate_of: int | None = None
        self._build()
        self._pending = self.notes.pending
        self._connect_signals()
        self._load_known_tags()
        self.show_paper(None)

    # -- building ---------------------------------------------------------------------------

    def _build(self) -> None:
        self.setMinimumWidth(280)
        self.empty = plain_label("Select a paper to see its details", self)
        self.empty.setObjectName("detailEmpty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setFont(scaled_font(self.empty.font(), 1.1))
        set_muted(self.empty)

        body = QWidget()
        body.setObjectName("detailBody")
        self._build_banner(body)
        self.title_edit = TitleEdit(body)
        self.provisional = plain_label(PROVISIONAL_NOTE, body)
        self.provisional.setObjectName("provisionalNote")
        italic = scaled_font(self.provisional.font(), 0.9)
        italic.setItalic(True)
        self.provisional.setFont(italic)
        self.provisional.setStyleSheet("QLabel { color: #b26a00; }")
        self.keep_title_button = QPushButton(KEEP_TITLE, body)
        self.keep_title_button.setObjectName("keepTitleButton")
        self.keep_title_button.setToolTip(
            "Confirm the suggested title as it is (Enter in the title)"
        )
        self.keep_title_button.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        provisional_row = QHBoxLayout()
        provisional_row.setContentsMargins(0, 0, 0, 0)
        provisional_row.setSpacing(8)
        provisional_row.addWidget(self.provisional, 1)
        provisional_row.addWidget(self.keep_title_button, 0, Qt.AlignmentFlag.AlignVCenter)
        self.authors = AuthorLinks(body)
        self.year_field = FieldEdit("yearField", "Add year", body)
        self.year_field.setMaximumWidth(90)
        self.venue_field = FieldEdit("venueField", "Add venue", body)

        fields = QGridLayout()
        fields.setContentsMargins(0, 0, 0, 0)
        fields.setHorizontalSpacing(16)
        fields.setVerticalSpacing(2)
        fields.addWidget(heading_label("Year", body), 0, 0)
        fields.addWidget(heading_label("Venue", body), 0, 1)
        fields.addWidget(self.year_field, 1, 0)
        fields.addWidget(self.venue_field, 1, 1)
        fields.setColumnStretch(1, 1)

        self.subjects = QWidget(body)
        self.subjects.setObjectName("subjects")
        self._subject_flow = FlowLayout(self.subjects, h_gap=6, v_gap=4)
        self._subject_labels: list[QLabel] = []
        self.subjects.setStyleSheet(
            "QLabel#subject { border: 1px solid palette(mid); border-radius: 10px;"
            " padding: 2px 8px; }"
        )
        self.tag_chips = TagChips(body)
        self.abstract = plain_label("", body)
        self.abstract.setObjectName("abstractText")
        self.abstract.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.notes = NotesEditor(self.controller, body)
        self.add_note_button = QPushButton("Add Note", body)
        self.add_note_button.setObjectName("addNote")
        self.add_note_button.setToolTip("Add a Markdown note to this paper")
        self.provenance = plain_label("", body)
        self.provenance.setObjectName("provenance")
        self.attributed = plain_label("", body)
        self.attributed.setObjectName("attributedTo")
        for label in (self.provenance, self.attributed):
            label.setFont(scaled_font(label.font(), 0.92))

        notes_heading = QWidget(body)
        notes_header = QHBoxLayout(notes_heading)
        notes_header.setContentsMargins(0, 0, 0, 0)
        notes_header.addWidget(heading_label("Notes", body), 1, Qt.AlignmentFlag.AlignBottom)
        notes_header.addWidget(self.add_note_button)

        layout = QVBoxLayout(body)
        layout.setContentsMargins(GAP + 2, GAP + 2, GAP + 2, GAP * 2)
        layout.setSpacing(6)
        layout.addWidget(self.banner)
        layout.addWidget(self.title_edit)
        layout.addLayout(provisional_row)
        layout.addWidget(self.authors)
        layout.addSpacing(GAP - 6)
        layout.addLayout(fields)
        self.subjects_block = self._block(layout, "Subjects", self.subjects)
        self._block(layout, "Tags", self.tag_chips)
        self._block(layout, "Abstract", self.abstract)
        self._block(layout, notes_heading, self.notes)
        self._block(layout, "Source", self.provenance)
        self.attributed_block = self._block(layout, "Attributed to", self.attributed)
        layout.addStretch(1)

        self.scroll_area = QScrollArea(self)
        self.scroll_area.setObjectName("detailScroll")
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setWidget(body)

        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.scroll_area)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.stack)

    def _build_banner(self, body: QWidget) -> None:
        """The box above the title: "in the Trash", or "possibly the same paper as …"."""
        self.banner = QFrame(body)
        self.banner.setObjectName("detailBanner")
        self.banner.setStyleSheet(
            f"QFrame#detailBanner {{ background: {subtle_fill(self.palette()).name()};"
            " border-radius: 5px; margin-bottom: 6px; }"
        )
        self.banner_text = plain_label("", self.banner)
        self.banner_text.setObjectName("detailBannerText")
        self.show_duplicate_button = QPushButton("Show it", self.banner)
        self.show_duplicate_button.setObjectName("showDuplicateButton")
        self.show_duplicate_button.setFlat(True)
        self.show_duplicate_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.show_duplicate_button.setToolTip("Select that paper in the list")
        self.show_duplicate_button.setStyleSheet(
            "QPushButton { border: none; padding: 0; color: palette(link); }"
            "QPushButton:hover { text-decoration: underline; }"
        )
        self.not_duplicate_button = QPushButton("Not a duplicate", self.banner)
        self.not_duplicate_button.setObjectName("notDuplicateButton")
        self.not_duplicate_button.setToolTip(
            "They are different papers: stop flagging this one (Undo brings the flag back)"
        )
        actions = QHBoxLayout()
        actions.setContentsMargins(0, 0, 0, 0)
        actions.setSpacing(GAP)
        actions.addWidget(self.show_duplicate_button)
        actions.addStretch(1)
        actions.addWidget(self.not_duplicate_button)
        inner = QVBoxLayout(self.banner)
        inner.setContentsMargins(10, 7, 8, 7)
        inner.setSpacing(6)
        inner.addWidget(self.banner_text)
        inner.addLayout(actions)

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
        self.title_edit.committed.connect(self.on_title_edit_committed)
        self.year_field.committed.connect(self.on_year_field_committed)
        self.venue_field.committed.connect(self.on_venue_field_committed)
        self.authors.person_clicked.connect(self.person_clicked)
        self.tag_chips.tags_added.connect(self.on_tag_chips_tags_added)
        self.tag_chips.tag_removed.connect(self.on_tag_chips_tag_removed)
        self.add_note_button.clicked.connect(self.on_add_note_button_clicked)
        self.keep_title_button.clicked.connect(self.on_keep_title_button_clicked)
        self.show_duplicate_button.clicked.connect(self.on_show_duplicate_button_clicked)
        self.not_duplicate_button.clicked.connect(self.on_not_duplicate_button_clicked)

    # -- public API -------------------------------------------------------------------------

    def current_paper(self) -> int | None:
        """The id of the paper shown, or None."""
        return self._paper.id if self._paper is not None else None

    def flush(self) -> None:
        """Save any note text still waiting, now."""
        self.notes.flush()

    def show_paper(self, paper_id: int | None) -> None:
        """Show a paper (None for the empty state), saving what was typed first."""
        self.flush()
        if paper_id is not None and paper_id == self.current_paper():
            self._reload()
            return
        for field in (self.title_edit, self.year_field, self.venue_field):
            if field.is_edited():
                field.commit()  # saves to the paper still shown
            field.revert()
        detail = self.controller.service.details([paper_id]) if paper_id is not None else []
        self._show(detail[0] if detail else None)
        self.scroll_area.verticalScrollBar().setValue(0)

    # -- filling in -------------------------------------------------------------------------

    def _reload(self) -> None:
        if self._paper is None:
            return
        detail = self.controller.service.details([self._paper.id])
        self._show(detail[0] if detail else None)

    def _show(self, paper: PaperDetail | None) -> None:
        self._paper = paper
        if paper is None:
            self.notes.show_notes(None, [])
            self.stack.setCurrentWidget(self.empty)
            return
        self.stack.setCurrentWidget(self.scroll_area)
        self._show_banner(paper)
        if not self.title_edit.is_edited():
            self.title_edit.set_title(paper.title)
        self.title_edit.set_provisional(paper.title_provisional)
        self.provisional.setVisible(paper.title_provisional)
        self.keep_title_button.setVisible(paper.title_provisional)
        self.authors.set_authors(paper.authors, paper.author_ids, paper.authors_complete)
        if not self.year_field.is_edited():
            self.year_field.set_value("" if paper.year is None else str(paper.year))
        if not self.venue_field.is_edited():
            self.venue_field.set_value(paper.venue or "")
        self._show_subjects(paper.subjects)
        self.tag_chips.set_tags(paper.tags)
        self.abstract.setText(paper.abstract_text or "No abstract on the page.")
        self.notes.show_notes(paper.id, paper.notes)
        lines = [
            provenance_line(s.owner, s.file, f"{s.imported:%Y-%m-%d %H:%M}") for s in paper.sources
        ] or [f"Added {paper.added:%Y-%m-%d %H:%M}"]
        for label, value in (("arXiv", paper.arxiv_id), ("DOI", paper.doi), ("URL", paper.url)):
            if value:
                lines.append(f"{label}: {value}")
        self.provenance.setText("\n".join(lines))
        self.attributed.setText(", ".join(paper.attributed_to))
        self.attributed_block.setVisible(bool(paper.attributed_to))

    def _show_banner(self, paper: PaperDetail) -> None:
        self._duplicate_of = None
        linkable = False
        if paper.trashed is not None:
            self.banner_text.setText(f"In the Trash since {paper.trashed:%Y-%m-%d %H:%M}")
        elif paper.possible_duplicate_of is not None:
            self._duplicate_of = paper.possible_duplicate_of
            try:
                other = self.controller.service.paper(paper.possible_duplicate_of)
            except NotFoundError:
                self.banner_text.setText(duplicate_line(None))
            else:
                linkable = other.trashed is None
                self.banner_text.setText(
                    duplicate_line(other.title, trashed=other.trashed is not None)
                )
        self.show_duplicate_button.setVisible(linkable)
        self.not_duplicate_button.setVisible(self._duplicate_of is not None)
        self.banner.setVisible(paper.trashed is not None or self._duplicate_of is not None)

    def _show_subjects(self, codes: tuple[str, ...]) -> None:
        self._subject_flow.clear()
        self._subject_labels = []
        for code in codes:
            label = subject_label(code)
            pill = plain_label(label, self.subjects, wrap=False)
            pill.setObjectName("subject")
            pill.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
            # A long name ("Distributed, Parallel, and Cluster Computing (cs.DC)") must not
            # make the pane wider than its column: shorten it, the tooltip says it whole.
            pill.setAccessibleName(label)
            pill.setToolTip(label)
            pill.setText(
                pill.fontMetrics().elidedText(label, Qt.TextElideMode.ElideMiddle, SUBJECT_WIDTH)
            )
            self._subject_flow.addWidget(pill)
            self._subject_labels.append(pill)
        self.subjects_block.setVisible(bool(codes))

    def _load_known_tags(self) -> None:
        self.tag_chips.set_known_tags([t.name for t in self.controller.service.tags()])

    def subject_texts(self) -> list[str]:
        """The subject labels shown (for tests and accessibility)."""
        return [label.accessibleName() for label in self._subject_labels]

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
        if self._paper is None:
            return
        pid = self._paper.id
        if pid in changes.papers or pid in changes.added or changes.structure or changes.tags:
            self._reload()

    @Slot(str)
    def on_title_edit_committed(self, text: str) -> None:
        """Save an edited title (an empty one is refused)."""
        if self._paper is None:
            return
        if not text:
            show_error(self, InvalidValueError("A title cannot be empty.", "Type the title."))
            self.title_edit.revert()
            return
        if not self.controller.edit_fields(self._paper.id, title=text):
            self.title_edit.revert()

    @Slot(str)
    def on_year_field_committed(self, text: str) -> None:
        """Save an edited year; anything but a year from 1000 to 2100 is refused."""
        if self._paper is None:
            return
        try:
            year = parse_year(text)
        except InvalidValueError as exc:
            self.year_field.revert()
            show_error(self, exc)
            return
        if not self.controller.edit_fields(self._paper.id, year=year):
            self.year_field.revert()

    @Slot(str)
    def on_venue_field_committed(self, text: str) -> None:
        """Save an edited venue (empty clears it)."""
        if self._paper is not None and not self.controller.edit_fields(
            self._paper.id, venue=text or None
        ):
            self.venue_field.revert()

    @Slot(list)
    def on_tag_chips_tags_added(self, names: list[str]) -> None:
        """Tag the paper (several tags typed at once are one undo step)."""
        if self._paper is not None:
            self.controller.tag([self._paper.id], names)

    @Slot(str)
    def on_tag_chips_tag_removed(self, name: str) -> None:
        """Take a tag off the paper."""
        if self._paper is not None:
            self.controller.untag([self._paper.id], name)

    @Slot()
    def on_keep_title_button_clicked(self) -> None:
        """Confirm the suggested title as it reads now (typing in it included)."""
        self.title_edit.commit(confirm=True)

    @Slot()
    def on_show_duplicate_button_clicked(self) -> None:
        """Ask for the paper this one may duplicate to be shown."""
        if self._duplicate_of is not None:
            self.paper_link_activated.emit(self._duplicate_of)

    @Slot()
    def on_not_duplicate_button_clicked(self) -> None:
        """Drop the "possibly the same paper" flag (undoable)."""
        if self._paper is not None:
            self.controller.clear_possible_duplicate(self._paper.id)

    @Slot()
    def on_add_note_button_clicked(self) -> None:
        """Add a note and start typing in it."""
        card = self.notes.add_note()
        if card is not None:
            self.scroll_area.ensureWidgetVisible(card)


__all__ = [
    "KEEP_TITLE",
    "PROVISIONAL_NOTE",
    "DetailPane",
    "duplicate_line",
    "parse_year",
    "provenance_line",
]
