"""Whether a look-alike is better kept as a paper of its own until the person says otherwise.

A record 95% alike a paper (see :func:`~refman.core.matching.best_match`) is a possible
duplicate; most are the paper again (a typo, a plural, a reworded title) and merge, but
titles that hold other numbers, or that differ by a word that is no other spelling of a
word of the other ("with" / "without"), are more likely two papers — and so are abstracts
alike but for words or numbers of their own under titles of their own: one template (a
lab's reports, a series).
"""

from __future__ import annotations

import re
from collections import Counter

from refman.core.matching import NEAR_DUPLICATE, MatchKeys, numbered_alike

#: Words that two wordings of one title swap freely ("a survey of" / "a survey on").
_SWAPPABLE = frozenset(
    "a an the of on in for to and or with by at from into via as is are its their our using "
    "based towards toward".split()
)
#: How alike two words must be to be spellings of one word ("optimisation" / "optimization",
#: "network" / "networks", a typo), as rapidfuzz's ratio.
_SPELLING = 75


def worded_apart(a: str, b: str) -> bool:
    """True when two look-alike normalized titles differ by a word that is no other spelling
    of a word of the other ("… with convolutional networks" / "… without …", "… in legal
    domain" / "… in medical domain"): more likely two papers than one paper written twice.
    Small words swapped, plurals, British and American spellings and typos are not."""
    from rapidfuzz import fuzz  # loaded by the first comparison, not at every start

    words_a, words_b = Counter(_WORD_OF_TITLE.findall(a)), Counter(_WORD_OF_TITLE.findall(b))
    only_a, only_b = list((words_a - words_b).elements()), list((words_b - words_a).elements())
    for word, others in [*((w, only_b) for w in only_a), *((w, only_a) for w in only_b)]:
        if word in _SWAPPABLE or len(word) < 3:
            continue
        if not any(fuzz.ratio(word, other) >= _SPELLING for other in others):
            return True
    return False


_WORD_OF_TITLE = re.compile(r"[^\W_]+")


def kept_apart(keys: MatchKeys, other: MatchKeys) -> bool:
    """True when a look-alike is better kept as a paper of its own until the person says
    otherwise: their titles hold other numbers, or are :func:`worded_apart` and no abstract
    makes them one. Two abstracts alike say one paper under a title reworded by a word, and
    under another title when they differ by no more than a typo or a small word; abstracts
    that differ by words or numbers of their own under other titles are one template (a
    lab's reports, a series), alike but for a place and a few numbers."""
    from rapidfuzz import fuzz  # loaded by the first comparison, not at every start

    title, other_title = keys.title, other.title
    if not title or not other_title:
        return False
    if not numbered_alike(title, other_title):
        return True  # (a look-alike by its abstract: by its title, it is none)
    if not worded_apart(title, other_title):
        return False
    if not keys.abstract or not other.abstract:
        return True
    if fuzz.ratio(title, other_title) >= NEAR_DUPLICATE:
        return fuzz.ratio(keys.abstract, other.abstract) < NEAR_DUPLICATE
    # another title: a look-alike by its abstract (95% alike)
    return worded_apart(keys.abstract, other.abstract) or not numbered_alike(
        keys.abstract, other.abstract
    )
