"""The model of the files attached to papers (PDFs and any other file).

A file is either *stored* — copied into the library's storage folder, one folder per paper,
its ``path`` relative to that folder — or *linked*: left where it is, its ``path`` relative to
the base folder the user set (a synced folder that has another place on every machine), or
absolute when it lies outside it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, Text, false
from sqlalchemy import text as sql_text
from sqlalchemy.orm import Mapped, mapped_column

from refman.store.models import Base


class PaperFile(Base):
    """A file attached to a paper."""

    __tablename__ = "paper_files"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"), index=True)
    #: The name shown (a stored file's name on disk, too).
    name: Mapped[str] = mapped_column(Text)
    #: Where it is: see the module's description.
    path: Mapped[str] = mapped_column(Text)
    linked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: Its size in bytes and, for a PDF, its pages (None when they could not be read).
    size: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    pages: Mapped[int | None] = mapped_column(Integer)
    added_at: Mapped[datetime] = mapped_column(DateTime)


class FileText(Base):
    """The text of an attached file (a PDF's, page after page), as its own field of the
    full-text search, and what the file was when it was read (a changed file is read again).
    """

    __tablename__ = "file_texts"

    id: Mapped[int] = mapped_column(
        ForeignKey("paper_files.id", ondelete="CASCADE"), primary_key=True
    )
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"), index=True)
    text: Mapped[str] = mapped_column(Text, default="", server_default=sql_text("''"))
    pages: Mapped[int | None] = mapped_column(Integer)
    #: The file's size and modification time when it was read.
    size: Mapped[int | None] = mapped_column(BigInteger)
    mtime: Mapped[float | None] = mapped_column(Float)
    #: Why no text could be read (encrypted, damaged, too slow), or None.
    error: Mapped[str | None] = mapped_column(Text)
    indexed_at: Mapped[datetime] = mapped_column(DateTime)
