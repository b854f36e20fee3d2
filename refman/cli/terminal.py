"""Printing that cannot act on the terminal: every command prints through :class:`TerminalSafe`."""

from __future__ import annotations

import io
import unicodedata
from typing import TextIO, cast

from refman.common.controls import terminal_safe


class TerminalSafe(io.TextIOBase):
    """A text stream that escapes, on its way to another, the characters that could act on
    a terminal (ESC starts terminal commands; OSC 8 plants links; see
    :func:`~refman.common.controls.terminal_safe`)."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` with its unsafe characters escaped."""
        self.stream.write(terminal_safe(text))
        return len(text)

    def flush(self) -> None:
        """Flush the stream below."""
        self.stream.flush()

    def writable(self) -> bool:
        """Always: this is an output stream."""
        return True


def for_programs(out: TextIO) -> TextIO | None:
    """The stream below ``out`` when it leads to a file or a pipe rather than a terminal:
    data meant for a program (an export) goes there as it is; None for a terminal, which
    gets it escaped through ``out``."""
    below = out.stream if isinstance(out, TerminalSafe) else out
    try:
        terminal = below.isatty()
    except (OSError, ValueError):
        terminal = False
    return None if terminal else below


def safe(stream: TextIO) -> TextIO:
    """``stream`` behind a :class:`TerminalSafe`."""
    return cast(TextIO, TerminalSafe(stream))


def cells(text: str) -> int:
    """How many terminal columns a text takes (a Chinese, Japanese or Korean letter two, an
    accent none)."""
    if text.isascii():
        return len(text)
    return sum(
        2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1
        for c in text
    )


def truncate(text: str, width: int) -> str:
    """Cut ``text`` to ``width`` terminal columns, ending in "…" when it was cut."""
    if width <= 0:
        return ""
    if cells(text) <= width:
        return text
    kept, used = [], 0
    for char in text:
        used += cells(char)
        if used > width - 1:
            break
        kept.append(char)
    return "".join(kept).rstrip() + "…"


def padded(text: str, width: int) -> str:
    """``text`` filled with spaces to ``width`` terminal columns."""
    return text + " " * max(0, width - cells(text))
