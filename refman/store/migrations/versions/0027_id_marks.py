"""Ids are never given twice: each table's high-water mark, set from the highest id the
library knows

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-08

Before this revision a new paper, person or subject took the highest id plus one, and so did
a new note, tag, file, import or saved search on a library file (SQLite's ``INTEGER PRIMARY
KEY``): once the newest papers were deleted for good (Empty Trash, an undone import's papers
purged), the next import gave their ids again, and an undo step, ``refman show 93`` or a
person's "#93" found another paper. Now every such table has a mark, the highest id it ever
gave (:mod:`refman.store.id_marks`): a library file's in the new table ``id_marks``, a
shared library's in the tables' sequences.

Each mark starts at the highest id the library still knows of its table: the rows
themselves, and what remembers the ids of rows gone — a paper merged into another and deleted
since (``merged_keys.merged_id``), the last import a person was looked at
(``persons.seen_import``), the notes, files, people, subjects and tags an import or an undone
import made (``import_batches.created``, ``purges.created``). The tables whose rows point to a
paper through a foreign key (the Trash, the papers being deleted, the imports' papers, other
citation keys) hold no id the papers do not. Ids given and forgotten before this revision
cannot be known. The downgrade drops ``id_marks`` (a shared library's sequences stay where they
are).
"""

from __future__ import annotations

import json
from typing import Any

from alembic import op
from sqlalchemy import Connection

from refman.store.backend import on_server
from refman.store.id_marks import create_marks, raise_marks

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | None = None
depends_on: str | None = None

#: Columns that remember ids of a marked table whose rows may be gone.
_REMEMBERED = {
    "papers": "SELECT max(merged_id) FROM merged_keys",
    "import_batches": "SELECT max(seen_import) FROM persons",
}
#: The kinds of ``created`` (an import's, an undone import's) and their tables.
_CREATED = {
    "notes": "notes",
    "files": "paper_files",
    "persons": "persons",
    "subjects": "subjects",
    "tags": "tags",
}


def _created_ids(created: str | None) -> dict[str, int]:
    """The highest id of each kind in a ``created`` object."""
    found: dict[str, int] = {}
    try:
        kinds: Any = json.loads(created or "{}")
    except ValueError:
        return found
    for kind, table in _CREATED.items():
        values = kinds.get(kind) if isinstance(kinds, dict) else None
        ids = [v for v in values or () if isinstance(v, int)]
        if ids:
            found[table] = max(ids)
    return found


def known_ids(bind: Connection) -> dict[str, int]:
    """The highest id of each marked table that the library remembers beside its rows."""
    found: dict[str, int] = {}
    for table, sql in _REMEMBERED.items():
        found[table] = int(bind.exec_driver_sql(sql).scalar() or 0)
    rows = bind.exec_driver_sql(
        "SELECT created FROM import_batches WHERE created != '{}' "
        "UNION ALL SELECT created FROM purges"
    )
    for (created,) in rows:
        for table, value in _created_ids(created).items():
            found[table] = max(found.get(table, 0), value)
    return found


def upgrade() -> None:
    """Apply this revision."""
    bind = op.get_bind()
    if not on_server(bind):
        create_marks(bind)
    raise_marks(bind, known_ids(bind))


def downgrade() -> None:
    """Revert this revision."""
    if not on_server(op.get_bind()):
        op.drop_table("id_marks")
