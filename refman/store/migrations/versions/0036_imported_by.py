"""an import records who made it (``import_batches.imported_by``): the history says it, as
the papers say who added them

Revision ID: 0036
Revises: 0035
Create Date: 2026-12-08

Before this revision an import kept no name: on a shared library the history of imports
(``refman history``, the History window) and a paper's sources could not say which member
imported what. The imports made before it cannot be known (their name stays empty).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0036"
down_revision: str | None = "0035"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision (a column without a default: no table is rewritten)."""
    op.add_column("import_batches", sa.Column("imported_by", sa.Text(), nullable=True))


def downgrade() -> None:
    """Revert this revision (SQLite drops a column in place since 3.35)."""
    op.execute("ALTER TABLE import_batches DROP COLUMN imported_by")
