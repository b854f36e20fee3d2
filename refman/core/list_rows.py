"""The paper list's rows: which columns a row reads, and a row from them (the flag of a paper
that needs attention is :data:`refman.store.models.NEEDS_ATTENTION`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import case, select
from sqlalchemy.orm import Session

from refman.core.publication_status import publication_status
from refman.core.values import PaperRow
from refman.store.bulk import chunks
from refman.store.models import NEEDS_ATTENTION, Attribution, Paper, Person

#: What a list row reads (the owner only for the rows of a page).
ROW_COLUMNS = (
    Paper.id,
    Paper.title,
    Paper.title_provisional,
    Paper.author_line,
    Paper.year,
    Paper.venue,
    Paper.added_at,
    NEEDS_ATTENTION.label("attention"),
    Paper.status,
    Paper.rating,
    # The first page owner's name, read only for the rows of a page.
    select(Person.name)
    .join(Attribution, Attribution.person_id == Person.id)
    .where(Attribution.paper_id == Paper.id)
    .order_by(Attribution.person_id)
    .limit(1)
    .correlate(Paper)
    .scalar_subquery()
    .label("owner"),
    # The further CSL variables of a paper that has no year, where a status may stand for it.
    case((Paper.year.is_(None), Paper.extra), else_=None).label("extra"),
)


def row_of(r: Sequence[Any]) -> PaperRow:
    """A list row from the values of :data:`ROW_COLUMNS`."""
    return PaperRow(
        id=r[0],
        title=r[1],
        title_provisional=bool(r[2]),
        first_author=r[3],
        year=r[4],
        venue=r[5],
        added=r[6],
        needs_attention=bool(r[7]),
        status=r[8],
        rating=r[9],
        owner=r[10] or "",
        publication_status=publication_status(r[11]),
    )


def rows(session: Session, ids: Sequence[int]) -> list[PaperRow]:
    """The rows of these papers, in the order given (missing ids are left out)."""
    found: dict[int, PaperRow] = {}
    for part in chunks(ids):
        for r in session.execute(select(*ROW_COLUMNS).where(Paper.id.in_(part))):
            found[r[0]] = row_of(r)
    return [found[i] for i in ids if i in found]
