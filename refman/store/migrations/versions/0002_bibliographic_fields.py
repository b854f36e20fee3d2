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
    """Apply this revision."""
    with op.batch_alter_table("papers", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("type", sa.String(length=40), nullable=False, server_default="article")
        )
        batch_op.add_column(sa.Column("citekey", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("volume", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("issue", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("pages", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("publisher", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("extra", sa.Text(), nullable=False, server_default="{}"))
        batch_op.create_index("ix_papers_citekey", ["citekey"], unique=True)
    # Author-page records: a preprint when the venue is arXiv, else a conference paper.
    op.execute(
        "UPDATE papers SET type = CASE WHEN lower(coalesce(venue, '')) = 'arxiv' "
        "THEN 'article' ELSE 'paper-conference' END"
    )
    with op.batch_alter_table("persons", schema=None) as batch_op:
        for name in ("family", "given", "particle", "suffix"):
            batch_op.add_column(
                sa.Column(name, sa.Text(), nullable=False, server_default=sa.text("''"))
            )
        batch_op.add_column(
            sa.Column("literal", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("batch_papers", schema=None) as batch_op:
        batch_op.add_column(sa.Column("raw", sa.Text(), nullable=True))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("batch_papers", schema=None) as batch_op:
        batch_op.drop_column("raw")
    with op.batch_alter_table("persons", schema=None) as batch_op:
        for name in ("literal", "suffix", "particle", "given", "family"):
            batch_op.drop_column(name)
    with op.batch_alter_table("papers", schema=None) as batch_op:
        batch_op.drop_index("ix_papers_citekey")
        for name in ("extra", "publisher", "pages", "issue", "volume", "citekey", "type"):
            batch_op.drop_column(name)
