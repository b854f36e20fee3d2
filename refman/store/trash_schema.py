"""The Trash's own table, kept by the database: one row per paper whose ``trashed_at`` is
set (:class:`refman.store.models_upkeep.TrashedPaper`), and per paper an undone import
withdrew (:mod:`refman.core.importing.purge`).

``papers.trashed_at`` stays the truth; the lists filter on this narrow table instead, so the
papers' sort indexes need not begin with the time, and moving papers to the Trash and back
touches no index of the papers (at a million papers, 100,000 papers took 3.9 s to trash when
eight indexes began with it). Triggers keep the table in step with every write of the papers,
however it is made (the service, an upgrade, a copy, another program). Migration 0012
creates them from these definitions; :func:`repair_trash` creates again what a library lacks.
"""

from __future__ import annotations

from typing import Any

#: The table (both databases). Its key is SQLite's rowid: a test of a paper is one lookup.
TABLE = (
    "CREATE TABLE trash (paper_id INTEGER NOT NULL, PRIMARY KEY (paper_id), "
    "FOREIGN KEY (paper_id) REFERENCES papers (id) ON DELETE CASCADE)"
)

#: SQLite's triggers, by name. A paper deleted for good leaves through the foreign key.
SQLITE_TRIGGERS = {
    "trash_ai": "CREATE TRIGGER trash_ai AFTER INSERT ON papers "
    "WHEN new.trashed_at IS NOT NULL "
    "BEGIN INSERT OR IGNORE INTO trash(paper_id) VALUES (new.id); END",
    "trash_in": "CREATE TRIGGER trash_in AFTER UPDATE OF trashed_at ON papers "
    "WHEN old.trashed_at IS NULL AND new.trashed_at IS NOT NULL "
    "BEGIN INSERT OR IGNORE INTO trash(paper_id) VALUES (new.id); END",
    "trash_out": "CREATE TRIGGER trash_out AFTER UPDATE OF trashed_at ON papers "
    "WHEN old.trashed_at IS NOT NULL AND new.trashed_at IS NULL "
    "BEGIN DELETE FROM trash WHERE paper_id = old.id; END",
}

#: PostgreSQL's functions and triggers (the same rules; a function per direction).
POSTGRES_STATEMENTS = (
    "CREATE FUNCTION refman_trash_in() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "INSERT INTO trash(paper_id) VALUES (NEW.id) ON CONFLICT DO NOTHING; RETURN NULL; END $$",
    "CREATE FUNCTION refman_trash_out() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "DELETE FROM trash WHERE paper_id = OLD.id; RETURN NULL; END $$",
    "CREATE TRIGGER trash_ai AFTER INSERT ON papers FOR EACH ROW "
    "WHEN (NEW.trashed_at IS NOT NULL) EXECUTE FUNCTION refman_trash_in()",
    "CREATE TRIGGER trash_in AFTER UPDATE OF trashed_at ON papers FOR EACH ROW "
    "WHEN (OLD.trashed_at IS NULL AND NEW.trashed_at IS NOT NULL) "
    "EXECUTE FUNCTION refman_trash_in()",
    "CREATE TRIGGER trash_out AFTER UPDATE OF trashed_at ON papers FOR EACH ROW "
    "WHEN (OLD.trashed_at IS NOT NULL AND NEW.trashed_at IS NULL) "
    "EXECUTE FUNCTION refman_trash_out()",
)
POSTGRES_DROP = (
    "DROP TRIGGER IF EXISTS trash_ai ON papers",
    "DROP TRIGGER IF EXISTS trash_in ON papers",
    "DROP TRIGGER IF EXISTS trash_out ON papers",
    "DROP FUNCTION IF EXISTS refman_trash_in()",
    "DROP FUNCTION IF EXISTS refman_trash_out()",
)

#: Fill the table from the papers (a new table, or one made whole again).
FILL = (
    "INSERT INTO trash(paper_id) SELECT id FROM papers WHERE trashed_at IS NOT NULL "
    "AND id NOT IN (SELECT paper_id FROM trash)"
)
#: Take out rows of papers no longer in the Trash (nor withdrawn by an undone import).
PRUNE = (
    "DELETE FROM trash WHERE paper_id NOT IN (SELECT id FROM papers WHERE trashed_at IS NOT NULL) "
    "AND paper_id NOT IN (SELECT paper_id FROM purging)"
)


def create_triggers(conn: Any, dialect: str) -> None:
    """Create the triggers on a connection (inside the caller's transaction)."""
    statements = POSTGRES_STATEMENTS if dialect == "postgresql" else SQLITE_TRIGGERS.values()
    for statement in statements:
        conn.exec_driver_sql(statement)


def drop_triggers(conn: Any, dialect: str) -> None:
    """Drop the triggers (and PostgreSQL's functions)."""
    if dialect == "postgresql":
        statements: Any = POSTGRES_DROP
    else:
        statements = [f"DROP TRIGGER IF EXISTS {name}" for name in SQLITE_TRIGGERS]
    for statement in statements:
        conn.exec_driver_sql(statement)


def trash_is_whole(conn: Any) -> bool:
    """True when a library file has every trigger of the Trash (a read of the schema)."""
    found = {row[0] for row in conn.exec_driver_sql("SELECT name FROM sqlite_master")}
    return all(name in found for name in ("trash", *SQLITE_TRIGGERS))


def repair_trash(conn: Any) -> bool:
    """Create again the Trash's triggers a library file lacks, and put the table in step
    with the papers. Returns True when something was missing.

    Args:
        conn: A SQLAlchemy connection inside a write transaction.
    """
    if trash_is_whole(conn):
        return False
    conn.exec_driver_sql(TABLE.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"))
    drop_triggers(conn, "sqlite")
    create_triggers(conn, "sqlite")
    conn.exec_driver_sql(PRUNE)
    conn.exec_driver_sql(FILL)
    return True
