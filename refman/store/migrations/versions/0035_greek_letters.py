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

from typing import Any

from alembic import op
from sqlalchemy import Connection
from sqlalchemy.orm import Session

from refman.store.bulk import chunks
from refman.store.refold import TRIGGERED, flagged_papers, flagged_rows, refold_sqlite
from refman.store.search_terms import fold_0025, register_functions

revision: str = "0035"
down_revision: str | None = "0034"
branch_labels: str | None = None
depends_on: str | None = None


def _spelled(value: str) -> str:
    """``refman_fold`` since this revision (the function of this code, as it read then)."""
    from refman.common.greek import spell_greek

    return spell_greek(fold_0025(value))


def _changes(value: Any) -> bool:
    """True when the search reads a text otherwise since this revision (it holds a Greek
    letter)."""
    return bool(value) and not str(value).isascii() and _spelled(value) != fold_0025(value)


def _postgresql(conn: Connection, function: str) -> None:
    """PostgreSQL: the words function, and the words made again of the rows holding Greek
    letters (tags, notes and files' texts: generated columns, made again by an update of
    their row)."""
    from refman.store.search_pg import PgIndex

    conn.exec_driver_sql(function)
    for _, column, _, table in TRIGGERED:
        ids = flagged_rows(conn, table, column, _changes)
        for part in chunks(ids, 500):
            conn.exec_driver_sql(
                f"UPDATE {table} SET {column} = {column} WHERE id IN ({', '.join(map(str, part))})"
            )
    ids = flagged_papers(conn, _changes)
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
        refold_sqlite(conn, fold_0025, _spelled, _changes)
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
        refold_sqlite(conn, _spelled, fold_0025, _changes)
    finally:
        register_functions(conn.connection.driver_connection, fold_0025)  # type: ignore[arg-type]
