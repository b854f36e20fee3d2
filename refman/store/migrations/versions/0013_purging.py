"""an undone import's papers wait out of sight to be deleted a few thousand at a time: the
undo itself takes a second, however large the import

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "purging",
        sa.Column(
            "paper_id",
            sa.Integer(),
            sa.ForeignKey("papers.id", ondelete="CASCADE"),
            primary_key=True,
            autoincrement=False,
        ),
    )
    op.create_table(
        "purges",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("created", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    """Revert this revision: papers still waiting go to the Trash of the older schema, for
    Empty Trash to delete."""
    op.execute(
        "UPDATE papers SET trashed_at = CURRENT_TIMESTAMP "
        "WHERE trashed_at IS NULL AND id IN (SELECT paper_id FROM purging)"
    )
    op.drop_table("purges")
    op.drop_table("purging")
