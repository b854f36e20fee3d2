"""Which reader a text needs, decided by its content (a file's extension is only a hint).

* CSL-JSON: the text starts like a JSON array of objects or a JSON object.
* RIS: a line starts with ``TY  - ``; Web of Science's own tagged export (``FN``/``PT J``)
  and PubMed's MEDLINE format (``PMID- ``) are read as RIS too.
* BibTeX or BibLaTeX: a line starts with ``@type{`` (``@article{``, ``@string{``, ...).
* Anything else is read as an author page.

When a text shows signs of two formats, the one whose first sign comes first wins. A text
with no sign at all is read as an author page; when it is none either and its extension names
a bibliography format (``.bib``, ``.ris``, ``.json``), the person hears why it is not that.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from refman.importers.author_page import parse as parse_author_page
from refman.importers.bibtex import parse_bibtex
from refman.importers.csljson import parse_csl_json
from refman.importers.errors import NotAnAuthorPageError
from refman.importers.messages import not_a_bibliography
from refman.importers.records import PageFormat, ParsedPage
from refman.importers.ris import parse_ris
from refman.importers.safe_text import safe_page
from refman.importers.tagged import parse_medline, parse_wos

__all__ = ["BIBLIOGRAPHY_SUFFIXES", "detect_format", "parse_text"]

_JSON_START = re.compile(r"^\s*(?:\[\s*(?:\{|\]|$)|\{\s*(?:\"|\}|$))")
_SIGNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("bibtex", re.compile(r"^[ \t]*@[ \t]*[A-Za-z]+[ \t]*[{(]", re.MULTILINE)),
    ("ris", re.compile(r"^TY[ \t]{1,3}-", re.MULTILINE)),
    ("wos", re.compile(r"^(?:FN [A-Za-z]|PT [A-Z][ \t]*$)", re.MULTILINE)),
    ("medline", re.compile(r"^PMID- ?\d", re.MULTILINE)),
)
_SUFFIXES = {
    ".bib": "bibtex", ".bibtex": "bibtex", ".biblatex": "bibtex",
    ".ris": "ris", ".nbib": "medline", ".ciw": "wos",
    ".json": "csl-json", ".csljson": "csl-json", ".jsonl": "csl-json",
}  # fmt: skip
#: The file name endings of the bibliography formats read (a hint: the content decides).
BIBLIOGRAPHY_SUFFIXES = frozenset(_SUFFIXES)
_READERS: dict[str, Callable[[str], ParsedPage]] = {
    "csl-json": parse_csl_json,
    "bibtex": parse_bibtex,
    "ris": parse_ris,
    "wos": parse_wos,
    "medline": parse_medline,
}
_FORMATS = {
    "csl-json": PageFormat.CSL_JSON,
    "bibtex": PageFormat.BIBTEX,
    "ris": PageFormat.RIS,
    "wos": PageFormat.RIS,
    "medline": PageFormat.RIS,
}
_SCAN = 1 << 20  # signs are looked for in the first megabyte


def _kind(text: str) -> str:
    """The reader a text's content calls for: "csl-json", "bibtex", "ris", "wos", "medline",
    or "page" when it shows no sign of a bibliography."""
    body = text.lstrip("\ufeff")
    if _JSON_START.match(body[:200]):
        return "csl-json"
    head = body[:_SCAN]
    found = [(m.start(), kind) for kind, sign in _SIGNS if (m := sign.search(head))]
    return min(found)[1] if found else "page"


def detect_format(text: str, suffix: str = "") -> PageFormat | None:
    """The bibliography format a text is in, or None for an author page.

    Args:
        text: The text.
        suffix: The file's extension (".bib"), consulted only when the content shows no sign.
    """
    kind = _kind(text)
    if kind == "page" and text.strip():
        try:
            parse_author_page(text)
        except NotAnAuthorPageError:
            return _FORMATS.get(_SUFFIXES.get(suffix.lower(), "page"))
    return _FORMATS.get(kind)


def parse_text(text: str, name: str = "") -> ParsedPage:
    """Parse text of any format refman reads: an author page, BibTeX or BibLaTeX, RIS (and
    Web of Science or MEDLINE tagged text), or CSL-JSON.

    Args:
        text: The text of a file, a paste or a drop.
        name: The file name, if any (its extension is a hint when the content shows none).

    Returns:
        The parsed page; its ``format`` says which reader read it. Control characters are
        removed and overlong fields cut (:func:`~refman.importers.safe_text.safe_page`).

    Raises:
        NotAnAuthorPageError: The text holds no publication records (for a bibliography: the
            subclass NotABibliographyError).
    """
    return safe_page(_parse_any(text, name))


def _parse_any(text: str, name: str) -> ParsedPage:
    kind = _kind(text)
    if kind != "page":
        return _READERS[kind](text)
    try:
        return parse_author_page(text)
    except NotAnAuthorPageError:
        suffix = name[name.rfind(".") :].lower() if "." in name else ""
        if suffix in _SUFFIXES and not text.strip():  # an empty .bib: no bibliography either
            raise not_a_bibliography("the file holds no text") from None
        if suffix in _SUFFIXES:
            return _READERS[_SUFFIXES[suffix]](text)  # says why it is no bibliography
        raise
