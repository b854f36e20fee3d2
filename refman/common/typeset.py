"""TeX's ligatures of text — ``--``, ``---``, two backquotes, two single quotes — as the
characters TeX prints for them (–, —, “, ”), where text written for TeX is shown.

A title copied from an arXiv listing, a LaTeX-made CV or a ``.bib`` file writes its dashes
and quotes so ("1990--2000", "Learning---Fast", ````Deep'' learning``); refman shows what
TeX prints. Text that only looks so stays as written, as TeX's typewriter type prints it
too: a command-line option ("The ``--help`` flag", "git --amend"), a decrement or a language
named after one ("C--", "i--"), the marks inside LaTeX (``\\texttt{--x}``, ``$f''(x)$``:
:func:`printed_prose` typesets the prose around LaTeX only).
"""

from __future__ import annotations

import re

from refman.common.latex_islands import islands

__all__ = ["TEX_LIGATURES", "has_tex_ligature", "printed_prose", "typeset_ligatures"]

#: TeX's ligatures for dashes and double quotation marks, as a ``.bib`` file writes them.
TEX_LIGATURES = ("--", "``", "''")
#: Two or three hyphens (four or more are a rule of hyphens, no dash), two quotes.
_LIGATURE = re.compile(r"(?<!-)-{2,3}(?!-)|``|''")
#: What may stand before an option's dashes ("--help", "(--amend)").
_OPTION_BEFORE = frozenset(" \t\n([{'\"`“‘")
#: What may follow a closing double quote: the end, a space, punctuation.
_AFTER_CLOSING = frozenset(" \t\n.,;:!?)]}")


def has_tex_ligature(text: str) -> bool:
    """True when ``text`` holds one of :data:`TEX_LIGATURES`."""
    return any(mark in text for mark in TEX_LIGATURES)


def _code_like(before: str, after: str) -> bool:
    """Whether dashes between ``before`` and ``after`` (a character each, "" at an end) are
    code: an option ("--help") or a decrement ("C--", "i--")."""
    option = (not before or before in _OPTION_BEFORE) and after.isalpha()
    decrement = (before.isalpha() or before in "+_") and not after.isalnum()
    return option or decrement


def _printed(match: re.Match[str]) -> str:
    mark, text = match[0], match.string
    before = text[match.start() - 1] if match.start() else ""
    after = text[match.end()] if match.end() < len(text) else ""
    if mark == "``":
        return "“" if after and not after.isspace() else mark
    if mark == "''":
        return (
            "”"
            if before and not before.isspace() and (not after or after in _AFTER_CLOSING)
            else mark
        )
    if _code_like(before, after):
        return mark
    return "—" if len(mark) == 3 else "–"


def typeset_ligatures(text: str) -> str:
    """``text`` with TeX's ligatures as the characters TeX prints ("1990--2000" →
    "1990–2000", "---" an em dash, two backquotes and two quotes in curly quotes); code
    (:func:`_code_like`), a quote that opens or closes nothing, four hyphens stay.

    Args:
        text: Prose (no LaTeX markup to keep: see :func:`printed_prose`).

    Returns:
        The text typeset; text without a ligature unchanged, at once.
    """
    return _LIGATURE.sub(_printed, text) if has_tex_ligature(text) else text


def printed_prose(text: str) -> str:
    """``text`` with TeX's ligatures of its prose typeset (:func:`typeset_ligatures`), its
    LaTeX (macros, groups, math) as written, for :func:`~refman.common.text.latex_to_text`
    to read."""
    if not has_tex_ligature(text):
        return text
    try:
        spans = islands(text)
    except Exception:  # never fail on odd input: the prose as a whole
        spans = []
    pieces: list[str] = []
    position = 0
    for start, end in spans:
        pieces += [typeset_ligatures(text[position:start]), text[start:end]]
        position = end
    pieces.append(typeset_ligatures(text[position:]))
    return "".join(pieces)
