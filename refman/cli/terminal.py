"""Printing that cannot act on the terminal: every command prints through :class:`TerminalSafe`."""

from __future__ import annotations

import io
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
