"""What an empty paper list says: why it is empty, in the middle of the list.

A search that finds nothing, a tag whose last paper lost it, an empty Trash: the list used to
show blank rows and "0 of 30 papers" in the status bar, and nothing said why. The note names
what the list shows (the search typed, the tags, the section) and what to do.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QEvent, QObject, Qt, Slot
from PySide6.QtWidgets import QLabel, QTableView

from refman.common.errors import RefmanError, ServerUnreachableError
from refman.common.text import plural
from refman.core.saved_searches import gone_text
from refman.core.search_syntax import without_open_quote
from refman.core.values import PaperQuery, SavedSearchView, Section

from refman.ui.look import plain_label, set_muted
from refman.ui.messages import in_words
from refman.ui.paper_model import PaperTableModel

_SECTIONS = {
    Section.UNREAD: "Nothing left to read: every paper is marked read or reading.",
    Section.ATTENTION: "No paper needs attention.",
    Section.UNTAGGED: "Every paper has a tag.",
    Section.RECENT: "The last import added or changed no paper.",
    Section.TRASH: "The Trash is empty.",
}


def _saved_text(query: PaperQuery, saved: SavedSearchView) -> str:
    """Why the list of a saved search (narrowed by what is typed) shows no paper."""
    line = without_open_quote(saved.text)
    typed = query.text.removeprefix(line).strip() if query.text.startswith(line) else ""
    if typed:
        return (
            f"No paper of the saved search “{saved.name}” matches “{typed}”. Check the "
            "spelling, or clear the search (Esc)."
        )
    why = f": {gone_text(saved.gone)}" if saved.gone else ""
    return f"The saved search “{saved.name}” finds no paper{why}. Right-click it to change it."


def empty_text(query: PaperQuery, saved: SavedSearchView | None = None) -> str:
    """Why a list of this query shows no paper, and what to do (``saved``: the saved search
    it shows, whose words the query's text starts with)."""
    if saved is not None and set(query.tags) <= set(saved.tags):
        return _saved_text(query, saved)
    typed = query.text.strip()
    if typed:
        return f"No paper matches “{typed}”. Check the spelling, or clear the search (Esc)."
    if query.tags:
        names = ", ".join(f"“{t}”" for t in query.tags)
        joined = (
            "any of the tags"
            if query.any_tags
            else "the tags"
            if len(query.tags) > 1
            else "the tag"
        )
        return f"No paper here carries {joined} {names}. Clear the tag filter to see them all."
    if query.person_id is not None:
        return "No paper of this person here."
    return _SECTIONS.get(query.section, "No papers here.")


def _searched(query: PaperQuery) -> bool:
    """A list of the library (not a section) narrowed by a search or tags."""
    return query.section is Section.ALL and bool(query.text.strip() or query.tags)


def in_trash_text(found: int) -> str:
    """What the empty list adds when papers of the Trash match what it shows."""
    does, them = ("does", "it") if found == 1 else ("do", "them")
    return f"{plural(found, 'paper')} in the Trash {does}: pick Trash on the left to see {them}."


def unread_text(query: PaperQuery, error: RefmanError) -> str:
    """Why a list of this query shows no paper when it could not be read (``error``)."""
    typed = query.text.strip()
    if isinstance(error, ServerUnreachableError):
        if typed:
            return (
                f"The search “{typed}” could not run: the library server cannot be reached. "
                "It runs by itself once the server is back."
            )
        return (
            "This list could not be read: the library server cannot be reached. It is read "
            "by itself once the server is back."
        )
    what = f"The search “{typed}” could not run" if typed else "This list could not be read"
    return f"{what}: {in_words(error)}"


class EmptyListNote(QObject):
    """Keeps a note in the middle of a list's viewport while the list shows no paper."""

    def __init__(self, table: QTableView, model: PaperTableModel) -> None:
        super().__init__(table)
        self._table, self._model = table, model
        self.label: QLabel = plain_label("", table.viewport())
        self.label.setObjectName("emptyListNote")
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        set_muted(self.label)
        self.label.hide()
        #: The saved search the list shows, if one is picked (the window sets it).
        self.saved: SavedSearchView | None = None
        table.viewport().installEventFilter(self)
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved):
            signal.connect(self.update_note)

    @Slot()
    def update_note(self) -> None:
        """Show the note while the list is empty (once its count is known), else hide it."""
        empty = self._model.rowCount() == 0 and self._model.counted
        if empty:
            unread, query = self._model.unread, self._model.query
            said = empty_text(query, self.saved) if unread is None else unread_text(query, unread)
            self.label.setText(said)
            self._place()
            if unread is None and self.saved is None and _searched(query):
                self._ask_trash(query, said)
        self.label.setVisible(empty)

    def _ask_trash(self, query: PaperQuery, said: str) -> None:
        """Add how many papers of the Trash the search or tags find, once counted off the
        GUI thread (as ``refman list`` says it): a paper moved there is not lost."""
        trashed = replace(query, section=Section.TRASH)

        def counted(found: int) -> None:
            if found and self._model.query == query and self.label.text() == said:
                self.label.setText(f"{said} {in_trash_text(found)}")

        self._model.reads.ask(lambda reader: reader.count(trashed), counted)

    def _place(self) -> None:
        area = self._table.viewport().rect().adjusted(24, 0, -24, 0)
        self.label.setGeometry(area.x(), area.height() // 3, area.width(), area.height() // 3)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Keep the note in the middle as the list is resized."""
        if event.type() == QEvent.Type.Resize and self.label.isVisible():
            self._place()
        return False
