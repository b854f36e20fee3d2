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
* ``tags_fts`` over ``tags.name`` and ``notes_fts`` over ``notes.text`` (and
  ``file_texts_fts`` over the text of attached files), kept in step by triggers: tagging a
  hundred thousand papers touches no index at all.

Each index reads its text through a view that folds letters such as ø and ł to o and l
(:data:`~refman.store.search_schema.SEARCH_VIEWS`), which SQLite's tokenizer keeps as they
are; the words typed are folded alike.

A paper matches when every typed word is in it — in its own words, a tag it carries or one of
its notes. A quoted phrase matches as all its words, then the phrase itself is checked in the
matching papers' text (``detail=column`` keeps no word positions; it halves the index).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import (
    ColumnElement,
    FromClause,
    Select,
    Subquery,
    TextClause,
    bindparam,
    column,
    func,
    literal_column,
    or_,
    select,
    table,
    text,
    union,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from refman.store.bulk import id_json
from refman.store.search_rank import (
    FIELDS,
    fts5_ranking,
    fts_matching,
    fts_rowids,
    ranked_matches,
)
from refman.store.search_schema import PAPER_TEXT, damaged_indexes, rebuild_indexes
from refman.store.search_terms import Term, fts_tokens, parse_terms, plain_words

#: A new paper's search row: (id, title, readable abstract, authors, venue, subjects).
SearchRow = tuple[int, str, str, str, str, str]


@dataclass(frozen=True, slots=True)
class Driving:
    """Matches that a list can walk in paper-id order, stopping at the rows it needs.

    Attributes:
        source: What to join ``papers`` to.
        paper_id: The source's paper id (join on it, order by it).
        conditions: What must also hold (the match itself, phrase checks on ``papers``).
        own: The conditions refer to the source alone (no phrase checks): the source can
            count its matches without ``papers``.
    """

    source: FromClause
    paper_id: ColumnElement[int]
    conditions: tuple[ColumnElement[bool] | TextClause, ...]
    own: bool


class SearchIndex(Protocol):
    """What the library service needs of a full-text index."""

    def matches(self, session: Session, query: str, *, everything: bool = False) -> Subquery | None:
        """The papers matching ``query``, as a subquery of (``paper_id``, ``rank``) where a
        lower rank is a better match; None when the query holds no searchable word. With
        ``everything``, a word may also be in the text of a paper's files."""

    def match_ids(
        self, session: Session, query: str, *, everything: bool = False, whole: bool = False
    ) -> Select[Any] | None:
        """The ids of the papers matching ``query``, to be used as ``papers.id IN (...)`` in
        a statement over the ``papers`` table (it may check the enclosing row, see
        :data:`OUTER_ID`); None when nothing is searchable. ``everything`` as in
        :meth:`matches`. ``whole``: the statement visits every match (a count), so a phrase
        is checked over the matches themselves, not row by row of the enclosing statement
        (which suits a page of a list: a hundred rows checked, not every match)."""

    def driving(self, session: Session, query: str, *, everything: bool = False) -> Driving | None:
        """The matches as a source to join papers to, in paper-id order, or None when the
        query holds no searchable word or needs more than the papers' own words (a tag, a
        note or, with ``everything``, a file's text matches)."""

    def similar_titles(self, session: Session, words: Sequence[str], limit: int) -> list[int]:
        """Up to ``limit`` papers whose titles hold all of ``words`` but one."""

    def word_ids(self, word: str) -> Select[Any] | None:
        """The papers (Trash included) with ``word`` (one word, as :func:`plain_words` folds
        it) in their title or abstract, as a select of one column, ``id``; None when the
        word is not one word to the index."""

    def add(self, session: Session, rows: Sequence[SearchRow]) -> None:
        """Index new papers from their values (they have no rows yet)."""

    def changing(self, session: Session, paper_ids: Iterable[int]) -> Any:
        """A context manager around a change to these papers' rows or links."""

    def forget(self, session: Session, paper_ids: Iterable[int]) -> None:
        """Drop these papers from the index (before they are deleted)."""

    def remember(self, session: Session, paper_ids: Iterable[int]) -> None:
        """Index these papers from their rows (just written)."""

    def repair(self, session: Session) -> str:
        """Make the index match the rows where it does not; what was redone ("" for
        nothing)."""


_COLUMNS = ", ".join(FIELDS)
#: Paper ids bound as one JSON array (see :func:`refman.store.bulk.id_set`).
_ID_SET = "SELECT value FROM json_each(:ids)"


#: The fewest papers indexed in one statement with FTS5's bulk settings.
BULK_WORDS = 5000
#: FTS5's settings for a bulk write (name, bulk value, FTS5's default): the words of 8 MiB
#: of text gathered in memory before they go to the index as a segment (1 MiB by default),
#: and no merging of the index's segments as they are written (FTS5's "crisis merge" still
#: merges when a level holds 16). 20,000 papers into a million: 1.0 -> 0.47 s, the search
#: index then holding 15 segments where it held 14, searches as fast; 50,000 into a new
#: library: 1.46 -> 1.18 s.
_BULK_SETTINGS = (("hashsize", 8 << 20, 1 << 20), ("automerge", 0, 4))


@contextmanager
def _bulk_words(session: Session, bulk: bool) -> Iterator[None]:
    """Around a bulk write into the search index (when ``bulk``): FTS5's bulk settings,
    set back to FTS5's defaults after it, inside the same transaction (a failure rolls both
    back with the write)."""
    if not bulk:
        yield
        return
    conn = session.connection()
    setting = "INSERT INTO papers_fts(papers_fts, rank) VALUES (?, ?)"
    conn.exec_driver_sql(setting, [(name, value) for name, value, _ in _BULK_SETTINGS])
    defaults = [(name, default) for name, _, default in _BULK_SETTINGS]
    try:
        yield
    except BaseException:
        # The settings go back before the transaction is rolled back, as long as there is
        # one (an error that ended it, a full disk, rolled them back with the write); the
        # error is the one that stopped the write, whatever this meets.
        if conn.connection.dbapi_connection.in_transaction:  # type: ignore[union-attr]
            with suppress(DBAPIError):
                conn.exec_driver_sql(setting, defaults)
        raise
    conn.exec_driver_sql(setting, defaults)


def _phrase_bind(phrase: str) -> Any:
    return bindparam("phrase", value=phrase, unique=True)


#: The list's own table, to which a search's phrase checks refer (see :class:`SearchIndex`).
OUTER_ID = "papers.id"


def _with_phrases(phrases: Sequence[str], *, outer: bool) -> Select[Any]:
    """Papers in whose text each phrase stands in one field (the title first: it needs no
    unpacking). With ``outer``, only the row of the enclosing statement's ``papers`` is
    checked: a first page of a list checks a hundred papers, not every one with the words."""
    checks = [
        or_(
            *(
                func.refman_phrase(literal_column(f"s.{column}"), _phrase_bind(p)) == 1
                for column in _COLUMNS.split(", ")
            )
        )
        for p in phrases
    ]
    same = [literal_column("s.id") == literal_column(OUTER_ID)] if outer else []
    return (
        select(literal_column("s.id").label("id"))
        .select_from(text(f"({PAPER_TEXT}) AS s"))
        .where(*same, *checks)
    )


def _paper_ids(term_or_all: str, phrases: Sequence[str], *, outer: bool = False) -> Select[Any]:
    """Papers whose own words match, each phrase checked (see :func:`_with_phrases`)."""
    ids = fts_rowids("papers_fts", term_or_all)
    if not phrases:
        return ids
    return _with_phrases(phrases, outer=outer).where(literal_column("s.id").in_(ids))


def _tagged_ids(term: Term) -> Select[Any]:
    """Papers carrying a tag whose name matches the term."""
    tags = fts_rowids("tags_fts", term.fts())
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
    notes = fts_rowids("notes_fts", term.fts())
    conds: list[ColumnElement[bool]] = [literal_column("n.id").in_(notes)]
    if term.phrase:
        conds.append(func.refman_phrase(literal_column("n.text"), _phrase_bind(term.phrase)) == 1)
    return (
        select(literal_column("n.paper_id").label("id"))
        .select_from(text("notes AS n"))
        .where(*conds)
    )


def _filed_ids(term: Term) -> Select[Any]:
    """Papers with a file whose text matches the term."""
    texts = fts_rowids("file_texts_fts", term.fts())
    conds: list[ColumnElement[bool]] = [literal_column("ft.id").in_(texts)]
    if term.phrase:
        conds.append(func.refman_phrase(literal_column("ft.text"), _phrase_bind(term.phrase)) == 1)
    return (
        select(literal_column("ft.paper_id").label("id"))
        .select_from(text("file_texts AS ft"))
        .where(*conds)
    )


def _any_hit(session: Session, table: str, term: Term) -> bool:
    found: Any = session.execute(
        select(literal_column("1"))
        .select_from(text(table))
        .where(fts_matching(table, term.fts()))
        .limit(1)
    ).first()
    return found is not None


class Fts5Index:
    """The search index of an SQLite library (see the module)."""

    def _mixed(self, session: Session, terms: list[Term], everything: bool) -> bool:
        """True when some term matches a tag, a note or (with ``everything``) a file's text
        (else the papers' own words decide)."""
        tables = ("tags_fts", "notes_fts", *(("file_texts_fts",) if everything else ()))
        return any(_any_hit(session, table, t) for t in terms for table in tables)

    def match_ids(
        self, session: Session, query: str, *, everything: bool = False, whole: bool = False
    ) -> Select[Any] | None:
        """The ids of the matching papers, in no particular order (see
        :meth:`SearchIndex.match_ids`)."""
        return self._match_ids(session, query, outer=not whole, everything=everything)

    def _match_ids(
        self, session: Session, query: str, *, outer: bool, everything: bool = False
    ) -> Select[Any] | None:
        terms = parse_terms(query)
        if not terms:
            return None
        if not self._mixed(session, terms, everything):
            phrases = [t.phrase for t in terms if t.phrase]
            return _paper_ids(" AND ".join(t.fts() for t in terms), phrases, outer=outer)
        sets = [
            union(
                _paper_ids(t.fts(), [t.phrase] if t.phrase else []),
                _tagged_ids(t),
                _noted_ids(t),
                *((_filed_ids(t),) if everything else ()),
            ).subquery()
            for t in terms
        ]
        first, *others = sets
        return select(first.c.id).where(*(first.c.id.in_(select(s.c.id)) for s in others))

    def driving(self, session: Session, query: str, *, everything: bool = False) -> Driving | None:
        """The full-text index itself, which hands out its matches in rowid (paper id) order:
        the newest hundred matches of a broad word cost a hundred rows, not every match."""
        terms = parse_terms(query)
        if not terms or self._mixed(session, terms, everything):
            return None
        fts = table("papers_fts", column("rowid"))
        match = fts_matching("papers_fts", " AND ".join(t.fts() for t in terms))
        phrases = [t.phrase for t in terms if t.phrase]
        if not phrases:
            return Driving(fts, fts.c.rowid, (match,), own=True)
        check = literal_column(OUTER_ID).in_(_with_phrases(phrases, outer=True))
        return Driving(fts, fts.c.rowid, (match, check), own=False)

    def similar_titles(self, session: Session, words: Sequence[str], limit: int) -> list[int]:
        """Titles holding every one of ``words`` but at most one (a typo): one query of
        AND-branches, which the index answers from its rarest words, unranked."""
        words = [w for word in words for w in plain_words(word)]
        if len(words) < 2:
            return []
        branches = [
            "(" + " AND ".join(f'"{w}"' for j, w in enumerate(words) if j != i) + ")"
            for i in range(len(words))
        ]
        stmt: Select[Any] = (
            select(literal_column("rowid"))
            .select_from(text("papers_fts"))
            .where(fts_matching("papers_fts", "title : (" + " OR ".join(branches) + ")"))
            .limit(limit)
        )
        return [int(r[0]) for r in session.execute(stmt)]

    def word_ids(self, word: str) -> Select[Any] | None:
        """The papers with ``word`` in their title or abstract."""
        tokens = [t for w in plain_words(word) for t in fts_tokens(w)]
        if len(tokens) != 1:
            return None
        return fts_rowids("papers_fts", '{title abstract} : "' + tokens[0] + '"')

    def matches(self, session: Session, query: str, *, everything: bool = False) -> Subquery | None:
        """The matching papers with their rank (see :func:`fts5_ranking`)."""
        ids = self._match_ids(session, query, outer=False, everything=everything)
        if ids is None:
            return None
        words = " OR ".join(t.fts() for t in parse_terms(query))
        return ranked_matches(ids, fts5_ranking(session, words))

    def add(self, session: Session, rows: Sequence[SearchRow]) -> None:
        """Index new papers in one executemany."""
        if rows:
            session.connection().exec_driver_sql(
                f"INSERT INTO papers_fts(rowid, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                list(rows),
            )

    def forget(self, session: Session, paper_ids: Iterable[int]) -> None:
        """Take these papers' words out of the index, as the view gives them now (one
        statement, however many papers)."""
        session.execute(
            text(
                f"INSERT INTO papers_fts(papers_fts, rowid, {_COLUMNS}) "
                f"SELECT 'delete', id, {_COLUMNS} FROM paper_search WHERE id IN ({_ID_SET})"
            ),
            {"ids": id_json(paper_ids)},
        )

    def remember(self, session: Session, paper_ids: Iterable[int]) -> None:
        """Put these papers' words into the index, as the view gives them now (many at once
        with FTS5's bulk settings, see :func:`_bulk_words`)."""
        ids = list(paper_ids)
        with _bulk_words(session, len(ids) >= BULK_WORDS):
            session.execute(
                text(
                    f"INSERT INTO papers_fts(rowid, {_COLUMNS}) "
                    f"SELECT id, {_COLUMNS} FROM paper_search WHERE id IN ({_ID_SET})"
                ),
                {"ids": id_json(ids)},
            )

    def repair(self, session: Session) -> str:
        """Rebuild the full-text tables whose contents do not match their rows (FTS5's own
        integrity check; reads the whole index); their names."""
        conn = session.connection()
        damaged = damaged_indexes(conn)
        rebuild_indexes(conn, damaged)
        return ", ".join(damaged)

    @contextmanager
    def changing(self, session: Session, paper_ids: Iterable[int]) -> Iterator[None]:
        """Wrap a change to these papers' rows or links: their old words leave the index
        before it, their new words enter after it."""
        ids = sorted({int(i) for i in paper_ids})
        self.forget(session, ids)
        yield
        self.remember(session, ids)
