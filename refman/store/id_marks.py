"""Ids never given twice: a paper, note, person, subject, tag, file, import or saved search
deleted for good leaves its id unused for the rest of the library's life.

Undo steps (in any window on the library), the command line (``refman show 93``), the
records of imports (the notes, files and people an import made) and what a person read
("#93") name rows by id: an id given again would send them to another row. SQLite gives an
``INTEGER PRIMARY KEY`` the highest id plus one, and refman numbered papers, people and
subjects that way itself, so the ids of the newest rows deleted came back. Instead each of
these tables has a high-water mark, the highest id it ever gave, moved past new ids in the
transaction that inserts them:

* on a library file, the rows of ``id_marks`` (its changes take turns: the file's write
  lock);
* on a shared library, the tables' own sequences (``papers_id_seq``…): ``nextval`` never
  waits for another change and never goes back (a change rolled back leaves a gap).

A row an ORM session adds without an id takes one when it is flushed (:func:`ids_from_marks`);
inserts of many rows at once ask :func:`new_ids`. An import numbers its new papers as it goes
(:func:`last_id`, then :func:`reach`: imports take turns). Rows put back by an undo or a redo
keep their ids: nobody else can have received them. Schema revision 0027 set the marks from
the highest ids the library knew; a copy of a library takes its marks along (:func:`marks`,
:func:`raise_marks`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, event, inspect
from sqlalchemy.orm import Session, sessionmaker

from refman.store.backend import on_server

#: The tables whose ids are never given twice.
MARKED = (
    "papers",
    "notes",
    "persons",
    "subjects",
    "tags",
    "paper_files",
    "import_batches",
    "saved_searches",
    "purges",
)

#: A library file's marks (a shared library's are its sequences).
TABLE = (
    "CREATE TABLE id_marks (name TEXT NOT NULL PRIMARY KEY, last_id INTEGER NOT NULL) WITHOUT ROWID"
)


def _marked(table: str) -> str:
    if table not in MARKED:
        raise ValueError(f"{table} has no id mark")
    return table


def _file_mark(table: str) -> str:
    """A file's mark, never below the table's highest id (however that row came in)."""
    return (
        f"max((SELECT last_id FROM id_marks WHERE name = '{table}'), "
        f"(SELECT coalesce(max(id), 0) FROM {table}))"
    )


def _server_mark(table: str) -> str:
    """A shared library's mark: its sequence's last value, never below the highest id."""
    return (
        f"greatest((SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END "
        f"FROM {table}_id_seq), (SELECT coalesce(max(id), 0) FROM {table}))"
    )


def last_id(conn: Session | Connection, table: str) -> int:
    """The highest id ``table`` ever gave (0 when none)."""
    bind = conn.connection() if isinstance(conn, Session) else conn
    table = _marked(table)
    mark = _server_mark(table) if on_server(bind) else _file_mark(table)
    return int(bind.exec_driver_sql(f"SELECT {mark}").scalar() or 0)


def reach(session: Session, table: str, last: int) -> None:
    """Count the ids up to ``last`` as given (the mark moves up to it, never down). Only for
    ids numbered under a lock that keeps other changes from taking ids of ``table`` (an
    import's papers: :func:`~refman.store.connection.lock_imports`)."""
    if last > last_id(session, table):
        _set(session.connection(), table, last)


def new_ids(session: Session, table: str, count: int) -> list[int]:
    """``count`` ids ``table`` never gave, in ascending order, counted as given in this
    change (on a shared library at once: a change rolled back leaves them unused)."""
    if count <= 0:
        return []
    conn = session.connection()
    table = _marked(table)
    if on_server(conn):
        rows = conn.exec_driver_sql(
            f"SELECT nextval('{table}_id_seq') FROM generate_series(1, {int(count)})"
        )
        return sorted(int(i) for (i,) in rows)
    first = last_id(conn, table) + 1
    _set(conn, table, first + count - 1)
    return list(range(first, first + count))


def _set(conn: Connection, table: str, last: int) -> None:
    if on_server(conn):
        if last > 0:
            conn.exec_driver_sql(f"SELECT setval('{table}_id_seq', {int(last)})")
        return
    conn.exec_driver_sql("UPDATE id_marks SET last_id = ? WHERE name = ?", (int(last), table))


def marks(conn: Session | Connection) -> dict[str, int]:
    """Every table's mark (of a library file from before the marks, opened only to be read:
    its tables' highest ids)."""
    bind = conn.connection() if isinstance(conn, Session) else conn
    kept = (
        on_server(bind)
        or bind.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE name = 'id_marks'").first()
    )
    if kept:
        return {table: last_id(bind, table) for table in MARKED}
    return {
        table: int(bind.exec_driver_sql(f"SELECT coalesce(max(id), 0) FROM {table}").scalar() or 0)
        for table in MARKED
    }


def raise_marks(conn: Connection, highest: Mapping[str, int]) -> None:
    """Move marks up to at least these ids (each also past its table's highest id): a copy
    of a library, an upgrade that found ids the library had given."""
    for table in MARKED:
        mark = max(last_id(conn, table), int(highest.get(table, 0)))
        _set(conn, table, mark)


def create_marks(conn: Connection) -> None:
    """A library file's table of marks, each at its table's highest id."""
    conn.exec_driver_sql(TABLE)
    for table in MARKED:
        conn.exec_driver_sql(
            f"INSERT INTO id_marks SELECT '{table}', coalesce(max(id), 0) FROM {table}"
        )


def _give_ids(session: Session, _context: Any, _instances: Any) -> None:
    """Before a flush: the new rows of marked tables without an id take new ones (a block
    per table, in the order they were added)."""
    waiting: dict[str, list[Any]] = {}
    for obj in sorted(session.new, key=lambda o: inspect(o).insert_order):
        table = inspect(obj).mapper.local_table.name
        if table in MARKED and getattr(obj, "id", None) is None:
            waiting.setdefault(table, []).append(obj)
    for table, objs in waiting.items():
        for obj, new_id in zip(objs, new_ids(session, table, len(objs)), strict=True):
            obj.id = new_id


def ids_from_marks(sessions: sessionmaker[Session]) -> None:
    """Let these sessions' new rows take their ids from the marks."""
    event.listen(sessions, "before_flush", _give_ids)
