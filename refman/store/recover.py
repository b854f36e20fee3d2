"""Copying out of a damaged library what SQLite can still read.

:func:`recover_rows` reads each table of the damaged file row by row by row id (a damaged page
loses the rows on it, not the table), through an immutable read-only connection (nothing is
written to the damaged file), and writes what it read into a new library made by the
migrations. The search indexes and the blocking keys are made again from the rows; the
report says, table by table, how many rows were copied and how many could not be read.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from refman.store.id_marks import MARKED

#: The tables that hold the library's data, parents before children.
DATA_TABLES = (
    "persons",
    "subjects",
    "tags",
    "saved_searches",
    "papers",
    "paper_files",
    "file_texts",
    "import_batches",
    "authorships",
    "attributions",
    "distinct_people",
    "person_aliases",
    "paper_subjects",
    "paper_tags",
    "notes",
    "batch_papers",
    "merged_keys",
    "merged_children",
    "citekey_aliases",
    "merged_people",
    "merged_tags",
)
#: How far past the last readable row id a damaged table is still probed.
_PROBE = 10_000


@dataclass
class Recovery:
    """What a recovery copied: rows copied and rows lost, per table."""

    copied: dict[str, int] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """True when every row id that should hold a row was read."""
        return not any(self.lost.values())


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')]


def _last_id(src: sqlite3.Connection, table: str) -> int:
    try:
        found = src.execute(f'SELECT max(rowid) FROM "{table}"').fetchone()[0]
        return int(found or 0)
    except sqlite3.DatabaseError:
        return -1  # the table's index is damaged: probe row ids one by one


def _rows(
    src: sqlite3.Connection, table: str, names: list[str]
) -> tuple[list[tuple[object, ...]], int]:
    """The readable rows of a table, and how many row ids could not be read."""
    select = f'SELECT {", ".join(f"{chr(34)}{n}{chr(34)}" for n in names)} FROM "{table}"'
    try:
        return src.execute(select).fetchall(), 0
    except sqlite3.DatabaseError:
        pass  # read it row by row
    last = _last_id(src, table)
    rows: list[tuple[object, ...]] = []
    lost, rowid, misses = 0, 0, 0
    while (last >= 0 and rowid < last) or (last < 0 and misses < _PROBE):
        rowid += 1
        try:
            row = src.execute(f"{select} WHERE rowid = ?", (rowid,)).fetchone()
        except sqlite3.DatabaseError:
            lost += 1
            continue
        if row is None:
            misses += 1
            continue
        misses = 0
        rows.append(row)
    return rows, lost


def recover_rows(source: Path, dest: sqlite3.Connection) -> Recovery:
    """Copy the readable rows of the data tables of ``source`` into ``dest`` (a new, empty
    library at the newest schema, inside a transaction the caller commits)."""
    report = Recovery()
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        for table in DATA_TABLES:
            try:
                names = [n for n in _columns(src, table) if n in set(_columns(dest, table))]
            except sqlite3.DatabaseError:
                report.lost[table] = -1  # the table itself cannot be read
                continue
            if not names:
                continue
            rows, lost = _rows(src, table, names)
            marks = ", ".join("?" for _ in names)
            columns = ", ".join(f'"{n}"' for n in names)
            dest.executemany(f'INSERT OR IGNORE INTO "{table}" ({columns}) VALUES ({marks})', rows)
            report.copied[table] = len(rows)
            report.lost[table] = lost
        _carry_marks(src, dest)
    finally:
        src.close()
    return report


def _carry_marks(src: sqlite3.Connection, dest: sqlite3.Connection) -> None:
    """The new library never gives an id the damaged one gave (a row lost included): each
    table's mark is at least the damaged library's, and its highest row id, where readable."""
    for table in MARKED:
        highest = 0
        for sql in (
            f"SELECT last_id FROM id_marks WHERE name = '{table}'",
            f'SELECT max(rowid) FROM "{table}"',
        ):
            try:
                found = src.execute(sql).fetchone()
            except sqlite3.DatabaseError:
                continue
            highest = max(highest, int(found[0] or 0) if found else 0)
        dest.execute(
            "UPDATE id_marks SET last_id = max(last_id, ?) WHERE name = ?", (highest, table)
        )
