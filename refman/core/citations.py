"""Formatted citations: papers' bibliography entries in a citation style, as text or HTML.

The styles are the official CSL files of six common styles, shipped in
``refman/data/styles`` (CC BY-SA 3.0, see the LICENSE.md there); the locale is citeproc-py's
own: the style's default locale, else American English, or the language chosen
(:mod:`~refman.core.citation_languages`). Every paper starts as its CSL-JSON
item (:func:`refman.core.csl.csl_item`), and citeproc-py renders it.

The entries are meant to read exactly as Zotero's (citeproc-js) do, and a test compares them
with citeproc-js's on a fixture library (tests/fixtures/citations). What makes citeproc-py
render like citeproc-js lives in three private modules: the data it is given
(:mod:`~refman.core._citeproc_items`), the order of the bibliography
(:mod:`~refman.core._citeproc_sort`) and the finish of each entry
(:mod:`~refman.core._citeproc_output`); what cannot be fixed that way is listed in
tests/fixtures/citations/DIFFERENCES.md.

The output is shaped as citeproc-js shapes it: in text, one entry per line (numbered styles
write ``[1] …``); in HTML, ``<div class="csl-bib-body">`` around one
``<div class="csl-entry">`` per paper, with the number in a ``csl-left-margin`` block.

This module is Qt-free.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from refman.core.citation_languages import check_language
from refman.core.csl import csl_item
from refman.core.rules import check_choice
from refman.core.values import PaperDetail

__all__ = [
    "DEFAULT_STYLE",
    "FORMATS",
    "SHORT_NAMES",
    "STYLES",
    "bibliography_entries",
    "check_format",
    "check_style",
    "citation_keys",
    "citation_text",
    "paper_citation",
    "paper_entries",
    "render_bibliography",
    "style_language",
    "style_path",
]

#: The citation styles refman ships: id (the CSL file's name) → the name people know.
STYLES: dict[str, str] = {
    "apa": "APA (7th edition)",
    "ieee": "IEEE",
    "chicago-author-date": "Chicago (author-date, 18th edition)",
    "harvard-cite-them-right": "Harvard (Cite Them Right, 12th edition)",
    "nature": "Nature",
    "association-for-computing-machinery": "ACM (Association for Computing Machinery)",
}
#: The short names a style is known by ("acm"), for the ids they stand for.
SHORT_NAMES: dict[str, str] = {
    "acm": "association-for-computing-machinery",
    "chicago": "chicago-author-date",
    "harvard": "harvard-cite-them-right",
}
#: The style used when none is chosen.
DEFAULT_STYLE = "apa"
#: The output formats: plain text, or HTML (italics and bold kept, for word processors).
FORMATS = ("text", "html")

_STYLE_FOLDER = "styles"
#: Where a CSL file names the language it is written in whatever the language chosen.
_OWN_LANGUAGE = re.compile(r'<style\b[^>]*\bdefault-locale="([^"]+)"')
#: What a whole bibliography begins and ends with, as citeproc-js writes it.
_BIB_BLOCK = {"text": ("", ""), "html": ('<div class="csl-bib-body">\n', "</div>")}


def check_style(style: str) -> str:
    """A style id as given (any case; a short name, "acm", for its id), checked.

    Raises:
        InvalidValueError: refman has no such style (the hint lists the styles).
    """
    named = SHORT_NAMES.get(style.strip().lower(), style)
    return check_choice(named, STYLES, f"There is no citation style “{style}”.", fold=True)


def check_format(fmt: str) -> str:
    """An output format, checked.

    Raises:
        InvalidValueError: It is neither "text" nor "html".
    """
    return check_choice(fmt, FORMATS, f"There is no citation format “{fmt}”.", fold=True)


def style_path(style: str) -> Path:
    """The CSL file of a style (one of :data:`STYLES`).

    Raises:
        InvalidValueError: refman has no such style.
    """
    resource = files("refman.data").joinpath(_STYLE_FOLDER, f"{check_style(style)}.csl")
    return Path(str(resource))


@cache
def style_language(style: str) -> str | None:
    """The language a style is written in whatever the language chosen, or None when it
    follows the choice: the CSL file's ``default-locale`` (Nature: "en-GB"; ACM: "en-US"), as
    Zotero, whose language menu is off for such a style, reads it.

    Raises:
        InvalidValueError: refman has no such style.
    """
    found = _OWN_LANGUAGE.search(style_path(style).read_text("utf-8"))
    return found.group(1) if found else None


def bibliography_entries(
    items: Sequence[Mapping[str, Any]],
    style: str,
    fmt: str = "text",
    incomplete: Collection[str] = (),
    language: str | None = None,
) -> list[tuple[str, str]]:
    """The bibliography entries of CSL-JSON items, in the style's order.

    Args:
        items: CSL-JSON items, in citation order (the order numbered styles such as IEEE
            number them in); an item whose ``id`` repeats an earlier one is left out.
        style: A style id (see :data:`STYLES`).
        fmt: "text" or "html".
        incomplete: The ids of the items whose author lists are known to stop short (CSL has
            no variable for it): their authors end in the style's "et al.".
        language: The language to write in ("de-DE", see
            :func:`~refman.core.citation_languages.check_language`); None: the style's own.
            A style written in one language (:func:`style_language`) keeps it.

    Returns:
        ``(item id, entry)`` pairs, each entry as citeproc-js writes it: a line ending in a
        newline, or an indented ``<div class="csl-entry">`` block ending in a newline.

    Raises:
        InvalidValueError: An unknown style, format or language.
    """
    # citeproc-py (and lxml) load when the first citation is made, not at every start.
    from refman.core._citeproc_render import render_entries

    path, html_out = style_path(style), check_format(fmt) == "html"
    chosen = None if language is None else check_language(language)
    return render_entries(items, path, html_out, incomplete, style_language(style) or chosen)


def citation_text(
    items: Sequence[Mapping[str, Any]],
    style: str,
    fmt: str = "text",
    incomplete: Collection[str] = (),
    language: str | None = None,
) -> str:
    """One in-text citation of CSL-JSON items, as citeproc-js (Zotero's *Copy Citation*)
    writes it: "(Doe & Roe, 2023; Smith et al., 2020a, 2020b)" in APA, "[1–3]" in ACM (the
    papers numbered in the order given). Arguments as for :func:`bibliography_entries`; ""
    for no items.

    Raises:
        InvalidValueError: An unknown style, format or language.
    """
    from refman.core._citeproc_render import render_citation

    path, html_out = style_path(style), check_format(fmt) == "html"
    chosen = None if language is None else check_language(language)
    return render_citation(items, path, html_out, incomplete, style_language(style) or chosen)


def paper_entries(
    details: Sequence[PaperDetail], style: str, fmt: str = "text", language: str | None = None
) -> list[tuple[PaperDetail, str]]:
    """The bibliography entries of papers, in the style's order (see
    :func:`bibliography_entries`)."""
    by_key, items, short = _cited(details)
    entries = bibliography_entries(items, style, fmt, short, language)
    return [(by_key[key], entry) for key, entry in entries]


def paper_citation(
    details: Sequence[PaperDetail], style: str, fmt: str = "text", language: str | None = None
) -> str:
    """The in-text citation of papers, cited in the order given (see :func:`citation_text`)."""
    _, items, short = _cited(details)
    return citation_text(items, style, fmt, short, language)


def _cited(
    details: Sequence[PaperDetail],
) -> tuple[dict[str, PaperDetail], list[dict[str, Any]], list[str]]:
    """Papers as CSL items: the papers by item id, the items, the ids of those whose author
    lists stop short."""
    by_key: dict[str, PaperDetail] = {}
    items = []
    for detail in details:
        item = csl_item(detail)
        by_key.setdefault(str(item["id"]), detail)
        items.append(item)
    return by_key, items, [key for key, detail in by_key.items() if not detail.authors_complete]


def render_bibliography(
    details: Sequence[PaperDetail],
    style: str = DEFAULT_STYLE,
    fmt: str = "text",
    language: str | None = None,
) -> str:
    """The bibliography of papers in a style, as citeproc-js (Zotero) writes it.

    Args:
        details: The papers, in citation order (numbered styles number them in this order
            unless the style sorts its bibliography).
        style: A style id (see :data:`STYLES`).
        fmt: "text" (one entry per line, each ending in a newline) or "html" (a
            ``csl-bib-body`` block of ``csl-entry`` blocks).
        language: The language to write in ("de-DE"); None: the style's own.

    Returns:
        The bibliography; "" when there are no papers.

    Raises:
        InvalidValueError: An unknown style (the message lists the styles), format or
            language.
    """
    fmt = check_format(fmt)
    entries = paper_entries(details, style, fmt, language)
    if not entries:
        return ""
    start, end = _BIB_BLOCK[fmt]
    return start + "".join(entry for _, entry in entries) + end


def citation_keys(details: Sequence[PaperDetail]) -> str:
    r"""``\cite{a,b}`` for papers, in the order given ("" when there are none)."""
    keys = list(dict.fromkeys(str(csl_item(detail)["id"]) for detail in details))
    return "\\cite{" + ",".join(keys) + "}" if keys else ""
