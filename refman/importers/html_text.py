"""The visible text of an HTML page (as a browser shows it) and the links it holds."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from refman.importers.records import PageLink

__all__ = ["html_page", "html_to_text"]

_SKIPPED = frozenset({"script", "style", "head", "title", "noscript", "template", "svg", "math"})
_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "dd", "details", "dialog", "div", "dl",
        "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
        "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section",
        "summary", "table", "tbody", "thead", "tfoot", "tr", "ul", "caption",
    }
)  # fmt: skip
_PARAGRAPHS = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table"})
_CELLS = frozenset({"td", "th"})
_SPACES = re.compile(r"[ \t\n\r\f\v\xa0]+")


class _VisibleText(HTMLParser):
    """Collects the text a browser would show, one line per block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.links: list[PageLink] = []
        self._inline: list[str] = []
        self._skipping: list[str] = []
        self._pre = 0
        self._anchor: tuple[str, list[str]] | None = None  # an open <a href>: href, its text

    def _open_anchor(self, attrs: list[tuple[str, str | None]]) -> None:
        href = next((value for name, value in attrs if name == "href" and value), None)
        self._anchor = (href.strip(), []) if href else None

    def _close_anchor(self) -> None:
        if self._anchor is None:
            return
        href, parts = self._anchor
        self._anchor = None
        text = _SPACES.sub(" ", "".join(parts)).strip()
        if not text:  # an icon: place it by the text before it
            before = _SPACES.sub(" ", "".join(self._inline)).strip()
            text = before[-60:] if before else next((ln for ln in reversed(self.lines) if ln), "")
        if text:
            self.links.append(PageLink(text, href))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body" and "head" in self._skipping:
            self._skipping.clear()  # a page that never closes <head>
        if self._skipping or tag in _SKIPPED:
            if tag in _SKIPPED:
                self._skipping.append(tag)
            return
        if tag == "a":
            self._close_anchor()
            self._open_anchor(attrs)
        elif tag == "br":
            self._flush(force=True)
        elif tag in _BLOCKS:
            self._flush(blank=tag in _PARAGRAPHS)
        elif tag in _CELLS and self._inline:
            self._inline.append(" ")
        if tag == "pre":
            self._pre += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self._skipping:
            while self._skipping and self._skipping.pop() != tag:
                pass
            return
        if self._skipping:
            return
        if tag == "a":
            self._close_anchor()
        if tag in _BLOCKS:
            self._flush(blank=tag in _PARAGRAPHS)
        if tag == "pre" and self._pre:
            self._pre -= 1

    def handle_data(self, data: str) -> None:
        if self._skipping:
            return
        if self._anchor is not None:
            self._anchor[1].append(data)
        if self._pre:
            parts = data.replace("\r\n", "\n").split("\n")
            for part in parts[:-1]:
                self._inline.append(part)
                self._flush(force=True)
            self._inline.append(parts[-1])
        else:
            self._inline.append(data)

    def close(self) -> None:
        super().close()
        self._close_anchor()
        self._flush()

    def _flush(self, *, blank: bool = False, force: bool = False) -> None:
        """End the current line (if it has text, or ``force``); ``blank`` adds an empty line."""
        raw = "".join(self._inline)
        self._inline.clear()
        line = raw.replace("\xa0", " ").rstrip() if self._pre else _SPACES.sub(" ", raw).strip()
        if line or force:
            self.lines.append(line)
        if blank and self.lines and self.lines[-1]:
            self.lines.append("")


def html_page(html: str) -> tuple[str, tuple[PageLink, ...]]:
    """Return the visible text of an HTML page or fragment and the links it holds.

    The text is as :func:`html_to_text` gives it; each link is named by its visible text
    (or the text just before it), so it can be found in the text again.
    """
    parser = _VisibleText()
    parser.feed(html)
    parser.close()
    return _joined(parser.lines), tuple(parser.links)


def _joined(lines: list[str]) -> str:
    """The lines as one text with at most one blank line in a row, none at either end."""
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + ("\n" if out else "")


def html_to_text(html: str) -> str:
    """Return the visible text of an HTML page or fragment.

    Scripts, styles and the head are dropped, block elements (paragraphs, headings, list
    items, table rows, ``<br>``) become line breaks, runs of white space collapse as a browser
    collapses them (except inside ``<pre>``), and character references are decoded.

    Args:
        html: The HTML source.

    Returns:
        The text, one block per line, with at most one blank line in a row.
    """
    return html_page(html)[0]
