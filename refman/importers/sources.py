"""Reading what a user drops or opens: text and HTML files, never images, PDFs or binaries.

:func:`check_file` decides quickly (from the name, the size and the first bytes) whether a
file can hold an author page; :func:`load_source` reads it into text, turning HTML into its
visible text with :func:`html_to_text`. Both raise
:class:`~refman.importers.errors.UnreadableFileError` with a plain message naming the file and
the reason. Pure Python: no Qt, no database.
"""

from __future__ import annotations

import re
import stat
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from refman.importers.author_page import parse
from refman.importers.decode import decode_bytes
from refman.importers.errors import NotAnAuthorPageError, UnreadableFileError
from refman.importers.records import ParsedPage

__all__ = [
    "HTML_SUFFIXES",
    "MAX_FILE_BYTES",
    "TEXT_SUFFIXES",
    "LoadedSource",
    "check_file",
    "html_to_text",
    "load_source",
]

#: The largest file (or standard input) refman reads as a page.
MAX_FILE_BYTES = 50 * 1024 * 1024
#: Suffixes read as plain text.
TEXT_SUFFIXES = frozenset({".txt", ".text", ".md"})
#: Suffixes read as HTML (their visible text).
HTML_SUFFIXES = frozenset({".html", ".htm"})

_HINT = (
    "refman imports the text of an author page: save the page as text or HTML, or copy its "
    "text in the browser and paste it."
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
)
_IMAGE_BRANDS = (b"heic", b"heix", b"mif1", b"msf1", b"avif", b"avis")
_SVG_RE = re.compile(
    r"\A\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*(?:<!DOCTYPE\s+svg[^>]*>\s*)?<svg\b",
    re.IGNORECASE | re.DOTALL,
)
_HTML_RE = re.compile(r"\A\s*(?:<!--.*?-->\s*)*<(?:!DOCTYPE\s+html|html)\b", re.IGNORECASE)
_HEAD_BYTES = 1 << 16
_TOO_LARGE = "is larger than 50 MB; an author page is a few hundred kilobytes at most."


@dataclass(frozen=True, slots=True)
class LoadedSource:
    """The text of a file a user opened or dropped.

    Attributes:
        source: The file name, shown to the user and recorded with the import.
        text: The text to parse (for HTML, its visible text).
        warnings: Plain sentences about the reading (e.g. the encoding had to be guessed).
        encoding: The codec the bytes were decoded with.
    """

    source: str
    text: str
    warnings: list[str] = field(default_factory=list)
    encoding: str = "utf-8"

    def parse(self) -> ParsedPage:
        """Parse the text as an author page, keeping the reading warnings first.

        Returns:
            The parsed page.

        Raises:
            NotAnAuthorPageError: The text holds no publication records.
        """
        page = parse(self.text)
        page.encoding = self.encoding
        page.warnings[:0] = self.warnings
        return page


# -- HTML ------------------------------------------------------------------------------------

_SKIPPED = frozenset({"script", "style", "head", "title", "noscript", "template", "svg", "math"})
_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "dd", "details", "dialog", "div", "dl",
        "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
        "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section",
        "summary", "table", "tbody", "thead", "tfoot", "tr", "ul", "caption",
    }
)  # fmt: skip
_PARAGRAPHS = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table"})
_CELLS = frozenset({"td", "th"})
_SPACES = re.compile(r"[ \t\n\r\f\v\xa0]+")


class _VisibleText(HTMLParser):
    """Collects the text a browser would show, one line per block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._inline: list[str] = []
        self._skipping: list[str] = []
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body" and "head" in self._skipping:
            self._skipping.clear()  # a page that never closes <head>
        if self._skipping or tag in _SKIPPED:
            if tag in _SKIPPED:
                self._skipping.append(tag)
            return
        if tag == "br":
            self._flush(force=True)
        elif tag in _BLOCKS:
            self._flush(blank=tag in _PARAGRAPHS)
        elif tag in _CELLS and self._inline:
            self._inline.append(" ")
        if tag == "pre":
            self._pre += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self._skipping:
            while self._skipping and self._skipping.pop() != tag:
                pass
            return
        if self._skipping:
            return
        if tag in _BLOCKS:
            self._flush(blank=tag in _PARAGRAPHS)
        if tag == "pre" and self._pre:
            self._pre -= 1

    def handle_data(self, data: str) -> None:
        if self._skipping:
            return
        if self._pre:
            parts = data.replace("\r\n", "\n").split("\n")
            for part in parts[:-1]:
                self._inline.append(part)
                self._flush(force=True)
            self._inline.append(parts[-1])
        else:
            self._inline.append(data)

    def close(self) -> None:
        super().close()
        self._flush()

    def _flush(self, *, blank: bool = False, force: bool = False) -> None:
        """End the current line (if it has text, or ``force``); ``blank`` adds an empty line."""
        raw = "".join(self._inline)
        self._inline.clear()
        line = raw.replace("\xa0", " ").rstrip() if self._pre else _SPACES.sub(" ", raw).strip()
        if line or force:
            self.lines.append(line)
        if blank and self.lines and self.lines[-1]:
            self.lines.append("")


def html_to_text(html: str) -> str:
    """Return the visible text of an HTML page or fragment.

    Scripts, styles and the head are dropped, block elements (paragraphs, headings, list
    items, table rows, ``<br>``) become line breaks, runs of white space collapse as a browser
    collapses them (except inside ``<pre>``), and character references are decoded.

    Args:
        html: The HTML source.

    Returns:
        The text, one block per line, with at most one blank line in a row.
    """
    parser = _VisibleText()
    parser.feed(html)
    parser.close()
    out: list[str] = []
    for line in parser.lines:
        if line or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + ("\n" if out else "")


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
        raise _unreadable(path, _TOO_LARGE)


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
    """Refuse images and PDFs by their file name."""
    suffix = path.suffix.lower()
    if suffix in _IMAGE_SUFFIXES:
        raise _unreadable(path, f"is an image ({_IMAGE_SUFFIXES[suffix]}), not text.", _HINT)
    if suffix == ".pdf":
        raise _unreadable(path, "is a PDF document, not text.", _HINT)


def _binary_kind(data: bytes) -> str | None:
    """Return what ``data`` is when its first bytes show a known non-text format."""
    if b"%PDF-" in data[:1024]:
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
        raise _unreadable(path, f"is {kind}, not text.", _HINT)
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
        UnreadableFileError: The file is missing, a folder, larger than 50 MB, unreadable,
            an image or PDF (by name or by content), or binary data.
    """
    path = Path(path)
    _stat(path)
    _check_name(path)
    head = _read(path, _HEAD_BYTES)
    _check_content(path, head)
    _decode(path, _whole_characters(head) if len(head) == _HEAD_BYTES else head)


def load_source(path: str | Path) -> LoadedSource:
    """Read a text, Markdown or HTML file into the text of an author page.

    Args:
        path: The file. ``.txt``, ``.text`` and ``.md`` are read as text, ``.html`` and
            ``.htm`` as HTML (their visible text); any other file is accepted when it holds
            text (HTML when it starts like an HTML document).

    Returns:
        The file name, the text and any warnings about the decoding.

    Raises:
        UnreadableFileError: The file is missing, a folder, larger than 50 MB, unreadable,
            an image or PDF, or binary data.
    """
    path = Path(path)
    _stat(path)
    _check_name(path)
    data = _read(path, MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise _unreadable(path, _TOO_LARGE)
    return _loaded(path, data)


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
    if is_html:
        text = html_to_text(text)
    return LoadedSource(path.name, text, warnings, encoding)
