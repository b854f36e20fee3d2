"""Chinese, Japanese and Korean text: the scripts whose names are written family name first
with no space (张伟, 山田太郎, 김민수), and whose words are written without spaces between them
(the search indexes hold their letters one by one).
"""

from __future__ import annotations

import re

#: Chinese and Japanese letters (ideographs and kana: words are written without spaces; 々 〆
#: 〇 〻 repeat or stand for ideographs: 佐々木), then with Hangul (and its letters' parts, as
#: NFKD writes a syllable) the letters of the scripts whose names are family name first.
_HAN_KANA = (
    "\u3005-\u3007\u303b\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
)
_EAST_ASIAN_LETTERS = f"\u1100-\u11ff\u3130-\u318f\uac00-\ud7af{_HAN_KANA}"
_HAN_KANA_RUN = re.compile(f"[{_HAN_KANA}]+")
_EAST_ASIAN = re.compile(f"^[{_EAST_ASIAN_LETTERS}]+$")
_EAST_ASIAN_LETTER = re.compile(f"[{_EAST_ASIAN_LETTERS}]")
#: The same class as PostgreSQL's regular expressions write it (``\\uXXXX``, ``\\UXXXXXXXX``).
EAST_ASIAN_SQL_CLASS = "[" + _EAST_ASIAN_LETTERS.encode("unicode_escape").decode("ascii") + "]"
_EAST_ASIAN_GAP = re.compile(f"(?<=[{_EAST_ASIAN_LETTERS}]) (?=[{_EAST_ASIAN_LETTERS}])")


def without_gaps(text: str) -> str:
    """``text`` without the spaces between two such letters ("山田 太郎" → "山田太郎")."""
    return _EAST_ASIAN_GAP.sub("", text)


def east_asian(text: str) -> bool:
    """True when a name's part is written in Chinese, Japanese or Korean letters alone."""
    return bool(_EAST_ASIAN.match(text))


def holds_east_asian(text: str) -> bool:
    """True when a text holds a Chinese, Japanese or Korean letter."""
    return not text.isascii() and _EAST_ASIAN_LETTER.search(text) is not None


def letters_apart(text: str) -> str:
    """``text`` with each Chinese, Japanese or Korean letter a word of its own ("黄河的泥沙" →
    " 黄  河  的  泥  沙 "): those scripts write no space between words, so the search
    indexes hold their letters one by one, and a word typed is found as its letters side by
    side (anywhere in a longer word, as Zotero's search finds it)."""
    return _EAST_ASIAN_LETTER.sub(r" \g<0> ", text) if holds_east_asian(text) else text


def unspaced_words(text: str, letters: int) -> str:
    """``text`` with each run of Chinese or Japanese letters (written without spaces between
    words) cut to its first ``letters`` letters, as a word apart ("黄河三角洲 的" → " 黄河  的")."""
    return _HAN_KANA_RUN.sub(lambda m: f" {m[0][:letters]} ", text)


def word_count(text: str) -> int:
    """About how many words a text holds: its words between spaces, and a word for every two
    Chinese, Japanese or Korean letters (those scripts write no spaces between words)."""
    words = len(text.split())
    if holds_east_asian(text):
        words += len(_EAST_ASIAN_LETTER.findall(text)) // 2
    return words
