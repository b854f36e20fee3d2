"""snapshots: derived data kept with the library (the navigation pane's counts), each valid
at one revision of the library

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision (a new, empty table: instant on any library)."""
    op.create_table(
        "snapshots",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("revision", sa.BigInteger(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_table("snapshots")
