"""Full-text search over papers, behind one small interface.

The library service asks a :class:`SearchIndex` which papers match what a person typed (with a
rank), to index new papers, and to keep the index right while papers change or go.
:class:`Fts5Index` answers with SQLite FTS5, in three indexes that hold no copy of the text
(external content, ``detail=column``, prefixes of one and two letters):

* ``papers_fts`` over the view ``paper_search``: a paper's title, readable abstract, authors,
  venue and subjects (rowid = paper id). The view builds those from the tables, so the index
  stores words, not text. Code that changes a paper's row or links wraps the change in
  :meth:`Fts5Index.changing` (the old words out, the new in), or indexes new papers with
  :meth:`Fts5Index.add`; deleting papers goes through :meth:`Fts5Index.forget`.
* ``tags_fts`` over ``tags.name`` and ``notes_fts`` over ``notes.text``, kept in step by
  triggers: tagging a hundred thousand papers touches no index at all.

A paper matches when every typed word is in it — in its own words, a tag it carries or one of
its notes. A quoted phrase matches as all its words, then the phrase itself is checked in the
matching papers' text (``detail=column`` keeps no word positions; it halves the index).
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import (
    ColumnElement,
    Select,
    Subquery,
    TextClause,
    bindparam,
    func,
    literal_column,
    select,
    text,
    union,
)
from sqlalchemy.orm import Session

from refman.store.bulk import chunks
from refman.store.packed import readable

#: A new paper's search row: (id, title, readable abstract, authors, venue, subjects).
SearchRow = tuple[int, str, str, str, str, str]

#: How the three indexes split words (the same everywhere, so a word found in one is found
#: in all), and the prefix lengths indexed.
TOKENIZE = "unicode61 remove_diacritics 2"
PREFIXES = "1 2"


class SearchIndex(Protocol):
    """What the library service needs of a full-text index."""

    def matches(self, session: Session, query: str) -> Subquery | None:
        """The papers matching ``query``, as a subquery of (``paper_id``, ``rank``) where a
        lower rank is a better match; None when the query holds no searchable word."""

    def match_ids(self, session: Session, query: str) -> Select[Any] | None:
        """The ids of the papers matching ``query``; None when nothing is searchable."""

    def add(self, session: Session, rows: Sequence[SearchRow]) -> None:
        """Index new papers from their values (they have no rows yet)."""

    def changing(self, session: Session, paper_ids: Iterable[int]) -> Any:
        """A context manager around a change to these papers' rows or links."""

    def forget(self, session: Session, paper_ids: Iterable[int]) -> None:
        """Drop these papers from the index (before they are deleted)."""

    def remember(self, session: Session, paper_ids: Iterable[int]) -> None:
        """Index these papers from their rows (just written)."""


#: bm25 weights per column of papers_fts: title, abstract, authors, venue, subjects.
BM25_WEIGHTS = (10.0, 1.0, 5.0, 2.0, 2.0)
BM25 = "bm25(papers_fts, " + ", ".join(str(w) for w in BM25_WEIGHTS) + ")"
_COLUMNS = "title, abstract, authors, venue, subjects"


@dataclass(frozen=True, slots=True)
class Term:
    """One thing a person typed that must match: a word, or a quoted phrase.

    Attributes:
        words: The phrase's words (one for a word).
        prefix: The last word matches as a prefix (search as you type).
    """

    words: tuple[str, ...]
    prefix: bool = False

    @property
    def phrase(self) -> str | None:
        """The words as a phrase whose order must be checked, or None for one word."""
        return " ".join(self.words) if len(self.words) > 1 else None

    def fts(self) -> str:
        """The term as an FTS5 expression (a phrase as all of its words)."""
        quoted = ['"' + w + '"' for w in self.words]
        if self.prefix:
            quoted[-1] += "*"
        return quoted[0] if len(quoted) == 1 else "(" + " AND ".join(quoted) + ")"


# Letters and digits, as the unicode61 tokenizer keeps them ("_" and marks separate words).
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_PHRASE = re.compile(r'"([^"]*)"')


def parse_terms(typed: str) -> list[Term]:
    """The terms of what a person typed.

    Every word must match; the last word matches as a prefix unless it is followed by a
    space; "quoted phrases" match as phrases. Operators and punctuation are plain word
    separators, so no input can make FTS5 raise.
    """
    pieces: list[tuple[str, bool]] = []  # (text, is_phrase)
    rest_start = 0
    for m in _PHRASE.finditer(typed):
        pieces.append((typed[rest_start : m.start()], False))
        pieces.append((m.group(1), True))
        rest_start = m.end()
    tail = typed[rest_start:]
    pieces.append((tail.replace('"', " "), False))
    terms: list[Term] = []
    for piece, is_phrase in pieces:
        words = _TOKEN.findall(piece)
        if is_phrase and words:
            terms.append(Term(tuple(words)))
        else:
            terms.extend(Term((w,)) for w in words)
    last_words = _TOKEN.findall(tail)
    if terms and last_words and not tail[-1:].isspace() and not tail.endswith('"'):
        terms[-1] = Term(terms[-1].words, prefix=True)
    return terms


def match_expression(typed: str) -> str | None:
    """What a person typed as one FTS5 MATCH expression (all terms), or None when nothing
    in it is searchable."""
    terms = parse_terms(typed)
    return " AND ".join(t.fts() for t in terms) if terms else None


def _plain_words(value: str) -> list[str]:
    """Words as the index compares them: case and diacritics ignored."""
    decomposed = unicodedata.normalize("NFKD", value.casefold())
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _TOKEN.findall(stripped)


def has_phrase(value: str | None, phrase: str) -> bool:
    """True when the words of ``phrase`` stand together, in order, in ``value``."""
    if not value:
        return False
    words, wanted = _plain_words(value), _plain_words(phrase)
    n = len(wanted)
    return any(words[i : i + n] == wanted for i in range(len(words) - n + 1))


def _phrase_in(value: str | None, phrase: str) -> int:
    return 1 if has_phrase(value, phrase) else 0


def register_functions(connection: sqlite3.Connection) -> None:
    """Give an SQLite connection the SQL functions the search view and queries use:
    ``refman_readable(abstract)`` and ``refman_phrase(text, phrase)``."""
    connection.create_function("refman_readable", 1, readable, deterministic=True)
    connection.create_function("refman_phrase", 2, _phrase_in, deterministic=True)


def _matching(table: str, expression: str) -> TextClause:
    """``table MATCH expression``, with a parameter of its own (a query may hold several)."""
    return text(f"{table} MATCH :match").bindparams(
        bindparam("match", value=expression, unique=True)
    )


def _phrase_bind(phrase: str) -> Any:
    return bindparam("phrase", value=phrase, unique=True)


def _rowids(table: str, expression: str) -> Select[Any]:
    return (
        select(literal_column("rowid").label("id"))
        .select_from(text(table))
        .where(_matching(table, expression))
    )


def _paper_ids(term_or_all: str, phrases: Sequence[str]) -> Select[Any]:
    """Papers whose own words match, each phrase checked in the paper's text."""
    ids = _rowids("papers_fts", term_or_all)
    if not phrases:
        return ids
    whole: ColumnElement[str] = literal_column(
        "s.title || ' ' || s.abstract || ' ' || s.authors || ' ' || s.venue || ' ' || s.subjects"
    )
    checks = [func.refman_phrase(whole, _phrase_bind(p)) == 1 for p in phrases]
    return (
        select(literal_column("s.id").label("id"))
        .select_from(text("paper_search AS s"))
        .where(literal_column("s.id").in_(ids), *checks)
    )


def _tagged_ids(term: Term) -> Select[Any]:
    """Papers carrying a tag whose name matches the term."""
    tags = _rowids("tags_fts", term.fts())
    if term.phrase:
        tags = (
            select(literal_column("t.id"))
            .select_from(text("tags AS t"))
            .where(
                literal_column("t.id").in_(tags),
                func.refman_phrase(literal_column("t.name"), _phrase_bind(term.phrase)) == 1,
            )
        )
    return (
        select(literal_column("pt.paper_id").label("id"))
        .select_from(text("paper_tags AS pt"))
        .where(literal_column("pt.tag_id").in_(tags))
    )


def _noted_ids(term: Term) -> Select[Any]:
    """Papers with a note whose text matches the term."""
    notes = _rowids("notes_fts", term.fts())
    conds: list[ColumnElement[bool]] = [literal_column("n.id").in_(notes)]
    if term.phrase:
        conds.append(func.refman_phrase(literal_column("n.text"), _phrase_bind(term.phrase)) == 1)
    return (
        select(literal_column("n.paper_id").label("id"))
        .select_from(text("notes AS n"))
        .where(*conds)
    )


def _any_hit(session: Session, table: str, term: Term) -> bool:
    found: Any = session.execute(
        select(literal_column("1"))
        .select_from(text(table))
        .where(_matching(table, term.fts()))
        .limit(1)
    ).first()
    return found is not None


class Fts5Index:
    """The search index of an SQLite library (see the module)."""

    def _mixed(self, session: Session, terms: list[Term]) -> bool:
        """True when some term matches a tag or a note (else the papers' own words decide)."""
        return any(
            _any_hit(session, "tags_fts", t) or _any_hit(session, "notes_fts", t) for t in terms
        )

    def match_ids(self, session: Session, query: str) -> Select[Any] | None:
        """The ids of the matching papers, in no particular order."""
        terms = parse_terms(query)
        if not terms:
            return None
        if not self._mixed(session, terms):
            phrases = [t.phrase for t in terms if t.phrase]
            return _paper_ids(" AND ".join(t.fts() for t in terms), phrases)
        sets = [
            union(
                _paper_ids(t.fts(), [t.phrase] if t.phrase else []),
                _tagged_ids(t),
                _noted_ids(t),
            ).subquery()
            for t in terms
        ]
        first, *others = sets
        return select(first.c.id).where(*(first.c.id.in_(select(s.c.id)) for s in others))

    def matches(self, session: Session, query: str) -> Subquery | None:
        """The matching papers with their bm25 rank (a title match weighs most)."""
        ids = self.match_ids(session, query)
        if ids is None:
            return None
        terms = parse_terms(query)
        ranked = (
            select(literal_column("rowid").label("id"), literal_column(BM25).label("rank"))
            .select_from(text("papers_fts"))
            .where(_matching("papers_fts", " OR ".join(t.fts() for t in terms)))
            .subquery("ranked")
        )
        found: Subquery = ids.subquery("found")
        return (
            select(found.c.id.label("paper_id"), func.coalesce(ranked.c.rank, 0.0).label("rank"))
            .select_from(found.outerjoin(ranked, ranked.c.id == found.c.id))
            .subquery("matches")
        )

    def add(self, session: Session, rows: Sequence[SearchRow]) -> None:
        """Index new papers in one executemany."""
        if rows:
            session.connection().exec_driver_sql(
                f"INSERT INTO papers_fts(rowid, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                list(rows),
            )

    def forget(self, session: Session, paper_ids: Iterable[int]) -> None:
        """Take these papers' words out of the index, as the view gives them now."""
        for batch in chunks(sorted({int(i) for i in paper_ids})):
            ids = ",".join(str(i) for i in batch)
            session.execute(
                text(
                    f"INSERT INTO papers_fts(papers_fts, rowid, {_COLUMNS}) "
                    f"SELECT 'delete', id, {_COLUMNS} FROM paper_search WHERE id IN ({ids})"
                )
            )

    def remember(self, session: Session, paper_ids: Iterable[int]) -> None:
        """Put these papers' words into the index, as the view gives them now."""
        for batch in chunks(sorted({int(i) for i in paper_ids})):
            ids = ",".join(str(i) for i in batch)
            session.execute(
                text(
                    f"INSERT INTO papers_fts(rowid, {_COLUMNS}) "
                    f"SELECT id, {_COLUMNS} FROM paper_search WHERE id IN ({ids})"
                )
            )

    @contextmanager
    def changing(self, session: Session, paper_ids: Iterable[int]) -> Iterator[None]:
        """Wrap a change to these papers' rows or links: their old words leave the index
        before it, their new words enter after it."""
        ids = sorted({int(i) for i in paper_ids})
        self.forget(session, ids)
        yield
        self.remember(session, ids)
