"""a title an author page, a RIS or a CSL-JSON file gave with TeX's dashes and quotes
("1990--2000", "``Deep''") shows the characters TeX prints: the titles an older refman kept
so are read again

Revision ID: 0033
Revises: 0032
Create Date: 2026-12-07

Before this revision such a title kept ``--``, ``---`` and TeX's quotes as written (a
BibTeX title had them typeset already). A title the person edited stays as it is, and so
does code ("--help", "C--").
"""

from __future__ import annotations

from alembic import op

revision: str = "0033"
down_revision: str | None = "0032"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision: the library service reads the titles again when it first opens
    the upgraded library (``library_tasks``: the task of revision 0032, whose rule in
    :mod:`refman.core.latex_titles` reads TeX's dashes and quotes now). The schema itself is
    unchanged."""
    op.execute(
        "INSERT INTO library_tasks (task) SELECT 'latex_titles' "
        "WHERE NOT EXISTS (SELECT 1 FROM library_tasks WHERE task = 'latex_titles')"
    )


def downgrade() -> None:
    """Revert this revision: an older refman keeps the titles as they are stored."""
    op.execute("DELETE FROM library_tasks WHERE task = 'latex_titles'")
