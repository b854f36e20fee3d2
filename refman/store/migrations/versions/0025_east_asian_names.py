"""Chinese, Japanese and Korean names are written family name first (张伟, 山田 太郎): people so
named are named again, and a name's key is the same with or without a space

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07

Before this revision such a name was taken for a Western one: BibTeX's "张, 伟" was shown
"伟 张" (so a search for 张伟 found nothing), and a name written family name first with a
space ("山田 太郎" on a page, or in BibTeX without a comma) took its last word for the family
name. A person whose name's two parts are in those scripts, shown as "given family", is
mended: named family name first when a record the person came from gave the family name
(BibTeX's or RIS's "张, 伟", CSL-JSON's ``"family"``, BibLaTeX's ``family=``), else — the
name shown was as written — its two parts swap. A person's key no longer holds the space
("山田太郎"); the key it had stays its other spelling (``person_aliases``). When another person
already has the new key, the person keeps its own (the two are proposed as one, as any two
people of one name are). The papers' author line and sort key, and their search words, follow.

The downgrade leaves the people as they are (an older refman shows them as stored).
"""

from __future__ import annotations

import re
from typing import Any

from alembic import op
from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

from refman.common.text import east_asian, person_key
from refman.store.search import Fts5Index
from refman.store.search_terms import register_functions

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | None = None
depends_on: str | None = None

#: The people who may be named so: two parts, none a particle, not an organisation, the
#: family name's first letter at least U+1100 (Hangul Jamo, the first of those scripts).
_CANDIDATES = """
SELECT id, name, key, family, given FROM persons
WHERE NOT literal AND particle = '' AND family <> '' AND given <> '' AND {first}(family) >= 4352
"""
_RAW = """
SELECT bp.raw FROM batch_papers bp JOIN authorships a ON a.paper_id = bp.paper_id
WHERE a.person_id = :pid AND bp.raw IS NOT NULL
"""
_PAPERS = """
SELECT paper_id FROM authorships WHERE person_id = :pid
UNION SELECT paper_id FROM attributions WHERE person_id = :pid
"""


def _family_given(raw: str, family: str, given: str) -> bool:
    """True when a record the person came from names ``family`` as the family name."""
    f, g = re.escape(family), re.escape(given)
    forms = (rf"{f}\s*,\s*{g}", rf'"family"\s*:\s*"{f}"', rf"family\s*=\s*[{{\"]?{f}\b")
    return any(re.search(form, raw) for form in forms)


def _renamed(conn: Connection, row: Any) -> tuple[str, str, str] | None:
    """(name, family, given) the person is to have, or None when not such a name."""
    pid, name, _, family, given = row
    if not (east_asian(family) and east_asian(given)) or name != f"{given} {family}":
        return None
    raws = conn.execute(text(_RAW), {"pid": pid}).scalars()
    if any(_family_given(str(raw), family, given) for raw in raws):
        return family + given, family, given
    return name, given, family  # the name as written: its first word is the family name


_NAMED = "UPDATE persons SET name = :name, family = :family, given = :given"


def _rename(conn: Connection, row: Any, name: str, family: str, given: str) -> None:
    pid, old_name, old_key = row[0], row[1], row[2]
    key = person_key(name)
    taken = conn.execute(
        text(
            "SELECT 1 FROM persons WHERE key = :key AND id <> :pid UNION ALL "
            "SELECT 1 FROM person_aliases WHERE key = :key AND person_id <> :pid"
        ),
        {"key": key, "pid": pid},
    ).first()
    values = {"pid": pid, "name": name, "family": family, "given": given, "key": key}
    if taken is None and key != old_key:
        conn.execute(text("DELETE FROM person_aliases WHERE key = :key"), values)
        conn.execute(text(f"{_NAMED}, key = :key WHERE id = :pid"), values)
        conn.execute(
            text("INSERT INTO person_aliases (key, person_id) VALUES (:old, :pid)"),
            {"old": old_key, "pid": pid},
        )
    else:
        conn.execute(text(f"{_NAMED} WHERE id = :pid"), values)
    # The list's author line ("伟 张 et al.") and sort key of the papers it is first author of
    # (as refman.core.merge.sort_author gives it).
    firsts = conn.execute(
        text(
            "SELECT p.id, p.author_line FROM papers p JOIN authorships a ON a.paper_id = p.id "
            "WHERE a.person_id = :pid AND a.position = 0"
        ),
        {"pid": pid},
    ).all()
    for paper_id, line in firsts:
        if line.startswith(old_name):
            conn.execute(
                text("UPDATE papers SET author_line = :line, sort_author = :sort WHERE id = :id"),
                {"line": name + line[len(old_name) :], "sort": name.casefold(), "id": paper_id},
            )


def upgrade() -> None:
    """Apply this revision."""
    conn = op.get_bind()
    server = conn.dialect.name == "postgresql"
    rows = conn.execute(text(_CANDIDATES.format(first="ascii" if server else "unicode"))).all()
    renames = [(row, new) for row in rows if (new := _renamed(conn, row)) is not None]
    if not renames:
        return
    papers = sorted(
        {
            int(p)
            for row, _ in renames
            for p in conn.execute(text(_PAPERS), {"pid": row[0]}).scalars()
        }
    )
    if server:
        from refman.store.search_pg import PgIndex

        index: Any = PgIndex()
    else:
        register_functions(conn.connection.driver_connection)  # type: ignore[arg-type]
        index = Fts5Index()
    # (the session works in the migration's transaction)
    with Session(bind=conn) as session, index.changing(session, papers):
        for row, (name, family, given) in renames:
            _rename(session.connection(), row, name, family, given)


def downgrade() -> None:
    """Revert this revision: the names stay as they are."""
