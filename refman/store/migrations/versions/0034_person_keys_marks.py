"""one person however their name's apostrophe or hyphen is written: "O’Brien" and "O'Brien",
"Jean-Pierre Roux" and "Jean Pierre Roux"

Revision ID: 0034
Revises: 0033
Create Date: 2026-12-07

Before this revision a person's key kept an apostrophe and a hyphen as written, so a web
page's "O’Brien" and a bibliography's "O'Brien" were two people (the People window proposed
them as one, to merge by hand). Every key is folded now
(:func:`~refman.common.text.folded_key`), and so are the keys of spellings merged into
people. Two people whose keys become one are one person — the one the library had first
keeps the other's papers, pages and spellings, and ``refman person`` of the other's id says
where they went (``merged_people``) — unless both are authors of one paper or the person
said they are not one: then the second keeps its key as it was. The papers the second was
the first author of show the first's name in the list.

The downgrade leaves the people as they are (an older refman reads the folded keys as keys
of names it has not met; merged people stay merged).
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Connection, text

from refman.common.text import folded_key, sort_name

revision: str = "0034"
down_revision: str | None = "0033"
branch_labels: str | None = None
depends_on: str | None = None


def _sql(conn: Connection, statement: str, **values: object) -> None:
    conn.execute(text(statement), values)


def _kept_apart(conn: Connection, first: int, second: int) -> bool:
    """True when two people stay two: both are authors of one paper, or the person said
    they are not one (``distinct_people``)."""
    found = conn.execute(
        text(
            "SELECT 1 FROM authorships a JOIN authorships b ON a.paper_id = b.paper_id "
            "WHERE a.person_id = :a AND b.person_id = :b UNION ALL SELECT 1 FROM "
            "distinct_people WHERE first_id = :low AND second_id = :high"
        ),
        {"a": first, "b": second, "low": min(first, second), "high": max(first, second)},
    ).first()
    return found is not None


def _author_lines(conn: Connection, pid: int, old: str, new: str) -> None:
    """The author line and sort key of the papers ``pid`` is the first author of, which
    named them ``old``."""
    firsts = conn.execute(
        text(
            "SELECT p.id, p.author_line FROM papers p JOIN authorships a ON a.paper_id = p.id "
            "WHERE a.person_id = :pid AND a.position = 0"
        ),
        {"pid": pid},
    ).all()
    for paper_id, line in firsts:
        if line.startswith(old) and old != new:
            _sql(
                conn,
                "UPDATE papers SET author_line = :line, sort_author = :sort WHERE id = :id",
                line=new + line[len(old) :],
                sort=sort_name(new),
                id=paper_id,
            )


def _merge(conn: Connection, keep: int, other: int) -> None:
    """Make ``other`` the person ``keep``: their papers, pages and spellings; where they
    went kept (``merged_people``)."""
    rows = conn.execute(
        text("SELECT id, name FROM persons WHERE id IN (:a, :b)"), {"a": keep, "b": other}
    )
    names = {int(i): str(name) for i, name in rows}
    _author_lines(conn, other, names[other], names[keep])
    for statement in (
        "UPDATE authorships SET person_id = :keep WHERE person_id = :other",
        "INSERT INTO attributions (paper_id, person_id) SELECT paper_id, :keep "
        "FROM attributions WHERE person_id = :other AND paper_id NOT IN "
        "(SELECT paper_id FROM attributions WHERE person_id = :keep)",
        "DELETE FROM attributions WHERE person_id = :other",
        "UPDATE import_batches SET owner_id = :keep WHERE owner_id = :other",
        "UPDATE person_aliases SET person_id = :keep WHERE person_id = :other",
        "DELETE FROM distinct_people WHERE first_id = :other OR second_id = :other",
        "UPDATE merged_people SET person_id = :keep WHERE person_id = :other",
        "INSERT INTO merged_people (merged_id, person_id) VALUES (:other, :keep)",
        "DELETE FROM persons WHERE id = :other",
    ):
        _sql(conn, statement, keep=keep, other=other)


def _people(conn: Connection) -> None:
    """Fold every person's key; two people of one key made one (see the module)."""
    key_of = {
        int(i): str(k) for i, k in conn.execute(text("SELECT id, key FROM persons ORDER BY id"))
    }
    holders = {k: i for i, k in key_of.items()}
    for pid, old in sorted(key_of.items()):
        new = folded_key(old)
        holder = holders.get(new, pid)
        if new == old:
            continue
        if holder == pid:
            _sql(conn, "UPDATE persons SET key = :k WHERE id = :i", k=new, i=pid)
            holders[new] = pid
        elif not _kept_apart(conn, holder, pid):
            keep, other = sorted((holder, pid))  # (the person the library had first)
            _merge(conn, keep, other)
            _sql(conn, "UPDATE persons SET key = :k WHERE id = :i", k=new, i=keep)
            holders[new] = keep
    _aliases(conn, holders)


def _aliases(conn: Connection, holders: dict[str, int]) -> None:
    """Fold the keys of the spellings merged into people; one that is a person's key now, or
    another spelling's, goes (the key names its person already)."""
    keys = conn.execute(text("SELECT key FROM person_aliases")).scalars().all()
    taken = set(holders) | {str(k) for k in keys}
    for key in keys:
        new = folded_key(str(key))
        if new == key:
            continue
        if new in taken:
            _sql(conn, "DELETE FROM person_aliases WHERE key = :k", k=key)
        else:
            _sql(conn, "UPDATE person_aliases SET key = :n WHERE key = :k", n=new, k=key)
            taken.add(new)


def upgrade() -> None:
    """Apply this revision."""
    _people(op.get_bind())


def downgrade() -> None:
    """Revert this revision: the people stay as they are (see the module)."""
