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
    """A paper in the Trash: a row for each paper whose ``trashed_at`` is set, kept by the
    database's triggers (:mod:`refman.store.trash_schema`), never written by refman itself.
    The lists test a paper against this narrow table, so the papers' indexes hold nothing
    that moving papers to the Trash and back changes."""

    __tablename__ = "trash"

    paper_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )


def in_trash(paper_id: SQLColumnExpression[int], trashed: bool = True) -> ColumnElement[bool]:
    """Whether a paper is in the Trash (or, ``trashed`` False, not): one lookup in the
    Trash's table per paper, whichever index a query walks."""
    ids = trashed_ids()
    return paper_id.in_(ids) if trashed else paper_id.not_in(ids)


def trashed_ids() -> Select[Any]:
    """The ids of the papers in the Trash (read from the Trash's table alone)."""
    return select(TrashedPaper.paper_id)
