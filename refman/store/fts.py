"""Full-text search over papers with SQLite FTS5.

The ``papers_fts`` table holds one row per paper (rowid = paper id) with its title, readable
abstract, authors, venue, subjects, tags and notes. The library service calls
:func:`reindex` for every paper a change touches, inside the same transaction, so the index
never drifts from the data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from sqlalchemy import text
from sqlalchemy.orm import Session

#: bm25 weights per column: title, abstract, authors, venue, subjects, tags, notes.
BM25_WEIGHTS = (10.0, 1.0, 5.0, 2.0, 2.0, 5.0, 1.0)
BM25 = "bm25(papers_fts, " + ", ".join(str(w) for w in BM25_WEIGHTS) + ")"

_CHUNK = 500

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


def _chunks(ids: Iterable[int]) -> Iterable[list[int]]:
    batch: list[int] = []
    for paper_id in ids:
        batch.append(int(paper_id))
        if len(batch) == _CHUNK:
            yield batch
            batch = []
    if batch:
        yield batch


def reindex(session: Session, paper_ids: Iterable[int]) -> None:
    """Bring the index rows of these papers up to date (dropping those of deleted papers)."""
    for batch in _chunks(sorted(set(paper_ids))):
        ids = ",".join(str(i) for i in batch)
        session.execute(text(f"DELETE FROM papers_fts WHERE rowid IN ({ids})"))
        session.execute(text(_REINDEX_SQL.format(ids=ids)))


def insert(session: Session, rows: Sequence[tuple[int, str, str, str, str, str, str, str]]) -> None:
    """Index new papers from their values: (id, title, abstract, authors, venue, subjects,
    tags, notes) each. The caller guarantees the papers have no index rows yet."""
    if rows:
        session.connection().exec_driver_sql(
            "INSERT INTO papers_fts(rowid, title, abstract, authors, venue, subjects, tags, notes)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            list(rows),
        )


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
