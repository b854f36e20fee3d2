"""Text compared as :func:`~refman.common.text.plain_letters` compares it (accents and case
dropped, ø and ł written as o and l), Greek letters spelled out as the search's words are
(:func:`~refman.common.greek.spell_greek`: α as alpha), in the SQL of either backend: SQLite
through its function ``refman_plain`` (:func:`refman.store.search_terms.search_plain`),
PostgreSQL by the rule of its search words (:func:`refman.store.search_pg.plain_expression`)."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from sqlalchemy import ColumnElement, LargeBinary, and_, cast, func, literal_column, or_
from sqlalchemy.orm import Session

from refman.common.greek import spell_greek
from refman.common.text import fold_letters
from refman.store.backend import on_server
from refman.store.search_terms import search_plain


def escape_like(text: str) -> str:
    """``text`` as a part of a ``LIKE`` pattern (escaped by a backslash) that matches it."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def plain_sql(session: Session, column: Any) -> ColumnElement[str]:
    """``column``'s text written plain: by :func:`~refman.common.text.plain_letters` on
    SQLite, by :func:`~refman.store.search_pg.plain_expression` (the rule of its search
    words) on PostgreSQL."""
    if not on_server(session):
        result: ColumnElement[str] = func.refman_plain(column)
        return result
    from refman.store.search_pg import plain_expression  # (a server's: not at start-up)

    name = str(column.expression.compile(dialect=session.get_bind().dialect))
    return literal_column(plain_expression(name))


def plain_value(session: Session, value: str) -> str:
    """A typed value written as :func:`plain_sql` writes a column on this backend: by
    :func:`~refman.common.text.plain_letters` on SQLite, by the same steps PostgreSQL takes
    on a server (its own marks and lower case), so that text typed as stored always matches
    (a Greek final sigma, a Japanese voiced mark)."""
    if not on_server(session):
        return search_plain(value)
    from refman.store.search_pg import MARKS

    decomposed = unicodedata.normalize("NFKD", fold_letters(value))
    return spell_greek(unicodedata.normalize("NFC", re.sub(MARKS, "", decomposed)).lower())


def plain_contains(
    session: Session, column: Any, value: str, *, start: bool = False
) -> ColumnElement[bool]:
    """``column`` contains ``value`` (``start``: starts with it), accents and case not
    counted ("zurich" is in "Zürich", "lodz" in "Łódź", "café" in "CAFE"; an accent written
    as a letter and a combining mark is an accent too: text pasted from a PDF or typed on a
    Mac)."""
    typed = plain_value(session, value)
    wanted = f"{'' if start else '%'}{escape_like(typed)}%"
    plain = plain_sql(session, column).like(wanted, escape="\\")
    if on_server(session):
        return plain
    # SQLite: only a text holding characters other than ASCII (more bytes than characters)
    # is written plain, in Python; SQLite's LIKE ignores the case of ASCII letters itself
    not_ascii = func.length(cast(column, LargeBinary)) > func.length(column)
    if not typed.isascii():
        return and_(not_ascii, plain)
    return or_(column.like(wanted, escape="\\"), and_(not_ascii, plain))
