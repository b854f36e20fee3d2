"""a paper whose page gave no authors is found by its page owner's name (the name the list
shows in its place): the owners' names stand for its authors in the search index

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-07

Only the papers with no author and a page owner have words that change: on SQLite their words
leave the index through the view before (:data:`~refman.store.search_schema.
PAPER_SEARCH_VIEW_0019`) and enter through the new one — or, when they are more than a
quarter of the library, the index is made again whole from the new view (one pass, and a
compact index: 100,000 papers of author pages with no authors, 4 s); on PostgreSQL their
words are made again.
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Connection
from sqlalchemy.orm import Session

from refman.common.text import index_form
from refman.store.bulk import chunks
from refman.store.search_schema import PAPER_SEARCH_VIEW_0019, SEARCH_VIEWS
from refman.store.search_terms import register_functions

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | None = None
depends_on: str | None = None

_COLUMNS = "title, abstract, authors, venue, subjects"


def _owned_without_authors(conn: Connection) -> list[int]:
    rows = conn.exec_driver_sql(
        "SELECT DISTINCT t.paper_id FROM attributions t WHERE NOT EXISTS "
        "(SELECT 1 FROM authorships a WHERE a.paper_id = t.paper_id)"
    )
    return sorted(int(pid) for (pid,) in rows)


def _swap(conn: Connection, view: str) -> None:
    """Make ``view`` the papers' search view, the words of the papers it reads differently
    leaving the index through the view before and entering through the new one."""
    ids = _owned_without_authors(conn)
    if conn.dialect.name == "postgresql":
        from refman.store.search_pg import PgIndex  # (its words: the document of this code)

        with Session(bind=conn) as session:  # (in the migration's transaction)
            PgIndex().forget(session, ids)
            PgIndex().remember(session, ids)
        return
    register_functions(conn.connection.driver_connection, index_form)  # type: ignore[arg-type]
    papers = int(conn.exec_driver_sql("SELECT count(*) FROM papers").scalar_one())
    if len(ids) * 4 > papers:  # most papers: the index made again whole, compact
        conn.exec_driver_sql("INSERT INTO papers_fts(papers_fts) VALUES ('delete-all')")
        conn.exec_driver_sql("DROP VIEW paper_search")
        conn.exec_driver_sql(view)
        conn.exec_driver_sql(
            f"INSERT INTO papers_fts(rowid, {_COLUMNS}) SELECT id, {_COLUMNS} FROM paper_search"
        )
        return
    parts = [", ".join(map(str, part)) for part in chunks(ids, 500)]
    for part in parts:
        conn.exec_driver_sql(
            f"INSERT INTO papers_fts(papers_fts, rowid, {_COLUMNS}) "
            f"SELECT 'delete', id, {_COLUMNS} FROM paper_search WHERE id IN ({part})"
        )
    conn.exec_driver_sql("DROP VIEW paper_search")
    conn.exec_driver_sql(view)
    for part in parts:
        conn.exec_driver_sql(
            f"INSERT INTO papers_fts(rowid, {_COLUMNS}) "
            f"SELECT id, {_COLUMNS} FROM paper_search WHERE id IN ({part})"
        )


def upgrade() -> None:
    """Apply this revision."""
    _swap(op.get_bind(), SEARCH_VIEWS["paper_search"])


def downgrade() -> None:
    """Revert this revision (on PostgreSQL the words follow the code that runs: nothing)."""
    conn = op.get_bind()
    if conn.dialect.name != "postgresql":
        _swap(conn, PAPER_SEARCH_VIEW_0019)
