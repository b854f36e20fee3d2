"""Notes an imported bibliography brings (BibTeX annote/note, RIS N1): each becomes a note of
its paper, unless the paper has a note with that text already (importing a file twice adds
nothing)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from refman.store.bulk import chunks
from refman.store.connection import writer
from refman.store.models import Note


def new_import_notes(session: Session, wanted: Mapping[int, Sequence[str]]) -> dict[int, list[str]]:
    """Of the note texts records bring, by paper id, those their paper does not have yet
    (once each; empty ones left out)."""
    have: dict[int, set[str]] = {}
    for part in chunks(sorted(wanted)):
        for paper_id, text in session.execute(
            select(Note.paper_id, Note.text).where(Note.paper_id.in_(part))
        ):
            have.setdefault(paper_id, set()).add(text)
    new: dict[int, list[str]] = {}
    for paper_id, texts in wanted.items():
        known = have.setdefault(paper_id, set())
        for text in texts:
            if text.strip() and text not in known:
                known.add(text)
                new.setdefault(paper_id, []).append(text)
    return new


def add_import_notes(
    session: Session, new: Mapping[int, Sequence[str]], now: datetime
) -> list[int]:
    """Add notes to their papers (:func:`new_import_notes` says which are new).

    Args:
        session: The import's transaction.
        new: Note texts by paper id.
        now: The import time (the notes' creation time).

    Returns:
        The ids of the notes added.
    """
    who = writer(session)  # (the person importing, as for a note typed in)
    added = [
        Note(
            paper_id=paper_id,
            text=text,
            created_at=now,
            modified_at=now,
            created_by=who,
            modified_by=who,
        )
        for paper_id, texts in new.items()
        for text in texts
    ]
    session.add_all(added)
    session.flush()
    return [note.id for note in added]
