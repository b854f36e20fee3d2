"""the list sorted by author or venue walks an index: papers with none go last either way

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.drop_index("ix_papers_sort_author", "papers")
    op.create_index(
        "ix_papers_sort_author", "papers", ["trashed_at", sa.text("nullif(sort_author, '')")]
    )
    op.create_index("ix_papers_venue", "papers", ["trashed_at", "venue"])


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_papers_venue", "papers")
    op.drop_index("ix_papers_sort_author", "papers")
    op.create_index("ix_papers_sort_author", "papers", ["trashed_at", "sort_author"])
