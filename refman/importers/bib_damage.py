"""Damaged BibTeX entries: recognising them and saying in plain words what is wrong.

bibtexparser recovers from an unclosed brace by giving up on the entry at the next line that
starts with ``@`` (a ``ParsingFailedBlock``); other damage it passes silently — a missing
comma makes one field swallow the next, a stray ``}`` ends the entry early and leaves the rest
as a comment. :func:`failure_reason` words the first kind, :func:`lost_fields` spots the
second, and :func:`skipped` writes the warning that names the entry and its line.
"""

from __future__ import annotations

import re

from refman.importers.bib_common import entry_named
from refman.importers.messages import SKIPPED

__all__ = ["entry_key_in", "failure_reason", "lost_fields", "skipped"]

_KEY = re.compile(r"@\s*[A-Za-z]+\s*[{(]\s*([^,\s{}()=\"]+)\s*,")
_TITLE = re.compile(r"\btitle\s*=\s*[{\"]+([^{}\"\n]{1,80})", re.IGNORECASE)
_FIELD_LIKE = re.compile(r"(?m)^\s*[A-Za-z][\w:.\-]*\s*=\s*[{\"\w]")
_REASONS = (
    ("was still looking for field-value closing `}`", "a ‘{’ is never closed"),
    ('was still looking for field-value closing `"`', 'a quotation mark ‘"’ is never closed'),
    (
        "was still looking for field-value closing",
        "its braces do not match (a ‘{’ is never closed) or a comma is missing",
    ),
    ("was still looking for closing bracket", "a ‘{’ is never closed"),
    ("unexpectedly reached end of file", "the file ends before the entry is closed"),
    ("expected comma after entry key", "its key is not followed by a comma"),
    ("expected a `=` after entry key", "a field has no ‘=’ (a comma may be missing)"),
    ("expected either a `,` or", "a comma is missing between two fields"),
    ("expected equals sign", "the abbreviation has no ‘=’"),
)


def entry_key_in(raw: str) -> str | None:
    """The key written at the start of an entry's text, if it can be read."""
    found = _KEY.match(raw.lstrip())
    return found.group(1) if found else None


def _title_in(raw: str) -> str | None:
    found = _TITLE.search(raw)
    return found.group(1).strip() if found else None


def failure_reason(abort_reason: str) -> str:
    """bibtexparser's reason for giving up on a block, in plain words."""
    lowered = abort_reason.lower()
    for marker, words in _REASONS:
        if marker in lowered:
            return words
    return abort_reason.replace("`", "‘").strip().rstrip(".") or "it cannot be read"


def lost_fields(comment: str) -> bool:
    """True when the text right after an entry holds its lost fields (``, year = {2002}
    }``): a stray ``}`` closed the entry early."""
    stripped = comment.strip()
    if stripped.startswith(","):
        return True
    return stripped.endswith("}") and _FIELD_LIKE.search(comment) is not None


def skipped(raw: str, line: int, reason: str, key: str | None = None) -> str:
    """The warning for an entry that was not imported: which entry (by its key or title,
    when it has either), its line, and why."""
    entry = entry_named("entry", key or entry_key_in(raw), _title_in(raw))
    return f"{SKIPPED}{entry} on line {line}: {reason}."
