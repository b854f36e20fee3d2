"""bibliographic fields: type, citation key, volume, issue, pages, publisher, extra CSL
variables; name parts of persons; the raw entry of an imported record

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision.

    Plain ``ADD COLUMN``s (no table copies): they are instant on a large library and leave
    the foreign keys of other tables alone.
    """
    op.add_column(
        "papers",
        sa.Column("type", sa.String(length=40), nullable=False, server_default="article"),
    )
    for name in ("citekey", "volume", "issue", "pages", "publisher"):
        op.add_column("papers", sa.Column(name, sa.Text(), nullable=True))
    op.add_column("papers", sa.Column("extra", sa.Text(), nullable=False, server_default="{}"))
    op.create_index("ix_papers_citekey", "papers", ["citekey"], unique=True)
    # Author-page records: a preprint when the venue is arXiv, else a conference paper.
    op.execute(
        "UPDATE papers SET type = CASE WHEN lower(coalesce(venue, '')) = 'arxiv' "
        "THEN 'article' ELSE 'paper-conference' END"
    )
    for name in ("family", "given", "particle", "suffix"):
        op.add_column(
            "persons", sa.Column(name, sa.Text(), nullable=False, server_default=sa.text("''"))
        )
    op.add_column(
        "persons", sa.Column("literal", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("batch_papers", sa.Column("raw", sa.Text(), nullable=True))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("batch_papers", schema=None) as batch_op:
        batch_op.drop_column("raw")
    with op.batch_alter_table("persons", schema=None) as batch_op:
        for name in ("literal", "suffix", "particle", "given", "family"):
            batch_op.drop_column(name)
    op.drop_index("ix_papers_citekey", table_name="papers")
    with op.batch_alter_table("papers", schema=None) as batch_op:
        for name in ("extra", "publisher", "pages", "issue", "volume", "citekey", "type"):
            batch_op.drop_column(name)
