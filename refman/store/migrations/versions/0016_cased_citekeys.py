"""citation keys that hold capitals have an index of their own (a handful in most libraries:
refman's keys are lower case), so that a new key is checked against every key that differs
from it only in case, as BibTeX ignores case

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | None = None
depends_on: str | None = None

_CASED = "citekey != lower(citekey)"


def upgrade() -> None:
    """Apply this revision."""
    op.create_index(
        "ix_papers_citekey_cased",
        "papers",
        ["citekey"],
        sqlite_where=sa.text(_CASED),
        postgresql_where=sa.text(_CASED),
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_papers_citekey_cased", "papers")
