"""Reading one paper list a window at a time, on a connection of its own.

The window's list never holds the library: it asks a :class:`ListReader` for the rows it
paints (a window of the query's order), for how many papers the query shows, and for the
place of one paper in it. The reader keeps a database connection of its own, so its reads
never wait behind a change being written, and :meth:`ListReader.interrupt` (safe from any
thread) stops the read in progress when a newer question makes it useless — the next
keystroke of a search, for one. Every read is a short transaction of its own, so the reader
always sees the last committed change and never holds an old snapshot open.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from typing import TypeVar

from sqlalchemy import Connection
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from refman.common.errors import CancelledError, NotFoundError, ServerUnreachableError
from refman.common.text import prepare_latex
from refman.core import (
    file_index,
    list_rows,
    name_variants,
    navigation,
    people,
    queries,
    related,
    tag_names,
)
from refman.core.gone_subjects import GoneSubjects, gone_subjects
from refman.core.importing.history import ImportView, import_history
from refman.core.reading import load_details, tags_among
from refman.core.search_syntax import SearchFilter
from refman.core.values import (
    NameVariant,
    Navigation,
    PaperDetail,
    PaperQuery,
    PaperRow,
    PersonPage,
    PersonView,
    TagView,
)
from refman.store.database import Database
from refman.store.file_store import FileStore
from refman.store.search_terms import parse_terms

#: What a read stopped by an interrupt raises: SQLAlchemy's error, or SQLite's own where the
#: connection's begin ends a rollback an earlier interrupt stopped (``store/connection``).
_READ_ERRORS = (OperationalError, sqlite3.OperationalError)

log = logging.getLogger("refman.list")

T = TypeVar("T")

#: The longest a list's count may take before its first rows are shown (seconds); a longer
#: count comes after them. And how many SQLite steps go between two looks at the clock.
QUICK_COUNT = 0.005
_STEPS = 20_000

#: What a read that was interrupted raises.
INTERRUPTED = "The list read was interrupted by a newer one."


def _cancel_aside(cancel: Callable[[], None]) -> None:
    """Ask a server to cancel a connection's statement, on a thread of its own."""

    def run() -> None:
        try:
            cancel()
        except Exception as exc:  # the server went away or does not answer: nothing to stop
            log.info("cancelling a list read failed: %s", exc)

    threading.Thread(target=run, name="refman-cancel", daemon=True).start()


class ListReader:
    """Answers the paper list's questions for one thread, on one connection.

    Args:
        database: The open library.
        files: Where its attached files are kept (papers' details then list them).
    """

    def __init__(self, database: Database, files: FileStore | None = None) -> None:
        self._db = database
        self._files = files
        with database.plain_errors():  # (a server that cannot be reached: said so)
            self._connection: Connection = database.engine.connect()
        self._session = Session(bind=self._connection)
        self._interrupt: Callable[[], None] | None = None
        self._bind_interrupt()
        self._interrupted = False

    def _bind_interrupt(self) -> None:
        """Interrupt reads on the connection as it is now (connecting again, when the server
        dropped the last one)."""
        raw = self._connection.connection.driver_connection
        self._interrupt = getattr(raw, "interrupt", None)  # SQLite's: at once
        cancel = getattr(raw, "cancel_safe", None)
        if cancel is not None:  # a server's: on a thread of its own (one that stopped
            self._interrupt = lambda: _cancel_aside(cancel)  # answering holds the caller)

    def warm_up(self) -> None:
        """Load now what reading rows may need later (the LaTeX reader for titles and
        abstracts written in LaTeX, about 40 ms): the first such row then costs no more than
        any other, and the loading does not hold up the window while someone types."""
        prepare_latex()

    def interrupt(self) -> None:
        """Stop the read in progress, if any (it raises CancelledError); safe from any thread."""
        self._interrupted = True
        if self._interrupt is not None:
            self._interrupt()

    def close(self) -> None:
        """Give the connection back."""
        self._session.close()
        self._connection.close()

    @contextmanager
    def _reading(self) -> Iterator[Session]:
        self._interrupted = False
        try:
            with self._db.plain_errors():
                if self._connection.invalidated:  # the server dropped it: connect again
                    self._bind_interrupt()
                yield self._session
        except _READ_ERRORS as exc:
            # An interrupt can also surface as another error, such as "vtable constructor
            # failed" when it stops SQLite while it opens a full-text table.
            message = str(exc).lower()
            if self._interrupted or "interrupt" in message or "cancel" in message:
                raise CancelledError(INTERRUPTED) from exc
            raise
        finally:
            self._end_read()

    def _end_read(self) -> None:
        """End the read: never keep an old snapshot open. An interrupt that lands on the
        ending itself (a keystroke's, meant for this read) is spent there: the read ends
        again, and is cancelled like one the interrupt stopped; a server gone away says so
        as in the read (both were errors the window showed as a program's)."""
        try:
            with self._db.plain_errors():  # (a server gone away: said so, as in the read)
                self._session.rollback()
        except _READ_ERRORS as exc:
            if not (self._interrupted or "interrupt" in str(exc).lower()):
                raise
            with suppress(*_READ_ERRORS):  # (else the next read's begin ends it)
                self._session.rollback()
            raise CancelledError(INTERRUPTED) from exc

    def _read(self, work: Callable[[Session], T]) -> T:
        try:
            with self._reading() as session:
                return work(session)
        except ServerUnreachableError:
            if not self._connection.invalidated:
                raise
        # The server dropped the connection (it restarted, or an administrator ended it):
        # the read runs once more on a new one, and fails only if the server is still away.
        log.info("the list's connection to the server was lost; connecting again")
        with self._reading() as session:
            return work(session)

    def require_tags(self, query: PaperQuery) -> None:
        """Check that the tags the query's search line names are the library's (a mistyped
        ``tag:`` term is not a list of no papers).

        Raises:
            NotFoundError: A ``tag:`` term names no tag (:func:`tag_names.require_tags`).
        """
        if "tag:" in query.text.lower():
            self._read(lambda s: tag_names.require_tags(s, (), query.text))

    def window(self, query: PaperQuery, offset: int, limit: int) -> list[PaperRow]:
        """Rows ``offset`` to ``offset + limit`` of the list."""
        return self._read(lambda s: queries.window(s, query, self._db.search, offset, limit))

    def count(self, query: PaperQuery) -> int:
        """How many papers the list shows."""
        return self._read(lambda s: queries.count(s, query, self._db.search))

    def quick_count(self, query: PaperQuery, budget: float = QUICK_COUNT) -> int | None:
        """How many papers the query shows, when that takes at most ``budget`` seconds (a
        tag's papers, a word counted from the index); None when it would take longer (a
        phrase checked in each paper), or on a library that cannot bound it (PostgreSQL):
        then the list shows its rows first and counts after."""
        raw = self._connection.connection.driver_connection
        bound = getattr(raw, "set_progress_handler", None)
        if bound is None or any(t.phrase for t in parse_terms(query.text)):
            return None  # a phrase is checked paper by paper: never quick to count
        deadline = time.perf_counter() + budget
        bound(lambda: int(time.perf_counter() > deadline), _STEPS)
        try:
            return self.count(query)
        except CancelledError:  # over budget (or a newer question came: it is dropped)
            return None
        finally:
            bound(None, 0)

    def ids(self, query: PaperQuery, offset: int = 0, limit: int | None = None) -> list[int]:
        """The ids of rows ``offset`` to ``offset + limit`` (all from ``offset`` when None)."""
        return self._read(lambda s: queries.id_window(s, query, self._db.search, offset, limit))

    def first_titled(self, query: PaperQuery, typed: str) -> int | None:
        """The first paper of the list whose title starts with ``typed`` (accents and case
        not counted), or None (the letters typed in the list: :mod:`refman.ui.type_ahead`)."""
        starting = replace(query, filters=(*query.filters, SearchFilter("title_start", typed)))
        found = self.ids(starting, 0, 1)
        return found[0] if found else None

    def position(self, query: PaperQuery, paper_id: int) -> int | None:
        """The row of a paper in the list, or None when the list does not show it."""
        return self._read(lambda s: queries.position(s, query, self._db.search, paper_id))

    def navigation(
        self, person_id: int | None = None, tags_since: Navigation | None = None
    ) -> Navigation:
        """The sections' counts, the people and the tags (and one person's paper count):
        the library's snapshot when it is current (see :mod:`refman.core.navigation`); after
        a change to tags alone, only what tags change counted again (``tags_since``: what
        the pane showed before it)."""

        def read(s: Session) -> tuple[Navigation, tuple[int, str] | None]:
            found, fresh = navigation.read(s, self._db, tags_since)
            if person_id is None:
                return found, fresh
            person = queries.count(s, PaperQuery(person_id=person_id), self._db.search)
            return replace(found, person_count=person), fresh

        found, fresh = self._read(read)
        navigation.keep(self._db, fresh)
        return found

    def person_page(self, person_id: int) -> PersonPage | None:
        """A person's page (papers, pages imported, co-authors, other spellings)."""
        return self._read(lambda s: people.person_page(s, self._db.search, person_id))

    def gone_subjects(self, tag_ids: Collection[int], person_id: int | None) -> GoneSubjects:
        """Which of a filter's tags and its person the library no longer holds, and where
        they went (merged into another tag or person)."""
        return self._read(lambda s: gone_subjects(s, tag_ids, person_id))

    def tags_among(self, ids: Sequence[int]) -> list[TagView]:
        """The tags these papers carry, each with how many of them carry it."""
        return self._read(lambda s: tags_among(s, ids))

    def related(self, paper_id: int) -> list[related.RelatedPaper]:
        """The papers most related to one, the most related first (none when the paper is
        gone)."""

        def read(s: Session) -> list[related.RelatedPaper]:
            try:
                return related.related_papers(s, self._db.search, paper_id)
            except NotFoundError:
                return []

        return self._read(read)

    def details(self, paper_id: int) -> tuple[PaperDetail | None, PaperDetail | None]:
        """Everything about a paper (None when it is gone), and the paper an import found it
        may duplicate, or it was merged into (None when there is none, or the paper is in the
        Trash but for a merge)."""

        def read(s: Session) -> tuple[PaperDetail | None, PaperDetail | None]:
            found = load_details(s, [paper_id], self._files)
            paper = found[0] if found else None
            if paper is None or (paper.trashed is not None and paper.merged_into is None):
                return paper, None
            wanted = paper.merged_into or paper.possible_duplicate_of
            if wanted is None:
                return paper, None
            other = load_details(s, [wanted], self._files)
            return paper, other[0] if other else None

        return self._read(read)

    def snippet(self, paper_id: int, query: str) -> file_index.FoundText | None:
        """The sentence of a paper's files a search found, the file's name, and whether the
        file is missing."""
        return self._read(lambda s: file_index.snippet(s, paper_id, query, self._files))

    def everyone(self, text: str = "") -> tuple[list[PersonView], int]:
        """The people whose names contain ``text``, the most papers first (at most
        :data:`~refman.core.people.PEOPLE_SHOWN`), and how many there are in all."""
        return self._read(lambda s: people.list_people(s, text))

    def history(self) -> list[ImportView]:
        """Every import of the library, newest first."""
        return self._read(import_history)

    def name_variants(self) -> list[NameVariant]:
        """Spellings of the followed people's names that may be the same person."""
        return self._read(name_variants.all_variants)

    def rows(self, ids: Sequence[int]) -> list[PaperRow]:
        """The rows of these papers, in the order given."""
        return self._read(lambda s: list_rows.rows(s, ids))
