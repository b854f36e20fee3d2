"""Text compared as :func:`~refman.common.text.plain_letters` compares it (accents and case
dropped, ø and ł written as o and l), in the SQL of either backend: SQLite through its
function ``refman_plain`` (:func:`refman.store.search_terms.register_functions`),
PostgreSQL through its own ``normalize``, ``translate`` and ``lower``."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from sqlalchemy import ColumnElement, LargeBinary, and_, cast, func, literal_column, or_
from sqlalchemy.orm import Session

from refman.common.text import OWN_LETTERS, fold_letters, plain_letters
from refman.store.backend import on_server

#: The letters :data:`OWN_LETTERS` writes as one letter, and those letters.
_ONE = {letter: plain for letter, plain in OWN_LETTERS.items() if len(plain) == 1}


def escape_like(text: str) -> str:
    """``text`` as a part of a ``LIKE`` pattern (escaped by a backslash) that matches it."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def plain_sql(session: Session, column: Any) -> ColumnElement[str]:
    """``column``'s text as :func:`~refman.common.text.plain_letters` writes it."""
    if not on_server(session):
        result: ColumnElement[str] = func.refman_plain(column)
        return result
    folded = column
    for letter, plain in OWN_LETTERS.items():
        if len(plain) > 1:
            folded = func.replace(folded, letter, plain)
    folded = func.translate(folded, "".join(_ONE), "".join(_ONE.values()))
    decomposed = func.normalize(folded, literal_column("NFKD"))
    return func.lower(func.regexp_replace(decomposed, "[\u0300-\u036f]", "", "g"))


#: The combining marks PostgreSQL's side of :func:`plain_sql` drops (a regular expression's
#: range: it knows no Unicode categories).
_SERVER_MARKS = re.compile("[\u0300-\u036f]")


def plain_value(session: Session, value: str) -> str:
    """A typed value written as :func:`plain_sql` writes a column on this backend: by
    :func:`~refman.common.text.plain_letters` on SQLite, by the same steps PostgreSQL takes
    on a server (its own marks and lower case), so that text typed as stored always matches
    (a Greek final sigma, a Japanese voiced mark)."""
    if not on_server(session):
        return plain_letters(value)
    decomposed = unicodedata.normalize("NFKD", fold_letters(value))
    return _SERVER_MARKS.sub("", decomposed).lower()


def plain_contains(session: Session, column: Any, value: str) -> ColumnElement[bool]:
    """``column`` contains ``value``, accents and case not counted ("zurich" is in "Zürich",
    "lodz" in "Łódź", "café" in "CAFE"; an accent written as a letter and a combining mark
    is an accent too: text pasted from a PDF or typed on a Mac)."""
    typed = plain_value(session, value)
    wanted = f"%{escape_like(typed)}%"
    plain = plain_sql(session, column).like(wanted, escape="\\")
    if on_server(session):
        return plain
    # SQLite: only a text holding characters other than ASCII (more bytes than characters)
    # is written plain, in Python; SQLite's LIKE ignores the case of ASCII letters itself
    not_ascii = func.length(cast(column, LargeBinary)) > func.length(column)
    if not typed.isascii():
        return and_(not_ascii, plain)
    return or_(column.like(wanted, escape="\\"), and_(not_ascii, plain))
