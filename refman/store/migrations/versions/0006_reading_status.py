"""reading: every paper has a reading status (unread, reading, read) and a rating of 0 to 5
stars, with an index for each to sort the list by

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision (new columns with constant defaults: no table is rewritten)."""
    op.add_column(
        "papers", sa.Column("status", sa.String(10), nullable=False, server_default="unread")
    )
    op.add_column(
        "papers", sa.Column("rating", sa.SmallInteger(), nullable=False, server_default="0")
    )
    op.create_index("ix_papers_status", "papers", ["trashed_at", "status"])
    op.create_index("ix_papers_rating", "papers", ["trashed_at", "rating"])


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_papers_rating", table_name="papers")
    op.drop_index("ix_papers_status", table_name="papers")
    op.execute("ALTER TABLE papers DROP COLUMN rating")
    op.execute("ALTER TABLE papers DROP COLUMN status")
