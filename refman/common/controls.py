"""The characters no text refman stores or prints may hold as they are."""

from __future__ import annotations

import re

#: C0 controls but tab, line feed and carriage return; DEL and the C1 controls; the
#: bidirectional marks, embeddings, overrides and isolates.
UNSAFE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
#: What a terminal must not receive as it is: :data:`UNSAFE`, carriage returns (they
#: overwrite a line) and the line and paragraph separators (they break a one-line message).
TERMINAL_UNSAFE = re.compile(UNSAFE.pattern[:-1] + "\r\u2028\u2029]")


def terminal_safe(text: str) -> str:
    """``text`` with every character of :data:`TERMINAL_UNSAFE` written as its ``\\uXXXX``
    escape (which JSON reads back as the same character)."""
    return TERMINAL_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
