"""A person's page: a header above the paper list while the list shows one person's papers.

It says who they are and how many papers they have, which pages were imported for them and
when, who they write with (ranked by shared papers; a click shows that person), and other
spellings of their name that may be the same person, with Same person / Not the same. The
page is read off the GUI thread; showing it marks the person as looked at (their "new"
badge goes).
"""

from __future__ import annotations

import html
import logging

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from refman.common.errors import RefmanError
from refman.common.text import plural
from refman.core.importing.wording import day_text
from refman.core.people_ops import MergePeople, SeePerson, TellApart
from refman.core.values import Changes, NameVariant, PersonPage

from refman.ui.controller import LibraryController
from refman.ui.links import inner_link
from refman.ui.look import (
    clear_layout,
    link_button,
    plain_label,
    scaled_font,
    set_muted,
    subtle_fill,
)
from refman.ui.read_only import mark_changing

log = logging.getLogger("refman.ui")

#: Other spellings offered at most at a time (the People window lists them all).
VARIANTS_SHOWN = 3


def _coauthor_links(page: PersonPage) -> str:
    links = [
        f'<a href="person:{c.id}">{html.escape(c.name)}</a>&nbsp;({c.shared})'
        for c in page.coauthors
    ]
    return "Co-authors: " + " · ".join(links) if links else "No co-authors in the library"


def _pages_text(page: PersonPage) -> str:
    if not page.pages:
        return "Author of papers in the library; no page of theirs was imported"
    last = page.pages[0]
    said = f"{plural(len(page.pages), 'page')} imported"
    return f"{said}, last on {day_text(last.imported_at)} ({last.source}, " + (
        f"{plural(last.parsed, 'record')})"
    )


class _VariantRow(QFrame):
    """ "May also be written “Z. Jiang” (4 papers, 3 in common)" with its two buttons."""

    def __init__(self, variant: NameVariant, shown: int, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("nameVariant")
        other = variant.second if variant.first.id == shown else variant.first
        self.variant = variant
        text = (
            f"May be the same person as “{other.name}” ({plural(other.count, 'paper')}, "
            f"{variant.overlap} in common)."
        )
        self.label = plain_label(text, self, wrap=True)
        self.same = link_button("Same person", self)
        self.same.setObjectName("samePerson")
        self.same.setToolTip(f"Merge “{variant.second.name}” into “{variant.first.name}”")
        self.apart = link_button("Not the same", self)
        self.apart.setObjectName("notSamePerson")
        mark_changing(self.same, self.apart)
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 4, 10, 4)
        row.addWidget(self.label, 1)
        row.addWidget(self.same)
        row.addWidget(self.apart)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, subtle_fill(palette))
        self.setPalette(palette)
        self.setAutoFillBackground(True)


class PersonHeader(QFrame):
    """The header of a person's page (hidden while the list shows no one person).

    Signals:
        person_clicked(int): A co-author's name was clicked.
        people_merged(int, int): Two spellings were made one person: the one kept, then the
            one merged into them.
    """

    person_clicked = Signal(int)
    people_merged = Signal(int, int)

    def __init__(self, controller: LibraryController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("personHeader")
        self.controller = controller
        self.person_id: int | None = None
        self.page: PersonPage | None = None
        self._reads = controller.lists.channel(self)
        self.name = QLabel(self)
        self.name.setObjectName("personName")
        self.name.setTextFormat(Qt.TextFormat.PlainText)
        self.name.setFont(scaled_font(self.name.font(), 1.35, QFont.Weight.DemiBold))
        self.summary = plain_label("", self)
        self.summary.setObjectName("personSummary")
        set_muted(self.summary)
        self.coauthors = QLabel(self)
        self.coauthors.setObjectName("personCoauthors")
        self.coauthors.setTextFormat(Qt.TextFormat.RichText)
        self.coauthors.setWordWrap(True)
        self.coauthors.linkActivated.connect(self.on_link)
        self.variants = QVBoxLayout()
        self.variants.setSpacing(4)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 10, 14, 10)
        layout.setSpacing(4)
        layout.addWidget(self.name)
        layout.addWidget(self.summary)
        layout.addWidget(self.coauthors)
        layout.addLayout(self.variants)
        controller.changed.connect(self.on_changed)
        self.hide()

    def show_person(self, person_id: int | None) -> None:
        """Show a person's page (None hides it)."""
        self.person_id = person_id
        if person_id is None:
            self.page = None
            self.hide()
            return
        self.refresh()

    def refresh(self) -> None:
        """Read the shown person's page again (off the GUI thread)."""
        pid = self.person_id
        if pid is None:
            return
        self._reads.new_generation()
        self._reads.ask(lambda reader: reader.person_page(pid), self._show)

    def _show(self, page: PersonPage | None) -> None:
        if page is None or page.person.id != self.person_id:
            self.hide()
            return
        self.page = page
        person = page.person
        self.name.setText(person.name)
        self.summary.setText(f"{plural(person.count, 'paper')} · {_pages_text(page)}")
        self.coauthors.setText(_coauthor_links(page))
        self._show_variants(page)
        self.show()
        if person.new:
            self._seen(person.id)

    def _show_variants(self, page: PersonPage) -> None:
        clear_layout(self.variants)
        for variant in page.variants[:VARIANTS_SHOWN]:
            row = _VariantRow(variant, page.person.id, self)
            row.same.clicked.connect(lambda _=False, v=variant: self.merge(v))
            row.apart.clicked.connect(lambda _=False, v=variant: self.tell_apart(v))
            self.variants.addWidget(row)

    def merge(self, variant: NameVariant) -> None:
        """Make the two spellings one person (Undo splits them again)."""
        first, second = variant.first, variant.second
        self.controller.apply(
            MergePeople(first.id, second.id, first.name, second.name),
            lambda _outcome: self.people_merged.emit(first.id, second.id),
        )

    def tell_apart(self, variant: NameVariant) -> None:
        """Never propose the two as one person again (Undo proposes them again)."""
        self.controller.apply(TellApart(variant.first.id, variant.second.id))

    def _seen(self, person_id: int) -> None:
        """Mark the person as looked at; a library that cannot be changed keeps the badge."""
        c = self.controller

        def failed(error: RefmanError) -> None:
            log.info("could not mark person #%s as seen: %s", person_id, error)

        c.runner.submit(
            lambda _p, _c: c.service.apply(SeePerson(person_id)),
            c.record,
            on_error=failed,
            label="Saving…",
        )

    @Slot(str)
    def on_link(self, link: str) -> None:
        """A co-author was clicked: show their papers."""
        if (person_id := inner_link(link, "person")) is not None:
            self.person_clicked.emit(person_id)

    @Slot(object)
    def on_changed(self, changes: Changes) -> None:
        """People merged or papers changed: read the page again while it is shown."""
        if self.person_id is not None and (changes.people or changes.structure):
            self.refresh()
