"""Changing a library by hand: tags, notes and the editable fields of a paper.

Each method is one transaction. Methods that an undo needs to reverse exactly return a
snapshot of what they replaced.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import Session

from refman.common.errors import InvalidValueError, NotFoundError
from refman.core.matching import match_keys
from refman.core.values import Changes, FieldSnapshot, NoteView, TagSnapshot
from refman.store import fts
from refman.store.database import Database
from refman.store.models import MatchKey, Note, Paper, PaperTag, Tag

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_UNSET = object()


def _now() -> datetime:
    return datetime.now().replace(microsecond=0)


def tag_key(name: str) -> str:
    """The key that makes tag names unique without regard to case ("Ökonomie" ~ "ökonomie")."""
    return " ".join(name.split()).casefold()


def split_tags(text: str) -> list[str]:
    """Tag names typed in one field: split on commas, white space tidied, empties dropped.

    A name given twice (in any case) counts once, as the first spelling.
    """
    names: dict[str, str] = {}
    for part in text.split(","):
        name = " ".join(part.split())
        if name:
            names.setdefault(name.casefold(), name)
    return list(names.values())


def clean_tag_name(name: str) -> str:
    """A tag name as stored: trimmed, inner white space collapsed.

    Raises:
        InvalidValueError: The name is empty.
    """
    cleaned = " ".join(name.split())
    if not cleaned:
        raise InvalidValueError("A tag needs a name.", "Type at least one letter.")
    if len(cleaned) > 100:
        raise InvalidValueError("A tag name can be at most 100 characters long.")
    return cleaned


def _require_papers(session: Session, ids: list[int]) -> None:
    found = set(session.execute(select(Paper.id).where(Paper.id.in_(ids))).scalars())
    for i in ids:
        if i not in found:
            raise NotFoundError(
                f"There is no paper #{i} in this library.", "Use “refman list” to see the ids."
            )


class Editor:
    """Hand edits of a library; the base of :class:`~refman.core.library.LibraryService`."""

    def __init__(self, database: Database) -> None:
        self.db = database

    # -- tags -------------------------------------------------------------------------------

    def _tag_by_name(self, session: Session, name: str) -> Tag | None:
        key = tag_key(name)
        return session.execute(select(Tag).where(Tag.key == key)).scalar_one_or_none()

    def tag(self, paper_ids: Iterable[int], names: Iterable[str]) -> Changes:
        """Put tags (created when new) on papers."""
        ids = sorted(set(paper_ids))
        cleaned = list(dict.fromkeys(clean_tag_name(n) for n in names))
        with self.db.transaction() as s:
            _require_papers(s, ids)
            for name in cleaned:
                tag = self._tag_by_name(s, name)
                if tag is None:
                    tag = Tag(name=name, key=tag_key(name))
                    s.add(tag)
                    s.flush()
                have = set(
                    s.execute(
                        select(PaperTag.paper_id).where(
                            PaperTag.tag_id == tag.id, PaperTag.paper_id.in_(ids)
                        )
                    ).scalars()
                )
                rows = [{"paper_id": i, "tag_id": tag.id} for i in ids if i not in have]
                if rows:
                    s.execute(insert(PaperTag), rows)
            fts.reindex(s, ids)
        return Changes(papers=frozenset(ids), tags=True)

    def untag(
        self, paper_ids: Iterable[int], names: Iterable[str], *, drop_unused: bool = False
    ) -> Changes:
        """Take tags off papers (unknown tag names are ignored).

        Args:
            paper_ids: The papers.
            names: Tag names.
            drop_unused: Also delete a tag that no paper carries any more (undo of a tag
                that created it).
        """
        ids = sorted(set(paper_ids))
        with self.db.transaction() as s:
            _require_papers(s, ids)
            for name in names:
                tag = self._tag_by_name(s, " ".join(name.split()))
                if tag is None:
                    continue
                s.execute(
                    delete(PaperTag).where(PaperTag.tag_id == tag.id, PaperTag.paper_id.in_(ids))
                )
                if (
                    drop_unused
                    and not s.execute(
                        select(func.count()).where(PaperTag.tag_id == tag.id)
                    ).scalar_one()
                ):
                    s.delete(tag)
            fts.reindex(s, ids)
        return Changes(papers=frozenset(ids), tags=True)

    def papers_with_tag(self, name: str) -> frozenset[int]:
        """Ids of every paper (Trash included) carrying a tag."""
        with self.db.reading() as s:
            tag = self._tag_by_name(s, name)
            if tag is None:
                return frozenset()
            return frozenset(
                s.execute(select(PaperTag.paper_id).where(PaperTag.tag_id == tag.id)).scalars()
            )

    def tag_exists(self, name: str) -> bool:
        """True when a tag of that name (any case) exists."""
        with self.db.reading() as s:
            return self._tag_by_name(s, " ".join(name.split())) is not None

    def snapshot_tag(self, name: str) -> TagSnapshot:
        """A tag with the papers carrying it.

        Raises:
            NotFoundError: No tag has that name.
        """
        with self.db.reading() as s:
            tag = self._tag_by_name(s, name)
            if tag is None:
                raise NotFoundError(f"There is no tag “{name}”.")
            ids = s.execute(select(PaperTag.paper_id).where(PaperTag.tag_id == tag.id)).scalars()
            return TagSnapshot(
                id=tag.id, name=tag.name, colour=tag.colour, paper_ids=frozenset(ids)
            )

    def rename_tag(self, old: str, new: str) -> Changes:
        """Rename a tag; renaming onto an existing tag merges the two."""
        new_name = clean_tag_name(new)
        with self.db.transaction() as s:
            tag = self._tag_by_name(s, old)
            if tag is None:
                raise NotFoundError(f"There is no tag “{old}”.")
            other = self._tag_by_name(s, new_name)
            ids = list(
                s.execute(select(PaperTag.paper_id).where(PaperTag.tag_id == tag.id)).scalars()
            )
            if other is not None and other.id != tag.id:
                have = set(
                    s.execute(
                        select(PaperTag.paper_id).where(PaperTag.tag_id == other.id)
                    ).scalars()
                )
                rows = [{"paper_id": i, "tag_id": other.id} for i in ids if i not in have]
                if rows:
                    s.execute(insert(PaperTag), rows)
                s.delete(tag)
            else:
                tag.name, tag.key = new_name, tag_key(new_name)
            s.flush()
            fts.reindex(s, ids)
        return Changes(papers=frozenset(ids), tags=True)

    def set_tag_colour(self, name: str, colour: str | None) -> Changes:
        """Give a tag a colour ("#rrggbb"), or None for the default."""
        if colour is not None and not _COLOUR.match(colour):
            raise InvalidValueError(f"“{colour}” is not a colour.", "Use the form #1e88e5.")
        with self.db.transaction() as s:
            tag = self._tag_by_name(s, name)
            if tag is None:
                raise NotFoundError(f"There is no tag “{name}”.")
            tag.colour = colour
        return Changes(tags=True)

    def delete_tag(self, name: str) -> TagSnapshot:
        """Delete a tag from every paper. Returns what it was, for undo."""
        snap = self.snapshot_tag(name)
        with self.db.transaction() as s:
            s.execute(delete(Tag).where(Tag.id == snap.id))
            fts.reindex(s, snap.paper_ids)
        return snap

    def restore_tag(self, snap: TagSnapshot) -> Changes:
        """Recreate a tag exactly as a snapshot shows it (id, name, colour, papers)."""
        with self.db.transaction() as s:
            tag = s.get(Tag, snap.id)
            if tag is None:
                other = self._tag_by_name(s, snap.name)
                if other is not None:  # a merge target took the name: give it back
                    s.delete(other)
                    s.flush()
                tag = Tag(id=snap.id, name=snap.name, key=tag_key(snap.name), colour=snap.colour)
                s.add(tag)
            else:
                tag.name, tag.key, tag.colour = snap.name, tag_key(snap.name), snap.colour
            s.flush()
            carriers = set(
                s.execute(select(PaperTag.paper_id).where(PaperTag.tag_id == snap.id)).scalars()
            )
            s.execute(delete(PaperTag).where(PaperTag.tag_id == snap.id))
            existing = set(
                s.execute(select(Paper.id).where(Paper.id.in_(list(snap.paper_ids)))).scalars()
            )
            rows = [
                {"paper_id": i, "tag_id": snap.id} for i in sorted(snap.paper_ids) if i in existing
            ]
            if rows:
                s.execute(insert(PaperTag), rows)
            fts.reindex(s, carriers | snap.paper_ids)
        return Changes(papers=frozenset(carriers | snap.paper_ids), tags=True)

    # -- notes ------------------------------------------------------------------------------

    def _note(self, note_id: int) -> NoteView:
        with self.db.reading() as s:
            n = s.get(Note, note_id)
            if n is None:
                raise NotFoundError(f"There is no note #{note_id}.")
            return NoteView(n.id, n.paper_id, n.text, n.created_at, n.modified_at)

    def add_note(self, paper_id: int, text: str, *, note_id: int | None = None) -> NoteView:
        """Add a Markdown note to a paper (``note_id`` puts back a deleted note's id)."""
        now = _now()
        with self.db.transaction() as s:
            _require_papers(s, [paper_id])
            note = Note(id=note_id, paper_id=paper_id, text=text, created_at=now, modified_at=now)
            s.add(note)
            s.flush()
            view = NoteView(note.id, paper_id, text, now, now)
            fts.reindex(s, [paper_id])
        return view

    def edit_note(self, note_id: int, text: str) -> NoteView:
        """Replace a note's text."""
        now = _now()
        with self.db.transaction() as s:
            note = s.get(Note, note_id)
            if note is None:
                raise NotFoundError(f"There is no note #{note_id}.")
            if note.text != text:
                note.text, note.modified_at = text, now
            view = NoteView(note.id, note.paper_id, note.text, note.created_at, note.modified_at)
            fts.reindex(s, [note.paper_id])
        return view

    def delete_note(self, note_id: int) -> NoteView:
        """Delete a note. Returns it, for undo."""
        with self.db.transaction() as s:
            note = s.get(Note, note_id)
            if note is None:
                raise NotFoundError(f"There is no note #{note_id}.")
            view = NoteView(note.id, note.paper_id, note.text, note.created_at, note.modified_at)
            s.delete(note)
            s.flush()
            fts.reindex(s, [view.paper_id])
        return view

    def restore_note(self, view: NoteView) -> NoteView:
        """Put a deleted note back exactly."""
        with self.db.transaction() as s:
            _require_papers(s, [view.paper_id])
            s.add(
                Note(
                    id=view.id,
                    paper_id=view.paper_id,
                    text=view.text,
                    created_at=view.created,
                    modified_at=view.modified,
                )
            )
            s.flush()
            fts.reindex(s, [view.paper_id])
        return view

    # -- fields -----------------------------------------------------------------------------

    def fields(self, paper_id: int) -> FieldSnapshot:
        """The editable fields of a paper, for undo."""
        with self.db.reading() as s:
            p = s.get(Paper, paper_id)
            if p is None:
                raise NotFoundError(f"There is no paper #{paper_id} in this library.")
            return FieldSnapshot(
                p.id,
                p.title,
                p.title_provisional,
                p.year,
                p.venue,
                frozenset(f for f in p.user_edited.split(",") if f),
                p.modified_at,
            )

    def edit_fields(
        self,
        paper_id: int,
        *,
        title: str | None = None,
        year: int | object | None = _UNSET,
        venue: str | object | None = _UNSET,
    ) -> Changes:
        """Edit title, year or venue by hand; the edit is the user's and survives imports.

        Args:
            paper_id: The paper.
            title: A new title (not empty).
            year: A year from 1000 to 2100, or None to clear it.
            venue: A venue, or None / "" to clear it.
        """
        with self.db.transaction() as s:
            p = s.get(Paper, paper_id)
            if p is None:
                raise NotFoundError(
                    f"There is no paper #{paper_id} in this library.",
                    "Use “refman list” to see the ids.",
                )
            edited = {f for f in p.user_edited.split(",") if f}
            if title is not None:
                cleaned = " ".join(title.split())
                if not cleaned:
                    raise InvalidValueError("A title cannot be empty.", "Type the paper's title.")
                p.title, p.title_provisional, p.sort_title = cleaned, False, cleaned.casefold()
                edited.add("title")
            if year is not _UNSET:
                if year is not None and not (isinstance(year, int) and 1000 <= year <= 2100):
                    raise InvalidValueError(
                        f"“{year}” is not a year.", "Type a year such as 2024, or leave it empty."
                    )
                p.year = year  # type: ignore[assignment]
                edited.add("year")
            if venue is not _UNSET:
                p.venue = (" ".join(str(venue).split()) or None) if venue else None
                edited.add("venue")
            p.user_edited = ",".join(sorted(edited))
            p.modified_at = _now()
            self._rekey(s, p)
            fts.reindex(s, [paper_id])
        return Changes(papers=frozenset([paper_id]))

    def restore_fields(self, snap: FieldSnapshot) -> Changes:
        """Put back the fields of a snapshot exactly (for undo)."""
        with self.db.transaction() as s:
            p = s.get(Paper, snap.paper_id)
            if p is None:
                raise NotFoundError(f"There is no paper #{snap.paper_id} in this library.")
            p.title, p.title_provisional = snap.title, snap.title_provisional
            p.sort_title = snap.title.casefold()
            p.year, p.venue = snap.year, snap.venue
            p.user_edited = ",".join(sorted(snap.user_edited))
            if snap.modified is not None:
                p.modified_at = snap.modified
            self._rekey(s, p)
            fts.reindex(s, [snap.paper_id])
        return Changes(papers=frozenset([snap.paper_id]))

    def _rekey(self, session: Session, paper: Paper) -> None:
        session.flush()
        session.execute(delete(MatchKey).where(MatchKey.paper_id == paper.id))
        keys = match_keys(paper.title, paper.title_provisional, paper.abstract).all_keys()
        rows = [{"paper_id": paper.id, "kind": k, "key": v} for k, v in dict.fromkeys(keys)]
        if rows:
            session.execute(insert(MatchKey), rows)

    def clear_possible_duplicate(self, paper_id: int) -> Changes:
        """Mark a paper as not a duplicate of the one an import found it close to."""
        return self.set_possible_duplicate(paper_id, None)

    def set_possible_duplicate(self, paper_id: int, other: int | None) -> Changes:
        """Set (or, with None, clear) the paper a paper may duplicate (undo uses this)."""
        with self.db.transaction() as s:
            _require_papers(s, [paper_id])
            s.execute(update(Paper).where(Paper.id == paper_id).values(possible_duplicate_of=other))
        return Changes(papers=frozenset([paper_id]), structure=True)

    def set_note_exactly(self, view: NoteView) -> NoteView:
        """Put a note's text and modified time back exactly as a snapshot has them (undo)."""
        with self.db.transaction() as s:
            note = s.get(Note, view.id)
            if note is None:
                raise NotFoundError(f"There is no note #{view.id}.")
            note.text, note.modified_at = view.text, view.modified
            fts.reindex(s, [note.paper_id])
        return view
