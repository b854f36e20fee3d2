"""The filters of the search line (:mod:`refman.core.search_syntax`) as conditions on a
paper, for both backends."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, false, func, or_, select, true
from sqlalchemy.orm import Session

from refman.common.identifiers import normalize_arxiv, normalize_doi
from refman.common.text import person_key
from refman.core.rules import tag_key
from refman.core.search_syntax import SearchFilter, year_range
from refman.store.backend import on_server
from refman.store.models import (
    ATTENTION,
    Attribution,
    Authorship,
    Note,
    Paper,
    PaperSubject,
    PaperTag,
    Person,
    Subject,
    Tag,
)
from refman.store.search import SearchIndex


def tag_members(name: str) -> Select[Any]:
    """The ids of the papers (Trash included) carrying a tag, by the tag's name in any case."""
    return (
        select(PaperTag.paper_id)
        .join(Tag, Tag.id == PaperTag.tag_id)
        .where(Tag.key == tag_key(name))
    )


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _cases(char: str) -> str:
    """A letter in all its cases ("Éé"); any other character alone."""
    return "".join(dict.fromkeys(c for c in (char, char.lower(), char.upper()) if len(c) == 1))


def _glob(value: str) -> str:
    """A GLOB pattern (SQLite) matching text that contains ``value`` in any case."""

    def one(char: str) -> str:
        cases = _cases(char)
        return f"[{cases}]" if len(cases) > 1 else f"[{char}]" if char in "*?[" else char

    return f"*{''.join(map(one, value))}*"


def _regex(value: str) -> str:
    """A regular expression (PostgreSQL) matching ``value`` in any case."""

    def one(char: str) -> str:
        cases = _cases(char)
        if len(cases) > 1:
            return f"[{cases}]"
        return f"\\{char}" if char.isascii() and not char.isalnum() else char  # "." -> "\."

    return "".join(map(one, value))


def _contains(session: Session, column: Any, value: str) -> ColumnElement[bool]:
    """``column`` contains ``value``, the case of every letter ignored, and an accented
    letter found however either text encodes it (one character, or a letter and a combining
    accent: text pasted from a PDF or typed on a Mac)."""
    forms = dict.fromkeys(unicodedata.normalize(form, value) for form in ("NFC", "NFD"))
    if len(forms) == 1:
        return _contains_as_written(session, column, value)
    return or_(*(_contains_as_written(session, column, form) for form in forms))


def _contains_as_written(session: Session, column: Any, value: str) -> ColumnElement[bool]:
    """``column`` contains ``value`` as encoded, the case of every letter ignored.

    SQLite's ``LIKE`` and ``lower()`` know the cases of ASCII letters only, PostgreSQL's
    those its locale knows: a value with other letters is matched as each letter in all
    its cases, by SQLite's ``GLOB`` (after a ``LIKE`` that lets through only rows it may
    match, with any character for those letters) and PostgreSQL's ``~`` (regexp_match).
    """
    server = on_server(session)
    if value.isascii():
        wanted = f"%{_like(value.lower())}%"
        # SQLite's LIKE ignores the case of ASCII letters itself (faster than lower())
        return (func.lower(column) if server else column).like(wanted, escape="\\")
    if server:
        matched: ColumnElement[bool] = column.regexp_match(_regex(value))
        return matched
    rough = "".join("_" if not c.isascii() and len(_cases(c)) > 1 else _like(c) for c in value)
    return and_(
        column.like(f"%{rough}%", escape="\\"), column.op("GLOB", is_comparison=True)(_glob(value))
    )


def _people_named(value: str) -> Select[Any]:
    """People one of whose name's words starts with ``value`` (folded as person keys are)."""
    wanted = _like(person_key(value))
    return select(Person.id).where(
        or_(
            Person.key.like(f"{wanted}%", escape="\\"),
            Person.key.like(f"% {wanted}%", escape="\\"),
        )
    )


def _subject(value: str) -> ColumnElement[bool]:
    code = value.lower()
    lowered = func.lower(Subject.code)
    codes = select(Subject.id).where(
        or_(lowered == code, lowered.like(f"{_like(code)}.%", escape="\\"))
    )
    return Paper.id.in_(select(PaperSubject.paper_id).where(PaperSubject.subject_id.in_(codes)))


def _years(value: str) -> ColumnElement[bool]:
    low, high = year_range(value) or (None, None)
    bounds = [Paper.year >= low] if low is not None else []
    if high is not None:
        bounds.append(Paper.year <= high)
    return and_(Paper.year.is_not(None), *bounds)


def _condition(session: Session, f: SearchFilter, search: SearchIndex) -> ColumnElement[bool]:
    """What one filter asks of a paper (before its negation)."""
    value = f.value
    if f.field == "any":
        return or_(*(_negated(session, o, search) for o in f.options))
    if f.field == "text":
        ids = search.match_ids(session, value)
        return Paper.id.in_(ids) if ids is not None else false()
    if f.field == "author":
        wrote = select(Authorship.paper_id).where(Authorship.person_id.in_(_people_named(value)))
        return Paper.id.in_(wrote)
    if f.field == "owner":
        owns = select(Attribution.paper_id).where(Attribution.person_id.in_(_people_named(value)))
        return Paper.id.in_(owns)
    if f.field == "year":
        return _years(value)
    if f.field == "venue":
        return _contains(session, Paper.venue, value)
    if f.field == "subject":
        return _subject(value)
    if f.field == "tag":
        return Paper.id.in_(tag_members(value))
    if f.field == "note":
        noted = select(Note.paper_id).where(_contains(session, Note.text, value))
        return Paper.id.in_(noted)
    if f.field == "is":
        return ATTENTION.get(value, Paper.status == value)
    return _identified(f.field, value)


def _identified(field: str, value: str) -> ColumnElement[bool]:
    """The paper of a DOI, an arXiv id or a citation key (as typed, or in lower case)."""
    if field == "doi":
        return Paper.doi == (normalize_doi(value) or value.lower())
    if field == "arxiv":
        return Paper.arxiv_id == (normalize_arxiv(value) or value)
    if field == "key":
        return Paper.citekey.in_(sorted({value, value.lower()}))
    return true()


def _negated(session: Session, f: SearchFilter, search: SearchIndex) -> ColumnElement[bool]:
    condition = _condition(session, f, search)
    if not f.negated:
        return condition
    if f.field in ("venue", "year"):
        # a paper of no known venue or year is not one of the venue or years left out
        column = Paper.venue if f.field == "venue" else Paper.year
        return or_(column.is_(None), ~condition)
    return ~condition


def filter_conditions(
    session: Session, filters: Sequence[SearchFilter], search: SearchIndex
) -> list[ColumnElement[bool]]:
    """What the filters of a search ask of a paper, one condition each."""
    return [_negated(session, f, search) for f in filters]
