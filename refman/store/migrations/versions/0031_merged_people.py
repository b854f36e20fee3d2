"""a person merged into another leaves where they went (``merged_people``): ``refman person``
of their old id says so

Revision ID: 0031
Revises: 0030
Create Date: 2026-12-07

Before this revision a person merged into another was simply gone: ``refman person 12``
said there was no person #12. The merges made before it cannot be known.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0031"
down_revision: str | None = "0030"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "merged_people",
        sa.Column("merged_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("merged_id"),
    )


def downgrade() -> None:
    """Revert this revision: an older refman says a merged person's id names nobody."""
    op.drop_table("merged_people")
