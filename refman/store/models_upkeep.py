"""The library's bookkeeping tables: work an upgrade left for the service, and derived data
kept between starts."""

from __future__ import annotations

from sqlalchemy import BigInteger, String, Text
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
