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


def add_import_notes(
    session: Session, wanted: Mapping[int, Sequence[str]], now: datetime
) -> list[int]:
    """Add the notes that are new to their papers.

    Args:
        session: The import's transaction.
        wanted: Note texts by paper id.
        now: The import time (the notes' creation time).

    Returns:
        The ids of the notes added.
    """
    have: dict[int, set[str]] = {}
    for part in chunks(sorted(wanted)):
        for paper_id, text in session.execute(
            select(Note.paper_id, Note.text).where(Note.paper_id.in_(part))
        ):
            have.setdefault(paper_id, set()).add(text)
    added: list[Note] = []
    who = writer(session)  # (the person importing, as for a note typed in)
    for paper_id, texts in wanted.items():
        known = have.setdefault(paper_id, set())
        for text in texts:
            if text.strip() and text not in known:
                known.add(text)
                added.append(
                    Note(
                        paper_id=paper_id,
                        text=text,
                        created_at=now,
                        modified_at=now,
                        created_by=who,
                        modified_by=who,
                    )
                )
    session.add_all(added)
    session.flush()
    return [note.id for note in added]
