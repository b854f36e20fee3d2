"""Chinese, Japanese and Korean: names family name first (张伟, 山田 太郎), one person with or
without the space, and letters searched one by one (泥沙 finds 黄河的泥沙)

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07

Before this revision such a name was taken for a Western one: BibTeX's "张, 伟" was shown
"伟 张" (so a search for 张伟 found nothing), and a name written family name first with a
space ("山田 太郎" on a page, or in BibTeX without a comma) took its last word for the family
name. A person whose name's two parts are in those scripts, shown as "given family", is
mended: named family name first when a record the person came from gave the family name
(BibTeX's or RIS's "张, 伟", CSL-JSON's ``"family"``, BibLaTeX's ``family=``), else — the name
shown was as written — its two parts swap. A person's key no longer holds a space between
such letters, nor loses kana's voicing marks (やまだ is not やまた): a person named in those
scripts takes the key :func:`~refman.common.text.person_key` gives now, the key it had
staying its other spelling (``person_aliases``); two people whose keys become one are one
person (the one the library had first keeps the other's papers, pages and spellings), unless
both are authors of one paper. The papers' author line and sort key follow.

Those scripts write no space between words, so the search indexes now hold their letters
one by one (:func:`~refman.common.east_asian.letters_apart`): the rows holding such letters leave
each index as it read them before and enter as it reads them now (on SQLite; the papers'
index is made again whole when they are most of the library), and PostgreSQL's
``refman_words`` sets them apart too, the rows holding them made again.

The downgrade indexes those rows as before; the people stay as they are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from alembic import op
from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

from refman.common.east_asian import (
    EAST_ASIAN_SQL_CLASS,
    east_asian,
    holds_east_asian,
    letters_apart,
)
from refman.common.text import index_form, person_key, sort_name
from refman.store.refold import TRIGGERED, refold_sqlite
from refman.store.search_terms import register_functions

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | None = None
depends_on: str | None = None

_RAW = """
SELECT bp.raw FROM batch_papers bp JOIN authorships a ON a.paper_id = bp.paper_id
WHERE a.person_id = :pid AND bp.raw IS NOT NULL
"""


def _has_letters(value: Any) -> bool:
    """True for a text holding such letters as the index reads it (half-width ｶﾀｶﾅ too)."""
    return isinstance(value, str) and holds_east_asian(index_form(value))


# -- people -------------------------------------------------------------------------------


def _raw_values(raw: str) -> Iterator[str]:
    """A record's text with braces gone (``{陈}, {静}``), and the values of a CSL-JSON one
    (``\\u5218`` read as 刘)."""
    yield raw.replace("{", "").replace("}", "")
    if raw.lstrip()[:1] in "[{":
        try:
            yield json.dumps(json.loads(raw), ensure_ascii=False)
        except ValueError:
            return


def _family_given(raw: str, family: str, given: str) -> bool:
    """True when a record the person came from names ``family`` as the family name."""
    f, g = re.escape(family), re.escape(given)
    forms = (rf"{f}\s*,\s*{g}", rf'"family"\s*:\s*"{f}"', rf"family\s*=\s*\"?{f}")
    return any(re.search(form, value) for value in _raw_values(raw) for form in forms)


def _renamed(conn: Connection, row: Any) -> tuple[str, str, str] | None:
    """(name, family, given) a person is to have, or None when not named so."""
    pid, name, family, given, literal, particle = row
    if literal or particle or not (east_asian(family) and east_asian(given)):
        return None
    if name != f"{given} {family}":
        return None
    raws = conn.execute(text(_RAW), {"pid": pid}).scalars()
    if any(_family_given(str(raw), family, given) for raw in raws):
        return family + given, family, given
    return name, given, family  # the name as written: its first word is the family name


def _sql(conn: Connection, statement: str, **values: object) -> None:
    conn.execute(text(statement), values)


def _kept_apart(conn: Connection, first: int, second: int) -> bool:
    """True when two people stay two, however alike: both are authors of one paper, or the
    person said they are not one (``distinct_people``)."""
    found = conn.execute(
        text(
            "SELECT 1 FROM authorships a JOIN authorships b ON a.paper_id = b.paper_id "
            "WHERE a.person_id = :a AND b.person_id = :b UNION ALL SELECT 1 FROM "
            "distinct_people WHERE first_id = :low AND second_id = :high"
        ),
        {"a": first, "b": second, "low": min(first, second), "high": max(first, second)},
    ).first()
    return found is not None


def _merge(conn: Connection, keep: int, other: int) -> None:
    """Make ``other`` the person ``keep``: their papers, pages and spellings."""
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


def _author_lines(conn: Connection, pid: int, old: str, new: str) -> None:
    """The list's author line ("伟 张 et al.") and sort key of the papers the person is first
    author of (as :func:`refman.core.merge.sort_author` gives it)."""
    firsts = conn.execute(
        text(
            "SELECT p.id, p.author_line FROM papers p JOIN authorships a ON a.paper_id = p.id "
            "WHERE a.person_id = :pid AND a.position = 0"
        ),
        {"pid": pid},
    ).all()
    for paper_id, line in firsts:
        if line.startswith(old):
            sort = sort_name(new)
            _sql(
                conn,
                "UPDATE papers SET author_line = :line, sort_author = :sort WHERE id = :id",
                line=new + line[len(old) :],
                sort=sort,
                id=paper_id,
            )


def _rekey(conn: Connection, pid: int, old: str, new: str) -> None:
    """The person's key becomes ``new``, the key it had its other spelling — unless that is
    another name's key now (やまた, the key やまだ had, is やまた's)."""
    _sql(conn, "DELETE FROM person_aliases WHERE key = :k", k=new)
    _sql(conn, "UPDATE persons SET key = :k WHERE id = :i", k=new, i=pid)
    if person_key(old) != old:
        _sql(conn, "INSERT INTO person_aliases (key, person_id) VALUES (:k, :i)", k=old, i=pid)


def _name_again(conn: Connection, row: Any) -> str:
    """Name a person again when named given name first (see :func:`_renamed`); their name."""
    pid, name = int(row[0]), str(row[1])
    renamed = _renamed(conn, row)
    if renamed is None:
        return name
    new, family, given = renamed
    _sql(
        conn,
        "UPDATE persons SET name = :n, family = :f, given = :g WHERE id = :i",
        n=new,
        f=family,
        g=given,
        i=pid,
    )
    _author_lines(conn, pid, name, new)
    return new


def _people(conn: Connection) -> None:
    """Name again and key again the people named in those scripts (see the module)."""
    rows = conn.execute(
        text("SELECT id, name, family, given, literal, particle FROM persons ORDER BY id")
    ).all()
    key_of = {int(i): str(k) for i, k in conn.execute(text("SELECT id, key FROM persons"))}
    holders = {k: i for i, k in key_of.items()}
    for k, i in conn.execute(text("SELECT key, person_id FROM person_aliases")):
        holders.setdefault(str(k), int(i))
    for row in (r for r in rows if _has_letters(r[1])):
        pid = int(row[0])
        if pid not in key_of:
            continue  # (merged into another already)
        name, old = _name_again(conn, row), key_of[pid]
        new = person_key(name)
        holder = holders.get(new, pid)
        if new == old or " #" in old:  # (a key kept apart, two people of one paper: stays)
            continue
        if holder == pid:
            _rekey(conn, pid, old, new)
            holders[new] = holders[old] = pid
            key_of[pid] = new
        elif not _kept_apart(conn, holder, pid):
            keep, other = sorted((holder, pid))  # the person the library had first
            kept_name, other_name = (_name_of(conn, i) for i in (keep, other))
            _merge(conn, keep, other)
            _sql(
                conn,
                "INSERT INTO person_aliases (key, person_id) VALUES (:k, :i)",
                k=key_of.pop(other),
                i=keep,
            )
            if keep == pid:  # it takes the key imports make now
                _rekey(conn, keep, old, new)
                key_of[keep] = new
            _author_lines(conn, keep, other_name, kept_name)
            holders.update({k: keep for k, who in holders.items() if who == other})


def _name_of(conn: Connection, pid: int) -> str:
    return str(
        conn.execute(text("SELECT name FROM persons WHERE id = :i"), {"i": pid}).scalar_one()
    )


# -- search -------------------------------------------------------------------------------


def _new_fold(value: str) -> str:
    return letters_apart(index_form(value))


def _lettered_shared(conn: Connection) -> set[int]:
    """PostgreSQL: the papers whose words hold such letters (as NFKC reads the text)."""
    held = "normalize({}, NFKC) ~ %(p)s"
    names = (
        "SELECT t.paper_id FROM {} t JOIN persons pe ON pe.id = t.person_id WHERE "
        + held.format("pe.name")
    )
    rows = conn.exec_driver_sql(
        f"SELECT id FROM papers WHERE {held.format('title')} OR {held.format('venue')} "
        f"OR {held.format('abstract')} UNION {names.format('authorships')} "
        f"UNION {names.format('attributions')}",
        {"p": EAST_ASIAN_SQL_CLASS},
    )
    return {int(pid) for (pid,) in rows}


def _postgresql(conn: Connection, function: str, change: Callable[[], None]) -> None:
    """PostgreSQL: the words function, the change, and the words made again of the papers
    holding such letters before or after it (and of tags, notes and files' texts: generated
    columns are made again by an update of their row)."""
    from refman.store.search_pg import PgIndex

    before = _lettered_shared(conn)
    change()
    conn.exec_driver_sql(function)
    for _, column, _, table in TRIGGERED:
        conn.exec_driver_sql(
            f"UPDATE {table} SET {column} = {column} WHERE normalize({column}, NFKC) ~ %(p)s",
            {"p": EAST_ASIAN_SQL_CLASS},
        )
    ids = sorted(before | _lettered_shared(conn))
    with Session(bind=conn) as session:  # (in the migration's transaction)
        PgIndex().forget(session, ids)
        PgIndex().remember(session, ids)


def upgrade() -> None:
    """Apply this revision."""
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        from refman.store.search_pg import WORDS_FUNCTION_0025

        _postgresql(conn, WORDS_FUNCTION_0025, lambda: _people(conn))
        return
    try:
        refold_sqlite(conn, index_form, _new_fold, _has_letters, lambda: _people(conn))
    finally:
        register_functions(conn.connection.driver_connection)  # type: ignore[arg-type]


def downgrade() -> None:
    """Revert this revision: the rows holding such letters indexed as before."""
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        from refman.store.search_pg import WORDS_FUNCTION_0019

        _postgresql(conn, WORDS_FUNCTION_0019, lambda: None)
        return
    try:
        refold_sqlite(conn, _new_fold, index_form, _has_letters)
    finally:
        register_functions(conn.connection.driver_connection, index_form)  # type: ignore[arg-type]
