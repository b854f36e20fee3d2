"""an abstract that only says there is none ("No abstract available.", "N/A") names no
paper: the keys an older refman made of such abstracts are dropped

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-09

Two unrelated papers that carried the same placeholder had the same abstract key, and an
import merged the one into the other. The keys of the papers whose abstract is a placeholder
are worked out again without it, and such keys kept for papers merged into others
(``merged_keys``) go.
"""

from __future__ import annotations

from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision: the library service works the keys out again when it first opens
    the upgraded library (``library_tasks``; the rule lives above the store, in
    :mod:`refman.core.placeholder_abstracts`). The schema itself is unchanged."""
    op.execute(
        "INSERT INTO library_tasks (task) SELECT 'placeholder_keys' "
        "WHERE NOT EXISTS (SELECT 1 FROM library_tasks WHERE task = 'placeholder_keys')"
    )


def downgrade() -> None:
    """Revert this revision: the refman that opens the library next works every paper's
    keys out again by its own rules."""
    op.execute("DELETE FROM library_tasks WHERE task = 'placeholder_keys'")
    op.execute(
        "INSERT INTO library_tasks (task) SELECT 'match_keys' "
        "WHERE NOT EXISTS (SELECT 1 FROM library_tasks WHERE task = 'match_keys')"
    )
