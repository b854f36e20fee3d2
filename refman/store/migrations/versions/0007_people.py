"""people: when a person's page was last looked at (their papers from a later import are
new), the pairs of people the user said are not the same person, the other spellings of
people merged into one, and an index to find the pages imported for a person

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision. People already in the library count as seen up to the last
    import (an upgrade shows no "new" badge)."""
    op.add_column("persons", sa.Column("seen_import", sa.Integer(), nullable=True))
    op.execute("UPDATE persons SET seen_import = (SELECT max(import_id) FROM import_batches)")
    op.create_index("ix_import_batches_owner_id", "import_batches", ["owner_id"])
    op.create_table(
        "distinct_people",
        sa.Column(
            "first_id",
            sa.Integer(),
            sa.ForeignKey("persons.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "second_id",
            sa.Integer(),
            sa.ForeignKey("persons.id", ondelete="CASCADE"),
            primary_key=True,
        ),
    )
    op.create_table(
        "person_aliases",
        sa.Column("key", sa.Text(), primary_key=True),
        sa.Column(
            "person_id",
            sa.Integer(),
            sa.ForeignKey("persons.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_table("person_aliases")
    op.drop_table("distinct_people")
    op.drop_index("ix_import_batches_owner_id", table_name="import_batches")
    op.execute("ALTER TABLE persons DROP COLUMN seen_import")
