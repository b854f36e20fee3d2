"""citeproc-py's bibliography entries finished the way citeproc-js writes them. Private to
:mod:`refman.core.citations`.

* Quotes are rendered by depth and punctuation moved inside them
  (:func:`refman.core._citeproc_quotes.requote`); the marked hyphens of given names
  (:mod:`refman.core._citeproc_items`) become hyphens again.
* HTML uses numeric entities (``&#38;``) as citeproc-js does, and a period that follows one
  ending an italic or bold run (``<i>et al.</i>.``) is dropped, as citeproc-py itself does
  in plain text; a superscript character is a ``<sup>`` of its letter, as in citeproc-js
  (French "2ᵉ éd.": ``2<sup>e</sup> éd.``; "™": ``<sup>TM</sup>``).
* ``second-field-align`` (IEEE, ACM, Nature): the citation number and the rest of the entry
  are separated (``[1] J. Smith``), in HTML by citeproc-js's ``csl-left-margin`` and
  ``csl-right-inline`` blocks; citeproc-py glues them together (``[1]J. Smith``).
* Each entry ends the way citeproc-js ends it: a newline in text, a ``csl-entry`` block in
  HTML (:func:`refman.core.citations.render_bibliography` surrounds the whole bibliography).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from refman.core._citeproc_items import HYPHEN_MARK
from refman.core._citeproc_quotes import Quotes, requote

__all__ = ["Finisher", "style_quotes"]

_ENTITIES = (("&amp;", "&#38;"), ("&lt;", "&#60;"), ("&gt;", "&#62;"))
_DOUBLE_PERIOD = re.compile(r"([.?!])((?:</(?:i|b|span|sup|sub)>)+)\.")
#: The superscript characters citeproc-js writes in HTML as a ``<sup>`` of what they stand
#: for (its table: these ranges, less three characters, and four without a decomposition).
_SUPER_CODES = [
    *(0xAA, 0xB2, 0xB3, 0xB9, 0xBA, 0x2070, 0x2071, 0x2120, 0x2122),
    *range(0x2B0, 0x2B9),
    *range(0x2E0, 0x2E5),
    *(c for c in range(0x1D2C, 0x1D62) if c not in (0x1D2F, 0x1D3B, 0x1D4E)),
    *range(0x2074, 0x2080),
    *range(0x3192, 0x31A0),
]
_SUPERSCRIPTS = {
    chr(c): "".join(chr(int(h, 16)) for h in unicodedata.decomposition(chr(c)).split()[1:])
    for c in _SUPER_CODES
} | {"\u02c0": "\u0294", "\u02c1": "\u0295", "\u06e5": "\u0648", "\u06e6": "\u064a"}
_SUPERSCRIPT = re.compile("[" + "".join(_SUPERSCRIPTS) + "]")


def _term(style: Any, name: str, fallback: str) -> str:
    return str(style.root.get_single_term(name) or "") or fallback


def style_quotes(style: Any) -> Quotes:
    """The quotes of the style's locale (its own terms first)."""
    return Quotes(
        _term(style, "open-quote", "“"),
        _term(style, "close-quote", "”"),
        _term(style, "open-inner-quote", "‘"),
        _term(style, "close-inner-quote", "’"),
        str(style.root.get_locale_option("punctuation-in-quote")).lower() == "true",
    )


def _margin_field(style: Any) -> tuple[str, str] | None:
    """The affixes of the citation number when the style sets it apart
    (``second-field-align``) as the first field of its bibliography entries."""
    element = style.root.bibliography
    if element is None or not element.get("second-field-align"):
        return None
    fields = list(element.layout)
    first = fields[0] if fields else None
    if first is None or first.get("variable") != "citation-number":
        return None
    return first.get("prefix", ""), first.get("suffix", "")


class Finisher:
    """Finishes the entries of one rendering (one style, one output format)."""

    def __init__(self, style: Any, html_out: bool) -> None:
        """Read what the style and its locale say about quotes and the number's margin.

        Args:
            style: The ``CitationStylesStyle`` (its formatter set by the bibliography).
            html_out: The entries are HTML.
        """
        self.html = html_out
        self.quotes = style_quotes(style)
        self.margin = _margin_field(style)

    def entry(self, text: str, number: int) -> str:
        """One entry as citeproc-js writes it.

        Args:
            text: The entry as citeproc-py renders it.
            number: Its citation number (its place in the bibliography, from 1).
        """
        text = self.finished(text)
        margin = None
        if self.margin is not None:
            prefix, suffix = self.margin
            wanted = f"{prefix}{number}{suffix}"
            if text.startswith(wanted):
                margin, text = wanted, text[len(wanted) :]
        return self._markup(text, margin)

    def finished(self, text: str) -> str:
        """A text citeproc-py rendered (an entry, a citation) with citeproc-js's entities,
        quotes and superscripts, and the data's marks taken out."""
        if self.html:
            for entity, numeric in _ENTITIES:
                text = text.replace(entity, numeric)
            text = _DOUBLE_PERIOD.sub(r"\1\2", text)
            text = _SUPERSCRIPT.sub(lambda m: f"<sup>{_SUPERSCRIPTS[m[0]]}</sup>", text)
        return requote(text, self.quotes).replace(HYPHEN_MARK, "-")

    def _markup(self, body: str, margin: str | None) -> str:
        if not self.html:
            return f"{margin} {body}\n" if margin is not None else body + "\n"
        if margin is None:
            return f'  <div class="csl-entry">{body}</div>\n'
        trailing = body[len(body.rstrip()) :]  # citeproc-js puts it after the inner block
        return (
            '  <div class="csl-entry">\n'
            f'    <div class="csl-left-margin">{margin}</div>'
            f'<div class="csl-right-inline">{body.rstrip()}</div>\n'
            f"  {trailing}</div>\n"
        )
