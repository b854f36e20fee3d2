"""Full-text search over papers, behind one small interface.

The library service asks a :class:`SearchIndex` four things: which papers match what a person
typed (with a rank), to index new papers, to bring the rows of changed papers up to date, and
to drop deleted ones. :class:`Fts5Index` answers them with SQLite FTS5: the ``papers_fts``
table holds one row per paper (rowid = paper id) with its title, readable abstract, authors,
venue, subjects, tags and notes. Every change calls the index inside its own transaction, so
the index never drifts from the data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from sqlalchemy import Select, Subquery, TextClause, bindparam, literal_column, select, text
from sqlalchemy.orm import Session

from refman.store.bulk import chunks

#: A new paper's search row: (id, title, abstract, authors, venue, subjects, tags, notes).
SearchRow = tuple[int, str, str, str, str, str, str, str]


class SearchIndex(Protocol):
    """What the library service needs of a full-text index."""

    def matches(self, query: str) -> Subquery | None:
        """The papers matching ``query``, as a subquery of (``paper_id``, ``rank``) where a
        lower rank is a better match; None when the query holds no searchable word."""

    def match_ids(self, query: str) -> Select[Any] | None:
        """The ids of the papers matching ``query``; None when nothing is searchable."""

    def add(self, session: Session, rows: Sequence[SearchRow]) -> None:
        """Index new papers from their values (they have no rows yet)."""

    def reindex(self, session: Session, paper_ids: Iterable[int]) -> None:
        """Bring the rows of these papers up to date; deleted papers lose their rows."""


#: bm25 weights per column: title, abstract, authors, venue, subjects, tags, notes.
BM25_WEIGHTS = (10.0, 1.0, 5.0, 2.0, 2.0, 5.0, 1.0)
BM25 = "bm25(papers_fts, " + ", ".join(str(w) for w in BM25_WEIGHTS) + ")"

_REINDEX_SQL = """
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
FROM papers p WHERE p.id IN ({ids})
"""


def _matching(expression: str) -> TextClause:
    """``papers_fts MATCH expression``, with a parameter of its own (one query may hold
    several)."""
    return text("papers_fts MATCH :match").bindparams(
        bindparam("match", value=expression, unique=True)
    )


class Fts5Index:
    """The search index of an SQLite library: the FTS5 table ``papers_fts``."""

    def matches(self, query: str) -> Subquery | None:
        """The matching papers with their bm25 rank (title weighs most)."""
        expression = match_expression(query)
        if expression is None:
            return None
        return (
            select(
                literal_column("rowid").label("paper_id"),
                literal_column(BM25).label("rank"),
            )
            .select_from(text("papers_fts"))
            .where(_matching(expression))
            .subquery("matches")
        )

    def match_ids(self, query: str) -> Select[Any] | None:
        """The ids of the matching papers, in no particular order."""
        expression = match_expression(query)
        if expression is None:
            return None
        return (
            select(literal_column("rowid").label("paper_id"))
            .select_from(text("papers_fts"))
            .where(_matching(expression))
        )

    def add(self, session: Session, rows: Sequence[SearchRow]) -> None:
        """Index new papers in one executemany."""
        if rows:
            session.connection().exec_driver_sql(
                "INSERT INTO papers_fts(rowid, title, abstract, authors, venue, subjects, tags,"
                " notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                list(rows),
            )

    def reindex(self, session: Session, paper_ids: Iterable[int]) -> None:
        """Rewrite the rows of these papers from the stored data."""
        for batch in chunks(sorted({int(i) for i in paper_ids})):
            ids = ",".join(str(i) for i in batch)
            session.execute(text(f"DELETE FROM papers_fts WHERE rowid IN ({ids})"))
            session.execute(text(_REINDEX_SQL.format(ids=ids)))


_TOKEN = re.compile(r"\w+", re.UNICODE)
_PHRASE = re.compile(r'"([^"]*)"')


def match_expression(query: str) -> str | None:
    """Turn what a person typed into a safe FTS5 MATCH expression.

    Every word must match; the last word matches as a prefix (search as you type) unless it is
    followed by a space; "quoted phrases" match as phrases. Operators and punctuation are
    treated as plain word separators, so no input can make FTS5 raise.

    Args:
        query: The text typed in the search field.

    Returns:
        The MATCH expression, or None when the query holds no searchable word.
    """
    parts: list[str] = []
    rest_start = 0
    pieces: list[tuple[str, bool]] = []  # (text, is_phrase)
    for m in _PHRASE.finditer(query):
        pieces.append((query[rest_start : m.start()], False))
        pieces.append((m.group(1), True))
        rest_start = m.end()
    tail = query[rest_start:]
    pieces.append((tail.replace('"', " "), False))
    for piece, is_phrase in pieces:
        words = _TOKEN.findall(piece)
        if not words:
            continue
        if is_phrase:
            parts.append('"' + " ".join(words) + '"')
        else:
            parts.extend('"' + w + '"' for w in words)
    if not parts:
        return None
    last_piece_words = _TOKEN.findall(tail)
    if last_piece_words and not tail[-1:].isspace() and not tail.endswith('"'):
        parts[-1] = parts[-1] + "*"
    return " ".join(parts)
