"""Reading: a paper's reading status (unread, reading, read) and its rating (0 to 5 stars),
set for one paper or a hundred thousand at once, undone exactly.

The operations live here with their handlers (the rest of the library's operations are in
:mod:`refman.core.operations`). The status and the rating are the reader's own: setting them
does not change when the paper was last modified, and an import gives them only where the
reader has not (:func:`imported_reading`: a bibliography's marks, JabRef's).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from refman.common.errors import ConflictError
from refman.common.sequences import ids_of, unique
from refman.common.text import plural
from refman.core.context import Context, Handler, no_paper
from refman.core.operations import Operation, Outcome
from refman.core.rules import RATING_MAX, READING_STATUSES, check_rating, check_status
from refman.core.values import Changes
from refman.store.bulk import UNSYNCHRONIZED, id_set, raw_rows
from refman.store.connection import writer
from refman.store.models import Paper

#: A paper's reading status and rating.
Reading = tuple[str, int]
#: A paper not read yet and not rated (a new paper's).
UNMARKED: Reading = (READING_STATUSES[0], 0)


@dataclass(frozen=True, slots=True)
class MarkPapers(Operation[tuple[int, ...]]):
    """Set the reading status, the rating, or both, of papers; the value is the ids whose
    status or rating changed.

    Raises:
        InvalidValueError: (when made) an unknown status or a rating outside 0 to 5.
    """

    paper_ids: tuple[int, ...]
    status: str | None = None
    rating: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "paper_ids", unique(self.paper_ids))
        if self.status is not None:
            object.__setattr__(self, "status", check_status(self.status))
        if self.rating is not None:
            object.__setattr__(self, "rating", check_rating(self.rating))

    @property
    def label(self) -> str:
        """ "Mark 3 papers as read", "Rate 1 paper 4 stars", "Clear the rating of 2 papers"."""
        papers = plural(len(self.paper_ids), "paper")
        if self.status is not None:
            return f"Mark {papers} as {self.status}"
        if not self.rating:
            return f"Clear the rating of {papers}"
        return f"Rate {papers} {plural(self.rating, 'star')}"


@dataclass(frozen=True, slots=True)
class SetReading(Operation[tuple[int, ...]]):
    """Put papers' status and rating back (an undo, a redo), expecting ``expect`` (a paper
    marked again elsewhere since is left as it is: :class:`ConflictError`)."""

    values: tuple[tuple[int, str, int], ...]
    expect: tuple[tuple[int, str, int], ...] = ()


def readings(session: Session, ids: Collection[int]) -> dict[int, Reading]:
    """The status and rating of each of these papers (one statement, however many)."""
    rows = raw_rows(
        session, select(Paper.id, Paper.status, Paper.rating).where(Paper.id.in_(id_set(ids)))
    )
    return {pid: (status, int(rating)) for pid, status, rating in rows}


def merged_reading(found: Mapping[int, Reading], keep: int, others: Sequence[int]) -> Reading:
    """The reading status and rating of a paper others are merged into: the furthest along
    of all their statuses; its own rating, else the first other's."""
    status = max((found[i][0] for i in (keep, *others)), key=READING_STATUSES.index)
    rating = found[keep][1] or next((found[i][1] for i in others if found[i][1]), 0)
    return status, rating


def imported_reading(had: Reading, status: str | None, rating: int | None) -> Reading:
    """The reading status and rating of a paper after an import's record of it gave these
    (None: it gives none; a new paper had :data:`UNMARKED`): the record's status where the
    paper is not read yet (unread), its rating where the paper has none. What the reader set
    stays: an import never changes it, lower or higher. A value refman does not know is
    none."""
    status_had, rating_had = had
    if status_had == UNMARKED[0] and status in READING_STATUSES:
        status_had = status
    if not rating_had and rating is not None and 0 < rating <= RATING_MAX:
        rating_had = rating
    return status_had, rating_had


def reading_words(before: Reading, after: Reading) -> list[str]:
    """A paper's reading status and rating as they changed, in words ("the rating (4
    stars)")."""
    words = [f"the reading status ({after[0]})"] if after[0] != before[0] else []
    return words + ([f"the rating ({plural(after[1], 'star')})"] if after[1] != before[1] else [])


def put_readings(session: Session, wanted: Mapping[int, Reading], *, versioned: bool) -> None:
    """Give papers these statuses and ratings, one statement per distinct pair (``versioned``:
    as a change of the papers, their version moved on; else in a change that wrote them)."""
    groups: dict[Reading, list[int]] = {}
    for pid, value in wanted.items():
        groups.setdefault(value, []).append(pid)
    who = writer(session)
    for (status, rating), ids in groups.items():
        values: dict[str, object] = {"status": status, "rating": rating}
        if versioned:
            values.update(version=Paper.version + 1, modified_by=who)
        session.execute(
            update(Paper).where(Paper.id.in_(id_set(ids))).values(**values),
            execution_options=UNSYNCHRONIZED,
        )


def _set(
    ctx: Context, wanted: Mapping[int, Reading], before: Mapping[int, Reading], label: str = ""
) -> Outcome[tuple[int, ...]]:
    """Give papers these statuses and ratings, one statement per distinct pair."""
    changed = {pid: value for pid, value in wanted.items() if before[pid] != value}
    if not changed:
        return Outcome(())
    put_readings(ctx.session, changed, versioned=True)
    inverse = SetReading(
        values=tuple((pid, *before[pid]) for pid in changed),
        expect=tuple((pid, *value) for pid, value in changed.items()),
    )
    status_moved = any(before[pid][0] != value[0] for pid, value in changed.items())
    changes = Changes(papers=ids_of(changed.keys()), structure=status_moved)
    return Outcome(tuple(changed), changes, inverse, label)


def mark_papers(ctx: Context, op: MarkPapers) -> Outcome[tuple[int, ...]]:
    """Set the status and/or rating of papers (a paper the library lacks fails the whole
    change)."""
    before = readings(ctx.session, op.paper_ids)
    for pid in op.paper_ids:
        if pid not in before:
            raise no_paper(pid)
    wanted = {
        pid: (
            op.status if op.status is not None else status,
            op.rating if op.rating is not None else rating,
        )
        for pid, (status, rating) in before.items()
    }
    return _set(ctx, wanted, before, op.label)


def set_reading(ctx: Context, op: SetReading) -> Outcome[tuple[int, ...]]:
    """Put statuses and ratings back, unless a paper was marked elsewhere since.

    Raises:
        NotFoundError: A paper is no longer in the library.
        ConflictError: A paper's status or rating is not the expected one.
    """
    before = readings(ctx.session, [pid for pid, _, _ in op.values])
    for pid, status, rating in op.expect:
        if pid not in before:
            raise no_paper(pid)
        if before[pid] != (status, rating):
            raise ConflictError(
                f"Paper #{pid} was marked or rated elsewhere since.", "It was left as it is now."
            )
    wanted = {pid: (status, rating) for pid, status, rating in op.values if pid in before}
    return _set(ctx, wanted, before, "Reading status")


HANDLERS: dict[type, Handler] = {MarkPapers: mark_papers, SetReading: set_reading}
