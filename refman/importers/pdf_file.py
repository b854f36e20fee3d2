"""What a PDF file is, read with pypdf (a maintained pure-Python reader): whether a file is
a PDF at all (by its first bytes, not its name) and how many pages it has.

A file that only calls itself .pdf, an encrypted or damaged one gives no page count, never
an error: the file is attached all the same.
"""

from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger("refman.importers")

#: The first bytes of every PDF (a few writers put up to a kilobyte of junk before them).
MAGIC = b"%PDF-"
#: Files larger than this are not opened to count their pages (reading them would take long).
LARGEST_COUNTED = 512 * 1024 * 1024


def looks_like_pdf(head: bytes) -> bool:
    """True when a file's first bytes are a PDF's."""
    return MAGIC in head[:1024]


def is_pdf(path: Path) -> bool:
    """True when the file starts as a PDF does."""
    try:
        with path.open("rb") as file:
            return looks_like_pdf(file.read(1024))
    except OSError:
        return False


def pdf_pages(path: Path) -> int | None:
    """The pages of a PDF; None for a file that is no PDF, or an encrypted, damaged or
    very large one."""
    if not is_pdf(path) or path.stat().st_size > LARGEST_COUNTED:
        return None
    from pypdf import PdfReader

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings on damaged files: ours
    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):
            return None
        return len(reader.pages)
    except Exception as error:  # a damaged file: pypdf raises many kinds
        log.info("cannot count the pages of %s: %s", path, error)
        return None


#: The most text kept of one file (a 2,000-page book is cut here).
MOST_TEXT = 4_000_000


def pdf_text(path: Path) -> tuple[str, int]:
    """A PDF's text, page after page (pages separated by a form feed), and its pages.

    Raises:
        ValueError: The file is no PDF, is encrypted, or cannot be read (the message says
            which, for a person to read).
    """
    if not is_pdf(path):
        if path.stat().st_size == 0:
            raise ValueError("it is empty (0 bytes)")
        raise ValueError("it is not a PDF (its first bytes are not a PDF's)")
    from pypdf import PdfReader

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):
            raise ValueError("it is encrypted (refman cannot read it without its password)")
        pages: list[str] = []
        size = 0
        for page in reader.pages:
            text = page.extract_text() or ""
            pages.append(text)
            size += len(text)
            if size > MOST_TEXT:
                break
        return "\f".join(pages)[:MOST_TEXT], len(reader.pages)
    except ValueError:
        raise
    except Exception as error:  # a damaged file: pypdf raises many kinds
        log.info("%s: pypdf: %s: %s", path, type(error).__name__, error)
        raise ValueError("it is damaged") from error


def first_page_image(path: Path, width: int) -> tuple[bytes, int, int, int]:
    """The first page of a PDF rendered ``width`` pixels wide (with pdfium, through
    pypdfium2): its pixels (8-bit BGR rows), width, height and bytes per row.

    Raises:
        ValueError: The file is no PDF, or cannot be rendered (the message says why).
    """
    if not is_pdf(path):
        raise ValueError("it is not a PDF")
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as error:
        raise ValueError(f"it cannot be opened ({error})") from error
    try:
        if len(document) == 0:
            raise ValueError("it has no pages")
        page = document[0]
        page_width, _ = page.get_size()
        bitmap = page.render(scale=width / max(page_width, 1.0))
        return bytes(bitmap.buffer), bitmap.width, bitmap.height, bitmap.stride
    finally:
        document.close()
