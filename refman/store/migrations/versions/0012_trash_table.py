"""the Trash has a table of its own, kept by triggers: the papers' sort indexes no longer
begin with the time a paper was trashed, so moving papers to the Trash and back changes none
of them

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from refman.store.trash_schema import FILL, TABLE, create_triggers, drop_triggers

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None

#: The sort indexes: each began with ``trashed_at`` before this revision.
_SORTED: dict[str, list[str | sa.TextClause]] = {
    "ix_papers_sort_title": ["sort_title"],
    "ix_papers_year": ["year"],
    "ix_papers_sort_author": [sa.text("nullif(sort_author, '')")],
    "ix_papers_venue": ["venue"],
    "ix_papers_status": ["status"],
    "ix_papers_rating": ["rating"],
}
#: The papers needing attention, as refman's queries write it (see revision 0011).
_ATTENTION = {
    "sqlite": "title_provisional IS 1 OR authors_complete IS 0 AND author_line != '' "
    "OR possible_duplicate_of IS NOT NULL",
    "postgresql": "title_provisional IS true OR authors_complete IS false AND author_line != '' "
    "OR possible_duplicate_of IS NOT NULL",
}


def _indexes(leading: list[str | sa.TextClause]) -> None:
    """Drop the papers' list indexes and create them again after ``leading`` columns."""
    dialect = op.get_bind().dialect.name
    for name, columns in _SORTED.items():
        op.drop_index(name, "papers")
        op.create_index(name, "papers", [*leading, *columns])
    op.drop_index("ix_papers_added", "papers")
    op.create_index("ix_papers_added", "papers", leading or ["id"])
    where = sa.text(_ATTENTION[dialect])
    op.drop_index("ix_papers_attention", "papers")
    op.create_index(
        "ix_papers_attention",
        "papers",
        leading or ["id"],
        sqlite_where=where,
        postgresql_where=where,
    )


def upgrade() -> None:
    """Apply this revision."""
    bind = op.get_bind()
    op.execute(TABLE)
    op.execute(FILL)
    create_triggers(bind, bind.dialect.name)
    _indexes([])


def downgrade() -> None:
    """Revert this revision."""
    bind = op.get_bind()
    _indexes(["trashed_at"])
    drop_triggers(bind, bind.dialect.name)
    op.drop_table("trash")
