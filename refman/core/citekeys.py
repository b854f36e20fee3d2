"""Citation keys: ``jiang2024megascale`` — the first author's family name, the year and the first
significant word of the title, in lower-case ASCII; ``a``, ``b``, … tell apart papers that
would share one. Every paper has a key from the moment it is added, and the key never changes
unless the user edits it (an edited key must be free). A key an imported bibliography gives is
kept when it is free. Keys are free or taken as BibTeX sees them, the case of letters
ignored (``Smith2020`` takes ``smith2020``).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Collection, Iterable, Sequence
from itertools import count

from anyascii import anyascii
from sqlalchemy import and_, delete, func, select, text, update
from sqlalchemy.orm import Session

from refman.common.east_asian import unspaced_words
from refman.core.paper_state import PaperState
from refman.store.bulk import text_set
from refman.store.models import CASED_CITEKEY, Paper
from refman.store.models_upkeep import CitekeyAlias as Alias
from refman.store.models_upkeep import PurgingPaper

_STOP_WORDS = frozenset(
    """a an the of on in for and to with from by at as is are was be via into onto over under
    toward towards about through using use how what why when where which who whose can do does
    not no vs versus""".split()
)
_WORD = re.compile(r"[a-z0-9]+")
#: An apostrophe inside a word ("O'Brien's", "don’t"), which leaves it one word.
_APOSTROPHE = re.compile(r"(?<=\w)['’ʼ](?=\w)")


def ascii_words(text: str) -> list[str]:
    """The words of a text in lower-case ASCII, transliterated as Better BibTeX does
    ("Müller-Lüdenscheidt" → muller, ludenscheidt; Иванов → ivanov; 张伟 → zhangwei)."""
    return _WORD.findall(anyascii(text.casefold()).lower())


def base_key(family: str, year: int | None, title: str) -> str:
    """The key a paper's fields suggest, before telling apart papers that share it."""
    name = "".join(ascii_words(family)) or "anon"
    return f"{name}{year if year is not None else ''}{_first_word(title)}"


def _first_word(title: str) -> str:
    """The title's first word that is neither a stop word nor a number, as
    :func:`ascii_words` gives it ("" if none; an apostrophe does not end a word: "O'Brien's"
    is obriens, as Better BibTeX reads it); Chinese and Japanese, written without spaces,
    give the first two letters of each run of their letters (黄河三角洲 → huanghe)."""
    # An ASCII title (most are) is read only up to that word: a fifth of the time for
    # 50,000 titles (0.20 -> 0.05 s); another is transliterated whole.
    title = _APOSTROPHE.sub("", title)  # O'Brien's Law -> obriens, not "o"
    if title.isascii():
        words: Iterable[str] = (m.group() for m in _WORD.finditer(title.lower()))
    else:
        words = ascii_words(unspaced_words(title, 2))
    return next((w for w in words if w not in _STOP_WORDS and not w.isdigit()), "")


def _suffix_at(index: int) -> str:
    """The ``index``-th suffix: "" (0), "a" (1) … "z" (26), "aa" (27), "ab" …"""
    letters = ""
    while index:
        index, digit = divmod(index - 1, 26)
        letters = chr(ord("a") + digit) + letters
    return letters


def _suffix_index(suffix: str) -> int:
    """The place of a suffix in that order (the inverse of :func:`_suffix_at`)."""
    index = 0
    for char in suffix:
        index = index * 26 + (ord(char) - ord("a") + 1)
    return index


def first_free(base: str, taken: Callable[[str], bool], start: int = 0) -> str:
    """``base`` itself when free, else ``base`` with the first free letter suffix (from the
    ``start``-th suffix on: those before it are known to be taken)."""
    return next(base + _suffix_at(i) for i in count(start) if not taken(base + _suffix_at(i)))


_ASCII_FOLD = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def folded(key: str) -> str:
    """A citation key as BibTeX compares keys: the case of ASCII letters ignored."""
    return key.translate(_ASCII_FOLD)


def cased_keys(session: Session) -> list[tuple[int, str]]:
    """(paper id, key) of the keys that hold capitals: few (refman's keys are lower case),
    read from an index of their own."""
    cased = select(Paper.id, Paper.citekey).where(text(CASED_CITEKEY))
    return [(pid, key) for pid, key in session.execute(cased) if key]


def _taken_keys(session: Session, bases: Sequence[str], wanted: Sequence[str]) -> set[str]:
    """The keys and other keys (aliases) in the library, folded (:func:`folded`), that start
    with one of ``bases`` or equal one of ``wanted`` but for case (a range of the key index
    for each, and the few keys with capitals: never every key of a library of a million)."""
    taken = {folded(key) for _, key in cased_keys(session)}
    if bases:
        base = text_set(bases).alias("base")
        # "{" sorts right after "z": a range holds base and base + letters.
        in_range = and_(Paper.citekey >= base.c.value, Paper.citekey < base.c.value + "{")
        stmt = select(Paper.citekey).select_from(base).join(Paper, in_range)
        taken.update(folded(key) for (key,) in session.execute(stmt) if key)
        aliased = and_(Alias.folded >= base.c.value, Alias.folded < base.c.value + "{")
        taken.update(session.scalars(select(Alias.folded).select_from(base).join(Alias, aliased)))
    return (taken - withdrawn_keys(session)) | key_holders(session, wanted).keys()


def key_holders(
    session: Session, keys: Iterable[str], mine: Collection[int] = ()
) -> dict[str, int]:
    """The paper, other than ``mine``, that holds each of these keys (folded: the same key
    as BibTeX sees keys) as its key or other key; the keys of papers an undone import
    withdrew are free."""
    wanted = sorted({folded(k) for k in keys})
    if not wanted:
        return {}
    value, found_wanted = select(text_set(wanted).c.value), set(wanted)
    lower = session.execute(select(Paper.id, Paper.citekey).where(Paper.citekey.in_(value)))
    found = {str(key): int(pid) for pid, key in lower if pid not in mine}
    for pid, key in cased_keys(session):  # (few keys hold capitals)
        if folded(key) in found_wanted and pid not in mine:
            found.setdefault(folded(key), pid)
    aliases = select(Alias.folded, Alias.paper_id).where(Alias.folded.in_(value))
    for key, pid in session.execute(aliases):
        if pid not in mine:
            found.setdefault(str(key), int(pid))
    free = withdrawn_keys(session)
    return {key: pid for key, pid in found.items() if key not in free}


def withdrawn_keys(session: Session) -> set[str]:
    """The keys and other keys (folded) of the papers undone imports withdrew, not yet
    deleted: free for new papers (an import undone and made again keeps the file's keys)."""
    withdrawn = select(PurgingPaper.paper_id)
    if session.scalar(withdrawn.limit(1)) is None:
        return set()
    keys = session.scalars(select(Paper.citekey).where(Paper.id.in_(withdrawn)))
    aliases = session.scalars(select(Alias.folded).where(Alias.paper_id.in_(withdrawn)))
    return {folded(k) for k in keys if k} | set(aliases)


def release_withdrawn(session: Session, keys: Iterable[str]) -> None:
    """Take these keys (folded) from the withdrawn papers that hold them, as new papers or
    other keys get them (a key is one paper's)."""
    withdrawn = select(PurgingPaper.paper_id)
    if session.scalar(withdrawn.limit(1)) is None:
        return
    held = select(text_set(sorted({folded(k) for k in keys})).c.value)
    session.execute(
        update(Paper)
        .where(Paper.id.in_(withdrawn), func.lower(Paper.citekey).in_(held))
        .values(citekey=None)
    )
    session.execute(delete(Alias).where(Alias.paper_id.in_(withdrawn), Alias.folded.in_(held)))


def assign_citekeys(
    session: Session, states: Sequence[PaperState], family_of: Callable[[PaperState], str]
) -> None:
    """Give a key to each new paper that has none (keeping one it came with when free).

    Args:
        session: The transaction that will write the papers.
        states: New papers; their ``citekey`` is set in place.
        family_of: The family name a paper's key starts with (first author, else page owner).
    """
    wanted = [s.citekey for s in states if s.citekey]
    bases = {s.id: base_key(family_of(s), s.year, s.title) for s in states}
    taken = _taken_keys(session, sorted(set(bases.values())), wanted)
    searched_to: dict[str, int] = {}  # base -> suffixes before this place are all taken
    for state in states:
        if state.citekey and folded(state.citekey) not in taken:
            taken.add(folded(state.citekey))
            continue
        base = bases[state.id]
        state.citekey = first_free(base, taken.__contains__, searched_to.get(base, 0))
        taken.add(state.citekey)  # (lower case already)
        searched_to[base] = _suffix_index(state.citekey[len(base) :]) + 1
    release_withdrawn(session, (s.citekey for s in states if s.citekey))


def family_name(state: PaperState, parts: Callable[[str], str]) -> str:
    """The family name of a paper's first author, else of its first editor (an edited book:
    as Better BibTeX, and as the styles cite it), else of its page owner ("" if none)."""
    if state.authors:
        return parts(state.authors[0])
    editors = state.extra.get("editor")
    if isinstance(editors, list) and editors and isinstance(editors[0], dict):
        first = editors[0]
        name = first.get("family") or first.get("literal")
        if isinstance(name, str) and name.strip():
            return name
    return parts(state.attributions[0]) if state.attributions else ""
