"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "papers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("title_provisional", sa.Boolean(), nullable=False),
        sa.Column("sort_title", sa.Text(), nullable=False),
        sa.Column("abstract", sa.Text(), nullable=False),
        sa.Column("abstract_text", sa.Text(), nullable=False),
        sa.Column("year", sa.Integer(), nullable=True),
        sa.Column("venue", sa.Text(), nullable=True),
        sa.Column("doi", sa.Text(), nullable=True),
        sa.Column("arxiv_id", sa.Text(), nullable=True),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("authors_complete", sa.Boolean(), nullable=False),
        sa.Column("sort_author", sa.Text(), nullable=False),
        sa.Column("author_line", sa.Text(), nullable=False),
        sa.Column("added_at", sa.DateTime(), nullable=False),
        sa.Column("modified_at", sa.DateTime(), nullable=False),
        sa.Column("trashed_at", sa.DateTime(), nullable=True),
        sa.Column("user_edited", sa.String(length=100), nullable=False),
        sa.Column("possible_duplicate_of", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["possible_duplicate_of"], ["papers.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("papers", schema=None) as batch_op:
        batch_op.create_index("ix_papers_added", ["trashed_at", "added_at"], unique=False)
        batch_op.create_index("ix_papers_sort_author", ["trashed_at", "sort_author"], unique=False)
        batch_op.create_index("ix_papers_sort_title", ["trashed_at", "sort_title"], unique=False)
        batch_op.create_index("ix_papers_year", ["trashed_at", "year"], unique=False)

    op.create_table(
        "persons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    op.create_table(
        "subjects",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code"),
    )
    op.create_table(
        "tags",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("colour", sa.String(length=9), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    op.create_table(
        "attributions",
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["person_id"],
            ["persons.id"],
        ),
        sa.PrimaryKeyConstraint("paper_id", "person_id"),
    )
    with op.batch_alter_table("attributions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_attributions_person_id"), ["person_id"], unique=False)

    op.create_table(
        "authorships",
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["person_id"],
            ["persons.id"],
        ),
        sa.PrimaryKeyConstraint("paper_id", "position"),
    )
    with op.batch_alter_table("authorships", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_authorships_person_id"), ["person_id"], unique=False)

    op.create_table(
        "import_batches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.Column("import_id", sa.Integer(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("format", sa.String(length=40), nullable=False),
        sa.Column("claimed", sa.Integer(), nullable=True),
        sa.Column("parsed", sa.Integer(), nullable=False),
        sa.Column("warnings", sa.Text(), nullable=False),
        sa.Column("created", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["owner_id"],
            ["persons.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("import_batches", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_import_batches_import_id"), ["import_id"], unique=False
        )

    op.create_table(
        "match_keys",
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("kind", "key", "paper_id"),
        sqlite_with_rowid=False,
    )
    with op.batch_alter_table("match_keys", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_match_keys_paper_id"), ["paper_id"], unique=False)

    op.create_table(
        "notes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("modified_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("notes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_notes_paper_id"), ["paper_id"], unique=False)

    op.create_table(
        "paper_subjects",
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("subject_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["subject_id"],
            ["subjects.id"],
        ),
        sa.PrimaryKeyConstraint("paper_id", "subject_id"),
    )
    op.create_table(
        "paper_tags",
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("tag_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["tag_id"], ["tags.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("paper_id", "tag_id"),
    )
    with op.batch_alter_table("paper_tags", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_paper_tags_tag_id"), ["tag_id"], unique=False)

    op.create_table(
        "batch_papers",
        sa.Column("batch_id", sa.Integer(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=10), nullable=False),
        sa.Column("before", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["batch_id"], ["import_batches.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("batch_id", "paper_id"),
    )
    with op.batch_alter_table("batch_papers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_batch_papers_paper_id"), ["paper_id"], unique=False)

    # Full-text index over everything a person searches by; kept in sync by the library
    # service (refman.store.fts), one row per paper with rowid = papers.id. A shared library
    # (PostgreSQL) gets its search index in revision 0003.
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute(
        "CREATE VIRTUAL TABLE papers_fts USING fts5("
        "title, abstract, authors, venue, subjects, tags, notes, "
        "tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3')"
    )


def downgrade() -> None:
    """Revert this revision."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE papers_fts")
    with op.batch_alter_table("batch_papers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_batch_papers_paper_id"))

    op.drop_table("batch_papers")
    with op.batch_alter_table("paper_tags", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_paper_tags_tag_id"))

    op.drop_table("paper_tags")
    op.drop_table("paper_subjects")
    with op.batch_alter_table("notes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_notes_paper_id"))

    op.drop_table("notes")
    with op.batch_alter_table("match_keys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_match_keys_paper_id"))

    op.drop_table("match_keys")
    with op.batch_alter_table("import_batches", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_import_batches_import_id"))

    op.drop_table("import_batches")
    with op.batch_alter_table("authorships", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_authorships_person_id"))

    op.drop_table("authorships")
    with op.batch_alter_table("attributions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_attributions_person_id"))

    op.drop_table("attributions")
    op.drop_table("tags")
    op.drop_table("subjects")
    op.drop_table("persons")
    with op.batch_alter_table("papers", schema=None) as batch_op:
        batch_op.drop_index("ix_papers_year")
        batch_op.drop_index("ix_papers_sort_title")
        batch_op.drop_index("ix_papers_sort_author")
        batch_op.drop_index("ix_papers_added")

    op.drop_table("papers")
