"""Text helpers shared by the importers and the library's duplicate matching.

* :func:`latex_to_text` turns LaTeX markup found in titles and abstracts into readable
  Unicode (``\\textbf{T1}`` -> ``T1``, ``g/cm$^3$`` -> ``g/cm³``) and leaves plain prose alone.
* :func:`normalize_for_match` is the key two titles must share to count as exact duplicates.
* :func:`person_key` is the key two spellings of a person's name must share to match.
* :func:`squash_spaces` tidies white space the way every typed name and title is tidied, and
  :func:`plural` words a count.

All three are cheap on plain text (no LaTeX parser is involved unless the text contains a
backslash or a dollar sign) and never raise.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from refman.common.east_asian import east_asian, without_gaps
from refman.common.latex_islands import LOGOS, group_end, island_source, islands, link_text
from refman.common.typeset import has_tex_ligature

if TYPE_CHECKING:  # pragma: no cover - typing only
    from pylatexenc.latex2text import LatexNodes2Text

__all__ = [
    "folded_key",
    "join_words",
    "latex_to_text",
    "normalize_for_match",
    "person_key",
    "plural",
    "squash_spaces",
]

# Private-use placeholders for characters LaTeX treats specially but prose uses literally.
_PERCENT = "\ue000"
_AMPERSAND = "\ue001"
#: A prime in math ("$f''(x)$"), kept from pylatexenc, which reads two as a closing quote.
_PRIME = "\ue002"
_RESTORE = str.maketrans({_PERCENT: "%", _AMPERSAND: "&", _PRIME: "'", "\xa0": " "})
_BARE_PERCENT = re.compile(r"(?<!\\)%")
_BARE_AMPERSAND = re.compile(r"(?<!\\)&")

# Where a stretch of LaTeX may start: a backslash, a dollar, or a brace group.

_SCRIPT = re.compile(r"([\^_])(?:\{([^{}]*)\}|\\circ\b|([^\s\\{}]))")
_SUPERSCRIPT = dict(zip("0123456789+-−=()niT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱᵀ", strict=True))
_SUBSCRIPT = dict(
    zip("0123456789+-−=()aeoxhklmnpstijruv", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥ", strict=True)
)

# Logos pylatexenc drops, and text symbols it drops or turns into look-alikes.
_converter: LatexNodes2Text | None = None


#: Text-style macros whose argument is text to keep (pylatexenc drops it by default).
_STYLED_TEXT = ("texttt", "textsf", "textup", "textmd", "mbox")


def _get_converter() -> LatexNodes2Text:
    """Return the shared pylatexenc converter, creating it on first use."""
    global _converter
    if _converter is None:
        from pylatexenc.latex2text import (
            LatexNodes2Text,
            MacroTextSpec,
            get_default_latex_context_db,
        )

        # pylatexenc logs a warning for every odd macro it meets in pasted abstracts; that is
        # noise for refman's users (the text is kept as written), so only errors get through.
        quiet = logging.getLogger("pylatexenc")
        if quiet.level == logging.NOTSET:
            quiet.setLevel(logging.ERROR)
        # the text symbols it drops or turns into look-alikes, wherever they stand
        symbols = [
            MacroTextSpec(macro[1:], text) for macro, text in LOGOS.items() if macro[-1] != "}"
        ]
        # the text styles whose text pylatexenc drops ("\texttt{grep}" read as nothing)
        kept = [MacroTextSpec(name, discard=False) for name in _STYLED_TEXT]
        context = get_default_latex_context_db()
        context.add_context_category("refman-symbols", prepend=True, macros=symbols + kept)
        _converter = LatexNodes2Text(latex_context=context)
    return _converter


def prepare_latex() -> None:
    """Load the LaTeX reader now (pylatexenc and its tables, some of which it loads at its
    first text), so that the first text that needs it does not wait for it."""
    _get_converter().latex_to_text(r"\emph{a} $x^2$ \'e")


def _script_to_unicode(match: re.Match[str]) -> str:
    """Replace one ``^x`` / ``_{xy}`` inside math by Unicode super/subscripts when possible."""
    marker, braced, single = match.group(1), match.group(2), match.group(3)
    body = braced if braced is not None else single
    if body is None or body.strip() == "\\circ":  # ``^\circ`` / ``^{\circ}``
        return "°" if marker == "^" else match.group(0)
    body = body.strip()
    table = _SUPERSCRIPT if marker == "^" else _SUBSCRIPT
    if body and all(char in table for char in body):
        return "".join(table[char] for char in body)
    return match.group(0)


def _unwrapped(latex: str) -> str:
    """A macro without the braces around it: ``{\\textasciicircum}`` -> ``\\textasciicircum``."""
    while latex.startswith("{") and latex.endswith("}") and group_end(latex, 0) == len(latex):
        latex = latex[1:-1]
    return latex


@lru_cache(maxsize=8192)
def _convert_island(latex: str) -> str:
    """Convert one piece of LaTeX; return it unchanged if pylatexenc fails on it."""
    latex = island_source(latex)
    named = LOGOS.get(_unwrapped(latex)) or link_text(latex)
    if named is not None:
        return named
    source = _BARE_AMPERSAND.sub(_AMPERSAND, _BARE_PERCENT.sub(_PERCENT, latex))
    if source.startswith(("$", "\\(", "\\[")):
        source = _SCRIPT.sub(_script_to_unicode, source).replace("'", _PRIME)
    try:
        converted = _get_converter().latex_to_text(source)
    except Exception:  # pylatexenc may raise anything on odd input
        return latex
    converted = converted.translate(_RESTORE)
    stripped = converted.strip()
    return stripped if stripped or not converted else " "


def latex_to_text(s: str) -> str:
    """Return readable Unicode for text that may contain LaTeX markup.

    Only the LaTeX stretches of the text (``$...$`` math, macros with their arguments, brace
    groups holding macros) go through pylatexenc, one at a time, so prose around them
    (including ``<b>``, ``%``, ``&``, ``_``, ``#``, ``~`` and spacing) is kept exactly and long
    abstracts stay cheap. Text without a backslash or dollar sign is returned unchanged.
    Super- and subscripts in math become Unicode (``$^3$`` -> ``³``, ``$_2$`` -> ``₂``).

    Args:
        s: Text from a title, abstract or name.

    Returns:
        The text with markup resolved; a stretch pylatexenc cannot read is kept as written.
    """
    if "\\" not in s and "$" not in s:
        return s
    try:
        spans = islands(s)
    except Exception:  # never fail on odd input: keep the text as written
        return s
    if not spans:
        return s
    pieces: list[str] = []
    position = 0
    for start, end in spans:
        pieces.append(s[position:start])
        pieces.append(_convert_island(s[start:end]))
        position = end
    pieces.append(s[position:])
    return "".join(pieces)


PLAIN_MARKS = str.maketrans(
    {
        "‘": "'",
        "’": "'",
        "‚": "'",
        "‛": "'",
        "′": "'",
        "“": '"',
        "”": '"',
        "„": '"',
        "‟": '"',
        "″": '"',
        "«": '"',
        "»": '"',
        "‐": "-",
        "‑": "-",
        "‒": "-",
        "–": "-",
        "—": "-",
        "―": "-",
        "−": "-",
    }
)
_TRAILING = " \t\n\r\f\v.,;:!?"
_TEX_DASHES = re.compile("-{2,}")


def normalize_for_match(s: str) -> str:
    """Return the key under which two titles count as the same (exact duplicate).

    The key is the LaTeX-free text, NFKC-normalised, case-folded, with typographic quotes and
    dashes made plain — TeX's ligatures for them too (``--``, ``---``, two backquotes, two
    single quotes), so that a ``.bib`` title read as "1990–2000" is the one written
    "1990--2000" —, whitespace collapsed to single spaces, and trailing punctuation
    (``.,;:!?``) removed.

    Args:
        s: A title (or any short text).

    Returns:
        The comparison key; ``""`` for blank input.
    """
    text = latex_to_text(s)
    if text.isascii():  # nothing to compose, no typographic marks: case alone (most text)
        text = text.lower()
    else:
        text = unicodedata.normalize("NFKC", text).translate(PLAIN_MARKS).casefold()
    if has_tex_ligature(text):
        text = _TEX_DASHES.sub("-", text).replace("``", '"').replace("''", '"')
    return squash_spaces(text).rstrip(_TRAILING)


#: Letters of their own that Unicode does not write as a letter and an accent, so that
#: dropping accents leaves them as they are: folded to the letters a person types for them
#: ("Østerberg" is found by "osterberg", "Łukasz" by "lukasz"), as Zotero folds them.
OWN_LETTERS = {
    "ø": "o",
    "Ø": "O",
    "æ": "ae",
    "Æ": "AE",
    "œ": "oe",
    "Œ": "OE",
    "ł": "l",
    "Ł": "L",
    "đ": "d",
    "Đ": "D",
    "ð": "d",
    "Ð": "D",
    "þ": "th",
    "Þ": "TH",
    "ß": "ss",
    "ẞ": "SS",
    "ı": "i",
    "ħ": "h",
    "Ħ": "H",
    "ŧ": "t",
    "Ŧ": "T",
}
_FOLD_LETTERS = str.maketrans(OWN_LETTERS)
#: The letters :func:`fold_letters` folds.
FOLDED_LETTERS = "".join(OWN_LETTERS)


def fold_letters(text: str) -> str:
    """``text`` with the letters of :data:`FOLDED_LETTERS` written as plain Latin letters
    (``"Łódź"`` -> ``"Lódź"``: accents are another matter, dropped where words are compared).

    Args:
        text: Any text.

    Returns:
        The text folded; ASCII text unchanged, at once.
    """
    return text if text.isascii() else text.translate(_FOLD_LETTERS)


def index_form(text: str) -> str:
    """``text`` as the search index reads it (and the words typed are read): compatibility
    characters written as the plain ones they stand for — the ligatures of text copied from a
    PDF ("ﬁ" -> "fi"), full-width letters ("Ｔｏｋｙｏ" -> "Tokyo"): NFKC —, then the letters
    of :data:`FOLDED_LETTERS` folded (:func:`fold_letters`).

    Args:
        text: Any text.

    Returns:
        The text to index; ASCII text unchanged, at once.
    """
    if text.isascii():
        return text
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    return text.translate(_FOLD_LETTERS)


#: Marks a name is written with either way: apostrophes ("O’Brien", "O'Brien") and hyphens
#: ("Jean-Pierre", "Jean Pierre"), one in a person key.
_NAME_MARKS = str.maketrans(dict.fromkeys("’‘ʼ′", "'") | dict.fromkeys("-‐‑", " "))


def folded_key(key: str) -> str:
    """A person key an older refman stored, as :func:`person_key` makes it now: letters such
    as ø folded (schema revision 0019), apostrophes and hyphens (0034)."""
    return squash_spaces(fold_letters(key).translate(_NAME_MARKS))


@lru_cache(maxsize=65536)  # an import names the same people again and again
def person_key(name: str) -> str:
    """Return the key under which two spellings of a person's name count as the same.

    Accents are dropped (NFKD without combining marks), letters such as ø and ł are written
    as o and l (:func:`fold_letters`), case is folded, dots and commas are removed and
    whitespace is collapsed, so "Zoë  Müller" and "zoe muller" share a key, as do "Jørn
    Østerberg" and "Jorn Osterberg", "O’Brien" and "O'Brien", "Jean-Pierre" and "Jean
    Pierre" (:data:`_NAME_MARKS`); Chinese, Japanese and Korean names are written with
    or without a space ("山田 太郎" and "山田太郎").

    Args:
        name: A person's display name.

    Returns:
        The comparison key; ``""`` for blank input.
    """
    plain = plain_letters(latex_to_text(name)).translate(_NAME_MARKS)
    plain = squash_spaces(plain.replace(".", " ").replace(",", " "))
    return plain if plain.isascii() else without_gaps(plain)


#: Kana's voicing marks, which make other letters (た → だ, は → ぱ): no accents to drop.
_KANA_MARKS = "\u3099\u309a"


def plain_letters(text: str) -> str:
    """``text`` as compared where accents and case do not count: accents dropped (NFKD
    without combining marks), letters such as ø and ł written as o and l
    (:func:`fold_letters`), case folded (``"Zürich Łódź"`` -> ``"zurich lodz"``).

    Args:
        text: Any text.

    Returns:
        The plain text; ASCII text only case-folded, at once.
    """
    if not text.isascii():
        decomposed = unicodedata.normalize("NFKD", text)
        kept = "".join(c for c in decomposed if not unicodedata.combining(c) or c in _KANA_MARKS)
        if "\u3099" in kept or "\u309a" in kept:
            kept = unicodedata.normalize("NFC", kept)  # (だ is a letter of its own, not た)
        text = fold_letters(kept)
    return text.casefold()


def squash_spaces(text: str) -> str:
    """Trim ``text`` and collapse every run of white space inside it to one space.

    Args:
        text: Typed or imported text.

    Returns:
        The tidied text; ``""`` for blank input.
    """
    return " ".join(text.split())


def sort_form(text: str | None) -> str | None:
    """How a title or venue sorts when SQL's ``lower()`` does not give it: in plain letters
    (:func:`plain_letters`, "Études rurales" → "etudes rurales"), for text holding letters
    outside ASCII whose plain letters are not its ASCII letters lowercased; else None (most
    text: ``lower()`` sorts it, and nothing is stored)."""
    if text is None or text.isascii():
        return None
    plain = plain_letters(text)
    ascii_lowered = "".join(c.lower() if c.isascii() else c for c in text)
    return plain if plain != ascii_lowered else None


def sort_name(name: str) -> str:
    """How a person's name sorts: family name, then given names, in plain letters
    (:func:`plain_letters`: "Zhuo Jiang" → "jiang zhuo", "Søren Østergaard" → "ostergaard
    soren", among the O's, not after Z); a Chinese, Japanese or Korean name is written family
    name first ("山田 太郎" as it is)."""
    parts = name.split()
    if len(parts) > 1 and not all(map(east_asian, parts)):
        return plain_letters(parts[-1] + " " + " ".join(parts[:-1]))
    return plain_letters(name)


def plural(count: int, word: str, words: str | None = None) -> str:
    """Word a count: ``"1 paper"``, ``"3 papers"``, ``"6,000 papers"`` (``words`` for an
    irregular plural; thousands grouped, as the status bar's count).

    Args:
        count: How many.
        word: The singular.
        words: The plural when it is not ``word + "s"``.

    Returns:
        The count and the word.
    """
    return f"{count:,} {word if count == 1 else (words or word + 's')}"


def join_words(words: Iterable[str]) -> str:
    """Join words for a sentence: ``"a"``, ``"a and b"``, ``"a, b and c"``."""
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"
