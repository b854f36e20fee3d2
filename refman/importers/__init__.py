"""Pure-Python importers: text in, candidate paper records out. No Qt, no database."""

from refman.importers.author_page import parse
from refman.importers.detect import detect_format, parse_text
from refman.importers.errors import NotABibliographyError, NotAnAuthorPageError, UnreadableFileError
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

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
