"""paper files: PDFs and other files attached to papers, stored or linked

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "paper_files",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "paper_id",
            sa.Integer(),
            sa.ForeignKey("papers.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("linked", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("size", sa.BigInteger(), nullable=False, server_default="0"),
        sa.Column("pages", sa.Integer(), nullable=True),
        sa.Column("added_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_paper_files_paper_id", "paper_files", ["paper_id"])


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_paper_files_paper_id", "paper_files")
    op.drop_table("paper_files")
