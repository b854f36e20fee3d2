"""A thesis and a book chapter as APA and Harvard write them: "Title (Doctoral dissertation).
University of Bergen.", "Title [Doctoral dissertation, University of Bergen]. BORA.", "Title.
In K. Mensah (Ed.), Book title (pp. 301–310). Springer." — for
:mod:`~refman.importers.references`, which reads them as articles otherwise (the school or
the editors taken for a journal).
"""

from __future__ import annotations

import re
from dataclasses import replace

from refman.importers.records import ParsedRecord
from refman.importers.titles import title_text

__all__ = ["as_published"]

#: What a title ends with that says it is a thesis, and the school it may name.
_THESIS = re.compile(
    r"\s*[\[(](?:doctoral|master'?s?|ph\.?\s?d\.?|bachelor'?s?|diploma)\s+"
    r"(?:dissertation|thesis)(?:,\s*(?P<school>[^\])]{2,120}))?[\])]\s*$",
    re.IGNORECASE,
)
#: A chapter's book after its editors: "In K. Mensah (Ed.), Book title (pp. 1–9). Springer."
_CHAPTER = re.compile(
    r"^\s*In:?\s+(?P<editors>[^()]{2,300}?)\s+\((?:Eds?|Hrsg|Dir)\.?\),?\s+"
    r"(?P<book>[^()]{2,300}?)\s*(?:\((?P<inside>[^()]*)\)\s*)?\.\s*(?P<publisher>[^.]{2,80}?)?\.?"
    r"(?=\s+(?:https?://|doi:)|\s*$)",
    re.IGNORECASE,
)


def as_published(record: ParsedRecord, title: str, rest: str) -> ParsedRecord:
    """``record`` (read from a reference's ``title`` and the ``rest`` after it) as the thesis
    or chapter it says it is; any other record as it is."""
    thesis = _THESIS.search(title)
    if thesis is not None:
        return replace(
            record,
            title=title_text(title[: thesis.start()].strip(" .,")),
            type="thesis",
            venue=None,
            publisher=thesis["school"] or record.venue,
        )
    chapter = _CHAPTER.match(rest)
    if chapter is not None:
        return replace(
            record,
            type="chapter",
            venue=chapter["book"].strip(" ,."),
            publisher=chapter["publisher"] or None,
        )
    return record
