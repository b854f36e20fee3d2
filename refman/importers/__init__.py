"""Pure-Python importers: text in, candidate paper records out. No Qt, no database.

The parsers load when first used (a program that only reads its library, such as the window
starting, does not pay for them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from refman.common.lazy import lazy_names

if TYPE_CHECKING:
    from refman.importers.author_page import parse
    from refman.importers.detect import detect_format, parse_text
    from refman.importers.errors import (
        NotABibliographyError,
        NotAnAuthorPageError,
        UnreadableFileError,
    )
    from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

#: Where each name of this package lives.
_HOMES = {
    "parse": "author_page",
    "detect_format": "detect",
    "parse_text": "detect",
    "NotABibliographyError": "errors",
    "NotAnAuthorPageError": "errors",
    "UnreadableFileError": "errors",
    "PageFormat": "records",
    "ParsedPage": "records",
    "ParsedRecord": "records",
}

__all__ = [
    "NotABibliographyError",
    "NotAnAuthorPageError",
    "PageFormat",
    "ParsedPage",
    "ParsedRecord",
    "UnreadableFileError",
    "detect_format",
    "parse",
    "parse_text",
]


__getattr__ = lazy_names(__name__, _HOMES)
