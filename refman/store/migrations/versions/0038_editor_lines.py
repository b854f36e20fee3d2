"""a book that names no authors shows its editors in the list's author column ("Luca Rossi
(ed.)", "Luca Rossi et al. (eds.)") and sorts by its first editor among the authors

Revision ID: 0038
Revises: 0037
Create Date: 2026-12-08

An edited book imported with its editors (kept in the paper's further fields as CSL's
``editor``) had a blank author column and sorted with the papers of no author. The papers
already in a library get their author line and author sort key from their editors; the
papers needing attention leave out such a book (its editors stand for no author list cut
short), and their index is made again with the rule.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy import Connection

from refman.common.east_asian import east_asian
from refman.common.editor_line import EDITORS_LIKE, editor_line
from refman.common.text import sort_name

revision: str = "0038"
down_revision: str | None = "0037"
branch_labels: str | None = None
depends_on: str | None = None

_OLD = "authors_complete IS {no} AND author_line != ''"
_NEW = _OLD + f" AND author_line NOT LIKE '{EDITORS_LIKE}'"
#: The rule as refman's queries write it (``refman.store.models.NEEDS_ATTENTION``), per
#: database, before this revision and since (see revision 0011).
_WHERE = {
    dialect: "title_provisional IS {yes} OR " + rule + " OR possible_duplicate_of IS NOT NULL"
    for dialect, rule in (("old", _OLD), ("new", _NEW))
}
_TRUTH = {"sqlite": {"yes": "1", "no": "0"}, "postgresql": {"yes": "true", "no": "false"}}


def _attention_index(rule: str) -> None:
    """The index of the papers needing attention, made again with this rule."""
    where = sa.text(_WHERE[rule].format(**_TRUTH[op.get_bind().dialect.name]))
    op.drop_index("ix_papers_attention", "papers")
    op.create_index(
        "ix_papers_attention", "papers", ["id"], sqlite_where=where, postgresql_where=where
    )


def _display(name: Mapping[str, Any]) -> str:
    """A CSL name as people write it (``PersonName.display`` of this revision)."""
    if isinstance(name.get("literal"), str) and name["literal"].strip():
        return str(name["literal"]).strip()
    parts = {
        k: str(name.get(k) or "").strip()
        for k in ("given", "family", "suffix", "dropping-particle", "non-dropping-particle")
    }
    particle = " ".join(
        p for p in (parts["dropping-particle"], parts["non-dropping-particle"]) if p
    )
    given, family = parts["given"], parts["family"]
    if east_asian(family) and east_asian(given) and not particle:
        whole = family + given
    else:
        whole = " ".join(w for w in (given, particle, family) if w)
    return f"{whole} {parts['suffix']}" if parts["suffix"] else whole


def _editors(extra: str | None) -> list[str]:
    """The editors kept in a paper's further fields."""
    try:
        value = json.loads(extra or "{}").get("editor")
    except (ValueError, AttributeError):
        return []
    if not isinstance(value, list):
        return []
    return [n for n in (_display(e) for e in value if isinstance(e, Mapping)) if n]


def _fill(conn: Connection) -> None:
    """The author line and sort key of the papers that name editors and no authors."""
    rows = conn.execute(
        sa.text("SELECT id, extra FROM papers WHERE author_line = '' AND extra LIKE '%\"editor\"%'")
    ).all()
    lines = []
    for paper_id, extra in rows:
        editors = _editors(extra)
        if editors:
            lines.append(
                {"id": paper_id, "line": editor_line(editors), "sort": sort_name(editors[0])}
            )
    if lines:
        conn.execute(
            sa.text("UPDATE papers SET author_line = :line, sort_author = :sort WHERE id = :id"),
            lines,
        )


def upgrade() -> None:
    """Apply this revision."""
    _fill(op.get_bind())
    _attention_index("new")


def downgrade() -> None:
    """Revert this revision: a book that names no authors has a blank author column again."""
    _attention_index("old")
    op.get_bind().execute(
        sa.text(
            "UPDATE papers SET author_line = '', sort_author = '' WHERE author_line LIKE "
            f"'{EDITORS_LIKE}' AND NOT EXISTS "
            "(SELECT 1 FROM authorships a WHERE a.paper_id = papers.id)"
        )
    )
