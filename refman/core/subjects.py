"""arXiv subject categories: human names and a syntactic code check.

The names come from ``refman/data/arxiv_categories.json``, which maps every arXiv
category code (``"cs.LG"``, ``"cond-mat.mtrl-sci"``, ``"hep-th"``, …) and every
archive name (``"cs"``, ``"astro-ph"``, …) to its human-readable name. The file is
loaded lazily, once, on first use.

This module is Qt-free.

Example:
    >>> subject_name("cs.LG")
    'Machine Learning'
    >>> subject_label("eess.IV")
    'Image and Video Processing (eess.IV)'
    >>> is_subject_code("math.OC"), is_subject_code("Hello")
    (True, False)
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.resources import files

__all__ = ["is_subject_code", "subject_label", "subject_name"]

_DATA_PACKAGE = "refman.data"
_DATA_FILE = "arxiv_categories.json"

# Archives whose subject classes are two upper-case letters ("cs.LG", "q-bio.NC").
_LETTER_ARCHIVES = ("cs", "math", "stat", "eess", "econ", "q-bio", "q-fin", "nlin", "astro-ph")
# Archives whose subject classes are lower-case, hyphenated words ("cond-mat.mtrl-sci").
_WORD_ARCHIVES = ("physics", "cond-mat")
# Archives that are categories of their own and have no subject classes.
_SINGLE_ARCHIVES = (
    "gr-qc",
    "hep-ex",
    "hep-lat",
    "hep-ph",
    "hep-th",
    "math-ph",
    "nucl-ex",
    "nucl-th",
    "quant-ph",
)


def _alternation(names: tuple[str, ...]) -> str:
    return "|".join(re.escape(name) for name in names)


_CODE_RE = re.compile(
    rf"(?:(?:{_alternation(_LETTER_ARCHIVES)})(?:\.[A-Z]{{2}})?"
    rf"|(?:{_alternation(_WORD_ARCHIVES)})(?:\.[a-z]+(?:-[a-z]+)*)?"
    rf"|(?:{_alternation(_SINGLE_ARCHIVES)}))"
)


@cache
def _names() -> dict[str, tuple[str, str]]:
    """Load the category table once.

    Returns:
        A mapping from the case-folded code to ``(canonical code, human name)``.
    """
    text = files(_DATA_PACKAGE).joinpath(_DATA_FILE).read_text(encoding="utf-8")
    table: dict[str, str] = json.loads(text)
    return {code.casefold(): (code, name) for code, name in table.items()}


def _lookup(code: str) -> tuple[str, str] | None:
    return _names().get(code.strip().casefold())


def subject_name(code: str) -> str | None:
    """Return the human name of an arXiv category or archive.

    The lookup is case-insensitive and ignores surrounding whitespace, but otherwise
    matches the code exactly (no prefix or fuzzy matching).

    Args:
        code: A category code such as ``"cs.LG"`` or ``"hep-th"``, or an archive name
            such as ``"astro-ph"``.

    Returns:
        The name, e.g. ``"Machine Learning"``, or ``None`` if the code is unknown.
    """
    found = _lookup(code)
    return found[1] if found else None


def subject_label(code: str) -> str:
    """Return a display label combining the human name and the code.

    Args:
        code: A category code; case is normalised to the canonical arXiv spelling
            when the code is known.

    Returns:
        ``"Machine Learning (cs.LG)"`` for a known code, otherwise ``code`` unchanged.
    """
    found = _lookup(code)
    if found is None:
        return code
    canonical, name = found
    return f"{name} ({canonical})"


def is_subject_code(code: str) -> bool:
    """Tell whether ``code`` is syntactically an arXiv category code.

    The check is purely syntactic, so well-formed codes that arXiv does not (yet)
    define, such as ``"cs.ZZ"``, are accepted. It is case-sensitive and follows
    arXiv's own spelling: lower-case archive names; two upper-case letters after
    ``cs``, ``math``, ``stat``, ``eess``, ``econ``, ``q-bio``, ``q-fin``, ``nlin``
    and ``astro-ph``; lower-case hyphenated words after ``physics`` and
    ``cond-mat``; no subject class after the stand-alone archives ``gr-qc``,
    ``hep-ex``, ``hep-lat``, ``hep-ph``, ``hep-th``, ``math-ph``, ``nucl-ex``,
    ``nucl-th`` and ``quant-ph``.

    Bare archive names (``"cs"``, ``"astro-ph"``, ``"cond-mat"``) are accepted:
    arXiv uses them as categories for older papers, and author pages list them
    alongside full codes, just as they list the stand-alone ``"hep-th"``.

    Args:
        code: The candidate string; surrounding whitespace is not allowed.

    Returns:
        ``True`` for ``"math.OC"``, ``"cond-mat.mtrl-sci"``, ``"hep-th"`` or ``"cs"``;
        ``False`` for ``"Hello"``, ``"x.y"`` or ``"cs.lg"``.
    """
    return _CODE_RE.fullmatch(code) is not None
