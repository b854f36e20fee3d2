"""a paper merged into another one is found as that one by its exact keys, also once it is
deleted for good (``merged_keys``)

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "merged_keys",
        sa.Column("merged_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("key", sa.BigInteger(), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column(
            "paper_id",
            sa.Integer(),
            sa.ForeignKey("papers.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("merged_id", "kind"),
    )
    op.create_index("ix_merged_keys_key", "merged_keys", ["key"])
    op.create_index("ix_merged_keys_paper_id", "merged_keys", ["paper_id"])


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_merged_keys_paper_id", "merged_keys")
    op.drop_index("ix_merged_keys_key", "merged_keys")
    op.drop_table("merged_keys")
