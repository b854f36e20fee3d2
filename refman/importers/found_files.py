"""The files a bibliography names (BibTeX ``file``, RIS ``L1``, Zotero's attachments), found
on this machine: a relative path read from the folders the bibliography names for its files,
then from its own folder; Mendeley's and EndNote's ways of writing paths understood."""

from __future__ import annotations

import glob
from dataclasses import replace
from pathlib import Path

from refman.common.text import plural
from refman.importers.file_field import ENDNOTE_PDF
from refman.importers.records import PageFormat, ParsedPage

__all__ = ["with_found_files"]

#: What names the files, by the page's format (a bibliography when not named here).
_NAMED_BY = {PageFormat.ZOTERO: "the Zotero library", PageFormat.MENDELEY: "the Mendeley library"}


def _found_file(raw: str, folders: list[Path]) -> Path | None:
    """The file a bibliography's path names on this machine, or None."""
    if raw.startswith(ENDNOTE_PDF):  # in "My Library.Data/PDF" beside the exported file
        pattern = "*.Data/PDF/" + glob.escape(raw[len(ENDNOTE_PDF) :])
        return next((p for f in folders for p in sorted(f.glob(pattern)) if p.is_file()), None)
    path = Path(raw).expanduser()
    tried = [path]
    if not path.is_absolute():
        # A relative path written on Windows ("papers\x.pdf": a JabRef library moved with it).
        relative = [path, Path(raw.replace("\\", "/"))] if "\\" in raw else [path]
        # Mendeley writes absolute paths without their first "/" ("home/ana/x.pdf").
        tried = [*(folder / r for folder in folders for r in relative), Path("/") / path]
    return next((p for p in tried if p.is_file()), None)


def _file_folders(page: ParsedPage, folder: Path | None) -> list[Path]:
    """Where a relative path is read from: the folders the bibliography names for its files
    (JabRef's; a relative one from ``folder``), then ``folder``, the bibliography's own."""
    named = [Path(f).expanduser() for f in page.file_folders]
    folders = [f if folder is None else folder / f for f in named]
    folders = [f for f in folders if f.is_absolute()]  # (no relative one without ``folder``)
    return [*folders, folder] if folder is not None else folders


def with_found_files(page: ParsedPage, folder: Path | None) -> ParsedPage:
    """The page with each record's files found on this machine (a relative path read from
    the folders the page names, then ``folder``; None: from nowhere): those not found are
    left out, and a warning says how many."""
    missing: list[str] = []
    records = []
    folders = _file_folders(page, folder)
    for record in page.records:
        found: list[str] = []
        for raw in record.files:
            if "://" in raw and not raw.startswith(ENDNOTE_PDF):
                continue  # a web page's link (Zotero's "Snapshot" of a link), not a file
            path = _found_file(raw, folders)
            if path is not None:
                found.append(str(path))
            else:
                missing.append(raw)
        records.append(replace(record, files=tuple(found)) if record.files else record)
    page.records = records
    if missing:
        names = ", ".join(Path(m).name for m in missing[:3]) + (", …" if len(missing) > 3 else "")
        page.warnings.append(
            f"{plural(len(missing), 'file')} {_NAMED_BY.get(page.format, 'the bibliography')} "
            "names "
            f"{'was' if len(missing) == 1 else 'were'} not found ({names}): the papers are "
            "imported without them."
        )
    return page
