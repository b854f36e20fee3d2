"""How an SQLite library's search ranks its matches, and the FTS5 statements it is made of.

A search listed by relevance ranks its matches by bm25 over the papers' fields (the title
weighs most). bm25 needs each matching paper's word counts, which an index without word
positions (``detail=column``) gets by reading the paper's text again: for a common word in a
large library, seconds. A search matching more than :data:`BROAD` papers is ranked from the
index alone instead: by the weights of the fields that hold its words (a title match first),
the earlier paper first among equals.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    Subquery,
    TextClause,
    bindparam,
    case,
    func,
    literal_column,
    select,
    text,
)
from sqlalchemy.orm import Session

#: bm25 weights per column of papers_fts: title, abstract, authors, venue, subjects.
BM25_WEIGHTS = (10.0, 1.0, 5.0, 2.0, 2.0)
BM25 = "bm25(papers_fts, " + ", ".join(str(w) for w in BM25_WEIGHTS) + ")"
#: A search matching more papers than this is ranked by the fields holding its words.
BROAD = 2000
#: The fields of papers_fts, in the order of the weights.
FIELDS = ("title", "abstract", "authors", "venue", "subjects")


def fts_matching(table: str, expression: str) -> TextClause:
    """``table MATCH expression``, with a parameter of its own (a query may hold several)."""
    return text(f"{table} MATCH :match").bindparams(
        bindparam("match", value=expression, unique=True)
    )


def fts_rowids(table: str, expression: str) -> Select[Any]:
    return (
        select(literal_column("rowid").label("id"))
        .select_from(text(table))
        .where(fts_matching(table, expression))
    )


def fts5_ranking(session: Session, words: str) -> Subquery:
    """The papers matching ``words`` (an FTS5 expression) with their rank, lower first:
    bm25, or for a broad search the fields that hold the words (see the module)."""
    rank: ColumnElement[Any] = literal_column(BM25)
    broad = fts_rowids("papers_fts", words).limit(BROAD + 1).subquery()
    if session.execute(select(func.count()).select_from(broad)).scalar_one() > BROAD:
        held = (
            case(
                (literal_column("rowid").in_(fts_rowids("papers_fts", f"{{{f}}} : ({words})")), w),
                else_=0,
            )
            for f, w in zip(FIELDS, BM25_WEIGHTS, strict=True)
        )
        rank = -sum(held, start=literal_column("0"))
    return (
        select(literal_column("rowid").label("id"), rank.label("rank"))
        .select_from(text("papers_fts"))
        .where(fts_matching("papers_fts", words))
        .subquery("ranked")
    )


def ranked_matches(ids: Select[Any], ranked: Subquery) -> Subquery:
    """The matches (``ids``) with their rank from ``ranked`` (``id``, ``rank``; a lower rank
    is better), 0 where a match has none (a tag or a note matched): what
    :meth:`SearchIndex.matches` gives, on any index."""
    found: Subquery = ids.subquery("found")
    return (
        select(found.c.id.label("paper_id"), func.coalesce(ranked.c.rank, 0.0).label("rank"))
        .select_from(found.outerjoin(ranked, ranked.c.id == found.c.id))
        .subquery("matches")
    )
