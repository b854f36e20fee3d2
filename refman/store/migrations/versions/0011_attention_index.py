"""the papers that need attention have an index of their own: the section is counted and
listed without reading every paper

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None

#: The rule as refman's queries write it (``refman.store.models.NEEDS_ATTENTION``), per
#: database: SQLite uses a partial index only for a query whose condition is the same.
_WHERE = {
    "sqlite": "title_provisional IS 1 OR authors_complete IS 0 AND author_line != '' "
    "OR possible_duplicate_of IS NOT NULL",
    "postgresql": "title_provisional IS true OR authors_complete IS false AND author_line != '' "
    "OR possible_duplicate_of IS NOT NULL",
}


def upgrade() -> None:
    """Apply this revision."""
    where = sa.text(_WHERE[op.get_bind().dialect.name])
    op.create_index(
        "ix_papers_attention",
        "papers",
        ["trashed_at"],
        sqlite_where=where,
        postgresql_where=where,
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_papers_attention", "papers")
