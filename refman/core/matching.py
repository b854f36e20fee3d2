"""Finding a paper again: exact match keys and the fuzzy near-duplicate check.

Two records are the same paper when their abstracts are equal after normalizing (case, white
space, LaTeX, trailing punctuation) or their real titles are. Records that are not equal but
whose normalized title or abstract is at least :data:`NEAR_DUPLICATE` similar (rapidfuzz
ratio) are possible duplicates. To keep that check fast on a large library, only papers that
share a blocking key (the first or last characters of the normalized title or abstract) are
compared.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from rapidfuzz import fuzz

from refman.core.text import normalize_for_match

NEAR_DUPLICATE = 95.0

_TITLE_BLOCK = 16
_ABSTRACT_BLOCK = 48
_MIN_ABSTRACT = 20


@dataclass(frozen=True, slots=True)
class MatchKeys:
    """The normalized texts of a paper that matching compares."""

    title: str | None  # None for a provisional title: suggestions never match
    abstract: str | None

    @property
    def abstract_hash(self) -> str | None:
        """A short digest of the normalized abstract (the stored exact key)."""
        if self.abstract is None:
            return None
        return hashlib.sha1(self.abstract.encode("utf-8")).hexdigest()[:24]

    def exact(self) -> list[tuple[str, str]]:
        """The (kind, key) pairs that identify the paper exactly, strongest first."""
        keys: list[tuple[str, str]] = []
        digest = self.abstract_hash
        if digest is not None:
            keys.append(("abstract", digest))
        if self.title:
            keys.append(("title", self.title))
        return keys

    def blocks(self) -> list[tuple[str, str]]:
        """The (kind, key) pairs that pick candidates for the fuzzy check."""
        keys: list[tuple[str, str]] = []
        if self.title and len(self.title) >= _TITLE_BLOCK:
            keys.append(("title_head", self.title[:_TITLE_BLOCK]))
            keys.append(("title_tail", self.title[-_TITLE_BLOCK:]))
        if self.abstract and len(self.abstract) >= _ABSTRACT_BLOCK:
            keys.append(("abstract_head", self.abstract[:_ABSTRACT_BLOCK]))
            keys.append(("abstract_tail", self.abstract[-_ABSTRACT_BLOCK:]))
        return keys

    def all_keys(self) -> list[tuple[str, str]]:
        """Every key to store for the paper."""
        return self.exact() + self.blocks()


def match_keys(title: str, title_provisional: bool, abstract: str) -> MatchKeys:
    """The match keys of a paper or record."""
    norm_title = None if title_provisional else (normalize_for_match(title) or None)
    norm_abstract = normalize_for_match(abstract) if abstract else ""
    return MatchKeys(
        title=norm_title,
        abstract=norm_abstract if len(norm_abstract) >= _MIN_ABSTRACT else None,
    )


def similarity(a: MatchKeys, b: MatchKeys) -> float:
    """How alike two papers are (0–100): the better of title and abstract similarity."""
    best = 0.0
    if a.title and b.title:
        best = max(best, fuzz.ratio(a.title, b.title, score_cutoff=NEAR_DUPLICATE - 1))
    if a.abstract and b.abstract:
        best = max(best, fuzz.ratio(a.abstract, b.abstract, score_cutoff=NEAR_DUPLICATE - 1))
    return float(best)


def is_exact(a: MatchKeys, b: MatchKeys) -> bool:
    """True when two papers share an exact key."""
    return bool(set(a.exact()) & set(b.exact()))
