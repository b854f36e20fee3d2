"""Greek letters are searched spelled out: "alpha" finds "α-synuclein", "kappaB" "NF-κB",
and "α" the ASCII spelling an older record gave ("alpha-synuclein")

Revision ID: 0035
Revises: 0034
Create Date: 2026-12-07

Titles are kept as the text their LaTeX prints since revision 0032 (``$\\alpha$`` as α), and
the search read α as a word of its own: a person typing "alpha", as in every title written
in ASCII, found nothing. The search indexes now read a Greek letter as its name
(:func:`refman.common.greek.spell_greek`), as PubMed does: the rows whose text holds one leave
each index as it read them before and enter as it reads them now (SQLite: through
``refman_fold``; the papers' index is made again whole when they are most of the library;
PostgreSQL: ``refman_words`` replaced, the words of those rows made again). The downgrade
indexes them as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from alembic import op
from sqlalchemy import Connection
from sqlalchemy.orm import Session

from refman.store.bulk import chunks
from refman.store.packed import readable
from refman.store.search_terms import fold_0025, register_functions

revision: str = "0035"
down_revision: str | None = "0034"
branch_labels: str | None = None
depends_on: str | None = None

Fold = Callable[[str], str]

_COLUMNS = "title, abstract, authors, venue, subjects"
#: The other indexes: (index, its column, its view, its table).
_TRIGGERED = (
    ("tags_fts", "name", "tag_search", "tags"),
    ("notes_fts", "text", "note_search", "notes"),
    ("file_texts_fts", "text", "file_text_search", "file_texts"),
)


def _spelled(value: str) -> str:
    """``refman_fold`` since this revision (the function of this code, as it read then)."""
    from refman.common.greek import spell_greek

    return spell_greek(fold_0025(value))


def _changes(value: Any) -> bool:
    """True when the search reads a text otherwise since this revision (it holds a Greek
    letter)."""
    return bool(value) and not str(value).isascii() and _spelled(value) != fold_0025(value)


def _batches(conn: Connection, table: str, columns: str) -> Iterator[Any]:
    """A table's rows (id first), read a few thousand at a time with no statement left open
    (SQLite refuses to give a connection new functions while one is)."""
    last = -1
    while True:
        rows = conn.exec_driver_sql(
            f"SELECT id, {columns} FROM {table} WHERE id > {last} ORDER BY id LIMIT 5000"
        ).all()
        if not rows:
            return
        yield from rows
        last = int(rows[-1][0])


def _greek_papers(conn: Connection) -> list[int]:
    """The papers whose searched text holds a Greek letter: title, venue, readable abstract,
    an author's or page owner's name."""
    found = {
        int(pid)
        for pid, title, venue, abstract in _batches(conn, "papers", "title, venue, abstract")
        if _changes(title) or _changes(venue) or _changes(readable(abstract))
    }
    for table in ("authorships", "attributions"):
        names = conn.exec_driver_sql(
            f"SELECT t.paper_id, pe.name FROM {table} t JOIN persons pe ON pe.id = t.person_id"
        ).all()
        found.update(int(pid) for pid, name in names if _changes(name))
    return sorted(found)


def _greek_rows(conn: Connection, table: str, column: str) -> list[int]:
    return [int(i) for i, value in _batches(conn, table, column) if _changes(value)]


def _out_and_in(
    conn: Connection, fts: str, columns: str, view: str, ids: list[int], fold: Fold, *, into: bool
) -> None:
    """These rows' words leave (``into`` False) or enter an index, read through ``fold``."""
    register_functions(conn.connection.driver_connection, fold)  # type: ignore[arg-type]
    target, values = (
        (f"{fts}(rowid, {columns})", f"id, {columns}")
        if into
        else (f"{fts}({fts}, rowid, {columns})", f"'delete', id, {columns}")
    )
    for part in chunks(ids, 500):
        conn.exec_driver_sql(
            f"INSERT INTO {target} SELECT {values} FROM {view} "
            f"WHERE id IN ({', '.join(map(str, part))})"
        )


def _sqlite(conn: Connection, before: Fold, after: Fold) -> None:
    """SQLite: the rows holding Greek letters leave each index as ``before`` reads them and
    enter as ``after`` reads them."""
    papers = _greek_papers(conn)
    total = int(conn.exec_driver_sql("SELECT count(*) FROM papers").scalar_one())
    others = [
        (fts, col, view, _greek_rows(conn, table, col)) for fts, col, view, table in _TRIGGERED
    ]
    for fts, col, view, ids in others:
        _out_and_in(conn, fts, col, view, ids, before, into=False)
        _out_and_in(conn, fts, col, view, ids, after, into=True)
    if len(papers) * 4 > total:  # most papers: the index made again whole (one pass, compact)
        register_functions(conn.connection.driver_connection, after)  # type: ignore[arg-type]
        conn.exec_driver_sql("INSERT INTO papers_fts(papers_fts) VALUES ('delete-all')")
        conn.exec_driver_sql(
            f"INSERT INTO papers_fts(rowid, {_COLUMNS}) SELECT id, {_COLUMNS} FROM paper_search"
        )
        return
    _out_and_in(conn, "papers_fts", _COLUMNS, "paper_search", papers, before, into=False)
    _out_and_in(conn, "papers_fts", _COLUMNS, "paper_search", papers, after, into=True)


def _postgresql(conn: Connection, function: str) -> None:
    """PostgreSQL: the words function, and the words made again of the rows holding Greek
    letters (tags, notes and files' texts: generated columns, made again by an update of
    their row)."""
    from refman.store.search_pg import PgIndex

    conn.exec_driver_sql(function)
    for _, column, _, table in _TRIGGERED:
        ids = _greek_rows(conn, table, column)
        for part in chunks(ids, 500):
            conn.exec_driver_sql(
                f"UPDATE {table} SET {column} = {column} WHERE id IN ({', '.join(map(str, part))})"
            )
    ids = _greek_papers(conn)
    with Session(bind=conn) as session:  # (in the migration's transaction)
        PgIndex().forget(session, ids)
        PgIndex().remember(session, ids)


def upgrade() -> None:
    """Apply this revision."""
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        from refman.store.search_pg import WORDS_FUNCTION

        _postgresql(conn, WORDS_FUNCTION)
        return
    try:
        _sqlite(conn, fold_0025, _spelled)
    finally:
        register_functions(conn.connection.driver_connection)  # type: ignore[arg-type]


def downgrade() -> None:
    """Revert this revision: the rows holding Greek letters indexed as before."""
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        from refman.store.search_pg import WORDS_FUNCTION_0025

        _postgresql(conn, WORDS_FUNCTION_0025)
        return
    try:
        _sqlite(conn, _spelled, fold_0025)
    finally:
        register_functions(conn.connection.driver_connection, fold_0025)  # type: ignore[arg-type]
