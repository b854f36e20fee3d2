"""Quotation marks and apostrophes as citeproc-js renders them. Private to
:mod:`refman.core.citations`.

citeproc-js reads the quotes in the data as markup ("flip-flop"): inside a title the style
puts in quotes, the data's quotes become the inner quotes (IEEE: “A ‘quoted’ word,”); outside
any, curly quotes stay as typed and straight ones become the locale's quotes; an apostrophe
becomes ’. citeproc-py copies them as they are. So before rendering, :func:`mark_quotes`
replaces the data's quotes by private marks, and after it, :func:`requote` renders every
quote — the style's and the data's — by its depth, then, with the locale's
``punctuation-in-quote`` (American English), moves a comma or period that follows a closing
quote inside it (“Title,”), which citeproc-py does not do either.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["MARKS", "Quotes", "mark_quotes", "requote"]

#: Private-use marks for the data's paired quotes, opened by a straight quote (of the kind,
#: ``"`` or ``'``, the text uses first; of the other kind), by the locale's quote (“ in
#: English, „ in German) or by its inner quote (‘, ‚), and closed by any; and for its
#: apostrophes.
OPEN_STRAIGHT, OPEN_OTHER, OPEN_DOUBLE, OPEN_SINGLE = "\ue000", "\ue00a", "\ue008", "\ue009"
CLOSE, APOSTROPHE = "\ue001", "\ue002"
_OPENINGS = (OPEN_STRAIGHT, OPEN_OTHER, OPEN_DOUBLE, OPEN_SINGLE)
#: Every mark a text holds between :func:`mark_quotes` and :func:`requote`.
MARKS = "".join(_OPENINGS) + CLOSE
#: Quote characters left unpaired in the data, kept apart from the style's own: each stands
#: for itself while rendered (a private mark from U+E010 on, in this order).
_QUOTE_CHARS = "\"“”'‘„‚«»‹›"
_ORPHANS = {char: chr(0xE010 + n) for n, char in enumerate(_QUOTE_CHARS)}
_RESTORE = {APOSTROPHE: "’", **{mark: char for char, mark in _ORPHANS.items()}}
#: Stand for the locale's outer quotes while they are paired, when a quote is more than one
#: character (French: "«\u00a0" and "\u00a0»").
_OUTER_OPEN, _OUTER_CLOSE = "\ue00b", "\ue00c"


@dataclass(frozen=True, slots=True)
class Quotes:
    """The locale's quotation marks and whether punctuation goes inside them."""

    open: str = "“"
    close: str = "”"
    inner_open: str = "‘"
    inner_close: str = "’"
    punctuation_inside: bool = True


def _apostrophe(text: str, at: int, single_open: bool) -> bool:
    """Whether the single quote at ``at`` is an apostrophe (O'Neill, students', '90s)."""
    before = text[at - 1] if at else " "
    after = text[at + 1] if at + 1 < len(text) else " "
    if before.isalnum() and (after.isalnum() or not single_open):
        return True
    return not before.isalnum() and after.isdigit()


class _Marker:
    """Pairs the quotes of one text (see :func:`mark_quotes`)."""

    def __init__(self, text: str, quotes: Quotes) -> None:
        self.text = text
        self.out = list(text)
        self.stack: list[tuple[bool, int]] = []  # the open quotes: (single, where)
        self.opened: set[int] = set()
        self.first_straight = ""  # the kind of straight quote the text opens first
        # the locale's own quotes the data may use, by their opening character
        self.curly = {quotes.open: OPEN_DOUBLE, quotes.inner_open: OPEN_SINGLE}
        self.single = {"'", "’", quotes.inner_open, quotes.inner_close}

    def opens(self, at: int) -> bool:
        char = self.text[at]
        if char in self.curly:
            return True
        before = self.text[at - 1] if at else " "
        return char in "\"'" and (before.isspace() or before in "([{/—–-" or at - 1 in self.opened)

    def quote(self, at: int) -> None:
        char = self.text[at]
        single = char in self.single
        if char in "'’" and _apostrophe(self.text, at, any(s for s, _ in self.stack)):
            self.out[at] = APOSTROPHE
        elif self.opens(at):
            self.stack.append((single, at))
            self.opened.add(at)
            if char in "\"'":
                self.first_straight = self.first_straight or char
        elif self.stack and self.stack[-1][0] == single:
            _, start = self.stack.pop()
            opening = self.text[start]
            straight = OPEN_STRAIGHT if opening == self.first_straight else OPEN_OTHER
            self.out[start], self.out[at] = self.curly.get(opening, straight) + " ", CLOSE


def mark_quotes(text: str, quotes: Quotes) -> str:
    """The data's quotes and apostrophes replaced by private marks.

    As in citeproc-js, the quotes read as markup are the straight ones and the locale's
    (``quotes``): “English” and ‘inner’, „German“ and ‚inner‘; any other is text.
    An opening mark is followed by a space, so that citeproc-py's title case sees the quoted
    word as a word (citeproc-js capitalises it); :func:`requote` takes the space out.
    """
    marker = _Marker(text, quotes)
    pairs = {quotes.open, quotes.close, quotes.inner_open, quotes.inner_close}
    for at, char in enumerate(text):
        if char in "\"'’" or char in pairs:
            marker.quote(at)
    return "".join(_ORPHANS.get(c, APOSTROPHE if c == "’" else c) for c in marker.out)


def requote(text: str, quotes: Quotes) -> str:
    """A rendered text's quotes by depth, punctuation moved inside, marks undone.

    Args:
        text: citeproc-py's output for data that went through :func:`mark_quotes`.
        quotes: The locale's quotes (the style's own quotes in ``text`` are these).
    """
    outer = (quotes.open, quotes.close)
    if len(quotes.open) > 1 or len(quotes.close) > 1:
        text = text.replace(quotes.open, _OUTER_OPEN).replace(quotes.close, _OUTER_CLOSE)
        quotes = replace(quotes, open=_OUTER_OPEN, close=_OUTER_CLOSE)
    out: list[str] = []
    closing: list[bool] = []
    stack: list[tuple[str, str]] = []  # open quotes: (kind, closing glyph)
    for opening in _OPENINGS:
        text = text.replace(opening + " ", opening)
    for char in text:
        is_close = stack and (char == CLOSE or (char == quotes.close and stack[-1][0] == "style"))
        if is_close:
            char = stack.pop()[1]
        elif char in _OPENINGS or char == quotes.open:
            kind = "style" if char == quotes.open else char
            glyphs = _glyphs(kind, stack, quotes)
            stack.append((kind, glyphs[1]))
            char = glyphs[0]
        out.append(char)
        closing.append(bool(is_close))
    if quotes.punctuation_inside:
        _punctuation_inside(out, closing)
    text = "".join(out).replace(CLOSE, quotes.close)
    for mark, char in (*_RESTORE.items(), (_OUTER_OPEN, outer[0]), (_OUTER_CLOSE, outer[1])):
        text = text.replace(mark, char)
    return text


def _glyphs(kind: str, stack: list[tuple[str, str]], quotes: Quotes) -> tuple[str, str]:
    """The marks of a quote opened inside ``stack``: outside any quote of the style, the
    data's curly quotes keep their shape and the second kind of straight quote is an inner
    quote; every other quote alternates outer and inner by depth."""
    level = len(stack)
    if all(k != "style" for k, _ in stack):
        if kind == OPEN_DOUBLE:
            return quotes.open, quotes.close
        if kind == OPEN_SINGLE:
            return quotes.inner_open, quotes.inner_close
        level += kind == OPEN_OTHER
    if level % 2:
        return quotes.inner_open, quotes.inner_close
    return quotes.open, quotes.close


def _punctuation_inside(out: list[str], closing: list[bool]) -> None:
    """Move each comma or period that follows closing quotes inside them (in place); a
    period after a title that ends a sentence already ("Who?") is dropped."""
    at = 1
    while at < len(out):
        if out[at] not in ".," or not closing[at - 1]:
            at += 1
            continue
        start = at - 1
        while start > 0 and closing[start - 1]:
            start -= 1
        mark = out.pop(at)
        closing.pop(at)
        if not (mark == "." and start > 0 and out[start - 1] in ".?!"):
            out.insert(start, mark)
            closing.insert(start, False)
        at += 1
