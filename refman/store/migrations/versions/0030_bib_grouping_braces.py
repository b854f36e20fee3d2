"""a BibTeX abstract is kept without its grouping braces: the papers an older refman read
with them are read again from their entries

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-07

Before this revision refman kept a ``.bib`` abstract's grouping braces (``from {AlphaFold}
to``), showed them and exported them as ``\\{AlphaFold\\}``. The papers that still hold what
that reader made of the entry their import kept take today's reading; an abstract the person
edited stays as it is.
"""

from __future__ import annotations

from alembic import op

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision: the library service reads the abstracts again when it first
    opens the upgraded library (``library_tasks``; the rule lives above the store, in
    :mod:`refman.core.brace_abstracts`). The schema itself is unchanged."""
    op.execute(
        "INSERT INTO library_tasks (task) SELECT 'bib_braces' "
        "WHERE NOT EXISTS (SELECT 1 FROM library_tasks WHERE task = 'bib_braces')"
    )


def downgrade() -> None:
    """Revert this revision: an older refman reads the abstracts as they are stored."""
    op.execute("DELETE FROM library_tasks WHERE task = 'bib_braces'")
