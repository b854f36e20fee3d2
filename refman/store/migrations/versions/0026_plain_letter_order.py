"""Papers sort by first author, title and venue in plain letters: Østergaard, Étude and Über
among the O's, E's and U's, not after Z

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07

Before this revision a paper's author sort key (``papers.sort_author``) was its first
author's name case folded only, and the list sorted titles and venues by SQL's ``lower()``,
which in SQLite folds ASCII letters only: a name, title or venue starting with a letter
outside ASCII (Ø, Ł, É, Ü) sorted after everything starting with Z, while the search reads
those letters as o, l, e, u. The author key is now in plain letters
(:func:`~refman.common.text.sort_name`), and the few titles and venues whose lowercase is not
their plain letters keep those in ``title_order`` and ``venue_order`` (NULL for the others:
:func:`~refman.common.text.sort_form`); the two sort indexes are on ``coalesce(title_order,
lower(title))`` and ``coalesce(venue_order, lower(venue))``, the list's order. Only the rows
holding a character outside ASCII are read and written.

The downgrade drops the two columns and indexes the titles and venues as before; the author
keys stay in plain letters (an older refman sorts by them as they are).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy import Connection, text

from refman.common.text import plain_letters, sort_form
from refman.store.bulk import chunks

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | None = None
depends_on: str | None = None

#: A column holding a character outside printable ASCII, as each backend asks it.
_OUTSIDE_ASCII = {"sqlite": "{} GLOB '*[^ -~]*'", "postgresql": "{} ~ '[^ -~]'"}


def _rows_outside_ascii(conn: Connection, column: str) -> list[tuple[int, str]]:
    where = _OUTSIDE_ASCII[conn.dialect.name].format(column)
    found = conn.execute(text(f"SELECT id, {column} FROM papers WHERE {where}"))
    return [(int(pid), str(value)) for pid, value in found]


def _set(conn: Connection, column: str, values: list[dict[str, object]]) -> None:
    for part in chunks(values, 5000):
        conn.execute(text(f"UPDATE papers SET {column} = :value WHERE id = :id"), part)


def upgrade() -> None:
    conn = op.get_bind()
    authors = _rows_outside_ascii(conn, "sort_author")
    _set(
        conn,
        "sort_author",
        [
            {"id": pid, "value": plain_letters(key)}
            for pid, key in authors
            if plain_letters(key) != key
        ],
    )
    op.drop_index("ix_papers_sort_title", "papers")
    op.drop_index("ix_papers_venue", "papers")
    for column, order in (("title", "title_order"), ("venue", "venue_order")):
        op.add_column("papers", sa.Column(order, sa.Text(), nullable=True))
        rows = _rows_outside_ascii(conn, column)
        _set(
            conn,
            order,
            [{"id": pid, "value": form} for pid, value in rows if (form := sort_form(value))],
        )
    op.create_index(
        "ix_papers_sort_title", "papers", [sa.text("coalesce(title_order, lower(title))")]
    )
    op.create_index("ix_papers_venue", "papers", [sa.text("coalesce(venue_order, lower(venue))")])


def downgrade() -> None:
    op.drop_index("ix_papers_sort_title", "papers")
    op.drop_index("ix_papers_venue", "papers")
    op.drop_column("papers", "title_order")
    op.drop_column("papers", "venue_order")
    op.create_index("ix_papers_sort_title", "papers", [sa.text("lower(title)")])
    op.create_index("ix_papers_venue", "papers", [sa.text("lower(venue)")])
