"""Saving what is edited in the detail pane: the title, year, venue and bibliographic fields.

Each edit is one undo step, saved based on the value shown when the typing began, so that
someone else's change since is never overwritten (:func:`~refman.ui.conflicts.save_field`);
a question about it closed keeps the edit in its field, not saved (:mod:`.held_edits`).
A value its rule refuses — an empty title, a year outside 1000–2100, a DOI that is none — is
shown to the person and the field shows its value again; an empty venue clears it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from refman.core.rules import FieldEdits

from refman.ui.conflicts import save_field
from refman.ui.shown_changes import seen_in_library

if TYPE_CHECKING:
    from refman.ui.detail_pane import DetailPane

MakeEdits = Callable[[str], FieldEdits]


def save_edits(pane: DetailPane) -> None:
    """Save the fields of ``pane`` when their editing is handed over (Enter, leaving them)."""

    def saving(
        make: MakeEdits, shown: Callable[[], str], revert: Callable[[], None]
    ) -> Callable[[str], None]:
        def committed(text: str) -> None:
            paper = pane.shown_paper()
            if paper is not None and paper is not pane.kept.deleted:  # (held: kept_paper)
                edit = (make, text, shown())
                # Seen in the library: merged elsewhere since, the edit goes to the paper kept
                follow = seen_in_library(pane)
                held = (pane.reload, pane.held.hold)
                save_field(pane.controller, paper.id, edit, revert, held, follow=follow)

        return committed

    title, year, venue, biblio = pane.title_edit, pane.year_field, pane.venue_field, pane.biblio
    title.committed.connect(
        saving(lambda t: FieldEdits.typed("title", t), title.shown_title, title.revert)
    )
    year.committed.connect(
        saving(lambda t: FieldEdits.typed("year", t), year.shown_value, year.revert)
    )
    venue.committed.connect(
        saving(lambda t: FieldEdits.typed("venue", t), venue.shown_value, venue.revert)
    )

    def biblio_committed(name: str, text: str) -> None:
        field = biblio.fields.get(name)
        shown = field.shown_value if field is not None else str
        saving(lambda t: FieldEdits.typed(name, t), shown, lambda: biblio.revert(name))(text)

    biblio.committed.connect(biblio_committed)
