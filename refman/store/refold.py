"""A schema revision that changes how SQLite's search reads text (``refman_fold``) indexes
again only the rows it reads otherwise: they leave each full-text index as the fold before
it read them and enter as the fold after it reads them (the papers' index is made again
whole when they are most of the library). Used by revisions 0025 (Chinese, Japanese and
Korean letters apart) and 0035 (Greek letters spelled out).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from sqlalchemy import Connection

from refman.store.bulk import chunks
from refman.store.packed import readable
from refman.store.search_terms import register_functions

__all__ = ["COLUMNS", "TRIGGERED", "Fold", "flagged_papers", "flagged_rows", "refold_sqlite"]

#: A fold: how the search reads a text (``refman_fold``) as of some revision.
Fold = Callable[[str], str]
#: Whether the two folds read a stored value otherwise.
Flag = Callable[[Any], bool]

#: The papers' index's columns.
COLUMNS = "title, abstract, authors, venue, subjects"
#: The other indexes: (index, its column, its view, its table).
TRIGGERED = (
    ("tags_fts", "name", "tag_search", "tags"),
    ("notes_fts", "text", "note_search", "notes"),
    ("file_texts_fts", "text", "file_text_search", "file_texts"),
)


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


def flagged_papers(conn: Connection, flag: Flag) -> list[int]:
    """The papers whose searched text ``flag`` marks: title, venue, readable abstract, an
    author's or page owner's name."""
    found = {
        int(pid)
        for pid, title, venue, abstract in _batches(conn, "papers", "title, venue, abstract")
        if flag(title) or flag(venue) or flag(readable(abstract))
    }
    for table in ("authorships", "attributions"):
        names = conn.exec_driver_sql(
            f"SELECT t.paper_id, pe.name FROM {table} t JOIN persons pe ON pe.id = t.person_id"
        ).all()
        found.update(int(pid) for pid, name in names if flag(name))
    return sorted(found)


def flagged_rows(conn: Connection, table: str, column: str, flag: Flag) -> list[int]:
    """The rows of a table whose ``column`` ``flag`` marks."""
    return [int(i) for i, value in _batches(conn, table, column) if flag(value)]


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


def refold_sqlite(
    conn: Connection,
    before: Fold,
    after: Fold,
    flag: Flag,
    change: Callable[[], None] = lambda: None,
) -> None:
    """The rows ``flag`` marks leave each index as ``before`` reads them, ``change`` is made
    (the rows it changes are among them), and they enter as ``after`` reads them. The
    connection keeps ``after`` as its fold."""
    papers = flagged_papers(conn, flag)
    total = int(conn.exec_driver_sql("SELECT count(*) FROM papers").scalar_one())
    whole = len(papers) * 4 > total
    others = [
        (fts, col, view, flagged_rows(conn, table, col, flag))
        for fts, col, view, table in TRIGGERED
    ]
    if not whole:
        _out_and_in(conn, "papers_fts", COLUMNS, "paper_search", papers, before, into=False)
    for fts, col, view, ids in others:
        _out_and_in(conn, fts, col, view, ids, before, into=False)
    change()
    if whole:  # most papers: the index made again whole (one pass, and compact)
        register_functions(conn.connection.driver_connection, after)  # type: ignore[arg-type]
        # ('delete-all' and every row again: an FTS5 'rebuild' leaves a statement that keeps
        # SQLite from giving the connection its function again)
        conn.exec_driver_sql("INSERT INTO papers_fts(papers_fts) VALUES ('delete-all')")
        conn.exec_driver_sql(
            f"INSERT INTO papers_fts(rowid, {COLUMNS}) SELECT id, {COLUMNS} FROM paper_search"
        )
    else:
        _out_and_in(conn, "papers_fts", COLUMNS, "paper_search", papers, after, into=True)
    for fts, col, view, ids in others:
        _out_and_in(conn, fts, col, view, ids, after, into=True)
