"""Plain text as the value of a BibTeX or BibLaTeX field.

refman keeps titles, names and abstracts as readable Unicode; a ``.bib`` file needs LaTeX.
pylatexenc (the library refman also reads LaTeX with) writes the characters LaTeX treats
specially (``& % $ # _ ~ ^ \\ < >``) and, for BibTeX, every accented or other non-ASCII
letter. Braces are the one case it cannot do for BibTeX: BibTeX counts ``\\{`` as a brace,
so a lone brace in a title would break the file. Braces that pair up become ``\\{ … \\}``;
a lone one becomes ``\\textbraceleft{}`` / ``\\textbraceright{}``. A double quote is kept as
it is (it is safe inside a braced value, and pylatexenc would turn it into a curly quote).

pylatexenc's table is wrong for a few letters (``ű`` as ``\\'{u}``, which prints "ú"; ``ħ`` as
``\\={h}``; ``ŉ`` as no LaTeX at all) and writes a few symbols with commands that need a
package or print something else (``\\mathscr{L}``, ``\\sqrt{}``): :data:`_OVERRIDES` says what
refman writes instead, and keeps a letter plain LaTeX has no command for as it is (UTF-8, which
BibTeX passes on and biber reads).

An abstract is LaTeX already, as refman keeps it (:func:`latex_abstract`): it goes out as it
is, but for the braces of its text, which refman shows as braces and BibTeX would take for
groups.

Capital letters in titles are protected with braces (``{DNA}``), so that styles that change a
title's case (``plain``, biblatex's sentence case) print it as written. Math in a title
(``$\\sqrt{s}=7$``) is LaTeX already: it goes out as it is, braced.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterable, Iterator
from functools import lru_cache

from pylatexenc.latexencode import UnicodeToLatexEncoder

from refman.common.latex_islands import islands
from refman.common.latex_islands import math_spans as read_math

__all__ = [
    "braces_pair",
    "fits_as_is",
    "latex_abstract",
    "latex_text",
    "latex_title",
    "math_spans",
    "protect",
    "verbatim",
]

#: Script capitals, A to Z (pylatexenc writes ``\\mathscr``, which needs the mathrsfs package).
_SCRIPT_CAPITALS = "𝒜ℬ𝒞𝒟ℰℱ𝒢ℋℐ𝒥𝒦ℒℳ𝒩𝒪𝒫𝒬ℛ𝒮𝒯𝒰𝒱𝒲𝒳𝒴𝒵"
#: What refman writes for a character instead of pylatexenc's LaTeX: the right command, or the
#: character itself where plain LaTeX has none (pylatexenc writes another letter for those:
#: ``ħ`` as ``h̄``, ``ĸ`` as small-caps "k", ``ŀ`` as ``l̇``, or no LaTeX: ``\\nument{149}``).
_OVERRIDES = {
    "Ő": r"{\H{O}}",
    "ő": r"{\H{o}}",
    "Ű": r"{\H{U}}",
    "ű": r"{\H{u}}",
    "√": r"{\ensuremath{\surd}}",  # \sqrt{} is a root over nothing
    **{
        char: "{\\ensuremath{\\mathcal{" + letter + "}}}"
        for char, letter in zip(_SCRIPT_CAPITALS, string.ascii_uppercase, strict=True)
    },
    **{char: char for char in "ĦħĸĿŀŉŦŧ∛∜"},
    # script small letters: mathrsfs has none either
    **{char: char for char in map(chr, range(0x1D4B6, 0x1D4D0))},
}

# Placeholders for the braces of the text and for its math (Unicode non-characters: never in
# real text).
_OPEN, _CLOSE, _LONE_OPEN, _LONE_CLOSE = "\ufdd0", "\ufdd1", "\ufdd2", "\ufdd3"
_MATH_MARK = "\ufdd4"
_BRACES = {
    _OPEN: r"\{",
    _CLOSE: r"\}",
    _LONE_OPEN: r"\textbraceleft{}",
    _LONE_CLOSE: r"\textbraceright{}",
}
_PLACEHOLDERS = re.compile("[\ufdd0-\ufdd4]")
#: Pieces pylatexenc must not see: braces and math (as placeholders) and the double quote.
_KEPT = re.compile('([\ufdd0-\ufdd4"])')
#: The ASCII characters LaTeX treats specially (besides braces).
_SPECIAL = re.compile(r"[#$%&\\^_~<>]")
#: What pylatexenc must write for BibTeX: specials, non-ASCII characters and a character
#: followed by combining accents (handed over one at a time: the same result, much faster).
_NOT_PLAIN = re.compile(r".[\u0300-\u036f]+|[^\x00-\x7f]|[#$%&\\^_~<>]", re.DOTALL)
_WORDS = re.compile(r"(\s+)")
#: A line that starts with "@": readers that recover from damage take it for a new entry.
_AT_LINE_START = re.compile(r"(\n[ \t]*)@")
#: What pylatexenc must write of math for BibTeX: its non-ASCII characters (``α``).
_NON_ASCII = re.compile(r".[\u0300-\u036f]+|[^\x00-\x7f]", re.DOTALL)
#: What math that LaTeX takes never holds bare: a comment, a parameter, an alignment tab.
_NOT_MATH = re.compile(r"(?<!\\)[%#&]")
_ANY_BRACE = re.compile(r"[{}]")
#: A "%" no backslash escapes: a comment to LaTeX, where the text means a percent sign.
_BARE_PERCENT = re.compile(r"(?<!\\)((?:\\\\)*)%")
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


#: LaTeX's accent commands, by the combining mark they put on a letter.
_ACCENTS = {
    "\u0300": "`",
    "\u0301": "'",
    "\u0302": "^",
    "\u0303": "~",
    "\u0304": "=",
    "\u0306": "u",
    "\u0307": ".",
    "\u0308": '"',
    "\u030a": "r",
    "\u030b": "H",
    "\u030c": "v",
    "\u0323": "d",
    "\u0327": "c",
    "\u0328": "k",
    "\u0331": "b",
}


@lru_cache(maxsize=4096)
def _latex_of(chars: str) -> str:
    """A character (with any combining accents) or a special character as LaTeX; ``u`` with a
    combining double acute is ``ű`` (composed, so that :data:`_OVERRIDES` has it)."""
    override = _OVERRIDES.get(unicodedata.normalize("NFC", chars))
    if override is not None:
        return override
    latex = str(_encoder().unicode_to_latex(chars))
    return latex if latex.isascii() else _accented(chars) or latex


def _accented(chars: str) -> str | None:
    r"""A letter with accents pylatexenc has no entry for, accent by accent ("ệ" as
    ``{\^{\d{e}}}``, as Vietnamese names need); None when one of them has no command in plain
    LaTeX (a hook or horn: the letter stays UTF-8)."""
    decomposed = unicodedata.normalize("NFD", chars)
    base, marks = decomposed[0], decomposed[1:]
    if not base.isascii() or not marks or any(mark not in _ACCENTS for mark in marks):
        return None
    latex = base
    for mark in marks:
        latex = f"\\{_ACCENTS[mark]}{{{latex}}}"
    return "{" + latex + "}"


def _encode_piece(piece: str, ascii_only: bool) -> str:
    pattern = _NOT_PLAIN if ascii_only else _SPECIAL
    return pattern.sub(lambda m: _latex_of(m.group()), piece)


def _encode(marked: str, ascii_only: bool, math: Iterator[str] | None = None) -> str:
    """Encode text whose braces (and math, written already: ``math``) are placeholders."""
    out = []
    for piece in _KEPT.split(marked):
        if piece in _BRACES:
            out.append(_BRACES[piece])
        elif piece == _MATH_MARK and math is not None:
            out.append(next(math))
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
    marked = _mark_braces(_PLACEHOLDERS.sub("", text))
    return _AT_LINE_START.sub(r"\1{@}", _encode(marked, ascii_only))


def math_spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each piece of math in a text that LaTeX takes as it is: math as
    refman's reader finds it (:func:`refman.common.latex_islands.math_spans`), with braces
    that pair up and no bare ``%``, ``#`` or ``&``."""
    found = []
    for start, end in read_math(text):
        body = text[start:end].strip("$")
        if body.strip() and braces_pair(body) and not _NOT_MATH.search(body):
            found.append((start, end))
    return found


def latex_title(text: str, *, ascii_only: bool) -> str:
    """Like :func:`latex_text`, with every word that holds a capital protected: ``{DNA}``.

    Math (:func:`math_spans`) goes out as it is, braced so that no style changes its case
    (``\\mathcal{L}``); for BibTeX, with its non-ASCII characters as LaTeX (``\\alpha``).
    """
    text = _PLACEHOLDERS.sub("", text)
    pieces: list[str] = []
    math: list[str] = []
    position = 0
    for start, end in math_spans(text):
        formula = text[start:end]
        if ascii_only:
            formula = _NON_ASCII.sub(lambda m: _latex_of(m.group()), formula)
        pieces += [text[position:start], _MATH_MARK]
        math.append(protect(formula))
        position = end
    pieces.append(text[position:])
    formulas = iter(math)
    out = []
    for word in _WORDS.split(_mark_braces("".join(pieces))):
        latex = _encode(word, ascii_only, formulas)
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


def latex_abstract(text: str) -> str:
    """An abstract as refman keeps it (text that holds LaTeX) as a field's value that BibTeX
    and refman's reader read back as the text refman shows: its LaTeX (macros, math, groups
    that hold a macro: :func:`~refman.common.latex_islands.islands`) as it is, and each brace
    of its text, outside the LaTeX, as a brace: ``\\{ … \\}`` when they pair up,
    ``\\textbraceleft{}`` / ``\\textbraceright{}`` for a lone one; a no-break space (a tie
    of the ``.bib`` it came from, or of a web page) as the tie ``~``; a bare ``%`` (an author
    page's "54.1%": refman reads it as a percent sign) as ``\\%``, since biblatex reads every
    field from the ``.bbl`` biber writes, where a comment would hide the rest of the line and
    the brace that closes the field, and fail the document."""
    if "\xa0" in text:
        text = text.replace("\xa0", "~")
    if "%" in text:
        text = _BARE_PERCENT.sub(r"\1\\%", text)
    if "{" not in text and "}" not in text:
        return text
    spans = iter(islands(text))
    span = next(spans, None)
    prose: list[int] = []
    for found in _ANY_BRACE.finditer(text):
        while span is not None and span[1] <= found.start():
            span = next(spans, None)
        if span is None or found.start() < span[0]:
            prose.append(found.start())
    if not prose:
        return text
    marked = _mark_braces("".join(text[i] for i in prose))
    chars = list(text)
    for index, mark in zip(prose, marked, strict=True):
        chars[index] = _BRACES[mark]
    return "".join(chars)


def verbatim(value: str) -> str:
    """A DOI, URL, arXiv id or ISBN as it is; only braces that do not pair up (or a final
    backslash) are %-encoded, the one thing a BibTeX field cannot hold."""
    if braces_pair(value):
        return value
    encoded = value.replace("{", "%7B").replace("}", "%7D")
    return encoded[:-1] + "%5C" if encoded.endswith("\\") else encoded
