"""Papers sort by their first author in plain letters: Østergaard and Émile among the O's and
E's, not after Z

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07

Before this revision a paper's author sort key (``papers.sort_author``) was its first
author's name case folded only, so that a name starting with a letter outside ASCII (Ø, Ł,
É, Ü) sorted after every name starting with Z, while the search reads those letters as o,
l, e, u. The key is now in plain letters (:func:`~refman.common.text.sort_name`); the
papers whose key holds a letter outside ASCII are given it. The downgrade leaves the keys
as they are (an older refman sorts them by them, in the same order).
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import text

from refman.common.text import plain_letters
from refman.store.bulk import chunks

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | None = None
depends_on: str | None = None

#: A sort key holding a character outside printable ASCII, as each backend asks it.
_OUTSIDE_ASCII = {
    "sqlite": "sort_author GLOB '*[^ -~]*'",
    "postgresql": "sort_author ~ '[^ -~]'",
}


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        text(f"SELECT id, sort_author FROM papers WHERE {_OUTSIDE_ASCII[conn.dialect.name]}")
    ).all()
    changed = [
        {"id": int(pid), "sort": plain}
        for pid, key in rows
        if (plain := plain_letters(str(key))) != key
    ]
    for part in chunks(changed, 5000):
        conn.execute(text("UPDATE papers SET sort_author = :sort WHERE id = :id"), part)


def downgrade() -> None:
    pass
