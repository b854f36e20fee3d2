"""Finding a paper again: exact match keys and the fuzzy near-duplicate check.

Two records are the same paper when their abstracts are equal after normalizing (case, white
space, LaTeX, trailing punctuation) or their real titles are. Records that are not equal but
whose normalized title or abstract is at least :data:`NEAR_DUPLICATE` similar (rapidfuzz
ratio) are possible duplicates. To keep that check fast on a large library, only papers that
share a blocking key are compared. A blocking key is a pair of the three alphabetically last
long words of the title or abstract: texts that are 95% alike share almost all their words,
so they share at least one such pair, while unrelated texts rarely do.

An abstract that only says there is none ("No abstract available.", "N/A": see
:mod:`refman.core.placeholder_abstracts`) names no paper: it is no key, nor compared.

A page may list only the start of an abstract: its first paragraph, or its first lines and
"…". Such an abstract is far from 95% alike the whole one, so the first
:data:`OPENING_WORDS` words of a longer abstract are a blocking key of their own, and a
paper whose abstract is the start of another's (:func:`starts_alike`) is a possible
duplicate of it too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from hashlib import blake2b as _blake2b
from itertools import combinations
from typing import TypeVar

from refman.common.identifiers import is_arxiv_doi, normalize_arxiv, normalize_doi
from refman.common.text import normalize_for_match
from refman.core.placeholder_abstracts import is_placeholder_abstract
from refman.store.models import KEY_KINDS

NEAR_DUPLICATE = 95.0

_MIN_ABSTRACT = 20

T = TypeVar("T")
_TITLE_WORD = re.compile(r"\w{4,}")
_ABSTRACT_WORD = re.compile(r"\w{7,}")
#: The same for ASCII text (a third faster; the same words: ``\w`` of ASCII is ASCII's).
_ASCII = {p: re.compile(p.pattern, re.ASCII) for p in (_TITLE_WORD, _ABSTRACT_WORD)}

#: A blocking key shared by more papers than this says nothing and is ignored.
MAX_BLOCK = 50
#: The words an abstract cut short must keep for the whole one to be found by its start (a
#: first sentence is about twenty; twelve words rarely start two papers' abstracts alike).
OPENING_WORDS = 12


#: Words too common in titles and abstracts to tell papers apart.
_COMMON = frozenset(
    """
    with within without using towards toward through their there these those what when where
    which while whose your yours from into onto over under upon via based study studies
    approach approaches between however results further several various different
    general problem problems present propose proposed method methods
    training learning model models network networks system systems paper papers work
    performance existing results therefore although because despite during across
    """.split()
)


def _word_pairs(pattern: re.Pattern[str], text: str) -> list[str]:
    found = (_ASCII[pattern] if text.isascii() else pattern).findall(text)
    words = sorted(set(found) - _COMMON, reverse=True)[:3]
    pairs = [f"{a} {b}" for a, b in combinations(words, 2)]
    if len(words) < 3:
        # Too few words for pairs to survive a typo: each word is a key of its own too.
        return words + pairs
    return pairs


def distinctive_title_words(title: str) -> list[str]:
    """The words of a normalized title that tell it apart: four letters or more, not one of
    the words most titles use."""
    return [w for w in dict.fromkeys(_TITLE_WORD.findall(title)) if w not in _COMMON]


def key_hash(kind: str, value: str) -> int:
    """A stable signed 64-bit hash of a key (what the library stores and looks up)."""
    digest = _blake2b(f"{kind}\x1f{value}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


@dataclass(frozen=True, slots=True)
class MatchKeys:
    """The normalized texts of a paper that matching compares, and the keys made of them.

    Attributes:
        title: Normalized title; None for a provisional title (suggestions never match).
        abstract: Normalized abstract; None when too short to identify a paper, or a
            placeholder (:func:`~refman.core.placeholder_abstracts.is_placeholder_abstract`).
        exact: The (kind, hashed key) pairs that identify the paper exactly, strongest first;
            the kinds are the key columns of ``papers`` (``doi``, ``arxiv``, ``abstract``,
            ``title``).
        blocks: Hashed keys that pick candidates for the fuzzy check.
        doi: The DOI (normalised), when known.
        arxiv: The arXiv id without its version, when known.
        opening: The blocking key of the abstract's first :data:`OPENING_WORDS` words (also
            in ``blocks``), when it has more; None too for keys worked out without blocks.
    """

    title: str | None
    abstract: str | None
    exact: tuple[tuple[str, int], ...]
    blocks: tuple[int, ...]
    doi: str | None = None
    arxiv: str | None = None
    opening: int | None = None

    def columns(self) -> dict[str, int | None]:
        """The paper's key columns (``title_key``, …): the hashed exact keys, None where the
        paper has none of that kind."""
        found = dict(self.exact)
        return {f"{kind}_key": found.get(kind) for kind in KEY_KINDS}

    def conflicts(self, other: MatchKeys) -> bool:
        """True when two papers carry different DOIs (arXiv's DOI of a preprint against
        another is none) or different arXiv ids: they are different papers, however alike
        their titles (never merged by themselves)."""
        dois = self.doi and other.doi and self.doi != other.doi
        if dois and is_arxiv_doi(self.doi) == is_arxiv_doi(other.doi):
            return True
        return bool(self.arxiv and other.arxiv and self.arxiv != other.arxiv)

    def value(self, kind: str) -> str | None:
        """The text an exact key of a kind is the hash of (checked on a hit: a hash two
        texts share is not a match)."""
        if kind not in KEY_KINDS:
            raise KeyError(kind)
        value: str | None = getattr(self, kind)  # the kinds are the attributes' names
        return value


#: The fields of :class:`MatchKeys`, in order, as a plain tuple (what a helper process sends
#: back: it pickles four times faster than the dataclass); ``MatchKeys(*fields)`` again.
KeysTuple = tuple[
    str | None,
    str | None,
    tuple[tuple[str, int], ...],
    tuple[int, ...],
    str | None,
    str | None,
    int | None,
]


def as_tuple(keys: MatchKeys) -> KeysTuple:
    """The plain tuple of a paper's keys (see :data:`KeysTuple`)."""
    return (keys.title, keys.abstract, keys.exact, keys.blocks, keys.doi, keys.arxiv, keys.opening)


def title_blocks(title: str) -> list[int]:
    """The blocking keys of a normalized title (the first of a paper's blocking keys)."""
    return [key_hash("t", k) for k in _word_pairs(_TITLE_WORD, title)]


def make_keys(
    title: str | None, abstract: str | None, doi: str | None = None, arxiv: str | None = None
) -> MatchKeys:
    """Match keys from an already normalized title, abstract, DOI and arXiv id."""
    exact: list[tuple[str, int]] = []
    blocks: list[int] = []
    if doi:
        exact.append(("doi", key_hash("doi", doi)))
    if arxiv:
        exact.append(("arxiv", key_hash("arxiv", arxiv)))
    opening = None
    if abstract is not None:
        exact.append(("abstract", key_hash("abstract", abstract)))
        blocks.extend(key_hash("a", k) for k in _word_pairs(_ABSTRACT_WORD, abstract))
        if opening := _opening_key(abstract):
            blocks.append(opening)
    if title:
        exact.append(("title", key_hash("title", title)))
        blocks[:0] = title_blocks(title)
    return MatchKeys(title or None, abstract, tuple(exact), tuple(blocks), doi, arxiv, opening)


def opening_key(abstract: str) -> int | None:
    """The key of an abstract's opening words (as refman keeps the abstract), as
    :func:`match_keys` makes it; None when it has none."""
    long = _long_abstract(abstract)
    return _opening_key(long) if long else None


def _opening_key(abstract: str) -> int | None:
    start = _opening(abstract)
    return key_hash("o", start) if start else None


def _long_abstract(abstract: str) -> str | None:
    """The normalized abstract, when it is long enough to tell a paper by and more than a
    placeholder (the one rule of which abstracts are compared, and keyed)."""
    norm = normalize_for_match(abstract) if abstract else ""
    return norm if len(norm) >= _MIN_ABSTRACT and not is_placeholder_abstract(norm) else None


def _opening(abstract: str) -> str | None:
    """The first :data:`OPENING_WORDS` words of a normalized abstract that has more (the
    last word of an abstract cut short may be cut too), else None."""
    words = abstract.split(" ", OPENING_WORDS)
    return " ".join(words[:OPENING_WORDS]) if len(words) > OPENING_WORDS else None


def starts_alike(a: str, b: str) -> bool:
    """True when the shorter of two different normalized abstracts, of more than
    :data:`OPENING_WORDS` words, is the start of the longer: all of it, but for a last word
    that may have been cut ("…" is gone once normalized)."""
    short, long = sorted((a, b), key=len)
    if short == long or _opening(short) is None:
        return False
    return long.startswith(short.rsplit(" ", 1)[0])


def match_keys(
    title: str,
    title_provisional: bool,
    abstract: str,
    doi: str | None = None,
    arxiv_id: str | None = None,
    *,
    keyed: bool = True,
) -> MatchKeys:
    """The match keys of a paper or record. ``keyed=False``: only what is compared of a paper
    already found by its keys in the library — its normalized texts, DOI and arXiv id — without
    working out its keys (their hashes are in its row and the key table)."""
    found = identifiers(doi, arxiv_id)
    norm_title = None if title_provisional else (normalize_for_match(title) or None)
    long_abstract = _long_abstract(abstract)
    if not keyed:
        return replace(found, title=norm_title, abstract=long_abstract)
    return make_keys(norm_title, long_abstract, found.doi, found.arxiv)


def identifiers(doi: str | None, arxiv_id: str | None) -> MatchKeys:
    """A paper's DOI and arXiv id alone, normalized (what :meth:`MatchKeys.conflicts` reads)."""
    return MatchKeys(
        None,
        None,
        (),
        (),
        normalize_doi(doi) if doi else None,
        normalize_arxiv(arxiv_id) if arxiv_id else None,
    )


def _could_reach(a: str, b: str) -> bool:
    """False when the lengths alone rule out a near-duplicate similarity."""
    short, long = sorted((len(a), len(b)))
    return 200 * short >= (NEAR_DUPLICATE - 1) * (short + long)


def similarity(a: MatchKeys, b: MatchKeys) -> float:
    """How alike two papers are (0–100): the better of title and abstract similarity."""
    from rapidfuzz import fuzz  # loaded by the first comparison, not at every start

    best = 0.0
    cutoff = NEAR_DUPLICATE - 1
    if a.title and b.title and _could_reach(a.title, b.title):
        best = fuzz.ratio(a.title, b.title, score_cutoff=cutoff)
    if best < NEAR_DUPLICATE and a.abstract and b.abstract and _could_reach(a.abstract, b.abstract):
        best = max(best, fuzz.ratio(a.abstract, b.abstract, score_cutoff=cutoff))
    if best < NEAR_DUPLICATE and a.abstract and b.abstract and starts_alike(a.abstract, b.abstract):
        best = 100.0
    return float(best)


#: The words of a paper's authors' names (see :func:`name_words`).
NameWords = frozenset[str]


def name_words(keys: Iterable[str]) -> NameWords:
    """The words of these authors' names, given as person keys (see
    :func:`~refman.common.text.person_key`), but for initials: "Jiang, Z." and "Zhuo Jiang"
    share "jiang", and so do "Zhuo Jiang" and "Jiang Zhuo"."""
    return frozenset(w for key in keys for w in key.split() if len(w) > 1)


def may_be_one_paper(a: NameWords, b: NameWords) -> bool:
    """False when two papers' authors are both known and share no name: two papers titled
    "Introduction" or "Editorial", by different people, are two papers, however alike their
    titles (only the same DOI, arXiv id or abstract makes them one)."""
    return not a or not b or not a.isdisjoint(b)


#: The look-alike :func:`best_match` finds: (similarity, candidate, whether the one abstract
#: is the start of the other rather than alike).
Likeness = tuple[float, T, bool]


def best_match(
    keys: MatchKeys,
    candidates: Sequence[tuple[T, MatchKeys]],
    openers: Sequence[tuple[T, MatchKeys]] = (),
) -> Likeness[T] | None:
    """The candidate most similar to ``keys``, if it reaches :data:`NEAR_DUPLICATE`; else
    the first of ``openers`` (the candidates whose abstract starts as the record's does)
    whose abstract is the start of the record's, or the record's of its
    (:func:`starts_alike`: similarity 100).

    Titles are compared with titles and abstracts with abstracts, in rapidfuzz's C loop.

    Returns:
        (similarity, candidate, cut short), or None when no candidate is near enough.
    """
    if keys.doi or keys.arxiv:  # only a paper with a DOI or arXiv id can conflict
        candidates = [(c, k) for c, k in candidates if not keys.conflicts(k)]
        openers = [(c, k) for c, k in openers if not keys.conflicts(k)]
    best = _closest(keys, candidates)
    if best is None and keys.abstract:
        for candidate, other in openers:
            if other.abstract and starts_alike(keys.abstract, other.abstract):
                return (100.0, candidate, True)
    return best


def continues(abstract: str, start: str) -> bool:
    """True when ``start`` is the start of the longer ``abstract``, cut short (see
    :func:`starts_alike`); both as refman keeps abstracts."""
    whole, part = _long_abstract(abstract), _long_abstract(start)
    return bool(whole and part and len(whole) > len(part) and starts_alike(whole, part))


#: The numbers of a title: digits, and Roman numerals of up to four letters ("part ii").
_NUMBERS = re.compile(r"\b(?:\d+|[ivx]{1,4})\b")


def numbered_alike(a: str, b: str) -> bool:
    """False when two normalized titles hold different numbers: "…, Part I" and "…, Part II",
    "Volume 2" and "Volume 3" are alike letter for letter, and two papers."""
    return sorted(_NUMBERS.findall(a)) == sorted(_NUMBERS.findall(b))


def _closest(keys: MatchKeys, candidates: Sequence[tuple[T, MatchKeys]]) -> Likeness[T] | None:
    """The candidate whose title (numbered alike) or abstract is most similar, if it is near
    enough."""
    from rapidfuzz import fuzz, process  # loaded by the first comparison, not at every start

    best: Likeness[T] | None = None
    for text, choices in (
        (keys.title, [k.title for _, k in candidates] if keys.title else []),
        (keys.abstract, [k.abstract for _, k in candidates] if keys.abstract else []),
    ):
        if not text:
            continue
        # rapidfuzz skips, in C, the choices that are None and those whose length alone
        # rules out the cutoff; the index it gives is the candidate's.
        found = process.extractOne(text, choices, scorer=fuzz.ratio, score_cutoff=NEAR_DUPLICATE)
        if found is not None and text is keys.title and not numbered_alike(text, found[0]):
            alike = process.extract(
                text, choices, scorer=fuzz.ratio, score_cutoff=NEAR_DUPLICATE, limit=None
            )
            found = next((f for f in alike if numbered_alike(text, f[0])), None)
        if found is not None and (best is None or found[1] > best[0]):
            best = (float(found[1]), candidates[found[2]][0], False)
    return best
