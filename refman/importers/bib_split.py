"""Splitting a BibTeX file into blocks: bibtexparser's splitter, with a fast path.

bibtexparser's :class:`~bibtexparser.splitter.Splitter` walks the file one mark (brace,
quote, comma, equals sign, line break) at a time in Python; on a 20,000-entry file that is
about half of the reading time. Most entries have one plain shape::

    @article{key,
      field = {value with {nested} braces},
      field = "quoted" # macro,
    }

:func:`split_blocks` cuts the file at each line that starts with ``@`` and reads a piece of
that plain shape with one regular expression into the same :class:`Entry` bibtexparser would
make (same key, fields, values, raw text and line). Any other piece — ``@string``,
``@comment``, ``@preamble``, parentheses, escaped braces or quotes with braces, a repeated
field, text after the entry, anything damaged — goes to bibtexparser's splitter, which stays
the authority on everything that is not plain.
"""

from __future__ import annotations

import itertools
import re

from bibtexparser.model import Block, Entry, Field
from bibtexparser.splitter import Splitter

__all__ = ["split_blocks"]

# A brace group nested at most four deep (deeper ones go to bibtexparser).
_GROUP = r"\{(?:[^{}]++|\{(?:[^{}]++|\{(?:[^{}]++|\{[^{}]*+\})*+\})*+\})*+\}"
_PIECE = rf'(?:{_GROUP}|"[^"{{}}\\]*+"|[^\s,{{}}"#=\\]++)'
_VALUE = rf"{_PIECE}(?:\s*+#\s*+{_PIECE})*+"
_FIELD = re.compile(rf"\s*+([A-Za-z][\w:.+\-]*+)\s*+=\s*+({_VALUE})\s*+(,?)")
_HEAD = re.compile(r"[ \t]*+@([A-Za-z]\w*+)[ \t]*+\{\s*+([^\s,{}()=\"#%'~\\]++)\s*+,")
_CLOSE = re.compile(r"\s*+\}\s*+\Z")
#: Where bibtexparser gives up on an open entry: a line that starts a block ("@type{").
_BLOCK_LINE = re.compile(r"^[ \t]*@\w*[ \t]*[{(]", re.MULTILINE)
#: What follows a piece handed to bibtexparser: the start of the next block.
_NEXT = "@refmannextblock{"
_SPECIAL_TYPES = frozenset({"comment", "string", "preamble"})


def _plain_entry(piece: str) -> Entry | None:
    """The entry a piece holds when it has the plain shape (and nothing after it)."""
    if "\\{" in piece or "\\}" in piece:
        return None  # bibtexparser does not count escaped braces: let it decide
    head = _HEAD.match(piece)
    if head is None or head.group(1).lower() in _SPECIAL_TYPES:
        return None
    fields: list[Field] = []
    seen: set[str] = set()
    position = head.end()
    while True:
        found = _FIELD.match(piece, position)
        if found is None:
            break
        key = found.group(1)
        if key in seen:
            return None  # a repeated field: bibtexparser reports it
        seen.add(key)
        fields.append(Field(key, found.group(2)))
        position = found.end()
        if not found.group(3):
            break
    close = _CLOSE.match(piece, position)
    if close is None:
        return None
    start = piece.index("@")
    raw = piece[start : piece.rindex("}") + 1]
    return Entry(head.group(1).lower(), head.group(2), fields, raw=raw)


def _by_splitter(piece: str, first_line: int, last: bool) -> list[tuple[Block, int]]:
    """bibtexparser's blocks of a piece of the file that starts on line ``first_line``.

    A piece that is not the file's last is followed by a block start, as in the file, so that
    an entry left open ends the same way; the block that starts there is not the piece's.
    """
    text = piece if last else piece + _NEXT
    return [
        (block, first_line + (block.start_line or 0) + 1)
        for block in Splitter(text).split().blocks
        if not (block.raw or "").startswith(_NEXT)
    ]


def split_blocks(text: str) -> list[tuple[Block, int]]:
    """The blocks of a BibTeX file, as bibtexparser's splitter gives them.

    Args:
        text: The file's text, with ``\\n`` line ends.

    Returns:
        Each block (failed blocks included) with the 1-based line it starts on, in file
        order. Keys used twice are left to the caller (BibTeX compares them ignoring case).
    """
    starts = [m.start() for m in _BLOCK_LINE.finditer(text)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    starts.append(len(text))
    line = 0
    blocks: list[tuple[Block, int]] = []
    for begin, end in itertools.pairwise(starts):
        piece = text[begin:end]
        entry = _plain_entry(piece)
        if entry is not None:
            blocks.append((entry, line + 1))
        elif piece.strip():
            blocks.extend(_by_splitter(piece, line, end == len(text)))
        line += piece.count("\n")
    return blocks
