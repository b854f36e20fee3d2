"""Fast inserts of many rows at once, straight through the DB-API ``executemany``.

SQLAlchemy's own executemany spends more time preparing parameters than SQLite spends
writing them; imports of tens of thousands of records go through here instead. Values are
stored exactly as SQLAlchemy would store them (date-times as ``YYYY-MM-DD HH:MM:SS.ffffff``),
so the ORM reads them back unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import lru_cache
from operator import itemgetter
from typing import Any, TypeVar

from sqlalchemy import DateTime, Integer, Select, Table, Text, TypeDecorator, cast, column, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import DeclarativeBase, Session
from sqlalchemy.sql.functions import FunctionElement
from sqlalchemy.sql.selectable import TableValuedAlias

from refman.common.parallel import split_map
from refman.common.sequences import SLICE, Distinct
from refman.store.backend import on_server
from refman.store.packed import PackedText, remember_packs

T = TypeVar("T")

#: Execution options of an ORM update or delete of many rows that no object in the session
#: holds (the services read rows as values): synchronizing would fetch every row changed.
UNSYNCHRONIZED: dict[str, Any] = {"synchronize_session": False}

#: The most values one SQL ``IN (...)`` carries.
CHUNK = 500


def chunks(items: Iterable[T], size: int = CHUNK) -> Iterator[list[T]]:
    """Split items into lists small enough for one SQL ``IN (...)``."""
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def id_set(ids: Collection[int]) -> Select[tuple[int]]:
    """A select of these ids, bound as one parameter (a JSON array that SQLite's
    ``json_each`` reads back).

    ``column.in_(id_set(ids))`` is one statement however many ids there are: 100,000 ids cost
    SQLite a few milliseconds, where 200 statements of 500 ``IN`` values each cost SQLAlchemy
    a second to compile.
    """
    values = id_values(ids)
    return select(cast(values.c.value, Integer))


def id_values(ids: Collection[int]) -> TableValuedAlias:
    """Ids as a table of one column, ``value`` (cast it to a number to compare), bound as
    one parameter like :func:`id_set`: for a join with a row per id."""
    return _JsonArray(id_json(ids)).table_valued("value")


def text_set(values: Collection[str]) -> TableValuedAlias:
    """Texts as a table of one text column, ``value``, bound as one parameter (a JSON array,
    as :func:`id_set` binds ids): for a join with a row per value."""
    return _JsonArray(json.dumps(list(values), ensure_ascii=False)).table_valued(
        column("value", Text)
    )


class _JsonArray(FunctionElement[Any]):
    """The values of a JSON array, one row each: ``json_each`` in SQLite,
    ``json_array_elements_text`` in PostgreSQL (both name their column ``value``)."""

    name = "json_each"
    inherit_cache = True


@compiles(_JsonArray)
def _json_array_sqlite(element: _JsonArray, compiler: Any, **kw: Any) -> str:
    return f"json_each({compiler.process(element.clauses, **kw)})"


@compiles(_JsonArray, "postgresql")
def _json_array_postgresql(element: _JsonArray, compiler: Any, **kw: Any) -> str:
    return f"json_array_elements_text(CAST({compiler.process(element.clauses, **kw)} AS json))"


def id_json(ids: Iterable[int]) -> str:
    """Ids as the JSON array that :func:`id_set` binds (for SQL text:
    ``id IN (SELECT value FROM json_each(:ids))``), in the order given, written a slice at a
    time: one ``json.dumps``, ``sorted`` or ``set`` of a million ids holds Python's lock for
    tens of milliseconds (see :mod:`refman.common.sequences`). Order and repeats do not
    matter to ``IN``; a statement that inserts one row per id sorts them in SQL. The text of
    :class:`~refman.common.sequences.Distinct` ids is written once and kept with them."""
    if isinstance(ids, Distinct):
        return ids.derived("json", _json_of)
    return _json_of(ids)


def _json_of(ids: Iterable[int]) -> str:
    listed = ids if isinstance(ids, Sequence) else list(ids)
    parts = (
        ",".join(map(str, map(int, listed[i : i + SLICE]))) for i in range(0, len(listed), SLICE)
    )
    return "[" + ",".join(parts) + "]"


@lru_cache(maxsize=64)
def _datetime_text(value: datetime) -> str:
    # Rows of one import share a few date-times: format each once.
    return value.strftime("%Y-%m-%d %H:%M:%S.%f")


def _converter(session: Session, table: Table, name: str) -> Callable[[Any], Any] | None:
    """How a value of a column is stored, when it is not stored as it is."""
    kind = table.c[name].type
    if isinstance(kind, TypeDecorator):
        dialect = session.get_bind().dialect
        return lambda value: kind.process_bind_param(value, dialect)
    if isinstance(kind, DateTime):
        return lambda value: _datetime_text(value) if isinstance(value, datetime) else value
    return None


def bulk_insert(
    session: Session, model: type[DeclarativeBase], rows: Sequence[dict[str, Any]]
) -> None:
    """Insert rows (dicts with the same keys) into a model's table in one executemany."""
    if not rows:
        return
    names = list(rows[0].keys())
    table = _table(model, names)
    # (itemgetter of one name gives the value, not a tuple of it)
    get: Callable[[dict[str, Any]], tuple[Any, ...]] = (
        itemgetter(*names) if len(names) > 1 else (lambda row: (row[names[0]],))
    )
    _insert(session, table, names, rows, get)


def insert_values(
    session: Session,
    model: type[DeclarativeBase],
    names: Sequence[str],
    rows: Sequence[tuple[Any, ...]],
) -> None:
    """Insert rows given as tuples of the ``names`` columns' values, as :func:`bulk_insert`
    does dicts (a tuple of a few numbers is cheaper to build and to hand to the driver
    than a dict with a key for each)."""
    if rows:
        _insert(session, _table(model, names), list(names), rows, None)


def _table(model: type[DeclarativeBase], names: Sequence[str]) -> Table:
    table = model.__table__
    assert isinstance(table, Table)
    unknown = [n for n in names if n not in table.c]
    if unknown:
        raise ValueError(f"{table.name} has no column {unknown[0]}")
    return table


def _insert(
    session: Session,
    table: Table,
    names: list[str],
    rows: Sequence[Any],
    get: Callable[[Any], tuple[Any, ...]] | None,
) -> None:
    columns = ", ".join(f'"{n}"' for n in names)
    params = _stored_rows(session, table, names, rows, get)
    if on_server(session):
        _copy_in(session, table, columns, params)
        return
    marks = ", ".join("?" for _ in names)
    with _indexes_built_after(session, table, len(params)):
        session.connection().exec_driver_sql(
            f'INSERT INTO "{table.name}" ({columns}) VALUES ({marks})', params
        )


#: The fewest rows a load must add for a library file's indexes of the table to be built
#: after it (see :func:`_indexes_built_after`).
BULK_LOAD = 5000


@contextmanager
def _indexes_built_after(session: Session, table: Table, adding: int) -> Iterator[None]:
    """Around a load of ``adding`` rows into a library file's table that holds no more rows
    than that: the table's own indexes are dropped before and created again after, each
    from the SQL the file stores for it. SQLite builds an index from sorted rows in a
    fraction of the time that putting each row into each index takes (50,000 papers into a
    new library, fourteen indexes: 1.48 → 0.73 s). Inside the load's transaction: a failure
    rolls the drop back with the rows. Not on a database server, where dropping an index
    would lock the table against everyone else's reads."""
    conn = session.connection()
    indexes: list[tuple[str, str]] = []
    if adding >= BULK_LOAD:
        indexes = [
            (name, sql)
            for name, sql in conn.exec_driver_sql(
                "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?"
                " AND sql IS NOT NULL ORDER BY name",
                (table.name,),
            )
        ]
    if indexes:
        held = conn.exec_driver_sql(
            f'SELECT count(*) FROM (SELECT 1 FROM "{table.name}" LIMIT ?)', (adding + 1,)
        ).scalar_one()
        if held > adding:
            indexes = []
    for name, _ in indexes:
        conn.exec_driver_sql(f'DROP INDEX "{name}"')
    yield
    for _, sql in indexes:
        conn.exec_driver_sql(sql)


def _copy_in(session: Session, table: Table, columns: str, rows: list[tuple[Any, ...]]) -> None:
    """Rows into a table of a database server with its bulk load (PostgreSQL's ``COPY``: ten
    times the speed of multi-row inserts), inside the session's transaction."""
    raw: Any = session.connection().connection.driver_connection
    with raw.cursor() as cursor, cursor.copy(f'COPY "{table.name}" ({columns}) FROM STDIN') as copy:
        for row in rows:
            copy.write_row(row)


def _stored_rows(
    session: Session,
    table: Table,
    names: list[str],
    rows: Sequence[Any],
    get: Callable[[Any], tuple[Any, ...]] | None,
) -> list[tuple[Any, ...]]:
    """The rows' values in ``names`` order, as the columns store them (``get`` takes them
    from a row; None: the rows are tuples of them)."""
    converters = [(i, c) for i, n in enumerate(names) if (c := _converter(session, table, n))]
    if not converters:
        return list(rows) if get is None else [get(row) for row in rows]
    values_of: Callable[[Any], tuple[Any, ...]] = tuple if get is None else get

    def stored(row: Any) -> tuple[Any, ...]:
        values = list(values_of(row))
        for i, convert in converters:
            values[i] = convert(values[i])
        return tuple(values)

    # Pure Python (abstracts compressed, date-times written as text): the second half of a
    # long list is converted on the other core.
    params = split_map(stored, rows)
    for i, _ in converters:
        if isinstance(table.c[names[i]].type, PackedText):
            remember_packs((values_of(r)[i] for r in rows), (p[i] for p in params))
    return params


def first_column(
    session: Session, statement: Select[Any] | str, params: Sequence[Any] = ()
) -> list[Any]:
    """The first column of every row of a query, fetched by the DB-API in one call.

    Reading 100,000 ids this way takes a few milliseconds; SQLAlchemy's row-by-row result
    takes twenty times as long.

    Args:
        session: The session whose connection runs the query.
        statement: A SQLAlchemy select (compiled here), or SQL text with ``?`` parameters.
        params: The parameters of SQL text.
    """
    return [row[0] for row in row_stream(session, statement, params)]


def raw_rows(
    session: Session, statement: Select[*tuple[Any, ...]] | str, params: Sequence[Any] = ()
) -> list[tuple[Any, ...]]:
    """Every row of a query as the DB-API gives it (values as stored: date-times are text,
    see :func:`datetime_reader`), fetched in one call; arguments as for :func:`first_column`."""
    return list(row_stream(session, statement, params))


def row_stream(
    session: Session, statement: Select[*tuple[Any, ...]] | str, params: Sequence[Any] = ()
) -> Iterator[tuple[Any, ...]]:
    """The rows of :func:`raw_rows` one at a time, for a caller that keeps less than a row
    per row (a hundred thousand rows held at once are a tuple each: 6 MB)."""
    if not isinstance(statement, str):
        compiled = statement.compile(
            session.get_bind(), compile_kwargs={"render_postcompile": True}
        )
        values = compiled.construct_params()
        if compiled.positiontup is None:  # a driver with named parameters (psycopg)
            return (tuple(r) for r in session.connection().exec_driver_sql(str(compiled), values))
        statement, params = str(compiled), [values[n] for n in compiled.positiontup or []]
    raw = session.connection().connection.driver_connection
    assert raw is not None
    rows: Iterator[tuple[Any, ...]] = raw.execute(statement, tuple(params))
    return rows


def run_many(session: Session, sql: str, rows: Sequence[Sequence[Any]]) -> None:
    """Run one statement of ``?`` parameters over many rows, in one executemany."""
    if session.get_bind().dialect.paramstyle != "qmark":
        sql = sql.replace("?", "%s")
    session.connection().exec_driver_sql(sql, [tuple(r) for r in rows])


def datetime_reader(session: Session) -> Callable[[Any], datetime | None]:
    """How a date-time read by :func:`raw_rows` becomes a ``datetime``, as SQLAlchemy reads it."""
    dialect = session.get_bind().dialect
    process = dialect.type_descriptor(DateTime()).result_processor(dialect, None)
    return process if process is not None else (lambda value: value)
