"""search and people's keys fold letters that are letters of their own, not a letter and an
accent: ø, æ, œ, ł, đ, ð, þ, ß, ı, ħ, ŧ are searched as o, ae, oe, l, d, d, th, ss, i, h, t
("osterberg" finds Østerberg, "lukasz" Łukasz), as accents were already dropped

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06

On SQLite the search indexes read their words through views that fold the text
(:data:`refman.store.search_schema.SEARCH_VIEWS`); on PostgreSQL ``refman_words`` folds it.
Only rows whose text holds such a letter (or LaTeX, which may write one: ``{\\o}``) have
words that change: those are indexed again, not the whole library. People's keys holding
such a letter are folded too; a person whose folded key is another person's is that
person, as two spellings that differ by an accent always were (merged, unless both are
authors of one paper).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from alembic import op
from sqlalchemy import Connection
from sqlalchemy.orm import Session

from refman.common.text import FOLDED_LETTERS, fold_letters
from refman.store.bulk import chunks
from refman.store.packed import readable
from refman.store.search_schema import (
    PAPER_SEARCH_VIEW,
    PAPER_SEARCH_VIEW_0019,
    SEARCH_VIEWS,
    TRIGGERED,
    fts_table,
    fts_triggers,
)
from refman.store.search_terms import register_functions

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | None = None
depends_on: str | None = None

_COLUMNS = "title, abstract, authors, venue, subjects"
#: A letter that folds.
_FOLDS = re.compile(f"[{FOLDED_LETTERS}]")
#: The views of the indexes kept by triggers (table -> view).
_VIEWS = {"tags": "tag_search", "notes": "note_search", "file_texts": "file_text_search"}


def _folds(text: str | None) -> bool:
    return bool(text) and _FOLDS.search(text or "") is not None


def _changing_papers(conn: Connection) -> list[int]:
    """The papers whose searched text holds a letter that folds (in their title, venue,
    readable abstract or an author's name)."""
    found: set[int] = set()
    rows = conn.exec_driver_sql(
        "SELECT id, title, venue, abstract FROM papers",
        execution_options={"stream_results": True},
    )
    for pid, title, venue, abstract in rows:
        if _folds(title) or _folds(venue) or _folds(readable(abstract) if abstract else ""):
            found.add(int(pid))
    names = conn.exec_driver_sql(
        "SELECT a.paper_id, pe.name FROM authorships a JOIN persons pe ON pe.id = a.person_id"
    )
    found.update(int(pid) for pid, name in names if _folds(name))
    return sorted(found)


def _in(ids: list[int]) -> str:
    return ", ".join(str(int(i)) for i in ids)


def _papers_view(conn: Connection, view: str) -> None:
    """Make ``view`` the papers' search view: the words of the papers it reads differently
    leave the index through the view before and enter through the new one."""

    def swap() -> None:
        conn.exec_driver_sql("DROP VIEW paper_search")
        conn.exec_driver_sql(view)

    _words_again(conn, _changing_papers(conn), swap)


def _triggered(conn: Connection, *, folded: bool) -> None:
    """The tags', notes' and files' indexes made again over their folding views (or, with
    ``folded=False``, over their tables, as before)."""
    for table, column in TRIGGERED:
        fts, view = f"{table}_fts", _VIEWS[table]
        for suffix in ("ai", "ad", "au"):
            conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {fts}_{suffix}")
        conn.exec_driver_sql(f"DROP TABLE IF EXISTS {fts}")
        conn.exec_driver_sql(f"DROP VIEW IF EXISTS {view}")
        if folded:
            conn.exec_driver_sql(SEARCH_VIEWS[view])
        conn.exec_driver_sql(fts_table(fts, column, view if folded else table))
        for statement in fts_triggers(table, column, folded=folded):
            conn.exec_driver_sql(statement)
        conn.exec_driver_sql(f"INSERT INTO {fts}({fts}) VALUES ('rebuild')")


def _shared(conn: Connection, function: str) -> None:
    """PostgreSQL: the words function, and the words made with it of the rows it reads
    differently (generated columns are made again by an update of their row)."""
    conn.exec_driver_sql(function)
    pattern = f"[{FOLDED_LETTERS}]"
    for table, column in TRIGGERED:
        conn.exec_driver_sql(
            f"UPDATE {table} SET {column} = {column} WHERE {column} ~ %(p)s", {"p": pattern}
        )
    _reindex_shared(conn, _changing_papers(conn))


def _reindex_shared(conn: Connection, ids: list[int]) -> None:
    """PostgreSQL: these papers' words made again (by the index's own statements)."""
    from refman.store.search_pg import PgIndex

    with Session(bind=conn) as session:  # (in the migration's transaction)
        PgIndex().forget(session, ids)
        PgIndex().remember(session, ids)


def _sql(conn: Connection, statement: str, **values: object) -> None:
    """Run a statement with named values (``:name``) on either kind of library."""
    if conn.dialect.name == "postgresql":
        statement = re.sub(r":(\w+)", r"%(\1)s", statement)
    conn.exec_driver_sql(statement, values)


def _words_again(conn: Connection, ids: list[int], change: Callable[[], None]) -> None:
    """Make a change to these papers' authors, their words leaving the search index before
    it and entering after it."""
    if conn.dialect.name == "postgresql":
        change()
        _reindex_shared(conn, ids)
        return
    for part in chunks(ids, 500):
        conn.exec_driver_sql(
            f"INSERT INTO papers_fts(papers_fts, rowid, {_COLUMNS}) "
            f"SELECT 'delete', id, {_COLUMNS} FROM paper_search WHERE id IN ({_in(part)})"
        )
    change()
    for part in chunks(ids, 500):
        conn.exec_driver_sql(
            f"INSERT INTO papers_fts(rowid, {_COLUMNS}) "
            f"SELECT id, {_COLUMNS} FROM paper_search WHERE id IN ({_in(part)})"
        )


def _merge(conn: Connection, keep: int, other: int) -> None:
    """Make ``other`` (a key that folds to ``keep``'s) the person ``keep``: their papers,
    pages and spellings."""
    papers = [
        int(pid)
        for (pid,) in conn.exec_driver_sql(
            f"SELECT paper_id FROM authorships WHERE person_id = {int(other)}"
        )
    ]

    def move() -> None:
        for statement in (
            "UPDATE authorships SET person_id = :keep WHERE person_id = :other",
            "INSERT INTO attributions (paper_id, person_id) SELECT paper_id, :keep "
            "FROM attributions WHERE person_id = :other AND paper_id NOT IN "
            "(SELECT paper_id FROM attributions WHERE person_id = :keep)",
            "DELETE FROM attributions WHERE person_id = :other",
            "UPDATE import_batches SET owner_id = :keep WHERE owner_id = :other",
            "UPDATE person_aliases SET person_id = :keep WHERE person_id = :other",
            "DELETE FROM distinct_people WHERE first_id = :other OR second_id = :other",
            "DELETE FROM persons WHERE id = :other",
        ):
            _sql(conn, statement, keep=keep, other=other)

    _words_again(conn, papers, move)


def _one_paper(conn: Connection, first: int, second: int) -> bool:
    """True when both people are authors of one paper (two people, however alike)."""
    found = conn.exec_driver_sql(
        f"SELECT 1 FROM authorships a JOIN authorships b ON a.paper_id = b.paper_id "
        f"WHERE a.person_id = {int(first)} AND b.person_id = {int(second)} LIMIT 1"
    ).first()
    return found is not None


def _people(conn: Connection) -> None:
    """Fold people's keys and their other spellings' keys. A person whose folded key is
    another person's (or spelling's) is that person, as two spellings that differ by an
    accent always were: merged (under the spelling the library had first), unless both are
    authors of one paper (then its key is the folded one and its id, which searches find)."""
    persons = {str(k): int(i) for i, k in conn.exec_driver_sql("SELECT id, key FROM persons")}
    aliases = {
        str(k): int(i) for k, i in conn.exec_driver_sql("SELECT key, person_id FROM person_aliases")
    }
    for key, person_id in sorted(persons.items()):
        new = fold_letters(key)
        if new == key:
            continue
        owner = persons.get(new, aliases.get(new))
        if owner is None:
            _sql(conn, "UPDATE persons SET key = :k WHERE id = :i", k=new, i=person_id)
            persons[new] = person_id
        elif owner != person_id and not _one_paper(conn, owner, person_id):
            keep, other = sorted((owner, person_id))  # the spelling the library had first
            _merge(conn, keep, other)
            if keep == person_id:  # it takes the key imports make now (a spelling's, maybe)
                _sql(conn, "DELETE FROM person_aliases WHERE key = :k", k=new)
                _sql(conn, "UPDATE persons SET key = :k WHERE id = :i", k=new, i=keep)
                persons[new] = keep
                aliases.pop(new, None)
        elif owner != person_id:
            # Two people of one paper: they stay two, this one under a key of its own that
            # searches find (the folded name and its id; no import spells it).
            apart = f"{new} #{person_id}"
            _sql(conn, "UPDATE persons SET key = :k WHERE id = :i", k=apart, i=person_id)
            persons[apart] = person_id
    for key in sorted(aliases):
        new = fold_letters(key)
        if new != key and new not in persons and new not in aliases:
            _sql(conn, "UPDATE person_aliases SET key = :k WHERE key = :o", k=new, o=key)
            aliases[new] = aliases[key]


def upgrade() -> None:
    """Apply this revision."""
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        from refman.store.search_pg import WORDS_FUNCTION_0019 as WORDS_FUNCTION

        _shared(conn, WORDS_FUNCTION)
    else:
        register_functions(conn.connection.driver_connection, fold_letters)  # type: ignore[arg-type]
        _papers_view(conn, PAPER_SEARCH_VIEW_0019)
        _triggered(conn, folded=True)
    _people(conn)


def downgrade() -> None:
    """Revert this revision (people's keys stay folded: which letter a key had is not known
    any more; an older refman finds such a person by the name as it spells it)."""
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        from refman.store.search_pg import SCHEMA

        _shared(conn, SCHEMA[0].replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION"))
    else:
        register_functions(conn.connection.driver_connection, fold_letters)  # type: ignore[arg-type]
        _papers_view(conn, PAPER_SEARCH_VIEW)
        _triggered(conn, folded=False)
