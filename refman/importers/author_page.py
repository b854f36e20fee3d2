"""Read a researcher's author page (pasted text or a saved file) into candidate records.

Two page formats are recognised (see :class:`~refman.importers.records.PageFormat`): the
publication list (venue+year, title, abstract, subjects per record) and the author-abstracts
page (author line and abstract per record). Anything else raises
:class:`~refman.importers.errors.NotAnAuthorPageError`.
"""

from __future__ import annotations

import stat
from pathlib import Path

from refman.importers.author_abstracts import parse_author_abstracts
from refman.importers.decode import decode_bytes
from refman.importers.errors import UnreadableFileError
from refman.importers.lines import Lines, split_lines
from refman.importers.messages import not_a_page
from refman.importers.publication_list import (
    PublicationList,
    find_header,
    parse_publication_list,
)
from refman.importers.records import PageFormat, ParsedPage

__all__ = ["MAX_FILE_BYTES", "parse", "parse_bytes", "read_page_file"]

#: Largest file :func:`read_page_file` accepts.
MAX_FILE_BYTES = 50 * 1024 * 1024


def _records_word(count: int) -> str:
    """Return "1 record" or "N records"."""
    return f"{count} record" if count == 1 else f"{count} records"


def _count_warning(claimed: int, found: int) -> str:
    """Return the warning for a page whose stated record count differs from what was found."""
    if found == 0:
        found_text = "none were found"
    else:
        only = "only " if found < claimed else ""
        found_text = f"{only}{found} {'was' if found == 1 else 'were'} found"
    return f"The page says {_records_word(claimed)} but {found_text}."


def _publication_page(result: PublicationList) -> ParsedPage:
    """Wrap a parsed publication list as a page, adding the count check."""
    warnings = list(result.warnings)
    if result.claimed is not None and result.claimed != len(result.records):
        warnings.insert(0, _count_warning(result.claimed, len(result.records)))
    return ParsedPage(
        owner=result.owner,
        format=PageFormat.PUBLICATION_LIST,
        claimed=result.claimed,
        records=result.records,
        warnings=warnings,
    )


def _parse_lines(lines: Lines) -> ParsedPage:
    """Recognise the page format of ``lines`` and parse it."""
    header = find_header(lines)
    has_header = header.owner_index is not None or header.claimed is not None
    listed = parse_publication_list(lines, header)
    if listed.records and (has_header or any(record.subjects for record in listed.records)):
        return _publication_page(listed)
    abstracts = parse_author_abstracts(lines)
    if abstracts is not None:
        return ParsedPage(
            owner=abstracts.owner,
            format=PageFormat.AUTHOR_ABSTRACTS,
            claimed=None,
            records=abstracts.records,
            warnings=abstracts.warnings,
        )
    if has_header:
        who = f"the page names {listed.owner}" if listed.owner else "the page has a header"
        raise not_a_page(
            f"{who} but no line looks like the start of a paper (a venue and year such as "
            "“arXiv 2024” followed by a title)"
        )
    raise not_a_page(
        "no line looks like the start of a paper (a venue and year such as “arXiv 2024”, or a "
        "list of authors followed by an abstract)"
    )


def parse(text: str) -> ParsedPage:
    """Parse the text of an author page.

    Args:
        text: The page as copied from a browser or read from a file. Any line endings (LF,
            CRLF, CR), blank-line runs and surrounding spaces are accepted.

    Returns:
        The owner, format, stated count, records and warnings.

    Raises:
        NotAnAuthorPageError: The text is empty or holds no publication records. No other
            exception is raised for any string.
    """
    if not text:
        raise not_a_page("the text is empty")
    lines = split_lines(text)
    if not lines.text:
        raise not_a_page("the text contains only blank lines")
    return _parse_lines(lines)


def parse_bytes(data: bytes) -> ParsedPage:
    """Parse an author page given as bytes (a saved file).

    The encoding is detected: UTF-8 with or without BOM, UTF-16 with BOM (LE/BE), and as a
    last resort Windows-1252, with a warning.

    Args:
        data: The raw file content.

    Returns:
        The parsed page, with :attr:`ParsedPage.encoding` set and any decoding warnings first.

    Raises:
        NotAnAuthorPageError: The data is binary, empty or holds no publication records.
    """
    if not data:
        raise not_a_page("the file is empty")
    decoded = decode_bytes(data)
    page = parse(decoded.text)
    page.encoding = decoded.encoding
    page.warnings[:0] = decoded.warnings
    return page


def _unreadable(path: Path, reason: str) -> UnreadableFileError:
    """Return the error for a file that cannot be read, naming it and the reason."""
    return UnreadableFileError(f"‘{path.name or path}’ {reason}")


def read_page_file(path: str | Path) -> ParsedPage:
    """Read and parse a saved author page.

    Args:
        path: The file to read.

    Returns:
        The parsed page.

    Raises:
        UnreadableFileError: The file is missing, a folder, not a regular file, larger than
            50 MB, or cannot be read (e.g. no permission).
        NotAnAuthorPageError: The file is binary, empty or holds no publication records.
    """
    path = Path(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise _unreadable(path, "does not exist.") from None
    except PermissionError:
        raise _unreadable(path, "cannot be opened: permission denied.") from None
    except (OSError, ValueError) as error:
        raise _unreadable(path, f"cannot be read: {_reason(error)}.") from None
    if stat.S_ISDIR(info.st_mode):
        raise _unreadable(path, "is a folder, not a file.")
    if not stat.S_ISREG(info.st_mode):
        raise _unreadable(path, "is not a regular file.")
    if info.st_size > MAX_FILE_BYTES:
        raise _unreadable(
            path, "is larger than 50 MB; an author page is a few hundred kilobytes at most."
        )
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except PermissionError:
        raise _unreadable(path, "cannot be read: permission denied.") from None
    except OSError as error:
        raise _unreadable(path, f"cannot be read: {_reason(error)}.") from None
    if len(data) > MAX_FILE_BYTES:
        raise _unreadable(
            path, "is larger than 50 MB; an author page is a few hundred kilobytes at most."
        )
    return parse_bytes(data)


def _reason(error: BaseException) -> str:
    """Return the operating system's plain reason for ``error``."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower() if error.strerror[:1].isupper() else error.strerror
    return str(error) or type(error).__name__
