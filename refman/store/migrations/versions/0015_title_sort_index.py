"""the list sorts by title through an index of the lowercased title: the second, casefolded
copy of every title (a thirtieth of a library file) is gone

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision (SQLite rewrites the papers' rows without the column)."""
    op.drop_index("ix_papers_sort_title", "papers")
    op.drop_column("papers", "sort_title")
    op.create_index("ix_papers_sort_title", "papers", [sa.text("lower(title)")])


def downgrade() -> None:
    """Revert this revision: the column again, filled from the titles."""
    op.drop_index("ix_papers_sort_title", "papers")
    op.add_column(
        "papers", sa.Column("sort_title", sa.Text(), nullable=False, server_default=sa.text("''"))
    )
    op.execute("UPDATE papers SET sort_title = lower(title)")
    op.create_index("ix_papers_sort_title", "papers", ["sort_title"])
