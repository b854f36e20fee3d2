"""The ``file`` field of BibTeX and BibLaTeX files as JabRef writes it (and Zotero's Better
BibTeX and Mendeley): files separated by ``;``, each ``description:path:type`` with ``\\``,
``:`` and ``;`` escaped by a backslash — read here, and written (by refman's export) here."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote, urlparse

#: How EndNote names a PDF in its library's folder: ``<library>.Data/PDF/`` and the rest.
ENDNOTE_PDF = "internal-pdf://"
_UNESCAPE = re.compile(r"\\(.)")
_FILES = re.compile(r"(?<!\\);")
_PARTS = re.compile(r"(?<!\\):")
#: A Windows drive letter left alone as a part of its own ("C:\Users\…" written unescaped).
_DRIVE = re.compile(r"^[A-Za-z]$")


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace(":", "\\:").replace(";", "\\;")


def write_file_field(files: Iterable[tuple[str, str]]) -> str:
    """The field of (name, path) pairs: ``name:path:PDF`` (the type for PDFs only)."""
    return ";".join(
        f"{_escaped(name)}:{_escaped(path)}:{'PDF' if name.lower().endswith('.pdf') else ''}"
        for name, path in files
        if path
    )


def _path_of(item: str) -> str:
    parts = _PARTS.split(item)
    if len(parts) >= 3 and _DRIVE.match(parts[1]) and len(parts) >= 4:
        parts = [parts[0], parts[1] + ":" + parts[2], *parts[3:]]  # C:\… not escaped
    if len(parts) == 2 and not re.search(r"[/\\.]", parts[1]):
        path = parts[0]  # path:type
    else:
        path = parts[1] if len(parts) >= 2 else parts[0]
    return _UNESCAPE.sub(r"\1", path).strip()


def read_file_field(value: str) -> list[str]:
    """The paths a ``file`` field names (as written: relative ones stay relative)."""
    if "$\\backslash$" in value:  # Mendeley on Windows: "C$\backslash$:/Users/…"
        value = value.replace("$\\backslash$", "\\")
    return [p for p in (_path_of(item) for item in _FILES.split(value or "")) if p]


def ris_file_path(value: str) -> str | None:
    """The path of an RIS ``L1`` line: a path, a ``file://`` address, or EndNote's name of a
    PDF its library keeps (:data:`ENDNOTE_PDF`, kept as written); a web address: None."""
    value = value.strip()
    if value.startswith("file://"):
        return unquote(urlparse(value).path) or None
    if "://" in value and not value.startswith(ENDNOTE_PDF):
        return None
    return value or None
