"""Reading what a user drops or opens: text, HTML and bibliography files (BibTeX, RIS,
CSL-JSON), never images, PDFs or binaries.

:func:`check_file` decides quickly (from the name, the size and the first bytes) whether a
file can hold an author page or a bibliography; :func:`load_source` reads it into text,
turning HTML into its visible text with :func:`html_to_text`, and :meth:`LoadedSource.parse`
hands the text (or the PDF, or the Zotero or Mendeley database) to the reader its content calls for
(:func:`~refman.importers.detect.parse_text`).
Both raise :class:`~refman.importers.errors.UnreadableFileError` with a plain message naming
the file and the reason. Pure Python: no Qt, no database of refman's.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from refman.importers.decode import decode_bytes
from refman.importers.errors import NotAnAuthorPageError, UnreadableFileError
from refman.importers.found_files import with_found_files
from refman.importers.html_text import html_page, html_to_text
from refman.importers.identify import attach_links
from refman.importers.library_db import SQLITE_HEADER
from refman.importers.messages import SAVE_HINT, WEB_ADDRESS
from refman.importers.pdf_file import looks_like_pdf
from refman.importers.records import PageLink, ParsedPage

__all__ = [
    "HTML_SUFFIXES",
    "MAX_FILE_BYTES",
    "TEXT_SUFFIXES",
    "TOO_LARGE",
    "LoadedSource",
    "check_file",
    "html_page",
    "html_to_text",
    "load_source",
]

#: The largest file (or standard input) refman reads as a page or a bibliography, in MB.
MAX_FILE_MB = 512
#: The same, in bytes.
MAX_FILE_BYTES = MAX_FILE_MB * 1024 * 1024
#: Why a larger file is refused (after its quoted name).
TOO_LARGE = (
    f"is larger than {MAX_FILE_MB} MB, the most refman reads from one file; "
    "export the library in parts (one collection at a time) and import each."
)
#: A web address given as a file's name.
_ADDRESS = re.compile(r"^https?:/", re.IGNORECASE)
#: Suffixes read as plain text.
TEXT_SUFFIXES = frozenset({".txt", ".text", ".md"})
#: Suffixes read as HTML (their visible text).
HTML_SUFFIXES = frozenset({".html", ".htm"})

_HINT = (
    "refman imports bibliographies (BibTeX, RIS, CSL-JSON), papers' PDFs, Zotero and Mendeley "
    "libraries (their database file) and the text of author pages: save the page as text or "
    "HTML, or copy its text in the browser and paste it."
)
_IMAGE_SUFFIXES = {
    ".png": "PNG",
    ".jpg": "JPEG",
    ".jpeg": "JPEG",
    ".gif": "GIF",
    ".webp": "WebP",
    ".svg": "SVG",
    ".svgz": "SVG",
    ".bmp": "BMP",
    ".tif": "TIFF",
    ".tiff": "TIFF",
    ".ico": "icon",
    ".heic": "HEIC",
    ".heif": "HEIF",
    ".avif": "AVIF",
    ".jxl": "JPEG XL",
}
#: (leading bytes, what the file is) for formats recognised by their first bytes.
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"\x00\x00\x01\x00", "an icon image"),
    (b"PK\x03\x04", "a ZIP archive (or a Word, Excel or EPUB document)"),
    (b"\x1f\x8b", "a compressed (gzip) file"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "a Microsoft Office document"),
    (b"{\\rtf", "an RTF document"),
    (b"\x7fELF", "a program"),
    (b"SQLite format 3\x00", "a database (SQLite) that is not a Zotero or Mendeley library"),
)
_IMAGE_BRANDS = (b"heic", b"heix", b"mif1", b"msf1", b"avif", b"avis")
_SVG_RE = re.compile(
    r"\A\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*(?:<!DOCTYPE\s+svg[^>]*>\s*)?<svg\b",
    re.IGNORECASE | re.DOTALL,
)
_HTML_RE = re.compile(r"\A\s*(?:<!--.*?-->\s*)*<(?:!DOCTYPE\s+html|html)\b", re.IGNORECASE)
_HEAD_BYTES = 1 << 16


@dataclass(frozen=True, slots=True)
class LoadedSource:
    """The text of a file a user opened or dropped.

    Attributes:
        source: The file name, shown to the user and recorded with the import.
        text: The text to parse (for HTML, its visible text).
        warnings: Plain sentences about the reading (e.g. the encoding had to be guessed).
        encoding: The codec the bytes were decoded with.
        links: The links of an HTML page (an author page keeps each record's links).
    """

    source: str
    text: str
    warnings: list[str] = field(default_factory=list)
    encoding: str = "utf-8"
    links: tuple[PageLink, ...] = ()
    #: The PDF this source is (its paper is read from it), or None for text.
    pdf: Path | None = None
    #: The Zotero database this source is (its library is read from it), or None.
    zotero: Path | None = None
    #: The Mendeley Desktop database this source is (its library is read from it), or None.
    mendeley: Path | None = None
    #: The folder of the file, against which a bibliography's relative file paths are read.
    folder: Path | None = None

    def parse(self, read_pdf: Callable[[Path], ParsedPage] | None = None) -> ParsedPage:
        """Parse the text with the reader its content calls for (an author page, BibTeX, RIS
        or CSL-JSON; the file's extension is a hint), keeping the reading warnings first.

        Args:
            read_pdf: Reads the paper of a PDF (the program passes a reader that works in a
                worker process bounded in time and memory); None reads it here.

        Returns:
            The parsed page.

        Raises:
            NotAnAuthorPageError: The text holds no publication records.
        """
        # The readers (and bibtexparser) load with the first page read, not at every start.
        if self.pdf is not None:
            if read_pdf is not None:
                return read_pdf(self.pdf)
            from refman.importers.pdf_paper import pdf_page

            return pdf_page(self.pdf)
        if self.zotero is not None:
            from refman.importers.zotero_db import zotero_page

            return with_found_files(zotero_page(self.zotero), self.folder)
        if self.mendeley is not None:
            from refman.importers.mendeley_db import mendeley_page

            return with_found_files(mendeley_page(self.mendeley), self.folder)
        from refman.importers.detect import parse_text

        page = attach_links(parse_text(self.text, self.source), self.text, self.links)
        page.encoding = self.encoding
        page.warnings[:0] = self.warnings
        return with_found_files(page, self.folder)


# -- files -----------------------------------------------------------------------------------


def _unreadable(path: Path, reason: str, hint: str = "") -> UnreadableFileError:
    """Return the error for ``path``, naming the file and the reason."""
    return UnreadableFileError(f"‘{path.name or path}’ {reason}", hint)


def _os_reason(error: OSError) -> str:
    """Return the operating system's reason for ``error`` in lower case."""
    text = error.strerror or str(error) or type(error).__name__
    return text[:1].lower() + text[1:]


def _stat(path: Path) -> None:
    """Check that ``path`` is an existing regular file of at most 50 MB."""
    try:
        info = path.stat()
    except FileNotFoundError:
        if _ADDRESS.match(str(path)):  # (a path joins the two slashes: https:/host/…)
            raise _unreadable(path, f"{WEB_ADDRESS}.", SAVE_HINT) from None
        raise _unreadable(path, "does not exist.") from None
    except PermissionError:
        raise _unreadable(path, "cannot be opened: permission denied.") from None
    except (OSError, ValueError) as error:
        reason = _os_reason(error) if isinstance(error, OSError) else str(error)
        raise _unreadable(path, f"cannot be read: {reason}.") from None
    if stat.S_ISDIR(info.st_mode):
        raise _unreadable(path, "is a folder, not a file.", "Open the page files inside it.")
    if not stat.S_ISREG(info.st_mode):
        raise _unreadable(path, "is not a regular file.")
    if info.st_size > MAX_FILE_BYTES:
        raise _unreadable(path, TOO_LARGE)


def _read(path: Path, limit: int) -> bytes:
    """Read at most ``limit`` bytes of ``path``."""
    try:
        with path.open("rb") as handle:
            return handle.read(limit)
    except PermissionError:
        raise _unreadable(path, "cannot be read: permission denied.") from None
    except OSError as error:
        raise _unreadable(path, f"cannot be read: {_os_reason(error)}.") from None


def _check_name(path: Path) -> None:
    """Refuse images by their file name."""
    suffix = path.suffix.lower()
    if suffix in _IMAGE_SUFFIXES:
        raise _unreadable(path, f"is an image ({_IMAGE_SUFFIXES[suffix]}), not text.", _HINT)


def _is_pdf(path: Path, head: bytes) -> bool:
    """True for a PDF (by its first bytes); a file only named .pdf is refused."""
    if looks_like_pdf(head):
        return True
    if path.suffix.lower() == ".pdf":
        what = "not a PDF document (its first bytes are not a PDF's)" if head else "empty"
        raise _unreadable(
            path,
            f"is named .pdf but is {what}.",
            "Check that the download finished, or open the file to see what it is.",
        )
    return False


def _is_zotero(path: Path, head: bytes) -> bool:
    """True for a Zotero library's database (an SQLite file with Zotero's tables)."""
    from refman.importers.zotero_db import is_zotero_database

    return head.startswith(SQLITE_HEADER) and is_zotero_database(path)


def _is_mendeley(path: Path, head: bytes) -> bool:
    """True for a Mendeley Desktop library's database (an SQLite file with Mendeley's
    tables); one Mendeley encrypted (1.19 and later) is refused, saying what to do."""
    from refman.importers.mendeley_db import (
        ENCRYPTED_HINT,
        is_mendeley_database,
        looks_like_mendeley_name,
    )

    if head.startswith(SQLITE_HEADER):
        return is_mendeley_database(path)
    if looks_like_mendeley_name(path) and head:
        raise _unreadable(
            path,
            "is Mendeley Desktop's database encrypted (as Mendeley 1.19 and later keep it), "
            "which no other program can read.",
            ENCRYPTED_HINT,
        )
    return False


def _binary_kind(data: bytes) -> str | None:
    """Return what ``data`` is when its first bytes show a known non-text format."""
    if looks_like_pdf(data):
        return "a PDF document"
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            return kind
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "a WebP image"
    if data[:2] == b"BM" and data[6:10] == b"\x00\x00\x00\x00":
        return "a BMP image"
    if data[4:8] == b"ftyp":
        return "an image (HEIC/AVIF)" if data[8:12] in _IMAGE_BRANDS else "a video file"
    return None


def _check_content(path: Path, data: bytes) -> None:
    """Refuse images, PDFs and other binary data by their content."""
    kind = _binary_kind(data)
    if kind is not None:
        not_text = "" if kind.startswith("a database") else ", not text"  # a database says why
        raise _unreadable(path, f"is {kind}{not_text}.", _HINT)
    head = data[:4096].decode("utf-8", errors="ignore")
    if _SVG_RE.match(head):
        raise _unreadable(path, "is an image (SVG), not text.", _HINT)


def _decode(path: Path, data: bytes) -> tuple[str, str, list[str]]:
    """Decode ``data`` into (text, encoding, warnings), refusing binary data."""
    try:
        decoded = decode_bytes(data)
    except NotAnAuthorPageError:
        raise _unreadable(path, "contains binary data, not text.", _HINT) from None
    return decoded.text, decoded.encoding, list(decoded.warnings)


def _whole_characters(sample: bytes) -> bytes:
    """Cut a UTF-8 character split at the end of a sample, so it does not look like binary."""
    if b"\x00" in sample:
        return sample  # UTF-16: the sample size is even
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start >= len(sample) - 3:
            return sample[: error.start]
    return sample


def check_file(path: str | Path) -> None:
    """Check quickly, without reading it all, that a file can hold an author page.

    Args:
        path: The file.

    Raises:
        UnreadableFileError: The file is missing, a folder, too large, unreadable,
            an image (by name or by content), a file named .pdf that is not one, or binary
            data. A PDF passes (its paper is read from it when imported).
    """
    path = Path(path)
    _stat(path)
    _check_name(path)
    head = _read(path, _HEAD_BYTES)
    if _is_pdf(path, head) or _is_zotero(path, head) or _is_mendeley(path, head):
        return  # a paper's PDF, a Zotero or Mendeley library: read when imported
    _check_content(path, head)
    _decode(path, _whole_characters(head) if len(head) == _HEAD_BYTES else head)


def load_source(path: str | Path) -> LoadedSource:
    """Read a text, Markdown, HTML or bibliography file into text (a PDF is kept as a file:
    its paper is read from it when parsed).

    Args:
        path: The file. ``.txt``, ``.text`` and ``.md`` are read as text, ``.html`` and
            ``.htm`` as HTML (their visible text); any other file is accepted when it holds
            text (HTML when it starts like an HTML document).

    Returns:
        The file name, the text and any warnings about the decoding.

    Raises:
        UnreadableFileError: The file is missing, a folder, too large, unreadable,
            an image, a file named .pdf that is not one, or binary data.
    """
    path = Path(path)
    _stat(path)
    _check_name(path)
    head = _read(path, 1024)
    if _is_pdf(path, head):
        return LoadedSource(path.name, "", pdf=path)
    if _is_zotero(path, head):
        return LoadedSource(path.name, "", zotero=path, folder=path.resolve().parent)
    if _is_mendeley(path, head):
        return LoadedSource(path.name, "", mendeley=path, folder=path.resolve().parent)
    data = _read(path, MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise _unreadable(path, TOO_LARGE)
    return replace(_loaded(path, data), folder=path.resolve().parent)


def load_bytes(data: bytes, source: str) -> LoadedSource:
    """Read the bytes of a page that came without a file (standard input, a paste).

    Args:
        data: The bytes (text, or an HTML document whose visible text is used).
        source: How to name them to the user, e.g. "standard input".

    Raises:
        UnreadableFileError: The bytes are an image, a PDF, or other binary data.
    """
    return _loaded(Path(source), data)


def _loaded(path: Path, data: bytes) -> LoadedSource:
    _check_content(path, data)
    text, encoding, warnings = _decode(path, data)
    suffix = path.suffix.lower()
    is_html = suffix in HTML_SUFFIXES or (
        suffix not in TEXT_SUFFIXES and _HTML_RE.match(text[:4096]) is not None
    )
    links: tuple[PageLink, ...] = ()
    if is_html:
        text, links = html_page(text)
    return LoadedSource(path.name, text, warnings, encoding, links)
