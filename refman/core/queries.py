"""The SQL behind the paper list: filters, search, sort, and windows of rows.

Everything happens in SQLite: the full-text match and its bm25 rank, tag intersection,
sections and sorting. Callers get ids, counts and small windows of rows, never the library.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, exists, func, literal_column, or_, select, text
from sqlalchemy.orm import Session

from refman.core.values import PaperQuery, PaperRow, Section, SortKey
from refman.store import fts
from refman.store.bulk import first_column
from refman.store.models import (
    Attribution,
    Authorship,
    BatchPaper,
    ImportBatch,
    Paper,
    PaperTag,
    Tag,
)

ATTENTION = or_(
    Paper.title_provisional.is_(True),
    and_(Paper.authors_complete.is_(False), Paper.author_line != ""),
    Paper.possible_duplicate_of.is_not(None),
)


def recent_batches() -> Select[Any]:
    """Ids of the batches of the last import (all pages imported at that time)."""
    last = select(func.max(ImportBatch.import_id)).scalar_subquery()
    return select(ImportBatch.id).where(ImportBatch.import_id == last)


def _filters(query: PaperQuery) -> list[ColumnElement[bool]]:
    conds: list[ColumnElement[bool]] = []
    if query.section is Section.TRASH:
        conds.append(Paper.trashed_at.is_not(None))
    else:
        conds.append(Paper.trashed_at.is_(None))
    if query.section is Section.ATTENTION:
        conds.append(ATTENTION)
    elif query.section is Section.UNTAGGED:
        conds.append(~exists().where(PaperTag.paper_id == Paper.id))
    elif query.section is Section.RECENT:
        conds.append(
            Paper.id.in_(
                select(BatchPaper.paper_id).where(BatchPaper.batch_id.in_(recent_batches()))
            )
        )
    for name in dict.fromkeys(" ".join(t.split()).casefold() for t in query.tags):
        conds.append(
            exists()
            .where(PaperTag.paper_id == Paper.id)
            .where(PaperTag.tag_id == select(Tag.id).where(Tag.key == name).scalar_subquery())
        )
    if query.person_id is not None:
        conds.append(
            or_(
                exists().where(
                    and_(Attribution.paper_id == Paper.id, Attribution.person_id == query.person_id)
                ),
                exists().where(
                    and_(Authorship.paper_id == Paper.id, Authorship.person_id == query.person_id)
                ),
            )
        )
    return conds


def _order(query: PaperQuery, searching: bool) -> list[Any]:
    sort = query.sort
    desc = query.descending
    if sort is SortKey.RELEVANCE:
        if searching:
            rank: ColumnElement[Any] = literal_column("fts_rank")
            return [rank.desc() if desc else rank.asc(), Paper.id]
        # Without a search, "relevance" means newest first.
        sort, desc = SortKey.ADDED, not desc
    column = {
        SortKey.TITLE: Paper.sort_title,
        SortKey.AUTHOR: Paper.sort_author,
        SortKey.YEAR: Paper.year,
        SortKey.VENUE: Paper.venue,
        SortKey.ADDED: Paper.added_at,
    }[sort]
    primary = column.desc() if desc else column.asc()
    tie = Paper.id.desc() if desc and sort is SortKey.ADDED else Paper.id
    if sort in (SortKey.YEAR, SortKey.VENUE):
        primary = primary.nulls_last()
    elif sort is SortKey.AUTHOR:
        # Papers whose page named no authors go last, whichever the direction.
        return [(Paper.sort_author == "").asc(), primary, tie]
    return [primary, tie]


def _base(query: PaperQuery, columns: Sequence) -> tuple[Select, bool]:  # type: ignore[type-arg]
    expression = fts.match_expression(query.text) if query.text.strip() else None
    stmt = select(*columns).select_from(Paper)
    if expression is not None:
        matches = (
            select(
                literal_column("rowid").label("paper_id"),
                literal_column(fts.BM25).label("fts_rank"),
            )
            .select_from(text("papers_fts"))
            .where(text("papers_fts MATCH :match"))
            .subquery("m")
        )
        stmt = stmt.join(matches, matches.c.paper_id == Paper.id).params(match=expression)
    elif query.text.strip():
        # Nothing searchable was typed (only punctuation): no paper matches.
        stmt = stmt.where(literal_column("0") == 1)
    for cond in _filters(query):
        stmt = stmt.where(cond)
    return stmt, expression is not None


def count(session: Session, query: PaperQuery) -> int:
    """How many papers the query shows."""
    stmt, _ = _base(query, [func.count()])
    return int(session.execute(stmt).scalar_one())


def paper_ids(session: Session, query: PaperQuery) -> list[int]:
    """The ids the query shows, in list order."""
    stmt, searching = _base(query, [Paper.id])
    stmt = stmt.order_by(*_order(query, searching))
    compiled = stmt.compile(session.get_bind(), compile_kwargs={"render_postcompile": True})
    params = compiled.construct_params()
    return first_column(
        session, str(compiled), [params[name] for name in compiled.positiontup or []]
    )


_ROW_COLUMNS = (
    Paper.id,
    Paper.title,
    Paper.title_provisional,
    Paper.author_line,
    Paper.year,
    Paper.venue,
    Paper.added_at,
    ATTENTION.label("attention"),
)


def _row(r: Sequence) -> PaperRow:  # type: ignore[type-arg]
    return PaperRow(
        id=r[0],
        title=r[1],
        title_provisional=bool(r[2]),
        first_author=r[3],
        year=r[4],
        venue=r[5],
        added=r[6],
        needs_attention=bool(r[7]),
    )


def window(session: Session, query: PaperQuery, offset: int, limit: int) -> list[PaperRow]:
    """Rows ``offset`` to ``offset + limit`` of the list, and nothing more."""
    stmt, searching = _base(query, _ROW_COLUMNS)
    stmt = stmt.order_by(*_order(query, searching)).offset(max(0, offset)).limit(max(0, limit))
    return [_row(r) for r in session.execute(stmt)]


def rows(session: Session, ids: Sequence[int]) -> list[PaperRow]:
    """The rows of these papers, in the order given (missing ids are left out)."""
    found: dict[int, PaperRow] = {}
    for i in range(0, len(ids), 500):
        part = list(ids[i : i + 500])
        for r in session.execute(select(*_ROW_COLUMNS).where(Paper.id.in_(part))):
            found[r[0]] = _row(r)
    return [found[i] for i in ids if i in found]
