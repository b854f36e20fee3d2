"""a paper whose abstract a page lists only in part (its first paragraph, its first lines and
"…") is found again: the key of every paper's abstract opening

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-05
"""

from __future__ import annotations

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision: the library service writes the keys when it first opens the
    upgraded library (``library_tasks``; the rules live above the store, in
    :mod:`refman.core.matching`). The schema itself is unchanged."""
    _task("opening_keys")


def downgrade() -> None:
    """Revert this revision: the refman that opens the library next works every paper's
    keys out again by its own rules (the openings' keys go)."""
    op.execute("DELETE FROM library_tasks WHERE task = 'opening_keys'")
    _task("match_keys")


def _task(name: str) -> None:
    op.execute(
        f"INSERT INTO library_tasks (task) SELECT '{name}' "
        f"WHERE NOT EXISTS (SELECT 1 FROM library_tasks WHERE task = '{name}')"
    )
