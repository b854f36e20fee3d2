"""The library's bookkeeping tables: work an upgrade left for the service, derived data kept
between starts, and the Trash's own table."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    ForeignKey,
    Integer,
    Select,
    SQLColumnExpression,
    String,
    Text,
    and_,
    select,
)
from sqlalchemy.orm import Mapped, mapped_column

from refman.store.models import Base


class LibraryTask(Base):
    """Work an upgrade left for the library service to do when it opens the library (the
    match keys of the papers already there, say); the row goes when it is done."""

    __tablename__ = "library_tasks"

    task: Mapped[str] = mapped_column(String(40), primary_key=True)


class Snapshot(Base):
    """Derived data kept with the library so that it need not be worked out again at every
    start (the navigation pane's counts): valid while the library's revision (see
    :func:`refman.store.connection.revision`) is the one it was made at."""

    __tablename__ = "snapshots"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    revision: Mapped[int] = mapped_column(BigInteger)
    body: Mapped[str] = mapped_column(Text)


class TrashedPaper(Base):
    """A paper out of the library: a row for each paper whose ``trashed_at`` is set, kept by
    the database's triggers (:mod:`refman.store.trash_schema`), and for each paper an undone
    import withdrew (:func:`refman.core.importing.purge.out_of_sight`). The lists test a
    paper against this narrow table, so the papers' indexes hold nothing that moving papers
    to the Trash and back changes."""

    __tablename__ = "trash"

    paper_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )


class PurgingPaper(Base):
    """A paper an undone import added, out of sight and waiting to be deleted for good: an
    undo takes seconds less when the deleting (its words out of the search index, its rows
    and links) is done afterwards, a few thousand papers at a time
    (:mod:`refman.core.importing.purge`). Such a paper is in the Trash's table too, so no list shows
    it; nothing finds it by id or by its keys."""

    __tablename__ = "purging"

    paper_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )


class Purge(Base):
    """What goes once an undone import's papers are deleted: the people, subjects and tags
    it created, if nothing uses them then (a JSON object of id lists by kind)."""

    __tablename__ = "purges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[str] = mapped_column(Text)


class MergedKey(Base):
    """An exact key of a paper merged into another one (:mod:`refman.core.paper_merge`): an
    import that finds a record by it finds the paper kept, also once the merged paper was
    deleted for good (the merged paper itself is never found again).

    ``value`` is the key's text (a hash two texts share is not a match); ``merged_id`` the
    paper merged, whose row may be gone.
    """

    __tablename__ = "merged_keys"

    merged_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(10), primary_key=True)
    key: Mapped[int] = mapped_column(BigInteger, index=True)
    value: Mapped[str] = mapped_column(Text)
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"), index=True)


class MergedChild(Base):
    """A note or file a merge moved from the paper merged (``merged_id``, in the Trash) to
    the paper kept: restored, the merged paper takes it back (:mod:`refman.core.merged_children`).
    ``child_id`` is a note's id or a file's, as ``kind`` says; one deleted since is found no
    more (ids are never given twice)."""

    __tablename__ = "merged_children"

    kind: Mapped[str] = mapped_column(String(4), primary_key=True)
    child_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    merged_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"), index=True)


class MergedPerson(Base):
    """A person merged into another (:mod:`refman.core.people_ops`): ``person_id`` is whom
    they became, for ``refman person`` of their old id (that person may have been merged on
    since, or deleted; no foreign key: the merged person's row is gone)."""

    __tablename__ = "merged_people"

    merged_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    person_id: Mapped[int] = mapped_column(Integer)


class MergedTag(Base):
    """A tag merged into another (a rename onto its name, :mod:`refman.core.tagging`):
    ``tag_id`` is the tag it went into, for a window filtered by it to follow (that tag may
    have been merged on since, or deleted; no foreign key: the merged tag's row is gone).
    An undo of the merge gives the tag back its id, and takes the row away."""

    __tablename__ = "merged_tags"

    merged_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    tag_id: Mapped[int] = mapped_column(Integer)
    #: The merged tag's key (:func:`refman.core.rules.tag_key`): its name asked for again.
    key: Mapped[str | None] = mapped_column(Text)


class CitekeyAlias(Base):
    """Another citation key of a paper: the key of an entry an import found to be the same
    paper, or one a bibliography gave in ``ids`` (a ``\\cite`` of it still finds the paper;
    BibLaTeX exports write it in ``ids``). ``folded``: the key as BibTeX compares keys
    (:func:`refman.core.citekeys.folded`); no two papers share one, nor a paper's key."""

    __tablename__ = "citekey_aliases"

    folded: Mapped[str] = mapped_column(Text, primary_key=True)
    key: Mapped[str] = mapped_column(Text)
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"), index=True)


def in_trash(paper_id: SQLColumnExpression[int], trashed: bool = True) -> ColumnElement[bool]:
    """Whether a paper is in the Trash (or, ``trashed`` False, in the library): a lookup or
    two in the Trash's own tables per paper, whichever index a query walks."""
    if not trashed:
        return paper_id.not_in(out_of_library())
    return and_(paper_id.in_(out_of_library()), is_live(paper_id))


def out_of_library() -> Select[Any]:
    """The ids of the papers out of the library: in the Trash, or being deleted after an
    undone import (read from the Trash's table alone)."""
    return select(TrashedPaper.paper_id)


def trashed_ids() -> Select[Any]:
    """The ids of the papers in the Trash (as the Trash shows it)."""
    return select(TrashedPaper.paper_id).where(is_live(TrashedPaper.paper_id))


def is_live(paper_id: SQLColumnExpression[int]) -> ColumnElement[bool]:
    """Whether a paper is not being deleted after an undone import (see :class:`PurgingPaper`)."""
    return paper_id.not_in(select(PurgingPaper.paper_id))
