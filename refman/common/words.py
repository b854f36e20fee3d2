"""How a report and a size are worded: a driver's first sentence, a file's size."""

from __future__ import annotations

import re

from refman.common.text import plural, squash_spaces

__all__ = ["first_sentence", "size_text"]


def first_sentence(text: str) -> str:
    """A report's first sentence, on one line, without its full stop: a database driver's
    text spans lines and tabs ("server closed the connection unexpectedly\n\tThis probably
    means…"), which a message quotes in parentheses."""
    line = next((part for part in text.splitlines() if part.strip()), "")
    return squash_spaces(re.split(r"(?<=[.!?])\s", line.strip(), maxsplit=1)[0]).rstrip(".")


def size_text(size: int) -> str:
    """A file's size as people read it: 812 bytes, 14 KB, 1.2 MB, 2.1 GB."""
    if size < 1000:
        return plural(size, "byte")
    for unit, scale in (("KB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        if size < scale * 1000 or unit == "GB":
            value = size / scale
            return f"{value:.1f} {unit}" if value < 10 else f"{value:.0f} {unit}"
    raise AssertionError("unreachable")
