"""What an operation's handler works with: one transaction, the search index, the time."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from refman.common.errors import NotFoundError, RefmanError
from refman.common.sequences import as_set, unique
from refman.store.bulk import first_column, id_set
from refman.store.file_store import FileStore
from refman.store.models import Paper
from refman.store.models_upkeep import is_live
from refman.store.search import SearchIndex

log = logging.getLogger("refman.library")

#: Called with (steps done, steps in all) while a long operation runs.
Progress = Callable[[int, int], None]


@dataclass
class Context:
    """One operation's transaction and what it may use.

    Attributes:
        session: The session of the operation's transaction.
        search: The library's full-text index.
        now: The time of the change (seconds precision).
        progress: Told how far a long operation has come, or None.
        cancelled: Asked now and then by a long operation; True stops it, or None.
        prepared: What the operation worked out before the write lock was taken (an
            import's plan, the files copied in for an attachment), or None.
        files: Where the library's attached files are.
        on_failure: Called (last first) when the transaction does not commit: what undoes a
            change on disk (a file set aside is put back).
        after_commit: Called once the transaction committed: changes on disk that must not
            happen unless it did (deleting the files of papers deleted for good). Both are
            run by :func:`on_disk`.
    """

    session: Session
    search: SearchIndex
    now: datetime
    progress: Progress | None = None
    cancelled: Callable[[], bool] | None = None
    prepared: Any = None
    files: FileStore = field(default_factory=lambda: FileStore(None))
    on_failure: list[Callable[[], None]] = field(default_factory=list)
    after_commit: list[Callable[[], None]] = field(default_factory=list)


def on_disk(steps: Iterable[Callable[[], None]], when: str) -> None:
    """Run a change's steps on disk after its transaction ended (``when``: "after the
    change", "to take it back"), each whatever the others did: the change is decided, so a
    step the disk refuses (a folder made read-only meanwhile) is logged, its file left where
    it is (``refman check --files`` lists what is left in the storage folder), never
    raised."""
    for step in steps:
        try:
            step()
        except (OSError, RefmanError):
            log.warning("a file could not be moved or deleted %s", when, exc_info=True)


def no_paper(paper_id: int) -> NotFoundError:
    """The error for a paper id the library does not hold."""
    return NotFoundError(
        f"There is no paper #{paper_id} in this library.", "Use “refman list” to see the ids."
    )


def existing_papers(session: Session, ids: Iterable[int]) -> set[int]:
    """Which of these paper ids exist."""
    wanted = select(Paper.id).where(Paper.id.in_(id_set(list(ids))), is_live(Paper.id))
    return as_set(first_column(session, wanted))


def require_papers(session: Session, ids: Iterable[int]) -> None:
    """Make sure every paper exists.

    Raises:
        NotFoundError: One does not (the first missing id is named).
    """
    wanted = unique(ids)
    counted = (
        select(func.count())
        .select_from(Paper)
        .where(Paper.id.in_(id_set(wanted)), is_live(Paper.id))
    )
    if session.execute(counted).scalar_one() == len(wanted):
        return  # all there: counted in SQLite, no id read back (a million at a time)
    found = existing_papers(session, wanted)
    for paper_id in wanted:
        if paper_id not in found:
            raise no_paper(paper_id)


Handler = Callable[[Context, Any], Any]
