"""paper files: PDFs and other files attached to papers, stored or linked, and the text of
each (its own full-text index)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from refman.store.search_schema import fts_table, fts_triggers

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "paper_files",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "paper_id",
            sa.Integer(),
            sa.ForeignKey("papers.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("linked", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("size", sa.BigInteger(), nullable=False, server_default="0"),
        sa.Column("pages", sa.Integer(), nullable=True),
        sa.Column("added_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_paper_files_paper_id", "paper_files", ["paper_id"])
    op.create_table(
        "file_texts",
        sa.Column(
            "id",
            sa.Integer(),
            sa.ForeignKey("paper_files.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "paper_id", sa.Integer(), sa.ForeignKey("papers.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("text", sa.Text(), nullable=False, server_default=sa.text("''")),
        sa.Column("pages", sa.Integer(), nullable=True),
        sa.Column("size", sa.BigInteger(), nullable=True),
        sa.Column("mtime", sa.Float(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("indexed_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_file_texts_paper_id", "file_texts", ["paper_id"])
    if op.get_bind().dialect.name == "sqlite":
        op.execute(fts_table("file_texts_fts", "text", "file_texts"))
        for statement in fts_triggers("file_texts", "text", folded=False):
            op.execute(statement)
    else:
        op.execute(
            "ALTER TABLE file_texts ADD COLUMN words tsvector "
            "GENERATED ALWAYS AS (refman_words(text)) STORED"
        )
        op.execute("CREATE INDEX ix_file_texts_words ON file_texts USING gin (words)")


def downgrade() -> None:
    """Revert this revision."""
    if op.get_bind().dialect.name == "sqlite":
        for suffix in ("ai", "ad", "au"):
            op.execute(f"DROP TRIGGER IF EXISTS file_texts_fts_{suffix}")
        op.execute("DROP TABLE IF EXISTS file_texts_fts")
    op.drop_index("ix_file_texts_paper_id", "file_texts")
    op.drop_table("file_texts")
    op.drop_index("ix_paper_files_paper_id", "paper_files")
    op.drop_table("paper_files")
