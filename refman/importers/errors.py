"""Exceptions raised by the importers; each message names the problem in plain words."""

from __future__ import annotations

from refman.common.errors import RefmanError


class ImportError_(RefmanError):
    """Base class of importer failures."""


class NotAnAuthorPageError(ImportError_):
    """The text holds no publication records: empty, binary, or ordinary prose."""


class NotABibliographyError(NotAnAuthorPageError):
    """A file meant as a bibliography (by its content or its name) holds no records refman
    can read: some other JSON, an empty or wholly damaged BibTeX or RIS file."""


class UnreadableFileError(ImportError_):
    """A file cannot be read at all: missing, a directory, too large, or no permission."""
