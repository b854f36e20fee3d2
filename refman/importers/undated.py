"""What a reference says instead of its year — a paper not out yet ("(in press)",
"(forthcoming)", "to appear") or undated ("(n.d.)") — and APA's unpublished manuscript, for
:mod:`~refman.importers.references`."""

from __future__ import annotations

import re

__all__ = ["MANUSCRIPT", "NOT_YET", "UNDATED", "UNDATED_REST", "status_of"]

#: What a reference says instead of its year, not out yet or undated: "(in press)", "(n.d.)",
#: "(forthcoming)", "Mar Geol. In press.", "to appear".
NOT_YET = (
    r"in press|forthcoming|to appear|in preparation|in review|under review|submitted|accepted"
    r"|n\.\s?d\.?|no date"
)
UNDATED = re.compile(rf"(?<!\w)(?:{NOT_YET})(?!\w)", re.IGNORECASE)
#: Such words in the rest of a reference (after its title), as they are left out of its venue.
UNDATED_REST = re.compile(
    r"[\s,;]*\(?\b(?:in press|forthcoming|to appear|in preparation|in review|under review)\b\)?\.?",
    re.IGNORECASE,
)
#: An unpublished manuscript, as APA names one instead of a venue ("Manuscript submitted for
#: publication", "Unpublished manuscript").
MANUSCRIPT = re.compile(r"\s*(?:unpublished )?manuscript\b", re.IGNORECASE)


def status_of(undated: str, rest: str) -> str | None:
    """What a reference says instead of its year — ``undated``, what its brackets said
    ("(in press)"), or the ``rest`` after its title ("Mar Geol. In press.") — as CSL's
    ``status`` words it ("in press", "forthcoming"; "" for "n.d."); None when it says
    nothing of it."""
    said = undated or ((m := UNDATED_REST.search(rest)) and m[0]) or None
    if said is None:
        return None
    words = " ".join(re.sub(r"[^\w\s]", " ", said).split()).lower()
    return "" if words in {"n d", "no date"} else words
