"""a title an author page, a RIS or a CSL-JSON file gave with LaTeX markup is kept as the
text it prints: the titles an older refman kept with their markup are read again

Revision ID: 0032
Revises: 0031
Create Date: 2026-12-07

Before this revision such a title (``{\\"U}ber $\\alpha$-Divergenzen``) was kept as written:
the list showed the markup and ``title:`` searches missed it. A title the person edited
stays as it is.
"""

from __future__ import annotations

from alembic import op

revision: str = "0032"
down_revision: str | None = "0031"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision: the library service reads the titles again when it first opens
    the upgraded library (``library_tasks``; the rule lives above the store, in
    :mod:`refman.core.latex_titles`). The schema itself is unchanged."""
    op.execute(
        "INSERT INTO library_tasks (task) SELECT 'latex_titles' "
        "WHERE NOT EXISTS (SELECT 1 FROM library_tasks WHERE task = 'latex_titles')"
    )


def downgrade() -> None:
    """Revert this revision: an older refman keeps the titles as they are stored."""
    op.execute("DELETE FROM library_tasks WHERE task = 'latex_titles'")
