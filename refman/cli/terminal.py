"""Printing that cannot act on the terminal: every command prints through :class:`TerminalSafe`."""

from __future__ import annotations

import codecs
import io
import unicodedata
from collections.abc import Callable
from typing import TextIO, TypeVar, cast

from refman.common.controls import terminal_safe
from refman.common.errors import RefmanError

T = TypeVar("T")


class OutputError(RefmanError):
    """What a command prints could not be written (a full disk, a failing device)."""


def written(write: Callable[[], T]) -> T:
    """Run ``write``, a write to standard output; a failure of the device is an
    :class:`OutputError` (a closed pipe stays a :class:`BrokenPipeError`).

    Raises:
        OutputError: The output could not be written.
    """
    try:
        return write()
    except BrokenPipeError:
        raise
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise OutputError(
            f"The output could not be written ({reason}); what was printed is incomplete.",
            "Free some space, or send the output somewhere else.",
        ) from error


class TerminalSafe(io.TextIOBase):
    """A text stream that escapes, on its way to another, the characters that could act on
    a terminal (ESC starts terminal commands; OSC 8 plants links; see
    :func:`~refman.common.controls.terminal_safe`). A write that fails is an
    :class:`OutputError`."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` with its unsafe characters escaped."""
        written(lambda: self.stream.write(terminal_safe(text)))
        return len(text)

    def flush(self) -> None:
        """Flush the stream below."""
        written(self.stream.flush)

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The encoding of the stream below."""
        return str(getattr(self.stream, "encoding", None) or "utf-8")

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


def writes_unicode(stream: TextIO) -> bool:
    """True when ``stream`` can write every character (its encoding is a UTF); a console
    set to ASCII or Latin-1 prints "?" for the others."""
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name.startswith("utf")
    except LookupError:
        return False


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
