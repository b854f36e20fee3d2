"""Full-text search of a shared library on PostgreSQL, with the same semantics as on SQLite.

A paper's words live in ``paper_words`` (one ``tsvector`` per paper, GIN-indexed), weighted
by where they stand: title ``A``, authors ``B``, venue and subjects ``C``, abstract ``D``;
tags and notes carry a generated ``words`` column of their own. Words are split and folded
by one SQL function, ``refman_words`` (case and diacritics ignored, anything but letters and
digits separates words, as SQLite's ``unicode61`` tokenizer does), and the words a person
types are folded the same way here (:func:`_folded`), so the two always agree.

As on SQLite, every typed word must match (in the paper's own words, a tag it carries or one
of its notes), the last word as a prefix; a "quoted phrase" matches where its words stand
together in one field (``<->`` restricted to one weight); hostile input is only words.
The abstract is indexed as refman shows it (LaTeX turned into text), which only Python
knows: :meth:`PgIndex.remember` reads the papers' abstracts, makes them readable and hands
them back with the statement that indexes them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    Subquery,
    Text,
    bindparam,
    cast,
    column,
    func,
    literal_column,
    select,
    table,
    text,
    union,
)
from sqlalchemy.orm import Session

from refman.common.east_asian import EAST_ASIAN_SQL_CLASS, letters_apart
from refman.common.greek import SPELLED, spell_greek
from refman.common.text import OWN_LETTERS, fold_letters
from refman.store.bulk import chunks
from refman.store.packed import readable
from refman.store.search import Driving, SearchRow
from refman.store.search_rank import ranked_matches
from refman.store.search_terms import Term, parse_terms

#: The statements that give a PostgreSQL library its search (run by migration 0003).
SCHEMA = (
    """
    CREATE FUNCTION refman_words(value text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT to_tsvector('simple'::regconfig, regexp_replace(
        lower(regexp_replace(normalize(coalesce(value, ''), NFKD), '[\\u0300-\\u036f]', '',
          'g')),
        '[^[:alnum:]]+', ' ', 'g'))
    $$
    """,
    "CREATE TABLE paper_words (paper_id integer PRIMARY KEY "
    "REFERENCES papers(id) ON DELETE CASCADE, words tsvector NOT NULL)",
    "CREATE INDEX ix_paper_words_words ON paper_words USING gin (words)",
    "ALTER TABLE tags ADD COLUMN words tsvector GENERATED ALWAYS AS (refman_words(name)) STORED",
    "CREATE INDEX ix_tags_words ON tags USING gin (words)",
    "ALTER TABLE notes ADD COLUMN words tsvector GENERATED ALWAYS AS (refman_words(text)) STORED",
    "CREATE INDEX ix_notes_words ON notes USING gin (words)",
)


def _sql_text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def fold_expression(value: str) -> str:
    """SQL that writes the letters :func:`~refman.common.text.fold_letters` folds as it
    does, in the text ``value`` (an SQL expression)."""
    one = {k: v for k, v in OWN_LETTERS.items() if len(v) == 1}
    for letter, plain in OWN_LETTERS.items():
        if len(plain) > 1:
            value = f"replace({value}, {_sql_text(letter)}, {_sql_text(plain)})"
    return f"translate({value}, {_sql_text(''.join(one))}, {_sql_text(''.join(one.values()))})"


#: The combining marks PostgreSQL drops from decomposed text (its regular expressions know no
#: Unicode categories: the block of the accents of Latin, Greek and Cyrillic letters).
MARKS = "[\\u0300-\\u036f]"


def _plain_0019(value: str) -> str:
    """:func:`plain_expression` from revision 0019 to 0024 (as ``WORDS_FUNCTION_0019`` read)."""
    return f"lower(regexp_replace(normalize({fold_expression(value)}, NFKD), '{MARKS}', '', 'g'))"


def _plain_0025(value: str) -> str:
    """:func:`plain_expression` from revision 0025 to 0032 (Greek letters as they are)."""
    decomposed = f"normalize({fold_expression(value)}, NFKD)"
    return f"lower(normalize(regexp_replace({decomposed}, '{MARKS}', '', 'g'), NFC))"


#: The characters that are, or whose compatibility form is, a Greek letter (µ, ϕ, Ω as Ohm's
#: sign, 𝛼...): text holding none is written plain without spelling any (the test is cheap).
_GREEK_SQL_CLASS = (
    "[\\u00b5\\u0370-\\u03ff\\u1d00-\\u1dbf\\u1f00-\\u1fff\\u2126\\U0001d6a8-\\U0001d7cb]"
)


def plain_expression(value: str) -> str:
    """SQL that writes the text ``value`` (an SQL expression) plain: letters of their own
    folded, decomposed, accents dropped, composed again (a Korean syllable, a kana with its
    voicing mark stay one letter, as on SQLite), in lower case, Greek letters spelled out as
    :func:`~refman.common.greek.spell_greek` spells them (since revision 0035)."""
    plain = _plain_0025(value)
    spelled = plain
    for letter, name in SPELLED.items():
        spelled = f"replace({spelled}, {_sql_text(letter)}, {_sql_text(name)})"
    return f"(CASE WHEN {value} ~ '{_GREEK_SQL_CLASS}' THEN {spelled} ELSE {plain} END)"


#: ``refman_words`` from revision 0019 to 0024: the same, ø, æ, ł, ß... folded first (to o,
#: ae, l, ss) as SQLite's views fold them and :func:`~refman.store.search_terms.parse_terms`
#: folds the words typed.
WORDS_FUNCTION_0019 = f"""
    CREATE OR REPLACE FUNCTION refman_words(value text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT to_tsvector('simple'::regconfig, regexp_replace(
        {_plain_0019("coalesce(value, '')")},
        '[^[:alnum:]]+', ' ', 'g'))
    $$
    """
_WORDS = """
    CREATE OR REPLACE FUNCTION refman_words(value text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT to_tsvector('simple'::regconfig, regexp_replace(regexp_replace(
        {plain},
        '{letters}', ' \\& ', 'g'),
        '[^[:alnum:]]+', ' ', 'g'))
    $$
    """
#: ``refman_words`` from revision 0025 to 0032: Chinese, Japanese and Korean letters each a
#: word of their own, as :func:`~refman.common.east_asian.letters_apart` sets them apart on
#: SQLite (composed again after the accents go: 김 is one letter, not three).
WORDS_FUNCTION_0025 = _WORDS.format(
    plain=_plain_0025("coalesce(value, '')"), letters=EAST_ASIAN_SQL_CLASS
)
#: ``refman_words`` since revision 0035: the same, Greek letters spelled out (α as alpha).
WORDS_FUNCTION = _WORDS.format(
    plain=plain_expression("coalesce(value, '')"), letters=EAST_ASIAN_SQL_CLASS
)

#: A paper's weighted words, from its row and links (:abstract: the readable abstract); its
#: page owners stand for its authors where it has none, as on SQLite (since revision 0023).
_DOCUMENT = """
setweight(refman_words(p.title), 'A')
|| setweight(refman_words(coalesce((SELECT string_agg(pe.name, ' ') FROM authorships a
     JOIN persons pe ON pe.id = a.person_id WHERE a.paper_id = p.id), (SELECT
     string_agg(pe.name, ' ') FROM attributions t JOIN persons pe ON pe.id = t.person_id
     WHERE t.paper_id = p.id), '')), 'B')
|| setweight(refman_words(coalesce(p.venue, '') || ' ' || coalesce((SELECT
     string_agg(s.code, ' ') FROM paper_subjects ps JOIN subjects s ON s.id = ps.subject_id
     WHERE ps.paper_id = p.id), '')), 'C')
|| setweight(refman_words(x.abstract), 'D')
"""
_REMEMBER = text(
    f"INSERT INTO paper_words (paper_id, words) SELECT p.id, {_DOCUMENT} FROM papers p "
    "JOIN unnest(CAST(:ids AS integer[]), CAST(:abstracts AS text[])) AS x(id, abstract) "
    "ON x.id = p.id"
)
_ADD = text(
    "INSERT INTO paper_words (paper_id, words) SELECT x.id, "
    "setweight(refman_words(x.title), 'A') || setweight(refman_words(x.authors), 'B') "
    "|| setweight(refman_words(x.venue || ' ' || x.subjects), 'C') "
    "|| setweight(refman_words(x.abstract), 'D') "
    "FROM unnest(CAST(:ids AS integer[]), CAST(:titles AS text[]), CAST(:abstracts AS text[]), "
    "CAST(:authors AS text[]), CAST(:venues AS text[]), CAST(:subjects AS text[])) "
    "AS x(id, title, abstract, authors, venue, subjects)"
)
#: ts_rank's weights of D, C, B, A: a title match weighs most, as on SQLite.
_WEIGHTS = "'{0.1, 0.2, 0.5, 1.0}'"
_FIELDS = "ABCD"

_paper_words = table("paper_words", column("paper_id"), column("words"))
_tags = table("tags", column("id"), column("words"))
_notes = table("notes", column("paper_id"), column("words"))
_file_texts = table("file_texts", column("paper_id"), column("words"))
_paper_tags = table("paper_tags", column("paper_id"), column("tag_id"))
_WORD = re.compile(r"[^\W_]+")
_MARKS = re.compile("[\u0300-\u036f]")


def _folded(word: str) -> list[str]:
    """A typed word as ``refman_words`` folds a document's words."""
    plain = _MARKS.sub("", unicodedata.normalize("NFKD", fold_letters(word).lower()))
    return _WORD.findall(letters_apart(spell_greek(unicodedata.normalize("NFC", plain))))


def _lexeme(word: str, *, prefix: bool = False, field: str = "") -> str:
    weight = f":{field}" if field else ""
    return f"'{word}'" + (f":*{field}" if prefix else weight)


def term_query(term: Term) -> str | None:
    """One term as a tsquery: its words (the last a prefix for search as you type), a phrase
    as its words side by side in one field."""
    words = [w for word in term.words for w in _folded(word)]
    if not words:
        return None
    if len(term.words) == 1:
        last = len(words) - 1
        parts = [_lexeme(w, prefix=term.prefix and i == last) for i, w in enumerate(words)]
        return parts[0] if len(parts) == 1 else "(" + " & ".join(parts) + ")"
    return (
        "("
        + " | ".join("(" + " <-> ".join(_lexeme(w, field=f) for w in words) + ")" for f in _FIELDS)
        + ")"
    )


def _queries(typed: str) -> list[str]:
    return [q for t in parse_terms(typed) if (q := term_query(t)) is not None]


def _tsquery(expression: str) -> ColumnElement[Any]:
    value = bindparam("tsquery", value=expression, unique=True, type_=Text)
    return func.to_tsquery(literal_column("'simple'::regconfig"), cast(value, Text))


def _matching(words: Any, expression: str) -> ColumnElement[bool]:
    return words.op("@@")(_tsquery(expression))  # type: ignore[no-any-return]


def _paper_ids(expression: str) -> Select[Any]:
    return select(_paper_words.c.paper_id.label("id")).where(
        _matching(_paper_words.c.words, expression)
    )


def _tagged_ids(expression: str) -> Select[Any]:
    tags = select(_tags.c.id).where(_matching(_tags.c.words, expression))
    return select(_paper_tags.c.paper_id.label("id")).where(_paper_tags.c.tag_id.in_(tags))


def _noted_ids(expression: str) -> Select[Any]:
    return select(_notes.c.paper_id.label("id")).where(_matching(_notes.c.words, expression))


def _filed_ids(expression: str) -> Select[Any]:
    return select(_file_texts.c.paper_id.label("id")).where(
        _matching(_file_texts.c.words, expression)
    )


def _any_hit(session: Session, words: Any, expression: str) -> bool:
    found: Any = session.execute(
        select(literal_column("1")).where(_matching(words, expression)).limit(1)
    ).first()
    return found is not None


#: Papers without their words, and words of papers gone (what a check counts and a repair
#: redoes).
MISSING_WORDS = (
    "SELECT p.id FROM papers p"
    " WHERE NOT EXISTS (SELECT 1 FROM paper_words w WHERE w.paper_id = p.id)"
)
STRAY_WORDS = (
    "SELECT w.paper_id FROM paper_words w"
    " WHERE NOT EXISTS (SELECT 1 FROM papers p WHERE p.id = w.paper_id)"
)


class PgIndex:
    """The search index of a shared library on PostgreSQL (see the module)."""

    def _mixed(self, session: Session, queries: list[str], everything: bool) -> bool:
        """True when some term matches a tag, a note or (with ``everything``) a file's text
        (else the papers' own words decide)."""
        words = (_tags.c.words, _notes.c.words, *((_file_texts.c.words,) if everything else ()))
        return any(_any_hit(session, w, q) for q in queries for w in words)

    def match_ids(
        self, session: Session, query: str, *, everything: bool = False, whole: bool = False
    ) -> Select[Any] | None:
        """The ids of the matching papers (see :meth:`SearchIndex.match_ids`; the same
        statement serves a page and a count here)."""
        queries = _queries(query)
        if not queries:
            return None
        if not self._mixed(session, queries, everything):
            return _paper_ids(" & ".join(queries))
        filed = (_filed_ids,) if everything else ()
        sets = [
            union(*(f(q) for f in (_paper_ids, _tagged_ids, _noted_ids, *filed))).subquery()
            for q in queries
        ]
        first, *others = sets
        return select(first.c.id).where(*(first.c.id.in_(select(s.c.id)) for s in others))

    def driving(self, session: Session, query: str, *, everything: bool = False) -> Driving | None:
        """The papers' words, walked in paper-id order (see :meth:`SearchIndex.driving`)."""
        queries = _queries(query)
        if not queries or self._mixed(session, queries, everything):
            return None
        match = _matching(_paper_words.c.words, " & ".join(queries))
        return Driving(_paper_words, _paper_words.c.paper_id, (match,), own=True)

    def similar_titles(self, session: Session, words: Sequence[str], limit: int) -> list[int]:
        """Titles holding every one of ``words`` but at most one (a typo)."""
        folded = [w for word in words for w in _folded(word)]
        if len(folded) < 2:
            return []
        branches = [
            "(" + " & ".join(_lexeme(w, field="A") for j, w in enumerate(folded) if j != i) + ")"
            for i in range(len(folded))
        ]
        stmt = (
            select(_paper_words.c.paper_id)
            .where(_matching(_paper_words.c.words, " | ".join(branches)))
            .limit(limit)
        )
        return [int(r[0]) for r in session.execute(stmt)]

    def word_ids(self, word: str) -> Select[Any] | None:
        """The papers with ``word`` in their title (A) or abstract (D)."""
        folded = _folded(word)
        return _paper_ids(_lexeme(folded[0], field="AD")) if len(folded) == 1 else None

    def matches(self, session: Session, query: str, *, everything: bool = False) -> Subquery | None:
        """The matching papers with their rank (a title match weighs most)."""
        ids = self.match_ids(session, query, everything=everything)
        if ids is None:
            return None
        rank = func.ts_rank(
            literal_column(_WEIGHTS), _paper_words.c.words, _tsquery(" | ".join(_queries(query)))
        )
        ranked = select(_paper_words.c.paper_id.label("id"), (-rank).label("rank")).subquery(
            "ranked"
        )
        return ranked_matches(ids, ranked)

    def add(self, session: Session, rows: Sequence[SearchRow]) -> None:
        """Index new papers from their values."""
        for part in chunks(rows, 5000):
            ids, titles, abstracts, authors, venues, subjects = (
                list(c) for c in zip(*part, strict=True)
            )
            session.execute(
                _ADD,
                {
                    "ids": ids,
                    "titles": titles,
                    "abstracts": abstracts,
                    "authors": authors,
                    "venues": venues,
                    "subjects": subjects,
                },
            )

    def forget(self, session: Session, paper_ids: Iterable[int]) -> None:
        """Drop these papers' words."""
        for part in chunks(sorted({int(i) for i in paper_ids}), 10_000):
            session.execute(
                text("DELETE FROM paper_words WHERE paper_id = ANY(CAST(:ids AS integer[]))"),
                {"ids": part},
            )

    def remember(self, session: Session, paper_ids: Iterable[int]) -> None:
        """Index these papers from their rows (their abstracts made readable here)."""
        for part in chunks(sorted({int(i) for i in paper_ids}), 5000):
            rows = session.execute(
                text("SELECT id, abstract FROM papers WHERE id = ANY(CAST(:ids AS integer[]))"),
                {"ids": part},
            ).all()
            session.execute(
                _REMEMBER,
                {"ids": [r[0] for r in rows], "abstracts": [readable(r[1]) for r in rows]},
            )

    def repair(self, session: Session) -> str:
        """Index the papers that lack their words and drop the words of papers gone; how
        many of each."""
        missing = session.execute(text(MISSING_WORDS)).scalars().all()
        stray = session.execute(text(STRAY_WORDS)).scalars().all()
        self.forget(session, stray)
        self.remember(session, missing)
        if not (missing or stray):
            return ""
        return f"{len(missing)} papers indexed again, words of {len(stray)} papers gone dropped"

    @contextmanager
    def changing(self, session: Session, paper_ids: Iterable[int]) -> Iterator[None]:
        """Wrap a change to these papers' rows or links (old words out, new words in)."""
        ids = sorted({int(i) for i in paper_ids})
        self.forget(session, ids)
        yield
        self.remember(session, ids)
