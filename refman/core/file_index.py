"""The text of attached PDFs in the full-text search: which files still need reading (never
read, or changed since: another size or modification time), keeping what was read, and the
sentence a search found in a paper's files.

Reading is resumable by design: a file's text is kept as soon as it is read, one short
transaction per file, so an indexing stopped half-way (the window closed, the machine off)
goes on with the files not read yet. The text is derived data, not the user's: keeping it
changes nothing an Undo would take back.

The text of a file that went missing (moved or deleted outside refman, a synced folder or a
disk not there on this machine) is kept and still searched: the file is still attached, and
may come back (*Locate…*, the disk plugged in again), and the text is what it said. Where a
search found a paper says so (:attr:`FoundText.missing`); removing the file takes its text
out of the search.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from refman.core.extraction import Extracted, Extractor
from refman.store.database import Database
from refman.store.file_store import FileStore
from refman.store.models import Paper
from refman.store.models_files import FileText, PaperFile
from refman.store.search_terms import parse_terms, plain_words

#: Files whose names end so are read for their text (their first bytes are checked too).
READ = (".pdf",)
#: The longest snippet shown (characters).
SNIPPET = 220


@dataclass(frozen=True, slots=True)
class Pending:
    """A file whose text is to be read: which, whose, where, and what it is now."""

    file_id: int
    paper_id: int
    path: Path
    size: int
    mtime: float
    name: str = ""


@dataclass(frozen=True, slots=True)
class FoundText:
    """Where a search found a paper in its files' text.

    Attributes:
        text: The sentence (cut at :data:`SNIPPET` characters).
        file: The file's name.
        missing: The file is not where it should be: its text was read while it was there.
    """

    text: str
    file: str
    missing: bool = False

    @property
    def where(self) -> str:
        """The file's name as the window and the command line say where a search found the
        paper, with why a missing file matches: "“a.pdf”", "“a.pdf” (missing: its text was
        read while it was there)"."""
        said = f"“{self.file}”"
        return f"{said} (missing: its text was read while it was there)" if self.missing else said


@dataclass(frozen=True, slots=True)
class IndexProgress:
    """How far reading the files' text has come: files read, and files in all; of those
    read, how many have their words in the search (the others had no text to read: an
    encrypted, damaged or empty file, no PDF)."""

    done: int
    total: int
    searched: int = 0

    @property
    def without_text(self) -> int:
        """Files read that had no text to read."""
        return max(0, self.done - self.searched)


@dataclass(frozen=True, slots=True)
class IndexReport:
    """What a round of reading the files' text did.

    Attributes:
        read: Files whose text was read (their words are in the search now).
        unreadable: (file id, file name, why) of each file with no text to read (locked,
            damaged, no PDF): it stays attached, without its words in the search.
    """

    read: int = 0
    unreadable: tuple[tuple[int, str, str], ...] = ()

    @property
    def looked_at(self) -> int:
        """Files taken in this round, read or not."""
        return self.read + len(self.unreadable)


def pending_files(session: Session, store: FileStore) -> list[Pending]:
    """The PDFs whose text was never read or has changed since (missing files wait until
    they are found)."""
    rows = session.execute(
        select(
            PaperFile.id,
            PaperFile.paper_id,
            PaperFile.path,
            PaperFile.linked,
            PaperFile.name,
            FileText.size,
            FileText.mtime,
        )
        .outerjoin(FileText, FileText.id == PaperFile.id)
        .order_by(PaperFile.id)
    ).all()
    pending: list[Pending] = []
    for file_id, paper_id, path, linked, name, size, mtime in rows:
        where = store.where(path, linked)
        if where is None or not name.lower().endswith(READ):
            continue
        try:
            stat = where.stat()
        except OSError:
            continue  # missing: read when it is found again
        if size != stat.st_size or mtime != stat.st_mtime:
            pending.append(Pending(file_id, paper_id, where, stat.st_size, stat.st_mtime, name))
    return pending


def keep_text(session: Session, file: Pending, read: Extracted, now: datetime) -> None:
    """Keep a file's text (replacing what was read before), unless the file went meanwhile."""
    if session.get(PaperFile, file.file_id) is None:
        return
    session.execute(delete(FileText).where(FileText.id == file.file_id))
    session.add(
        FileText(
            id=file.file_id,
            paper_id=file.paper_id,
            text=read.text,
            pages=read.pages,
            size=file.size,
            mtime=file.mtime,
            error=read.error,
            indexed_at=now,
        )
    )
    if read.pages is not None:
        session.execute(
            update(PaperFile).where(PaperFile.id == file.file_id).values(pages=read.pages)
        )


def read_texts(
    db: Database,
    store: FileStore,
    reader: Extractor,
    progress: Callable[[IndexProgress], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> IndexReport:
    """Read the text of the files not read yet (or changed since), each kept in a
    transaction of its own as soon as it is read; see
    :meth:`refman.core.library.LibraryService.index_files`."""
    with db.reading() as session:
        pending = pending_files(session, store)
        before = indexed_counts(session)
    read, unreadable = 0, []
    for file in pending:
        if cancelled is not None and cancelled():
            break
        got = reader.extract(file.path)
        if cancelled is not None and cancelled():
            break  # stopped while reading it: its text is read again next time
        with db.transaction() as session:
            keep_text(session, file, got, datetime.now().replace(microsecond=0))
        if got.error is None:
            read += 1
        else:
            unreadable.append((file.file_id, file.name, got.error))
        if progress is not None:
            done = before.done + read + len(unreadable)
            progress(IndexProgress(done, before.total, before.searched + read))
    return IndexReport(read, tuple(unreadable))


def indexed_counts(session: Session) -> IndexProgress:
    """How many attached PDFs have their text read, of how many."""
    names = list(session.execute(select(PaperFile.name)).scalars())
    total = sum(1 for n in names if n.lower().endswith(READ))
    done = int(session.execute(select(func.count()).select_from(FileText)).scalar_one())
    read = select(func.count()).select_from(FileText).where(FileText.error.is_(None))
    searched = int(session.execute(read).scalar_one())
    return IndexProgress(min(done, total), total, min(searched, total))


def _sentences(text: str) -> list[str]:
    flat = " ".join(text.split())
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", flat) if s.strip()]


def _best_sentence(rows: Sequence[Any], words: set[str]) -> tuple[int, str, Any] | None:
    """(words held, the sentence, the row) of the sentence holding the most of the words (a
    word may be a prefix: the search's last word is), the first such one; each row is a
    file's (text, ...)."""
    best: tuple[int, str, Any] | None = None
    for row in rows:
        for sentence in _sentences(row[0]):
            held = set(plain_words(sentence))
            hits = sum(1 for w in words if w in held or any(h.startswith(w) for h in held))
            if hits and (best is None or hits > best[0]):
                best = (hits, sentence, row)
                if hits == len(words):
                    return best
    return best


def snippet(
    session: Session, paper_id: int, query: str, store: FileStore | None = None
) -> FoundText | None:
    """The first sentence of a paper's files that holds the search's words (the most of
    them), with the file's name and whether it is missing (``store``: where the library's
    files are; None: not known, none said missing); None when no file's text holds any."""
    words = {w for t in parse_terms(query) for word in t.words for w in plain_words(word)}
    if not words:
        return None
    rows = session.execute(
        select(FileText.text, PaperFile.name, PaperFile.path, PaperFile.linked)
        .join(FileText, FileText.id == PaperFile.id)
        .join(Paper, Paper.id == PaperFile.paper_id)
        .where(PaperFile.paper_id == paper_id)
        .order_by(PaperFile.id)
    ).all()
    best = _best_sentence(rows, words)
    if best is None:
        return None
    _, sentence, (_, name, path, linked) = best
    cut = sentence if len(sentence) <= SNIPPET else sentence[: SNIPPET - 1].rstrip() + "…"
    return FoundText(cut, name, store is not None and store.missing(path, linked))
