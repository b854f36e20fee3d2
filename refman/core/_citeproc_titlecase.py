"""Title case of hyphenated words as citeproc-js writes it (difference C5 of
``tests/fixtures/citations/DIFFERENCES.md``). Private to :mod:`refman.core._citeproc_render`.

In title case citeproc-js treats each part of a hyphenated word as a word: "self-driving
cars" becomes "Self-Driving Cars" and a site named "Citeproc-js Documentation" comes out as
"Citeproc-Js Documentation"; citeproc-py looked at the whole word only, capitalising its
first letter when it was all lower case ("Self-driving") and leaving it alone otherwise.
citeproc-js also capitalises a stop word that ends the text ("What to Look For"), as title
case asks; citeproc-py left it lower case.
Here each lower-case part is capitalised but for stop words after the first part
("In-Depth", "Step-by-Step"), any other part is left as written, and words the data
protects (``nocase``) are left whole.
"""

from __future__ import annotations

from typing import Any

from citeproc.model import TextCased
from citeproc.string import NoCase

_ORIGINAL_CASE = TextCased.case


def _part(part: str, first: bool, stop_words: list[str]) -> str:
    if not part.islower() or (part in stop_words and not first):
        return part
    return part[0].upper() + part[1:]


def _title_word(word: Any, after: str, stop_words: list[str]) -> Any:
    """One space-separated word in title case; ``after``: the last character before it."""
    if isinstance(word, NoCase) or "-" not in str(word).strip("-"):
        if word.islower() and (str(word) not in stop_words or after in (":", ".")):
            return word.capitalize_first()
        return word.soft_lower() if word.islower() else word
    parts = str(word).split("-")
    cased = [_part(p, i == 0, stop_words) for i, p in enumerate(parts)]
    return word.__class__("-".join(cased))


def _case(self: Any, text: Any, language: Any = None) -> Any:
    """citeproc-py's ``TextCased.case``, with hyphenated words cased part by part."""
    if self.get("text-case") != "title" or language != "en":
        return _ORIGINAL_CASE(self, text, language)
    words = list(text.words())
    output = []
    after = ":"  # the first word is capitalised, and so is the last
    for number, word in enumerate(words, 1):
        word = _title_word(word, ":" if number == len(words) else after, self._stop_words)
        after = word[-1]
        output.append(word)
    return " ".join(output)


def install() -> None:
    """Case hyphenated words part by part (idempotent)."""
    TextCased.case = _case
