"""A paper read from its PDF, to add it to the library (a PDF dropped on the window, or given
to ``refman import``): its document information and XMP metadata, and its first page — a
DOI, an arXiv identifier, and the title as the largest text near the top — all on this
machine (nothing is looked up on the web).

The title is the document's own when its metadata gives a plausible one; else the first
page's largest line near the top, marked as suggested (the paper then needs the user's
attention, as a title suggested from an abstract does).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from refman.common.identifiers import arxiv_year, find_arxiv_ids, find_dois
from refman.importers.errors import NotAnAuthorPageError
from refman.importers.pdf_file import LARGEST_COUNTED, is_pdf
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

log = logging.getLogger("refman.importers")

#: Metadata titles that are not a paper's title (what word processors and printers write).
_NOT_TITLES = re.compile(
    r"^(untitled|microsoft word|document\d*|slide \d+|paper|title|main|manuscript|"
    r"arxiv|pdf|.*\.(docx?|tex|dvi|pdf|ps|indd))\b",
    re.IGNORECASE,
)
#: Authors that PDF writers put in when nobody is named.
_NO_AUTHORS = frozenset({"anonymous", "unknown", "author", "user", "administrator", "admin"})
_AUTHOR_SPLIT = re.compile(r"\s*(?:;|\band\b|&|,(?=\s*\S+\s+\S+))\s*")


def _plausible_title(title: str | None) -> str | None:
    title = " ".join((title or "").split())
    if len(title) < 8 or len(title.split()) < 2 or _NOT_TITLES.match(title):
        return None
    return title


def _largest_line(page: Any) -> str | None:
    """The first page's largest text in its upper half (the title, in almost every paper)."""
    pieces: list[tuple[float, float, str]] = []
    height = float(page.mediabox.height)

    def visit(text: str, cm: Any, tm: Any, font: Any, size: float) -> None:
        scale = abs(float(tm[3]) * float(cm[3])) or 1.0
        y = float(tm[5]) * float(cm[3]) + float(cm[5])
        if text.strip() and y > height / 2:
            pieces.append((round(size * scale, 1), -y, text.strip()))

    page.extract_text(visitor_text=visit)
    if not pieces:
        return None
    largest = max(size for size, _, _ in pieces)
    lines = [text for size, _, text in sorted(pieces, key=lambda p: p[1]) if size == largest]
    title = " ".join(" ".join(lines).split())
    return title if len(title) >= 8 else None


def _authors(value: str | None) -> tuple[str, ...]:
    names = [n.strip() for n in _AUTHOR_SPLIT.split(value or "") if n.strip()]
    return tuple(n for n in names if 1 < len(n) < 80 and n.lower() not in _NO_AUTHORS)


def _year(arxiv: str | None, created: Any) -> int | None:
    if arxiv and (year_given := arxiv_year(arxiv)) is not None:
        return year_given
    year = getattr(created, "year", None)
    return int(year) if isinstance(year, int) and 1900 < year < 2100 else None


def read_pdf_paper(path: Path) -> ParsedRecord:
    """The paper a PDF holds, as a record (its file to be attached to the paper).

    Raises:
        NotAnAuthorPageError: The file is no PDF, is encrypted or damaged, or too large.
    """
    if not is_pdf(path):
        raise NotAnAuthorPageError(f"“{path.name}” is not a PDF (its first bytes are not).")
    if path.stat().st_size > LARGEST_COUNTED:
        raise NotAnAuthorPageError(f"“{path.name}” is too large to read (over 512 MB).")
    from pypdf import PdfReader

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):
            raise NotAnAuthorPageError(
                f"“{path.name}” is encrypted: refman cannot read it without its password.",
                "Attach it to a paper instead (drop it on the paper).",
            )
        info = reader.metadata
        first = reader.pages[0] if reader.pages else None
        text = (first.extract_text() or "") if first is not None else ""
        guessed = _largest_line(first) if first is not None else None
    except NotAnAuthorPageError:
        raise
    except Exception as error:  # a damaged file: pypdf raises many kinds (named in the log)
        log.info("%s: pypdf: %s: %s", path, type(error).__name__, error)
        raise NotAnAuthorPageError(
            f"“{path.name}” is a damaged PDF: refman cannot read it.",
            "Attach it to a paper instead, or open it in a PDF viewer to check it.",
        ) from error
    return _record(path, info, text, guessed, len(reader.pages))


def _information_text(info: Any) -> str:
    """The text values of a PDF's document information, one per line ("" for none)."""
    if info is None:
        return ""
    try:
        return "\n".join(str(v) for v in info.values() if isinstance(v, str))
    except Exception:  # (a damaged dictionary: the first page still says what it says)
        return ""


def _record(path: Path, info: Any, text: str, guessed: str | None, pages: int) -> ParsedRecord:
    own = _plausible_title(info.title if info is not None else None)
    head = text[:4000]
    # The document's own information first (a publisher's PDF names its DOI there: /doi,
    # /Subject, /Keywords), then its first page.
    meta = _information_text(info)
    dois = find_dois(meta) or find_dois(head)
    arxivs = find_arxiv_ids(meta) or find_arxiv_ids(head)
    arxiv = arxivs[0] if arxivs else None
    title = own or guessed or path.stem.replace("_", " ")
    authors = _authors(info.author if info is not None else None)
    return ParsedRecord(
        title=title,
        title_provisional=own is None,
        abstract="",
        year=_year(arxiv, getattr(info, "creation_date", None) if info is not None else None),
        venue="arXiv" if arxiv else None,
        authors=authors,
        authors_complete=bool(authors),
        line=1,
        type="article" if arxiv else "article-journal",
        doi=dois[0] if dois else None,
        arxiv_id=arxiv,
        files=(str(path),),
        extra={"number-of-pages": pages} if pages else {},
    )


def pdf_page(path: Path) -> ParsedPage:
    """A PDF as a page of one record, to import through the usual review."""
    record = read_pdf_paper(path)
    warnings = []
    if record.title_provisional:
        warnings.append(f"The title of “{path.name}” was read from its first page: check it.")
    return ParsedPage("", PageFormat.PDF, 1, [record], warnings)
