"""The values of BibTeX fields: macros, ``#`` concatenation, and LaTeX turned into text.

bibtexparser's splitter hands over each field value as written (``{...}``, ``"..."``, a
number, a macro name, or pieces joined by ``#``). :func:`resolve` reads that expression
(expanding ``@string`` macros and the month macros) and returns the text between the
delimiters, or None when the value is not a well-formed expression — a sign that a comma or
brace is missing and the entry is damaged. :func:`bib_text` turns the resolved text of a
title, a name or a venue into readable Unicode: LaTeX accents and math through
:func:`~refman.common.text.latex_to_text`, protective braces dropped, ``~`` ties as spaces;
:func:`bib_latex` keeps the LaTeX of an abstract as refman keeps it, without the grouping
braces BibTeX prints none of.
:func:`extended_name` reads a name written in BibLaTeX's ``family=…, given=…`` form, which
bibtexparser does not know.
"""

from __future__ import annotations

import re

from refman.common.latex_islands import islands
from refman.common.text import latex_to_text
from refman.common.typeset import typeset_ligatures
from refman.importers.bib_common import MONTH_NAMES
from refman.importers.records import PersonName

__all__ = [
    "MONTH_MACROS",
    "bib_latex",
    "bib_text",
    "extended_name",
    "group_end",
    "plain_value",
    "resolve",
    "split_concat",
]

#: BibTeX's predefined month macros ("jan" -> "January").
MONTH_MACROS = {name[:3].lower(): name for name in MONTH_NAMES}

_BARE = re.compile(r'^[^\s#{}"]+$')
_TOKEN = re.compile(r'\s*(?:(\{)|(")|([^\s#{}"]+))')
_BRACE = re.compile(r"(?<!\\)[{}]")
_BRACE_OR_QUOTE = re.compile(r'(?<!\\)[{}"]')
_NEW_ENTRY = re.compile(r"\n[ \t]*@[A-Za-z]+[ \t]*[{(]")
_TIE = re.compile(r"(?<!\\)~")
_UNBRACE = str.maketrans({"{": None, "}": None})
_ENSUREMATH = re.compile(r"\\ensuremath\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_CONTROL_WORD_END = re.compile(r"\\[A-Za-z]+$")
# A macro, an accent (\' \" \^ \~ \` \= \.) or a sub- or superscript takes the group after
# it as its argument; an escaped character (\{ \} \% \& \$ \# \_) takes none.
_ARGUMENT_BEFORE = re.compile(r"(?:\\[A-Za-z]+\*?|\\['\"^~`=.]|(?<!\\)[\^_])[ \t]*$")
_URL_MACRO = re.compile(r"^\\(?:url|href)\s*\{([^{}]*)\}")
_URL_ESCAPES = re.compile(r"\\([_%&#~$])")
# One part of a name in BibLaTeX's extended format: family=Vries, "given={Jean, Pierre}".
_NAME_PART = re.compile(r"([A-Za-z][A-Za-z-]*)\s*=\s*(.*)", re.DOTALL)
_NAME_PART_END = re.compile(r'(?<!\\)[{},"]')


def group_end(expr: str, start: int) -> int | None:
    """The index after the brace group that opens at ``start``; None when it never closes."""
    depth = 0
    for found in _BRACE.finditer(expr, start):
        depth += 1 if found.group() == "{" else -1
        if depth == 0:
            return found.end()
    return None


def _quote_end(expr: str, start: int) -> int | None:
    """The index after the quoted string whose opening ``"`` is at ``start``."""
    depth = 0
    for found in _BRACE_OR_QUOTE.finditer(expr, start + 1):
        char = found.group()
        if char == '"' and depth == 0:
            return found.end()
        if char != '"':
            depth += 1 if char == "{" else -1
            if depth < 0:
                return None
    return None


def split_concat(expr: str) -> list[tuple[bool, str]] | None:
    """The pieces of a value: ``a # {b} # "c"`` -> ``[(False, "a"), (True, "b"), (True,
    "c")]`` (True for literal text, False for a macro name or number); None when the value is
    not a well-formed expression."""
    parts: list[tuple[bool, str]] = []
    index, size = 0, len(expr)
    while index < size:
        token = _TOKEN.match(expr, index)
        if token is None:
            return None
        if token.group(1):
            end = group_end(expr, token.start(1))
            if end is None:
                return None
            parts.append((True, expr[token.start(1) + 1 : end - 1]))
        elif token.group(2):
            end = _quote_end(expr, token.start(2))
            if end is None:
                return None
            parts.append((True, expr[token.start(2) + 1 : end - 1]))
        else:
            end = token.end(3)
            parts.append((False, token.group(3)))
        rest = expr[end:].lstrip()
        if not rest:
            return parts
        if rest[0] != "#":
            return None
        index = size - len(rest) + 1
    return parts or None


def _single_group(expr: str) -> str | None:
    """The text of a value that is one brace group or one quoted string (the common case)."""
    if expr[0] == "{":
        if expr[-1] != "}":
            return None
        inner = expr[1:-1]
        if "{" not in inner and "}" not in inner:
            return inner  # the common case: no braces inside
        end = group_end(expr, 0)
    elif expr[0] == '"':
        end = _quote_end(expr, 0)
    else:
        return None
    return expr[1:-1] if end == len(expr) else None


def resolve(expr: str, macros: dict[str, str], unknown: list[str]) -> str | None:
    """The text of a field value, with macros expanded and the pieces joined.

    Args:
        expr: The value as written (after the ``=``).
        macros: Known macros by lower-case name (the months and the file's ``@string``\\ s).
        unknown: Receives the names of undefined macros (they are kept as written).

    Returns:
        The text; None when the value is malformed (a missing comma or a stray brace).
    """
    expr = expr.strip()
    if not expr:
        return ""
    if _BARE.match(expr):
        if expr.isdigit():
            return expr
        return macros[expr.lower()] if expr.lower() in macros else _unknown(expr, unknown)
    if "#" not in expr:
        single = _single_group(expr)
        if single is not None:
            return None if _NEW_ENTRY.search(single) else single
    parts = split_concat(expr)
    if parts is None:
        return None
    pieces: list[str] = []
    for literal, text in parts:
        if literal or text.isdigit():
            pieces.append(text)
        elif text.lower() in macros:
            pieces.append(macros[text.lower()])
        else:
            unknown.append(text)
            pieces.append(text)
    joined = "".join(pieces)
    return None if _NEW_ENTRY.search(joined) else joined


def _unknown(name: str, unknown: list[str]) -> str:
    unknown.append(name)
    return name


def _drop_protective_braces(text: str) -> str:
    """``text`` without the braces that only protect (``{DNA}``, ``{\\"o}``); the braces of a
    macro's argument (``\\emph{x}``, ``\\'{e}``, ``^{13}``) stay for the LaTeX reader."""
    dropped: list[int] = []
    open_groups: list[tuple[int, bool, bool]] = []  # (start, an argument, starts with a macro)
    argument_end = -1
    for found in _BRACE.finditer(text):
        index = found.start()
        if found.group() == "{":
            before = text[max(0, index - 40) : index]
            argument = index == argument_end or _ARGUMENT_BEFORE.search(before) is not None
            # {\"o}, {\O}, {\em x}: a group that starts with a macro is read as a whole
            open_groups.append((index, argument, text.startswith("\\", index + 1)))
        elif not open_groups:
            dropped.append(index)
        else:
            start, argument, macro = open_groups.pop()
            if argument:  # (the group after it is one more: \frac{a}{b})
                argument_end = index + 1
            elif not macro:  # ({\noopsort{a}}{Name}: the second group protects)
                dropped.extend((start, index))
    dropped.extend(start for start, _, _ in open_groups)
    if not dropped:
        return text
    pieces, position = [], 0
    for index in sorted(dropped):
        pieces.append(text[position:index])
        if text[index] == "}" and _CONTROL_WORD_END.search(text, 0, index):
            pieces.append("{}")  # {\O}rsted -> \O{}rsted, not the macro \Orsted
        position = index + 1
    pieces.append(text[position:])
    return "".join(pieces)


def bib_text(value: str) -> str:
    """Readable text of a resolved value: LaTeX accents, symbols and math as Unicode,
    protective braces dropped (``{DNA}`` -> ``DNA``; ``\\{`` stays a brace), ``~`` as a space,
    TeX's dashes and double quotes as characters (:func:`~refman.common.typeset.typeset_ligatures`),
    white space collapsed."""
    if "\\" in value or "$" in value:
        if "\\ensuremath" in value:
            value = _ENSUREMATH.sub(r"\\(\1\\)", value)
        # a tie is a space no control word before it eats (\LaTeX~is)
        text = latex_to_text(_TIE.sub("\xa0", _drop_protective_braces(value)))
    else:
        text = value.replace("~", " ") if "~" in value else value
        if "{" in text or "}" in text:
            text = text.translate(_UNBRACE)
    return " ".join(typeset_ligatures(text).split())


def bib_latex(value: str) -> str:
    """A resolved value as refman keeps text that holds LaTeX (an abstract): the LaTeX as it
    is, but for the braces that only group (``from {AlphaFold} to`` -> ``from AlphaFold
    to``), which BibTeX prints none of, and which refman would show as written (a brace of
    text, outside LaTeX, is a brace: :func:`~refman.common.latex_islands.islands`). The
    braces of a macro's argument (``\\emph{x}``, ``$x^{2}$``) and of a group that starts
    with a macro (``{\\em x}``) stay; ``\\{`` stays a brace. A tie (``Fig.~3``), which BibTeX
    prints as a space no line break falls in, is that space (U+00A0), as refman shows it."""
    text = _drop_protective_braces(value) if "{" in value or "}" in value else value
    return _untied(text) if "~" in text else text


def _untied(text: str) -> str:
    """The ties of the prose of ``text`` as U+00A0; LaTeX (``\\url{~me}``, math) as it is."""
    pieces: list[str] = []
    position = 0
    for start, end in islands(text):
        pieces.append(_TIE.sub("\xa0", text[position:start]))
        pieces.append(text[start:end])
        position = end
    pieces.append(_TIE.sub("\xa0", text[position:]))
    return "".join(pieces)


def plain_value(value: str) -> str:
    """A verbatim value (URL, DOI, eprint, ISBN) without braces, ``\\url{}`` or white space;
    TeX escapes such as ``\\_`` (never part of a link) are undone."""
    text = value.strip()
    if "\\" in text:
        wrapped = _URL_MACRO.match(text)
        if wrapped:
            text = wrapped.group(1)
        text = _URL_ESCAPES.sub(lambda m: m.group(1), text)
    if "{" in text or "}" in text:
        text = text.translate(_UNBRACE)
    return "".join(text.split())


def _name_parts(name: str) -> list[str]:
    """``name`` cut at the commas outside braces and quotation marks."""
    parts: list[str] = []
    start, depth, quoted = 0, 0, False
    for found in _NAME_PART_END.finditer(name):
        char = found.group()
        if char in "{}":
            depth += 1 if char == "{" else -1
        elif char == '"' and depth == 0:
            quoted = not quoted
        elif char == "," and depth == 0 and not quoted:
            parts.append(name[start : found.start()])
            start = found.end()
    parts.append(name[start:])
    return parts


def _unquoted(text: str) -> str:
    return text[1:-1] if len(text) > 1 and text[0] == text[-1] == '"' else text


def extended_name(name: str) -> PersonName | None:
    """A name in BibLaTeX's extended format, as biber and Better BibLaTeX write it
    ("family=Vries, given=Hugo, prefix=de, useprefix=true"); None for a name in BibTeX's
    forms ("von Last, First"), which has no ``key=value`` parts.

    The prefix becomes the family name's particle whatever ``useprefix`` says (it only
    decides whether biblatex sorts by it); parts refman has no place for (``given-i``) are
    left out.
    """
    if "=" not in name:
        return None
    values: dict[str, str] = {}
    for part in _name_parts(name):
        found = _NAME_PART.fullmatch(_unquoted(part.strip()))
        if found is None:
            return None
        values[found.group(1).lower()] = bib_text(_unquoted(found.group(2).strip()))
    family, given = values.get("family", ""), values.get("given", "")
    if not family and not given:
        return None
    return PersonName(
        family or given,
        given if family else "",
        particle=values.get("prefix", ""),
        suffix=values.get("suffix", ""),
    )
