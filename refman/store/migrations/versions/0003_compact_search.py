"""compact library: compressed abstracts without a second readable copy, search indexes that
hold no copy of the text, exact match keys as hashed columns of papers, blocking keys as
hashes

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from refman.store.packed import pack, unpack
from refman.store.search_schema import PAPER_SEARCH_VIEW, fts_table, fts_triggers
from refman.store.search_terms import register_functions

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

KINDS = ("title", "abstract", "doi", "arxiv")
_BATCH = 5000


def _sqlite() -> bool:
    return op.get_bind().dialect.name == "sqlite"


def _register() -> None:
    raw = op.get_bind().connection.driver_connection
    register_functions(raw)  # type: ignore[arg-type]


def _pack_abstracts() -> None:
    """Store each long abstract compressed (the readable copy goes: it is made when read)."""
    bind = op.get_bind()
    last = 0
    while True:
        rows = bind.exec_driver_sql(
            "SELECT id, abstract FROM papers WHERE id > ? ORDER BY id LIMIT ?", (last, _BATCH)
        ).all()
        if not rows:
            return
        packed = [(pack(str(a or "")), pid) for pid, a in rows]
        bind.exec_driver_sql("UPDATE papers SET abstract = ? WHERE id = ?", packed)
        last = rows[-1][0]


def _shared_search() -> None:
    """A shared library's search index and revision (see :mod:`refman.store.search_pg`)."""
    from refman.store.search_pg import SCHEMA

    # The revision: the sum of a few counters, one moved on by each change in its own
    # transaction (it is seen exactly when the change is; changes rarely share a counter).
    op.execute("CREATE TABLE library_counters (slot integer PRIMARY KEY, n bigint NOT NULL)")
    op.execute("INSERT INTO library_counters SELECT generate_series(0, 15), 0")
    for statement in SCHEMA:
        op.execute(statement)


def upgrade() -> None:
    """Apply this revision.

    The exact and blocking keys of the papers already there are computed by the library
    service when it first opens the upgraded library (``library_tasks`` says so): they
    follow the matching rules of :mod:`refman.core.matching`, which live above the store.
    """
    for kind in KINDS:
        op.add_column("papers", sa.Column(f"{kind}_key", sa.BigInteger(), nullable=True))
        op.create_index(
            f"ix_papers_{kind}_key",
            "papers",
            [f"{kind}_key"],
            sqlite_where=sa.text(f"{kind}_key IS NOT NULL"),
            postgresql_where=sa.text(f"{kind}_key IS NOT NULL"),
        )
    op.create_table(
        "match_blocks",
        sa.Column("key", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("paper_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.PrimaryKeyConstraint("key", "paper_id"),
        sqlite_with_rowid=False,
    )
    op.create_table("library_tasks", sa.Column("task", sa.String(40), primary_key=True))
    op.execute("INSERT INTO library_tasks (task) VALUES ('match_keys')")
    _reindex_lists(("trashed_at",), ("tag_id", "paper_id"))
    op.create_index(
        "ix_papers_possible_duplicate_of",
        "papers",
        ["possible_duplicate_of"],
        sqlite_where=sa.text("possible_duplicate_of IS NOT NULL"),
        postgresql_where=sa.text("possible_duplicate_of IS NOT NULL"),
    )
    op.drop_index("ix_match_keys_paper_id", table_name="match_keys")
    op.drop_table("match_keys")
    if not _sqlite():
        op.drop_column("papers", "abstract_text")
        _shared_search()
        return
    _register()
    op.execute("DROP TABLE papers_fts")
    op.execute("ALTER TABLE papers DROP COLUMN abstract_text")
    _pack_abstracts()
    op.execute(PAPER_SEARCH_VIEW)
    op.execute(fts_table("papers_fts", "title, abstract, authors, venue, subjects", "paper_search"))
    op.execute(fts_table("tags_fts", "name", "tags"))
    op.execute(fts_table("notes_fts", "text", "notes"))
    for statement in [
        *fts_triggers("tags", "name", folded=False),
        *fts_triggers("notes", "text", folded=False),
    ]:
        op.execute(statement)
    for fts in ("papers_fts", "tags_fts", "notes_fts"):
        op.execute(f"INSERT INTO {fts}({fts}) VALUES ('rebuild')")


_OLD_FTS = (
    "CREATE VIRTUAL TABLE papers_fts USING fts5("
    "title, abstract, authors, venue, subjects, tags, notes, "
    "tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3')"
)
_OLD_ROWS = """
INSERT INTO papers_fts(rowid, title, abstract, authors, venue, subjects, tags, notes)
SELECT p.id, p.title, coalesce(nullif(p.abstract_text, ''), p.abstract),
  coalesce((SELECT group_concat(pe.name, ' ') FROM authorships a
            JOIN persons pe ON pe.id = a.person_id WHERE a.paper_id = p.id), ''),
  coalesce(p.venue, ''),
  coalesce((SELECT group_concat(s.code, ' ') FROM paper_subjects ps
            JOIN subjects s ON s.id = ps.subject_id WHERE ps.paper_id = p.id), ''),
  coalesce((SELECT group_concat(t.name, ' ') FROM paper_tags pt
            JOIN tags t ON t.id = pt.tag_id WHERE pt.paper_id = p.id), ''),
  coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.paper_id = p.id), '')
FROM papers p
"""


def _unpack_abstracts() -> None:
    """Abstracts as plain text again, with their readable copy where it differs."""
    bind = op.get_bind()
    rows = bind.exec_driver_sql("SELECT id, abstract FROM papers").all()
    values = []
    for pid, stored in rows:
        raw = unpack(stored)
        readable = bind.exec_driver_sql("SELECT refman_readable(?)", (stored,)).scalar() or ""
        values.append((raw, "" if readable == raw else readable, pid))
    bind.exec_driver_sql("UPDATE papers SET abstract = ?, abstract_text = ? WHERE id = ?", values)


def _reindex_lists(added: tuple[str, ...], tag: tuple[str, ...]) -> None:
    """The indexes a list walks: "Added" in id order, a tag's papers by id."""
    op.drop_index("ix_papers_added", table_name="papers")
    op.create_index("ix_papers_added", "papers", list(added))
    old, new = ("ix_paper_tags_tag_id", "ix_paper_tags_tag")
    if len(tag) == 1:
        old, new = new, old
    op.drop_index(old, table_name="paper_tags")
    op.create_index(new, "paper_tags", list(tag))


def downgrade() -> None:
    """Revert this revision (the old match keys are not rebuilt: an older refman then finds
    no paper of this library again when importing)."""
    op.create_table(
        "match_keys",
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("kind", "key", "paper_id"),
        sqlite_with_rowid=False,
    )
    op.create_index("ix_match_keys_paper_id", "match_keys", ["paper_id"])
    _reindex_lists(("trashed_at", "added_at"), ("tag_id",))
    op.drop_index("ix_papers_possible_duplicate_of", table_name="papers")
    op.drop_table("library_tasks")
    op.drop_table("match_blocks")
    for kind in KINDS:
        op.drop_index(f"ix_papers_{kind}_key", table_name="papers")
    if not _sqlite():
        for kind in KINDS:
            op.drop_column("papers", f"{kind}_key")
        op.add_column(
            "papers", sa.Column("abstract_text", sa.Text(), nullable=False, server_default="")
        )
        return
    _register()
    for statement in ("papers_fts", "tags_fts", "notes_fts"):
        op.execute(f"DROP TABLE {statement}")
    for table in ("tags", "notes"):
        for suffix in ("ai", "ad", "au"):
            op.execute(f"DROP TRIGGER {table}_fts_{suffix}")
    op.execute("DROP VIEW paper_search")
    for kind in KINDS:
        op.execute(f"ALTER TABLE papers DROP COLUMN {kind}_key")
    op.execute("ALTER TABLE papers ADD COLUMN abstract_text TEXT NOT NULL DEFAULT ''")
    _unpack_abstracts()
    op.execute(_OLD_FTS)
    op.execute(_OLD_ROWS)
