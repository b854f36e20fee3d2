"""The SQL behind the paper list: one filter builder, search, sort, and windows of rows.

Everything happens in the database: the full-text match and its rank, tag intersection,
sections and sorting. :func:`conditions` builds a query's filter once; the list, the counts
and the cached id lists (:mod:`refman.core.id_lists`) all use it, so a paper is in a list for
the same reason everywhere. Callers get ids, counts and small windows of rows, never the
library.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    SQLColumnExpression,
    exists,
    false,
    func,
    literal_column,
    select,
    union,
)
from sqlalchemy.orm import Session, aliased
from sqlalchemy.sql import operators

from refman.core.importing.values import FOUND
from refman.core.list_rows import rows
from refman.core.rules import tag_key
from refman.core.search_filters import filter_conditions, tag_members
from refman.core.search_syntax import with_syntax
from refman.core.values import PaperQuery, PaperRow, Section, SectionCounts, SortKey
from refman.store.bulk import first_column
from refman.store.models import (
    NEEDS_ATTENTION,
    TITLE_ORDER,
    VENUE_ORDER,
    Attribution,
    Authorship,
    BatchPaper,
    ImportBatch,
    Paper,
    PaperTag,
    Tag,
)
from refman.store.models_upkeep import in_trash
from refman.store.search import Driving, SearchIndex
from refman.store.search_terms import MAX_TERMS, too_many_terms

#: The most words and phrases a search uses (the first ones typed).
MAX_SEARCH_TERMS = MAX_TERMS
#: What a front says of a search that held more (:func:`search_is_cut`).
SEARCH_CUT = f"the search uses its first {MAX_SEARCH_TERMS} words and phrases"


def search_is_cut(text: str) -> bool:
    """True when a search holds more words and phrases than a search uses."""
    return too_many_terms(text)


def recent_batches() -> Select[Any]:
    """Ids of the batches of the last import (all pages imported at that time)."""
    last = select(func.max(ImportBatch.import_id)).scalar_subquery()
    return select(ImportBatch.id).where(ImportBatch.import_id == last)


def _tag_keys(query: PaperQuery) -> list[str]:
    return list(dict.fromkeys(tag_key(t) for t in query.tags))


def _section(section: Section) -> list[ColumnElement[bool]]:
    conds: list[ColumnElement[bool]] = [in_trash(Paper.id, section is Section.TRASH)]
    if section is Section.UNREAD:
        conds.append(Paper.status == "unread")
    elif section is Section.ATTENTION:
        conds.append(NEEDS_ATTENTION)
    elif section is Section.UNTAGGED:
        conds.append(~exists().where(PaperTag.paper_id == Paper.id))
    elif section is Section.RECENT:
        conds.append(
            Paper.id.in_(
                select(BatchPaper.paper_id).where(
                    BatchPaper.batch_id.in_(recent_batches()), BatchPaper.action != FOUND
                )
            )
        )
    return conds


def _person(person_id: int) -> ColumnElement[bool]:
    """The papers a person wrote or owns a page listing: their ids are read once from the
    person's index entries (a test per paper took minutes for a person with 10,000 papers
    at 100,000: SQLite walked the person's entries for every paper)."""
    return Paper.id.in_(
        union(
            select(Authorship.paper_id).where(Authorship.person_id == person_id),
            select(Attribution.paper_id).where(Attribution.person_id == person_id),
        )
    )


def tag_sets(query: PaperQuery) -> list[Select[Any]]:
    """The id sets a paper must be in to carry the query's tags: one per tag, or one of
    them all when any of the tags will do."""
    keys = _tag_keys(query)
    if query.any_tags and len(keys) > 1:
        return [select(union(*(tag_members(key) for key in keys)).subquery())]
    return [tag_members(key) for key in keys]


def member_sets(
    session: Session, query: PaperQuery, search: SearchIndex, *, text: bool = True
) -> list[Select[Any]] | None:
    """The id sets a paper must be in to match the query's tags and search text.

    Args:
        query: The query.
        search: The library's search index.
        text: Include the search text (False when the caller joins the ranked matches).

    Returns:
        One select of ids per tag and one for the search text (empty when the query has
        neither), or None when the search text holds nothing searchable (no paper matches).
    """
    sets = tag_sets(query)
    if text and query.text.strip():
        ids = search.match_ids(session, query.text, everything=query.everything)
        if ids is None:
            return None
        sets.append(ids)
    return sets


def conditions(
    session: Session, query: PaperQuery, search: SearchIndex, *, text: bool = True
) -> list[ColumnElement[bool]]:
    """Every condition a paper must meet to be in the query's list.

    Args:
        query: The query.
        search: The library's search index.
        text: Include the search text (False when the caller joins the ranked matches).
    """
    conds = _section(query.section)
    if query.person_id is not None:
        conds.append(_person(query.person_id))
    conds.extend(filter_conditions(session, query.filters, search, query.everything))
    sets = member_sets(session, query, search, text=text)
    if sets is None:
        return [false()]
    conds.extend(Paper.id.in_(ids) for ids in sets)
    return conds


def _order(query: PaperQuery, rank: ColumnElement[Any] | None) -> list[Any]:
    sort = query.sort
    desc = query.descending
    if sort is SortKey.RELEVANCE:
        if rank is not None:
            return [rank.desc() if desc else rank.asc(), Paper.id]
        # Without a search, "relevance" means newest first.
        sort, desc = SortKey.ADDED, not desc
    column: SQLColumnExpression[Any] = {
        SortKey.TITLE: TITLE_ORDER,  # the expression of the title's index
        SortKey.AUTHOR: Paper.sort_author,
        SortKey.YEAR: Paper.year,
        SortKey.VENUE: VENUE_ORDER,  # as titles: the expression of its index
        SortKey.ADDED: Paper.id,  # the order papers came in (ids only grow)
        SortKey.STATUS: Paper.status,  # read, reading, unread
        SortKey.RATING: Paper.rating,
    }[sort]
    primary = column.desc() if desc else column.asc()
    if sort is SortKey.ADDED:
        return [primary]
    tie = Paper.id
    if sort in (SortKey.STATUS, SortKey.RATING):
        # Few values, each shared by most papers: ties run the same way, so the list walks
        # the column's index (either way) instead of sorting a hundred thousand ties.
        return [primary, tie.desc() if desc else tie]
    if sort in (SortKey.YEAR, SortKey.VENUE, SortKey.AUTHOR):
        # Papers with no year or venue, or whose page named no authors, go last whichever
        # the direction, and ties run the same way: the expression of the column's index,
        # so the list walks it (a million papers are not sorted for a page).
        walked: SQLColumnExpression[Any] = (
            func.nullif(Paper.sort_author, literal_column("''"))
            if sort is SortKey.AUTHOR
            else column
        )
        primary = (walked.desc() if desc else walked.asc()).nulls_last()
        return [primary, tie.desc() if desc else tie]
    return [primary, tie]


def _unordered(
    session: Session, query: PaperQuery, search: SearchIndex, columns: Sequence[Any]
) -> tuple[Select[Any], list[Any]]:
    """The query's papers, and the list's order (ranked by the search when sorted by
    relevance)."""
    if query.sort is SortKey.ADDED:
        walked = _walked(session, query, search, columns)
        if walked is not None:
            return walked
    stmt = select(*columns).select_from(Paper)
    rank: ColumnElement[Any] | None = None
    matches = (
        search.matches(session, query.text, everything=query.everything)
        if query.sort is SortKey.RELEVANCE and query.text.strip()
        else None
    )
    if matches is not None:
        stmt = stmt.join(matches, matches.c.paper_id == Paper.id)
        rank = matches.c.rank
    conds = conditions(session, query, search, text=matches is None)
    return stmt.where(*conds), _order(query, rank)


def _walk(
    session: Session, query: PaperQuery, search: SearchIndex
) -> tuple[Driving, PaperQuery] | None:
    """What can hand out the query's papers in id order, and what is left of the query to
    check on each paper: the search index for a search (None when a tag or a note matches
    too), the first tag's links for a tag filter, nothing for a whole section."""
    if query.text.strip():
        driving = search.driving(session, query.text, everything=query.everything)
        return None if driving is None else (driving, replace(query, text=""))
    if not query.tags or (query.any_tags and len(query.tags) > 1):
        return None
    tag_id = select(Tag.id).where(Tag.key == tag_key(query.tags[0])).scalar_subquery()
    links = aliased(PaperTag)
    tagged = select(links.paper_id).where(links.tag_id == tag_id).subquery("tagged")
    return Driving(tagged, tagged.c.paper_id, (), own=True), replace(query, tags=query.tags[1:])


def _walked(
    session: Session, query: PaperQuery, search: SearchIndex, columns: Sequence[Any]
) -> tuple[Select[Any], list[Any]] | None:
    """A search or a tag filter listed in the order papers came in, walked in id order from
    the search index or the tag's links: a page costs its own rows however many papers
    match. None when nothing can walk it."""
    walk = _walk(session, query, search)
    if walk is None:
        return None
    driving, rest = walk
    stmt = (
        select(*columns)
        .select_from(driving.source.join(Paper, Paper.id == driving.paper_id))
        .where(*driving.conditions, *conditions(session, rest, search))
    )
    return stmt, [driving.paper_id.desc() if query.descending else driving.paper_id.asc()]


def _ordered(
    session: Session, query: PaperQuery, search: SearchIndex, columns: Sequence[Any]
) -> Select[Any]:
    """The query's papers in list order."""
    stmt, order = _unordered(session, query, search, columns)
    return stmt.order_by(*order)


def count(session: Session, query: PaperQuery, search: SearchIndex) -> int:
    """How many papers the query shows."""
    query = with_syntax(query)
    counted = _counted_by_index(session, query, search)
    if counted is not None:
        return counted
    # Every match is visited: a phrase is checked over the matches, not paper by paper.
    where = conditions(session, query, search, text=False)
    if query.text.strip():
        ids = search.match_ids(session, query.text, everything=query.everything, whole=True)
        where.append(false() if ids is None else Paper.id.in_(ids))
    stmt = select(func.count()).select_from(Paper).where(*where)
    return int(session.execute(stmt).scalar_one())


def section_counts(session: Session, search: SearchIndex) -> SectionCounts:
    """How many papers each library section holds."""
    counts = {sec: count(session, PaperQuery(section=sec), search) for sec in Section}
    return SectionCounts(
        all=counts[Section.ALL],
        attention=counts[Section.ATTENTION],
        untagged=counts[Section.UNTAGGED],
        recent=counts[Section.RECENT],
        trash=counts[Section.TRASH],
        unread=counts[Section.UNREAD],
    )


def _counted_by_index(session: Session, query: PaperQuery, search: SearchIndex) -> int | None:
    """The count of a search or a tag filter in the library or the Trash, from the search
    index's matches or the tag's links alone (a broad word's hundred thousand matches are
    counted without reading a paper); None when a paper's row must be read (another
    section, a person, a phrase)."""
    if not _index_countable(query):
        return None
    return _count_walk(session, query, _walk(session, query, search))


def _index_countable(query: PaperQuery) -> bool:
    return (
        query.person_id is None
        and not query.filters
        and query.section in (Section.ALL, Section.TRASH)
    )


def _count_walk(
    session: Session,
    query: PaperQuery,
    walk: tuple[Driving, PaperQuery] | None,
    before: tuple[int, bool] | None = None,
) -> int | None:
    """How many papers a walk hands out that the query lists (see :func:`_counted_by_index`;
    the caller checked :func:`_index_countable`). With ``before`` (a paper id, and whether
    the list runs from the newest), only those listed before that paper in id order."""
    if walk is None or not walk[0].own:
        return None
    driving, rest = walk
    # "+ 0": test each match against the (small) sets, never look the sets up in the index
    match_id = driving.paper_id + 0
    in_section = in_trash(match_id, query.section is Section.TRASH)
    tagged = [match_id.in_(ids) for ids in tag_sets(rest)]
    bound = []
    if before is not None:
        paper_id, descending = before
        bound.append(driving.paper_id > paper_id if descending else driving.paper_id < paper_id)
    stmt = (
        select(func.count())
        .select_from(driving.source)
        .where(*driving.conditions, in_section, *tagged, *bound)
    )
    return int(session.execute(stmt).scalar_one())


def paper_ids(session: Session, query: PaperQuery, search: SearchIndex) -> list[int]:
    """The ids the query shows, in list order."""
    query = with_syntax(query)
    return first_column(session, _ordered(session, query, search, [Paper.id]))


def window(
    session: Session, query: PaperQuery, search: SearchIndex, offset: int, limit: int
) -> list[PaperRow]:
    """Rows ``offset`` to ``offset + limit`` of the list, and nothing more: their ids in the
    list's order first, then their rows (an order no index gives sorts ids, not rows with
    their owner looked up for every match)."""
    ids = session.execute(_id_page(session, query, search, offset, limit)).scalars()
    return rows(session, list(ids))


def id_window(
    session: Session, query: PaperQuery, search: SearchIndex, offset: int, limit: int | None
) -> list[int]:
    """The ids of rows ``offset`` to ``offset + limit`` (to the end when ``limit`` is None)."""
    return first_column(session, _id_page(session, query, search, offset, limit))


def _id_page(
    session: Session, query: PaperQuery, search: SearchIndex, offset: int, limit: int | None
) -> Select[Any]:
    stmt = _ordered(session, with_syntax(query), search, [Paper.id]).offset(max(0, offset))
    return stmt if limit is None else stmt.limit(max(0, limit))


def position(session: Session, query: PaperQuery, search: SearchIndex, paper_id: int) -> int | None:
    """The row (from 0) of a paper in the query's list, or None when the list lacks it.

    The database numbers the list in its order and keeps the one row asked for, so nothing
    but one number comes back.
    """
    query = with_syntax(query)
    listed, order = _unordered(session, query, search, [Paper.id.label("paper_id")])
    if session.execute(listed.where(Paper.id == paper_id).limit(1)).first() is None:
        return None  # one row looked up: most papers asked about are not in a new filter
    if len(order) == 1:
        # In the order papers came in (the one order by id alone), its row is how many
        # listed papers came before it: counted along the papers' own index, or from the
        # search index or the tag's links alone.
        descending = order[0].modifier is operators.desc_op
        walk = _walk(session, query, search)
        if walk is None:
            before = Paper.id > paper_id if descending else Paper.id < paper_id
            stmt = select(func.count()).select_from(listed.where(before).subquery())
            return int(session.execute(stmt).scalar_one())
        if _index_countable(query):
            counted = _count_walk(session, query, walk, (paper_id, descending))
            if counted is not None:
                return counted
    row = (func.row_number().over(order_by=order) - 1).label("row")
    numbered = listed.add_columns(row).subquery("numbered")
    found = session.execute(select(numbered.c.row).where(numbered.c.paper_id == paper_id)).scalar()
    return None if found is None else int(found)
