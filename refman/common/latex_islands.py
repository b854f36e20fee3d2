"""Where LaTeX stands in a text: the macros, brace groups and ``$…$`` math that
:func:`refman.common.text.latex_to_text` converts, the prose around them left as it is (and
the math an export writes back as it is, :func:`math_spans`)."""

from __future__ import annotations

import re

_ISLAND_START = re.compile(r"[\\${]")
_ACCENTS = frozenset("'\"^`~=.uvHcdbrtk")
_MAX_GROUP = 2000  # longest brace group or math span treated as one piece of LaTeX
_MAX_ARGS = 4
#: Symbols that take no argument, and the text each stands for.
LOGOS = {
    "\\LaTeX": "LaTeX",
    "\\TeX": "TeX",
    "\\textasciicircum": "^",
    "\\textbraceleft": "{",
    "\\textbraceright": "}",
    "\\textbackslash": "\\",
    "\\textasciitilde": "~",
    "\\textperiodcentered": "·",
}
LOGOS.update({f"{macro}{{}}": text for macro, text in list(LOGOS.items())})
_LINK = re.compile(r"\\url\s*\{([^{}]*)\}")
#: Macros that print nothing: their argument only sorts (``{\\noopsort{a}}A Paper``, as
#: BibTeX's own example file defines it, ``\\SortNoop``, ``\\sortnoop``).
SILENT = frozenset({"\\noopsort", "\\SortNoop", "\\sortnoop"})
_SILENT = re.compile(r"\\(?:" + "|".join(m[1:] for m in sorted(SILENT)) + r")(?![A-Za-z])\s*")
#: The spaces TeX skips after a control word (and one line break, not a blank line).
_SKIPPED = re.compile(r"[ \t]*(?:\n(?![ \t]*\n)[ \t]*)?")


def group_end(text: str, start: int) -> int | None:
    """Return the index after the brace group opening at ``start``, or None if unbalanced."""
    depth = 0
    limit = min(len(text), start + _MAX_GROUP)
    index = start
    while index < limit:
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return None


def link_text(latex: str) -> str | None:
    """What ``\\url{…}`` prints, ``<…>``: its argument as it is (``~me`` is no tie there);
    None for any other piece of LaTeX."""
    found = _LINK.fullmatch(latex.strip())
    return f"<{found.group(1)}>" if found else None


def island_source(latex: str) -> str:
    """A piece of LaTeX (an island) as it is to be read: without the spaces its control word
    ate (TeX prints none of them; a control space, ``\\ ``, stays one) and without the
    macros that print nothing (:func:`silenced`)."""
    trimmed = latex.rstrip(" \t\n")
    return silenced(latex if trimmed.endswith("\\") else trimmed)


def silenced(latex: str) -> str:
    """``latex`` without the macros of :data:`SILENT` and their arguments, which print
    nothing (``{\\noopsort{a}}`` -> ``{}``)."""
    if "sort" not in latex.lower():
        return latex
    pieces: list[str] = []
    position = 0
    while (found := _SILENT.search(latex, position)) is not None:
        pieces.append(latex[position : found.start()])
        position = found.end()
        if latex.startswith("{", position):
            position = group_end(latex, position) or len(latex)
    pieces.append(latex[position:])
    return "".join(pieces)


def _math_end(text: str, start: int) -> int | None:
    """Return the index after the ``$...$`` or ``$$...$$`` opening at ``start``."""
    double = text.startswith("$$", start)
    opener = 2 if double else 1
    close = text.find("$$" if double else "$", start + opener, start + _MAX_GROUP)
    while close != -1 and text[close - 1] == "\\":
        close = text.find("$$" if double else "$", close + 1, start + _MAX_GROUP)
    if close == -1 or close == start + opener:
        return None
    end = close + opener
    if text[end : end + 1].isdigit():
        return None  # "$5 and $10": money, not math
    return end


def _macro_end(text: str, start: int) -> int:
    """Return the index after the macro at ``start`` (a backslash) and its arguments."""
    index = start + 1
    if index >= len(text):
        return index
    char = text[index]
    if not char.isascii() or not char.isalpha():
        return _control_symbol_end(text, start)
    while index < len(text) and text[index].isascii() and text[index].isalpha():
        index += 1
    name = text[start:index]
    if name in LOGOS:  # a symbol takes no argument: at most an empty "{}"
        return index + 2 if text.startswith("{}", index) else _skipped(text, index)
    if index < len(text) and text[index] == "*":
        index += 1
    end = _arguments_end(text, index)
    if end > index:
        return end
    # none: TeX skips the spaces after a control word (\ss e is "ße"), and an accent
    # (\v s) takes the letter after them
    end = _skipped(text, index)
    return end + 1 if name[1:] in _ACCENTS and text[end : end + 1].isalpha() else end


def _skipped(text: str, index: int) -> int:
    """The index after the spaces TeX skips after a control word that ends at ``index``."""
    found = _SKIPPED.match(text, index)
    return found.end() if found else index


def _control_symbol_end(text: str, start: int) -> int:
    """Return the index after ``\\(...\\)``, ``\\[...\\]``, an accent with its letter or
    argument, or another one-character macro at ``start``."""
    index = start + 1
    char = text[index]
    closer = {"(": "\\)", "[": "\\]"}.get(char)
    if closer is not None:
        close = text.find(closer, index, start + _MAX_GROUP)
        if close != -1:
            return close + 2
    index += 1
    if char in _ACCENTS and index < len(text) and text[index].isalpha():
        return index + 1
    return _arguments_end(text, index) if char in _ACCENTS else index


def _arguments_end(text: str, index: int) -> int:
    """Return the index after the ``[...]`` / ``{...}`` arguments that start at ``index``."""
    for _ in range(_MAX_ARGS):
        probe = index
        while probe < len(text) and text[probe] == " ":
            probe += 1
        if probe < len(text) and text[probe] == "[" and probe == index:
            close = text.find("]", probe, probe + 200)
            if close == -1:
                break
            index = close + 1
        elif probe < len(text) and text[probe] == "{":
            end = group_end(text, probe)
            if end is None:
                break
            index = end
        else:
            break
    return index


def islands(text: str) -> list[tuple[int, int]]:
    """Return the ``(start, end)`` spans of ``text`` that are LaTeX; the rest is prose."""
    spans: list[tuple[int, int]] = []
    # Dollars not escaped by a backslash (counted in C: a regular expression with a
    # look-behind tried every position, two thirds of the time of an abstract with math).
    literal_dollars = (text.count("$") - text.count("\\$")) % 2 == 1
    position = 0
    while (found := _ISLAND_START.search(text, position)) is not None:
        start = found.start()
        char = text[start]
        end: int | None
        if char == "\\":
            end = _macro_end(text, start)
        elif char == "$":
            end = None if literal_dollars else _math_end(text, start)
        else:
            end = group_end(text, start)
            if end is not None and "\\" not in text[start:end] and "$" not in text[start:end]:
                position = end  # a brace group of plain prose stays as it is
                continue
        if end is None:
            position = start + 1
            continue
        spans.append((start, end))
        position = end
    return spans


def math_spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each ``$…$`` or ``$$…$$`` of a text, as :func:`latex_to_text`
    reads it (no math when the unescaped dollars are odd in number; "$5 and $10" is money)."""
    return [(start, end) for start, end in islands(text) if text[start] == "$"]
