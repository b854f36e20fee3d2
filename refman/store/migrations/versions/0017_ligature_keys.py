"""a .bib title's TeX dashes and quotes ("1990--2000", ``quoted'') are read as the characters
TeX prints, and match keys fold them: the keys of the papers whose texts hold them are worked
out again

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision: the library service works the keys out again when it first opens
    the upgraded library (``library_tasks``; the rules live above the store, in
    :mod:`refman.core.matching`). The schema itself is unchanged."""
    op.execute(
        "INSERT INTO library_tasks (task) SELECT 'ligature_keys' "
        "WHERE NOT EXISTS (SELECT 1 FROM library_tasks WHERE task = 'ligature_keys')"
    )


def downgrade() -> None:
    """Revert this revision: the refman that opens the library next works every paper's
    keys out again by its own rules."""
    op.execute("DELETE FROM library_tasks WHERE task = 'ligature_keys'")
    op.execute(
        "INSERT INTO library_tasks (task) SELECT 'match_keys' "
        "WHERE NOT EXISTS (SELECT 1 FROM library_tasks WHERE task = 'match_keys')"
    )
