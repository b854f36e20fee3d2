"""a merge remembers the notes and files it moved (``merged_children``): the merged paper
restored from the Trash takes them back

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-09

Before this revision a merged paper restored from the Trash came back without the notes and
files its merge had moved to the paper kept. The merges made before it cannot be known: the
notes and files they moved stay with the papers kept.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "merged_children",
        sa.Column("kind", sa.String(length=4), nullable=False),
        sa.Column("child_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column(
            "merged_id",
            sa.Integer(),
            sa.ForeignKey("papers.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("kind", "child_id"),
    )
    op.create_index("ix_merged_children_merged_id", "merged_children", ["merged_id"])


def downgrade() -> None:
    """Revert this revision: an older refman leaves the notes and files with the papers kept."""
    op.drop_index("ix_merged_children_merged_id", "merged_children")
    op.drop_table("merged_children")
