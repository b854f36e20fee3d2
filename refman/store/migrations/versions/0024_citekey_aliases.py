"""a paper keeps the citation keys of the entries merged into it (``citekey_aliases``)

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "citekey_aliases",
        sa.Column("folded", sa.Text(), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column(
            "paper_id",
            sa.Integer(),
            sa.ForeignKey("papers.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("folded"),
    )
    op.create_index("ix_citekey_aliases_paper_id", "citekey_aliases", ["paper_id"])


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_citekey_aliases_paper_id", "citekey_aliases")
    op.drop_table("citekey_aliases")
