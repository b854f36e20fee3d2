"""a DOI that ends in a bracket of its own ("10.1000/xyz.(abc)") keeps it: the DOIs an
older refman stored without it are given it back, and their keys worked out again

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision: the library service mends the DOIs when it first opens the
    upgraded library (``library_tasks``; the rule lives above the store, in
    :mod:`refman.common.identifiers`). The schema itself is unchanged."""
    op.execute(
        "INSERT INTO library_tasks (task) SELECT 'doi_brackets' "
        "WHERE NOT EXISTS (SELECT 1 FROM library_tasks WHERE task = 'doi_brackets')"
    )


def downgrade() -> None:
    """Revert this revision: an older refman keeps the mended DOIs as they are."""
    op.execute("DELETE FROM library_tasks WHERE task = 'doi_brackets'")
