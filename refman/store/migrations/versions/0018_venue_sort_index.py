"""the list sorts by venue as it sorts by title, the case of letters ignored ("arXiv" among
the A's, not after "Proceedings"): the venue's index is of the lowercased venue

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.drop_index("ix_papers_venue", "papers")
    op.create_index("ix_papers_venue", "papers", [sa.text("lower(venue)")])


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_papers_venue", "papers")
    op.create_index("ix_papers_venue", "papers", ["venue"])
