"""search reads ligatures and full-width letters as the plain letters they stand for ("ﬁ"
as "fi", "Ｔｏｋｙｏ" as "Tokyo": text copied from a PDF is found by the words typed)

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-07

SQLite's search indexes read their words through views that fold the text with
``refman_fold`` (:func:`refman.common.text.index_form`, NFKC since this revision). Only the
rows whose text NFKC changes have words that change: their words leave each index as the
function read them before and enter as it reads them now. PostgreSQL's ``refman_words``
already read text through NFKD: nothing changes there.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from alembic import op
from sqlalchemy import Connection

from refman.common.text import fold_letters, index_form
from refman.store.bulk import chunks
from refman.store.packed import readable
from refman.store.search_terms import register_functions

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | None = None
depends_on: str | None = None

#: A way ``refman_fold`` reads a text.
Fold = Callable[[str | None], str | None]

#: Each index: its table, its columns, the view it reads, and the rows' texts to look at.
_INDEXES = (
    (
        "papers_fts",
        "title, abstract, authors, venue, subjects",
        "paper_search",
        "SELECT id, title, venue, abstract FROM papers",
    ),
    ("tags_fts", "name", "tag_search", "SELECT id, name FROM tags"),
    ("notes_fts", "text", "note_search", "SELECT id, text FROM notes"),
    ("file_texts_fts", "text", "file_text_search", "SELECT id, text FROM file_texts"),
)


def _changes(text: str | None) -> bool:
    return bool(text) and not unicodedata.is_normalized("NFKC", text or "")


def _changing(conn: Connection, rows_sql: str, papers: bool) -> list[int]:
    """The rows whose indexed text NFKC changes (for papers: title, venue, readable abstract
    or an author's name)."""
    found: set[int] = set()
    for row in conn.exec_driver_sql(rows_sql, execution_options={"stream_results": True}):
        texts = [*row[1:-1], readable(row[-1]) if row[-1] else ""] if papers else row[1:]
        if any(_changes(t) for t in texts):
            found.add(int(row[0]))
    if papers:
        names = conn.exec_driver_sql(
            "SELECT a.paper_id, pe.name FROM authorships a JOIN persons pe ON pe.id = a.person_id"
        )
        found.update(int(pid) for pid, name in names if _changes(name))
    return sorted(found)


def _old_fold(text: str | None) -> str | None:
    """``refman_fold`` before this revision: the letters of their own folded, no NFKC."""
    return None if text is None else fold_letters(text)


def _new_fold(text: str | None) -> str | None:
    """``refman_fold`` since this revision."""
    return None if text is None else index_form(text)


def _reindex(conn: Connection, before: Fold, after: Fold) -> None:
    """The rows whose words NFKC changes leave each index as ``before`` folds their text
    and enter it as ``after`` does (SQLite's functions are then the library's own again)."""
    driver: Any = conn.connection.driver_connection
    register_functions(driver, before)  # (the views' other functions: an engine may lack them)
    try:
        for fts, columns, view, rows_sql in _INDEXES:
            ids = _changing(conn, rows_sql, papers=fts == "papers_fts")
            for fold, into, values in (
                (before, f"{fts}({fts}, rowid, {columns})", f"'delete', id, {columns}"),
                (after, f"{fts}(rowid, {columns})", f"id, {columns}"),
            ):
                driver.create_function("refman_fold", 1, fold, deterministic=True)
                for part in chunks(ids, 500):
                    conn.exec_driver_sql(
                        f"INSERT INTO {into} SELECT {values} FROM {view} "
                        f"WHERE id IN ({', '.join(map(str, part))})"
                    )
    finally:
        register_functions(driver, after)  # (as the index reads text from now on)


def upgrade() -> None:
    """Apply this revision (SQLite: the rows whose words change, indexed again)."""
    conn = op.get_bind()
    if conn.dialect.name != "postgresql":
        _reindex(conn, _old_fold, _new_fold)


def downgrade() -> None:
    """Revert this revision: those rows indexed as they were read before."""
    conn = op.get_bind()
    if conn.dialect.name != "postgresql":
        _reindex(conn, _new_fold, _old_fold)
