"""a tag merged into another leaves where it went (``merged_tags``): a window filtered by it
follows it there

Revision ID: 0037
Revises: 0036
Create Date: 2026-12-08

Before this revision a tag renamed onto another one (merged) was simply gone: a window whose
list was filtered by it (another member's, another window) dropped the filter and listed every
paper, and ``refman list --tag`` of its name said only that there is no such tag. The merges
made before it cannot be known.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0037"
down_revision: str | None = "0036"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "merged_tags",
        sa.Column("merged_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("tag_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("merged_id"),
    )


def downgrade() -> None:
    """Revert this revision: an older refman forgets where merged tags went."""
    op.drop_table("merged_tags")
