"""What a person typed into the search field, as the search index reads it: words and quoted
phrases (:func:`parse_terms`), one FTS5 expression of them, and the phrase check the index
runs on a paper's text (registered in SQLite as ``refman_phrase``)."""

from __future__ import annotations

import re
import sqlite3
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from refman.common.east_asian import letters_apart
from refman.common.greek import spell_greek
from refman.common.text import index_form, plain_letters
from refman.store.packed import readable
from refman.store.search_schema import TOKENIZE


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


def without_open_quote(typed: str) -> str:
    """A search line with its unclosed quote (the last, when they are odd in number) made a
    space: it is ignored in a search, and a line joined after it must not fall into it."""
    if typed.count('"') % 2 == 0:
        return typed
    at = typed.rfind('"')
    return f"{typed[:at]} {typed[at + 1 :]}"


#: The most terms a search uses (the first ones typed); a phrase counts as one. More words
#: narrow nothing a person could notice, and each costs the index a pass.
MAX_TERMS = 64


def too_many_terms(typed: str) -> bool:
    """True when a search holds more terms than it uses (:data:`MAX_TERMS`)."""
    return len(_all_terms(typed)) > MAX_TERMS


def parse_terms(typed: str) -> list[Term]:
    """The terms of what a person typed (the first :data:`MAX_TERMS`).

    Every word must match; the last word matches as a prefix unless it is followed by a
    space; "quoted phrases" match as phrases. Operators and punctuation are plain word
    separators, so no input can make FTS5 raise. An accented letter typed as a letter and a
    combining accent (as a Mac may type it) is read as the one character; ligatures, full-
    width letters and ø, æ, ł, ß... as the index holds them
    (:func:`~refman.common.text.index_form`: fi, T, o, ae, l, ss), Greek letters spelled out
    (:func:`~refman.common.greek.spell_greek`: α as alpha).
    """
    if not typed.isascii():
        typed = spell_greek(index_form(unicodedata.normalize("NFC", typed)))
    return _all_terms(typed)[:MAX_TERMS]


def _all_terms(typed: str) -> list[Term]:
    pieces: list[tuple[str, bool]] = []  # (text, is_phrase)
    rest_start = 0
    for m in _PHRASE.finditer(typed):
        pieces.append((typed[rest_start : m.start()], False))
        pieces.append((m.group(1), True))
        rest_start = m.end()
    tail = typed[rest_start:]
    pieces.append((tail.replace('"', " "), False))
    terms = [t for piece, is_phrase in pieces for t in _piece_terms(piece, is_phrase)]
    last_words = [token for word in _TOKEN.findall(tail) for token in _tokens(word)]
    if terms and last_words and not tail[-1:].isspace() and not tail.endswith('"'):
        terms[-1] = Term(terms[-1].words, prefix=True)
    return terms


def _piece_terms(piece: str, is_phrase: bool) -> list[Term]:
    """A quoted phrase's one term, or the terms of the words typed (a word in Chinese,
    Japanese or Korean: its letters side by side, one term)."""
    groups = [_tokens(word) for word in _TOKEN.findall(piece)]
    if is_phrase:
        words = tuple(t for group in groups for t in group)
        return [Term(words)] if words else []
    return [
        t
        for group in groups
        for t in ([Term(group)] if len(group) > 1 and _apart(group) else map(_one, group))
    ]


def _one(token: str) -> Term:
    return Term((token,))


def _apart(tokens: tuple[str, ...]) -> bool:
    """True when a word's tokens are letters :func:`letters_apart` set apart."""
    return any(len(t) == 1 and letters_apart(t) != t for t in tokens)


def _tokens(word: str) -> tuple[str, ...]:
    """The tokens the search index makes of a word typed (its Chinese, Japanese and Korean
    letters one by one, as the indexes hold them: :func:`letters_apart`)."""
    if word.isascii():
        return (word,)
    return tuple(t for part in _TOKEN.findall(letters_apart(word)) for t in fts_tokens(part))


_tokenizer_lock = threading.Lock()
_tokenizer: sqlite3.Connection | None = None


@lru_cache(maxsize=8192)
def fts_tokens(word: str) -> tuple[str, ...]:
    """The tokens the search index makes of a word, so that a quoted word is always one
    token (two would make a phrase, which an index without word positions refuses).

    An ASCII word is one token as it is; a word with other characters is split by SQLite's
    own tokenizer (its Unicode tables are older than Python's: a letter to Python may
    separate words to SQLite). A word split in several comes back as the index's folded
    tokens; a word that is one token, as it was typed.
    """
    if word.isascii():
        return (word,)
    global _tokenizer
    with _tokenizer_lock:
        if _tokenizer is None:
            conn = sqlite3.connect(":memory:", check_same_thread=False)
            conn.execute(f"CREATE VIRTUAL TABLE tok USING fts5(x, tokenize='{TOKENIZE}')")
            conn.execute("CREATE VIRTUAL TABLE tok_v USING fts5vocab(tok, 'instance')")
            _tokenizer = conn
        _tokenizer.execute("INSERT INTO tok(rowid, x) VALUES (1, ?)", (word,))
        rows = _tokenizer.execute("SELECT term FROM tok_v ORDER BY offset").fetchall()
        _tokenizer.execute("DELETE FROM tok")
    tokens = tuple(str(r[0]) for r in rows)
    return (word,) if len(tokens) == 1 else tokens


def match_expression(typed: str) -> str | None:
    """What a person typed as one FTS5 MATCH expression (all terms), or None when nothing
    in it is searchable."""
    terms = parse_terms(typed)
    return " AND ".join(t.fts() for t in terms) if terms else None


def plain_words(value: str) -> list[str]:
    """Words as the index compares them: case and diacritics ignored, ø, æ, ł, ß... folded,
    Greek letters spelled out (:func:`search_plain`)."""
    return _TOKEN.findall(letters_apart(search_plain(value)))


@lru_cache(maxsize=64)
def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    """The phrase's words with anything but letters and digits between them, as whole words,
    to search lower-cased ASCII text with (exact there: case folding is lower-casing). The
    pattern starts with the first word itself, so that the regular expression engine scans
    for it as a plain string; the look-behind that makes it a whole word follows it (ahead of
    it, the engine tried it at every position of the text: 10 µs an abstract, not 1)."""
    words = [re.escape(w) for w in plain_words(phrase)]
    if not words:
        return re.compile("")  # no words: found anywhere, as by the comparison of words
    first, rest = words[0], words[1:]
    whole_first = first + r"(?<![^\W_]" + first + ")"
    return re.compile(whole_first + "".join(r"[\W_]+" + w for w in rest) + r"(?![^\W_])")


def has_phrase(value: str | None, phrase: str) -> bool:
    """True when the words of ``phrase`` stand together, in order, in ``value``."""
    if not value:
        return False
    if value.isascii() and phrase.isascii():
        return _phrase_pattern(phrase).search(value.lower()) is not None
    words, wanted = plain_words(value), plain_words(phrase)
    n = len(wanted)
    return any(words[i : i + n] == wanted for i in range(len(words) - n + 1))


def _phrase_in(value: str | None, phrase: str) -> int:
    return 1 if has_phrase(value, phrase) else 0


def fold_0025(text: str) -> str:
    """``refman_fold`` from revision 0025 to 0032: Chinese, Japanese and Korean letters apart
    (Greek letters as they are)."""
    return letters_apart(index_form(text))


def _fold(text: str | None) -> str | None:
    """``refman_fold``: a text as the search indexes read it (since revision 0025 with its
    Chinese, Japanese and Korean letters apart, since 0035 with Greek letters spelled out)."""
    return None if text is None else spell_greek(fold_0025(text))


def search_plain(text: str) -> str:
    """A text as ``title:``, ``venue:``, ``note:`` and ``tag:`` compare it (``refman_plain``):
    in plain letters (:func:`~refman.common.text.plain_letters`), Greek letters spelled out,
    as the search's words are (``title:alpha`` finds "α-synuclein")."""
    return spell_greek(plain_letters(text))


def _plain(text: str | None) -> str | None:
    return None if text is None else search_plain(text)


def register_functions(
    connection: sqlite3.Connection, fold: Callable[[str], str | None] | None = None
) -> None:
    """Give an SQLite connection the SQL functions the search view and queries use:
    ``refman_readable(abstract)``, ``refman_fold(text)``, ``refman_plain(text)`` and
    ``refman_phrase(text, phrase)``; ``fold``: how ``refman_fold`` read a text at an older
    revision, for the migration that indexes rows as they were indexed then (by default as
    now, :func:`_fold`)."""
    read = _fold if fold is None else (lambda text: None if text is None else fold(text))
    connection.create_function("refman_readable", 1, readable, deterministic=True)
    connection.create_function("refman_fold", 1, read, deterministic=True)
    connection.create_function("refman_plain", 1, _plain, deterministic=True)
    connection.create_function("refman_phrase", 2, _phrase_in, deterministic=True)
