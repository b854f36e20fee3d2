"""Pure-Python importers: text in, candidate paper records out. No Qt, no database."""

from refman.importers.author_page import parse
from refman.importers.errors import NotAnAuthorPageError, UnreadableFileError
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

__all__ = [
    "NotAnAuthorPageError",
    "PageFormat",
    "ParsedPage",
    "ParsedRecord",
    "UnreadableFileError",
    "parse",
]
