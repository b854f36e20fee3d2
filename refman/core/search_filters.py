"""The filters of the search line (:mod:`refman.core.search_syntax`) as conditions on a
paper, for both backends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, false, func, or_, select, text, true
from sqlalchemy.orm import Session

from refman.common.east_asian import holds_east_asian
from refman.common.identifiers import normalize_arxiv, normalize_doi
from refman.common.text import squash_spaces
from refman.core.citekeys import folded
from refman.core.matching import key_hash
from refman.core.name_search import key_like, people_like, word_starts
from refman.core.rules import tag_key
from refman.core.search_syntax import SearchFilter, year_range
from refman.store.models import (
    ATTENTION,
    CASED_CITEKEY,
    Attribution,
    Authorship,
    Note,
    Paper,
    PaperSubject,
    PaperTag,
    Subject,
    Tag,
)
from refman.store.models_upkeep import CitekeyAlias
from refman.store.plain_text import escape_like, plain_contains, plain_sql, plain_value
from refman.store.search import SearchIndex


def tag_members(name: str) -> Select[Any]:
    """The ids of the papers (Trash included) carrying a tag, by the tag's name in any case."""
    return (
        select(PaperTag.paper_id)
        .join(Tag, Tag.id == PaperTag.tag_id)
        .where(Tag.key == tag_key(name))
    )


def tags_named(session: Session, name: str) -> ColumnElement[bool]:
    """The tags ``tag:name`` names: of this name, its case and accents not counted
    (``tag:odegaard`` names the tag "Ødegaard"; the tag pane's tags are told apart by case
    alone: :func:`tag_members`)."""
    return or_(
        Tag.key == tag_key(name),
        plain_sql(session, Tag.name) == plain_value(session, squash_spaces(name)),
    )


def _tagged(session: Session, name: str) -> Select[Any]:
    """The ids of the papers carrying a tag ``tag:name`` names (:func:`tags_named`)."""
    named = tags_named(session, name)
    return select(PaperTag.paper_id).join(Tag, Tag.id == PaperTag.tag_id).where(named)


def _people_named(value: str) -> Select[Any]:
    """People one of whose name's words starts with ``value`` (folded as person keys are,
    "Family, Given" read as "Given Family": :mod:`refman.core.name_search`); a
    Chinese, Japanese or Korean name (its key has no spaces) holding it anywhere (伟 finds
    张伟)."""
    if holds_east_asian(wanted := key_like(value)):
        return people_like([f"%{wanted}%"])
    return people_like(word_starts(value))


def _subject(value: str) -> ColumnElement[bool]:
    code = value.lower()
    lowered = func.lower(Subject.code)
    codes = select(Subject.id).where(
        or_(lowered == code, lowered.like(f"{escape_like(code)}.%", escape="\\"))
    )
    return Paper.id.in_(select(PaperSubject.paper_id).where(PaperSubject.subject_id.in_(codes)))


def _ranged(column: Any, value: str) -> ColumnElement[bool]:
    """A year or a rating in the range typed ("2023..2025", ">=4")."""
    low, high = year_range(value) or (None, None)
    bounds = [column >= low] if low is not None else []
    if high is not None:
        bounds.append(column <= high)
    return and_(column.is_not(None), *bounds)


def _condition(
    session: Session, f: SearchFilter, search: SearchIndex, everything: bool
) -> ColumnElement[bool]:
    """What one filter asks of a paper (before its negation); ``everything``: words match in
    the text of attached files too."""
    value = f.value
    if f.field == "any":
        return or_(*(_negated(session, o, search, everything) for o in f.options))
    if f.field == "text":
        ids = search.match_ids(session, value, everything=everything)
        return Paper.id.in_(ids) if ids is not None else false()
    if f.field == "author":
        wrote = select(Authorship.paper_id).where(Authorship.person_id.in_(_people_named(value)))
        return Paper.id.in_(wrote)
    if f.field == "owner":
        owns = select(Attribution.paper_id).where(Attribution.person_id.in_(_people_named(value)))
        return Paper.id.in_(owns)
    if f.field in ("year", "rating"):
        return _ranged(getattr(Paper, f.field), value)
    if f.field in ("title", "venue", "title_start"):  # (title_start: the list's type-ahead)
        column = Paper.venue if f.field == "venue" else Paper.title
        return plain_contains(session, column, value, start=f.field == "title_start")
    if f.field == "subject":
        return _subject(value)
    if f.field == "tag":
        return Paper.id.in_(_tagged(session, value))
    if f.field == "tagged":  # (a tag as the tag pane names it: a saved search's; not typed)
        return Paper.id.in_(tag_members(value))
    if f.field == "note":
        noted = select(Note.paper_id).where(plain_contains(session, Note.text, value))
        return Paper.id.in_(noted)
    if f.field == "is":
        return ATTENTION.get(value, Paper.status == value)
    return _identified(f.field, value)


def _identified(field: str, value: str) -> ColumnElement[bool]:
    """The paper of a DOI, an arXiv id or a citation key (as typed, or in lower case)."""
    if field == "doi":
        return Paper.doi == (normalize_doi(value) or value.lower())
    if field == "arxiv":
        bare = normalize_arxiv(value)
        if bare is None:
            return Paper.arxiv_id == value
        # any version of it: the paper's match key is its id without the version (indexed)
        return Paper.arxiv_key == key_hash("arxiv", bare)
    if field == "key":  # the paper's key, or another key of it (citekey_aliases)
        aliased = select(CitekeyAlias.paper_id).where(CitekeyAlias.folded == folded(value))
        # as typed, in lower case, or with capitals (few keys have any: an index of their own)
        cased = select(Paper.id).where(
            text(CASED_CITEKEY), func.lower(Paper.citekey) == folded(value)
        )
        return or_(
            Paper.citekey.in_({value, folded(value)}), Paper.id.in_(cased), Paper.id.in_(aliased)
        )
    return true()


def _negated(
    session: Session, f: SearchFilter, search: SearchIndex, everything: bool
) -> ColumnElement[bool]:
    condition = _condition(session, f, search, everything)
    if not f.negated:
        return condition
    if f.field in ("venue", "year"):
        # a paper of no known venue or year is not one of the venue or years left out
        column = Paper.venue if f.field == "venue" else Paper.year
        return or_(column.is_(None), ~condition)
    return ~condition


def filter_conditions(
    session: Session, filters: Sequence[SearchFilter], search: SearchIndex, everything: bool
) -> list[ColumnElement[bool]]:
    """What the filters of a search ask of a paper, one condition each (``everything``: the
    words of a filter match in attached files' text too, as the search's own words do)."""
    return [_negated(session, f, search, everything) for f in filters]
