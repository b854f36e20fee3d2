"""Plain text as the value of a BibTeX or BibLaTeX field.

refman keeps titles, names and abstracts as readable Unicode; a ``.bib`` file needs LaTeX.
pylatexenc (the library refman also reads LaTeX with) writes the characters LaTeX treats
specially (``& % $ # _ ~ ^ \\ < >``) and, for BibTeX, every accented or other non-ASCII
letter. Braces are the one case it cannot do for BibTeX: BibTeX counts ``\\{`` as a brace,
so a lone brace in a title would break the file. Braces that pair up become ``\\{ … \\}``;
a lone one becomes ``\\textbraceleft{}`` / ``\\textbraceright{}``. A double quote is kept as
it is (it is safe inside a braced value, and pylatexenc would turn it into a curly quote).

Capital letters in titles are protected with braces (``{DNA}``), so that styles that change a
title's case (``plain``, biblatex's sentence case) print it as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from pylatexenc.latexencode import UnicodeToLatexEncoder

__all__ = ["braces_pair", "fits_as_is", "latex_text", "latex_title", "protect", "verbatim"]

# Placeholders for the braces of the text (Unicode non-characters: never in real text).
_OPEN, _CLOSE, _LONE_OPEN, _LONE_CLOSE = "\ufdd0", "\ufdd1", "\ufdd2", "\ufdd3"
_BRACES = {
    _OPEN: r"\{",
    _CLOSE: r"\}",
    _LONE_OPEN: r"\textbraceleft{}",
    _LONE_CLOSE: r"\textbraceright{}",
}
_PLACEHOLDERS = re.compile("[\ufdd0-\ufdd3]")
#: Pieces pylatexenc must not see: braces (as placeholders) and the double quote.
_KEPT = re.compile('([\ufdd0-\ufdd3"])')
#: The ASCII characters LaTeX treats specially (besides braces).
_SPECIAL = re.compile(r"[#$%&\\^_~<>]")
#: What pylatexenc must write for BibTeX: specials, non-ASCII characters and a character
#: followed by combining accents (handed over one at a time: the same result, much faster).
_NOT_PLAIN = re.compile(r".[\u0300-\u036f]+|[^\x00-\x7f]|[#$%&\\^_~<>]", re.DOTALL)
_WORDS = re.compile(r"(\s+)")
#: A line that starts with "@": readers that recover from damage take it for a new entry.
_AT_LINE_START = re.compile(r"(\n[ \t]*)@")
_ANY_BRACE = re.compile(r"[{}]")
_BARE_BRACE = re.compile(r"(?<!\\)[{}]")


@lru_cache(maxsize=1)
def _encoder() -> UnicodeToLatexEncoder:
    return UnicodeToLatexEncoder(
        replacement_latex_protection="braces-all",
        unknown_char_policy="keep",  # CJK and the like stay as UTF-8 (BibTeX passes them on)
        unknown_char_warning=False,
    )


def _mark_braces(text: str) -> str:
    """The text with each brace replaced by a placeholder saying whether it has a partner."""
    text = _PLACEHOLDERS.sub("", text)
    if "{" not in text and "}" not in text:
        return text
    chars = list(text)
    opened: list[int] = []
    for index, char in enumerate(chars):
        if char == "{":
            opened.append(index)
            chars[index] = _LONE_OPEN
        elif char == "}":
            if opened:
                chars[opened.pop()] = _OPEN
                chars[index] = _CLOSE
            else:
                chars[index] = _LONE_CLOSE
    return "".join(chars)


@lru_cache(maxsize=4096)
def _latex_of(chars: str) -> str:
    return str(_encoder().unicode_to_latex(chars))


def _encode_piece(piece: str, ascii_only: bool) -> str:
    pattern = _NOT_PLAIN if ascii_only else _SPECIAL
    return pattern.sub(lambda m: _latex_of(m.group()), piece)


def _encode(marked: str, ascii_only: bool) -> str:
    """Encode text whose braces are placeholders already."""
    out = []
    for piece in _KEPT.split(marked):
        if piece in _BRACES:
            out.append(_BRACES[piece])
        elif piece == '"':
            out.append(piece)
        elif piece:
            out.append(_encode_piece(piece, ascii_only))
    return "".join(out)


def protect(latex: str) -> str:
    """Braces that keep a piece of LaTeX as it is (case and all).

    A piece that starts with a command gets two pairs: BibTeX would read ``{\\cmd…}`` as one
    "special character" and still change its case.
    """
    return "{{" + latex + "}}" if latex.startswith("\\") else "{" + latex + "}"


def latex_text(text: str, *, ascii_only: bool) -> str:
    """Plain text as LaTeX that BibTeX and biber read back as the same text.

    Args:
        text: The text.
        ascii_only: Also write non-ASCII letters as LaTeX (``M{\\"u}ller``), for BibTeX;
            when False (BibLaTeX) they stay UTF-8.
    """
    return _AT_LINE_START.sub(r"\1{@}", _encode(_mark_braces(text), ascii_only))


def latex_title(text: str, *, ascii_only: bool) -> str:
    """Like :func:`latex_text`, with every word that holds a capital protected: ``{DNA}``."""
    out = []
    for word in _WORDS.split(_mark_braces(text)):
        latex = _encode(word, ascii_only)
        out.append(protect(latex) if any(c.isupper() for c in word) else latex)
    return "".join(out)


def _pairs(braces: Iterable[str]) -> bool:
    depth = 0
    for brace in braces:
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def braces_pair(text: str) -> bool:
    """True when a text can stand between a field's braces as it is: its braces pair up both
    as BibTeX counts them (every brace) and as readers that skip ``\\{`` count them, and it
    does not end in a backslash (which would hide the closing brace from those readers)."""
    if text.endswith("\\"):
        return False
    if "{" not in text and "}" not in text:
        return True
    return _pairs(_ANY_BRACE.findall(text)) and _pairs(_BARE_BRACE.findall(text))


def fits_as_is(latex: str) -> bool:
    """True when LaTeX (an abstract as refman keeps it) can be a field's value as it is: its
    braces pair up (:func:`braces_pair`) and no line of it starts with "@", which readers
    that recover from damage take for the next entry."""
    return braces_pair(latex) and not _AT_LINE_START.search(latex)


def verbatim(value: str) -> str:
    """A DOI, URL, arXiv id or ISBN as it is; only braces that do not pair up (or a final
    backslash) are %-encoded, the one thing a BibTeX field cannot hold."""
    if braces_pair(value):
        return value
    encoded = value.replace("{", "%7B").replace("}", "%7D")
    return encoded[:-1] + "%5C" if encoded.endswith("\\") else encoded
