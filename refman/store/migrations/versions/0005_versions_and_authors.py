"""versions and who: every paper, note and tag carries a version that each change moves on
(a change based on an older version is refused instead of overwriting another person's),
and papers and notes record who added and who last changed them

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None

_VERSIONED = ("papers", "notes", "tags")
_ATTRIBUTED = ("papers", "notes")


def upgrade() -> None:
    """Apply this revision (new columns with constant defaults: no table is rewritten)."""
    for table in _VERSIONED:
        op.add_column(table, sa.Column("version", sa.Integer(), nullable=False, server_default="1"))
    for table in _ATTRIBUTED:
        op.add_column(table, sa.Column("created_by", sa.Text(), nullable=True))
        op.add_column(table, sa.Column("modified_by", sa.Text(), nullable=True))


def downgrade() -> None:
    """Revert this revision (SQLite drops a column in place since 3.35: no table is copied,
    and the search view over ``papers`` stays valid)."""
    for table in _ATTRIBUTED:
        op.execute(f"ALTER TABLE {table} DROP COLUMN modified_by")
        op.execute(f"ALTER TABLE {table} DROP COLUMN created_by")
    for table in _VERSIONED:
        op.execute(f"ALTER TABLE {table} DROP COLUMN version")
