"""Whether the papers of an import were changed since it (by anyone: another window, the
command line, a colleague on a shared library), in ways that undoing it would lose.

Undoing an import deletes the papers it added and writes the papers it merged into back as
they were before it: a tag, a note, a file, a reading mark, a rating or an edit given them
since would go with them (and so would a reading status or stars the import gave that were
changed since). :func:`first_changed` finds such a paper, so that the undo refuses (and
points to *Revert Import*, which keeps the papers changed since). One statement for the
papers the import added however many there are; the papers it merged into are compared with
the snapshots the undo reads anyway.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from sqlalchemy import and_, exists, or_, select
from sqlalchemy.orm import Session

from refman.core.importing.readings import Given, changed_since, marks_given
from refman.core.paper_state import PaperState
from refman.core.rules import tag_key
from refman.store.bulk import chunks, id_set
from refman.store.models import BatchPaper, Note, Paper, PaperTag, Tag
from refman.store.models_files import PaperFile

#: Why undoing would lose something, by what was done since.
MARKED = "marked or rated"
EDITED = "edited"
TAGGED = "tagged"
NOTED = "given a note"
FILED = "given a file"


def first_changed(
    session: Session,
    batch_ids: Sequence[int],
    imported_at: datetime,
    made: dict[str, list[object]],
    before: Sequence[PaperState],
) -> tuple[str, str] | None:
    """(title, what was done) of a paper of these import batches changed since the import,
    or None.

    Args:
        imported_at: When the import was made.
        made: What the import recorded it made (``applied_tags``: the tags it gave, by
            name; ``notes``: the ids of the notes it wrote).
        before: The snapshots of the papers it merged into, from before it.
    """
    given = {tag_key(str(t)) for t in made.get("applied_tags", [])}
    tag_ids = [int(i) for (i,) in session.execute(select(Tag.id).where(Tag.key.in_(given)))]
    notes = [int(str(n)) for n in made.get("notes", [])]
    marks = marks_given(made)
    found = _added_changed(session, batch_ids, imported_at, tag_ids, notes, marks)
    found = found if found is not None else _merged_changed(session, before, given)
    return found if found is not None else _marked_since(session, marks)


def _marked_since(session: Session, marks: Given) -> tuple[str, str] | None:
    """A paper the import gave a reading status or stars that were changed since."""
    since = changed_since(session, marks)
    if not since:
        return None
    title = session.scalar(select(Paper.title).where(Paper.id == min(since)))
    return str(title), MARKED


def _added_changed(
    session: Session,
    batch_ids: Sequence[int],
    imported_at: datetime,
    tag_ids: Collection[int],
    notes: Collection[int],
    marks: Given,
) -> tuple[str, str] | None:
    """A paper the batches added that was changed since (see :func:`first_changed`; the
    papers they gave a reading status or stars are asked by :func:`_marked_since`)."""
    added = select(BatchPaper.paper_id).where(
        BatchPaper.batch_id.in_(list(batch_ids)), BatchPaper.action == "added"
    )
    marked = or_(Paper.status != "unread", Paper.rating > 0)
    if marks:
        marked = and_(marked, Paper.id.not_in(id_set(list(marks))))
    # (a title typed in the import's review is edited from the start, at version 1)
    edited = and_(Paper.version > 1, Paper.user_edited != "")
    tagged = exists().where(PaperTag.paper_id == Paper.id, PaperTag.tag_id.not_in(tag_ids))
    noted = exists().where(Note.paper_id == Paper.id, Note.id.not_in(id_set(notes)))
    filed = exists().where(PaperFile.paper_id == Paper.id, PaperFile.added_at > imported_at)
    row = session.execute(
        select(Paper.title, marked, edited, tagged, noted, filed)
        .where(Paper.id.in_(added), or_(marked, edited, tagged, noted, filed))
        .limit(1)
    ).first()
    if row is None:
        return None
    title, *done = row
    kinds = (MARKED, EDITED, TAGGED, NOTED, FILED)
    reasons = [what for what, yes in zip(kinds, done, strict=True) if yes]
    return str(title), ", ".join(reasons)


def _merged_changed(
    session: Session, before: Sequence[PaperState], given: Collection[str]
) -> tuple[str, str] | None:
    """A paper the import merged into that was changed since in a way its snapshot would
    undo: a field edited by hand (one more in ``user_edited``), or a tag neither it nor the
    import had. (Its notes, files, reading mark and rating are no part of the snapshot: they
    stay as they are, but for a reading mark or rating the import gave: :func:`_marked_since`.)"""
    snapshots = {s.id: s for s in before}
    for part in chunks(sorted(snapshots)):
        rows = session.execute(
            select(Paper.id, Paper.title, Paper.user_edited).where(Paper.id.in_(part))
        )
        for pid, title, edited in rows:
            if set(edited) - set(snapshots[pid].user_edited):
                return str(title), EDITED
        tags = session.execute(
            select(PaperTag.paper_id, Tag.key, Paper.title)
            .join(Tag, Tag.id == PaperTag.tag_id)
            .join(Paper, Paper.id == PaperTag.paper_id)
            .where(PaperTag.paper_id.in_(part))
        )
        for pid, key, title in tags:
            if key not in given and key not in {tag_key(t) for t in snapshots[pid].tags}:
                return str(title), TAGGED
    return None
