"""A Mendeley Desktop library read from its database, ``<account>@www.mendeley.com.sqlite``:
the whole library in one step, as a Zotero library is (:mod:`~refman.importers.zotero_db`).

Every document of the personal library (not in Mendeley's trash, not a group's) becomes a
record, through the same reading as a CSL-JSON item (:func:`~refman.importers.csl_fields.
csl_draft`): its fields, its authors and editors (``DocumentContributors``), its tags and
keywords, the folders it is in as tags (a sub-folder as "Parent/Child"), its notes (the
document's Notes field and ``DocumentNotes``, their HTML as text), the comments and
highlights made in Mendeley's PDF viewer (``FileNotes``, ``FileHighlights``: a note per
file), its files (``DocumentFiles``/``Files``, ``file://`` addresses on this machine) and
its flags: read is *read*, a favourite (Mendeley's star) five stars. The database is read
as it is on disk (Mendeley may hold it) and never written to.

Mendeley Desktop 1.19 and later encrypt the database: such a file is no SQLite database
and is refused, saying how to bring the library in (:func:`encrypted_mendeley_hint`).
"""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from refman.common.text import plural
from refman.importers.bib_common import built, entry_label
from refman.importers.csl_fields import csl_draft
from refman.importers.errors import NotABibliographyError
from refman.importers.html_text import html_to_text
from refman.importers.library_db import annotation, folder_paths, opened, table_names
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

__all__ = ["ENCRYPTED_HINT", "is_mendeley_database", "looks_like_mendeley_name", "mendeley_page"]

#: Tables only a Mendeley Desktop database has, all of them.
_MENDELEY_TABLES = {"Documents", "DocumentContributors", "DocumentFiles", "Files"}
#: Columns of Mendeley's ``Documents`` table that tell it from another program's.
_MENDELEY_COLUMNS = {"uuid", "deletionPending", "publication", "favourite", "read"}
#: How Mendeley Desktop names its database: the account, then "@www.mendeley.com.sqlite".
_DATABASE_NAME = re.compile(r"@www\.mendeley\.com\.sqlite$", re.IGNORECASE)
#: What to do with a database Mendeley Desktop encrypted (1.19 and later).
ENCRYPTED_HINT = (
    "In Mendeley Desktop select all documents (All Documents, Ctrl+A), choose File ▸ "
    "Export… and save them as BibTeX (*.bib), then import that file; or import the library "
    "into Zotero (File ▸ Import… ▸ Mendeley Reference Manager) and import its zotero.sqlite."
)
#: Mendeley's document types, as CSL names them.
_TYPES = {
    "JournalArticle": "article-journal", "Book": "book", "BookSection": "chapter",
    "ConferenceProceedings": "paper-conference", "Thesis": "thesis", "Report": "report",
    "WorkingPaper": "report", "WebPage": "webpage", "Patent": "patent",
    "MagazineArticle": "article-magazine", "NewspaperArticle": "article-newspaper",
    "ComputerProgram": "software", "EncyclopediaArticle": "entry-encyclopedia",
    "Film": "motion_picture", "TelevisionBroadcast": "broadcast", "Case": "legal_case",
    "Statute": "legislation", "Bill": "bill", "Hearing": "hearing", "Generic": "document",
}  # fmt: skip
#: Mendeley's document columns, as CSL names them (the first of several that says wins).
_FIELDS = {
    "title": "title", "abstract": "abstract", "publication": "container-title",
    "volume": "volume", "issue": "issue", "pages": "page", "publisher": "publisher",
    "institution": "publisher", "city": "publisher-place", "doi": "DOI", "isbn": "ISBN",
    "issn": "ISSN", "edition": "edition", "series": "collection-title",
    "seriesNumber": "collection-number", "shortTitle": "title-short", "language": "language",
    "genre": "genre", "userType": "genre", "pmid": "PMID", "citationKey": "citation-key",
    "chapter": "chapter-number", "medium": "medium", "revisionNumber": "number",
    "codeNumber": "number",
}  # fmt: skip
#: Mendeley's contributions, as CSL names them (any other is a contributor).
_ROLES = {"DocumentAuthor": "author", "DocumentEditor": "editor",
          "DocumentTranslator": "translator"}  # fmt: skip
#: The stars a document Mendeley marks as a favourite (its one star) gets.
FAVOURITE_STARS = 5


def looks_like_mendeley_name(path: Path) -> bool:
    """True for a file named as Mendeley Desktop names its database."""
    return _DATABASE_NAME.search(path.name) is not None


def is_mendeley_database(path: Path) -> bool:
    """True when ``path`` is an SQLite database with Mendeley Desktop's tables and its
    ``Documents`` table has Mendeley's columns."""
    if not table_names(path) >= _MENDELEY_TABLES:
        return False
    columns: set[str] = set()
    try:
        for whole in (False, True):  # (the file alone first: quick; then with its log)
            with opened(path, whole) as db:
                columns = {str(r[1]) for r in db.execute("PRAGMA table_info(Documents)")}
            if columns:
                break
    except (OSError, sqlite3.Error):
        return False
    return columns >= _MENDELEY_COLUMNS


def mendeley_page(path: Path) -> ParsedPage:
    """Read the library of a Mendeley Desktop database.

    Args:
        path: The database (``<account>@www.mendeley.com.sqlite``).

    Returns:
        A page (format MENDELEY, no owner) with one record per document, oldest first, and
        warnings for what was left out.

    Raises:
        NotABibliographyError: The database cannot be read, or holds no document.
    """
    try:
        with opened(path) as db:
            db.row_factory = sqlite3.Row
            records, warnings = _Library(db).records()
    except sqlite3.Error as error:
        raise NotABibliographyError(
            f"The Mendeley database “{path.name}” cannot be read ({error}).",
            "If Mendeley Desktop is writing to it, close Mendeley and import it again.",
        ) from None
    if not records:
        raise NotABibliographyError(
            f"The Mendeley database “{path.name}” holds no documents to import.",
            "Its library is empty, or everything in it is in Mendeley's trash.",
        )
    return ParsedPage("", PageFormat.MENDELEY, None, records, warnings)


def _is_set(value: object) -> bool:
    """A Mendeley flag: "true" (as Mendeley writes it) or 1."""
    return str(value).strip().lower() in ("true", "1")


class _Library:
    """What one Mendeley database holds, read table by table."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        self.trashed = 0
        self.grouped = 0

    def _rows(self, table: str, sql: str) -> list[sqlite3.Row]:
        """The rows of a query on ``table``; none when this Mendeley has no such table."""
        return self.db.execute(sql).fetchall() if table in self.tables else []

    def records(self) -> tuple[list[ParsedRecord], list[str]]:
        documents = self._documents()
        creators = self._creators()
        tags = self._tags()
        notes = self._notes()
        for document, written in self._annotations().items():
            notes[document].extend(written)
        files = self._files()
        urls = self._urls()
        warnings: list[str] = []
        records = []
        for number, row in enumerate(documents, 1):
            item = _item(row)
            item.update(creators.get(row["id"], {}))
            if row["id"] in urls:
                item.setdefault("URL", urls[row["id"]])
            draft = csl_draft(item, number, "")
            draft.tags.extend(t for t in tags.get(row["id"], []) if t not in draft.tags)
            draft.notes.extend(n for n in notes.get(row["id"], []) if n not in draft.notes)
            draft.files.extend(files.get(row["id"], []))
            draft.status = "read" if _is_set(row.get("read")) else None
            draft.rating = FAVOURITE_STARS if _is_set(row.get("favourite")) else None
            label = f"The document {entry_label(None, draft.title or _column(row, 'uuid'))}"
            records.append(built(draft, label, warnings))
        warnings.extend(self._left_out())
        return records, warnings

    def _documents(self) -> list[dict[str, Any]]:
        """The documents of the personal library not in the trash, oldest first (counting
        those left out)."""
        remote: dict[int, tuple[bool, bool]] = {}
        for document, group, in_trash in self._rows(
            "RemoteDocuments", "SELECT documentId, groupId, inTrash FROM RemoteDocuments"
        ):
            remote[document] = (bool(group) and str(group) != "0", _is_set(in_trash))
        kept: list[dict[str, Any]] = []
        for found in self.db.execute("SELECT * FROM Documents ORDER BY added, id"):
            row = dict(zip(found.keys(), found, strict=True))
            grouped, in_trash = remote.get(row["id"], (False, False))
            if grouped:
                self.grouped += 1
            elif in_trash or _is_set(row.get("deletionPending")):
                self.trashed += 1
            else:
                kept.append(row)
        return kept

    def _creators(self) -> dict[int, dict[str, list[dict[str, str]]]]:
        """Every document's contributors, as CSL name lists by role, in Mendeley's order."""
        found: dict[int, dict[str, list[dict[str, str]]]] = defaultdict(dict)
        for document, role, first, last in self.db.execute(
            "SELECT documentId, contribution, firstNames, lastName FROM DocumentContributors "
            "ORDER BY documentId, id"
        ):
            given, family = str(first or "").strip(), str(last or "").strip()
            if not family and not given:
                continue
            name = {"family": family, "given": given} if given and family else {
                "literal": family or given}  # fmt: skip
            found[document].setdefault(_ROLES.get(str(role), "contributor"), []).append(name)
        return found

    def _tags(self) -> dict[int, list[str]]:
        """Every document's tags and keywords, then the folders it is in ("Parent/Child")."""
        found: dict[int, list[str]] = defaultdict(list)
        for table, column in (("DocumentTags", "tag"), ("DocumentKeywords", "keyword")):
            for document, tag in self._rows(
                table, f"SELECT documentId, {column} FROM {table} ORDER BY documentId, rowid"
            ):
                if str(tag or "").strip() and str(tag).strip() not in found[document]:
                    found[document].append(str(tag).strip())
        named = {
            int(r[0]): (str(r[1]), r[2])
            for r in self._rows("Folders", "SELECT id, name, parentId FROM Folders")
        }
        paths = folder_paths(named)
        for document, folder in self._rows(
            "DocumentFolders", "SELECT documentId, folderId FROM DocumentFolders ORDER BY rowid"
        ):
            if folder in paths:
                found[document].append(paths[folder])
        return found

    def _notes(self) -> dict[int, list[str]]:
        """The notes written in Mendeley's PDF viewer (``DocumentNotes``), as text."""
        notes: dict[int, list[str]] = defaultdict(list)
        for document, html in self._rows(
            "DocumentNotes", "SELECT documentId, text FROM DocumentNotes ORDER BY documentId, id"
        ):
            text = html_to_text(str(html or "")).strip()
            if text:
                notes[document].append(text)
        return notes

    def _annotations(self) -> dict[int, list[str]]:
        """The comments and highlights made in Mendeley's PDF viewer, one note per file: each
        comment with its page; the highlights' pages (Mendeley keeps where a highlight is,
        not its words)."""
        names = {str(r[0]): _local_path(str(r[1] or "")) for r in self._rows(
            "Files", "SELECT hash, localUrl FROM Files")}  # fmt: skip
        comments: dict[tuple[int, str], list[str]] = defaultdict(list)
        for document, file, page, note in self._rows(
            "FileNotes",
            "SELECT documentId, fileHash, page, note FROM FileNotes "
            "ORDER BY documentId, fileHash, page, y, x",
        ):
            written = annotation("", html_to_text(str(note or "")), str(page or ""))
            if written:
                comments[(document, str(file))].append(written)
        highlighted: dict[tuple[int, str], set[int]] = defaultdict(set)
        for document, file, page in self._rows(
            "FileHighlightRects",
            "SELECT h.documentId, h.fileHash, r.page FROM FileHighlights h "
            "JOIN FileHighlightRects r ON r.highlightId = h.id",
        ):
            highlighted[(document, str(file))].add(int(page))
        notes: dict[int, list[str]] = defaultdict(list)
        for document, file in sorted({*comments, *highlighted}):
            marks = list(comments.get((document, file), []))
            pages = sorted(highlighted.get((document, file), ()))
            if pages:
                marks.append(
                    f"Highlighted passages on {_pages(pages)} (Mendeley keeps where they are, "
                    "not their words)."
                )
            name = Path(names.get(file) or "").name or "its file"
            notes[document].append(f"Annotations of “{name}” in Mendeley\n\n" + "\n\n".join(marks))
        return notes

    def _files(self) -> dict[int, list[str]]:
        """Every document's files, where Mendeley says they are on this machine."""
        files: dict[int, list[str]] = defaultdict(list)
        for document, url in self._rows(
            "DocumentFiles",
            "SELECT d.documentId, f.localUrl FROM DocumentFiles d "
            "JOIN Files f ON f.hash = d.hash ORDER BY d.documentId, d.rowid",
        ):
            where = _local_path(str(url or ""))
            if where and where not in files[document]:
                files[document].append(where)
        return files

    def _urls(self) -> dict[int, str]:
        """Every document's first web address."""
        urls: dict[int, str] = {}
        for document, url in self._rows(
            "DocumentUrls", "SELECT documentId, url FROM DocumentUrls ORDER BY position DESC"
        ):
            if str(url or "").strip():
                urls[document] = str(url).strip()
        return urls

    def _left_out(self) -> list[str]:
        """Warnings for what the import leaves out: the trash, the groups' documents."""
        said = []
        if self.trashed:
            verb = "is" if self.trashed == 1 else "are"
            said.append(f"{plural(self.trashed, 'document')} in Mendeley's trash {verb} not "
                        "imported.")  # fmt: skip
        if self.grouped:
            verb = "is" if self.grouped == 1 else "are"
            said.append(
                f"{plural(self.grouped, 'document')} of Mendeley groups {verb} not imported "
                "(only the documents of your own library are)."
            )
        return said


def _item(row: Mapping[str, Any]) -> dict[str, Any]:
    """A document's own columns as a CSL item."""
    item: dict[str, Any] = {"type": _TYPES.get(_column(row, "type"), "document")}
    for column, variable in _FIELDS.items():
        value = _column(row, column)
        if value:
            item.setdefault(variable, value)
    arxiv = _column(row, "arxivId")
    if arxiv:
        item.setdefault("number", f"arXiv:{arxiv.removeprefix('arXiv:')}")
    date: list[int] = []
    for part in ("year", "month", "day"):
        value = _column(row, part)
        if not value.isdigit() or not int(value):
            break
        date.append(int(value))
    if date:
        item["issued"] = {"date-parts": [date]}
    note = html_to_text(_column(row, "note")).strip()
    if note:
        item["note"] = note
    return item


def _column(row: Mapping[str, Any], column: str) -> str:
    """A column of a document as text ("" when empty, or when this Mendeley has none)."""
    value = row.get(column)
    return "" if value is None else str(value).strip()


def _local_path(url: str) -> str:
    """The file a ``file://`` address names ("file:///C:/Users/…" as "C:/Users/…")."""
    if not url.lower().startswith("file:"):
        return ""
    path = unquote(urlparse(url).path)
    if re.match(r"^/[A-Za-z]:/", path):
        path = path[1:]
    return path


def _pages(pages: list[int]) -> str:
    """ "p. 3" or "pp. 3, 5 and 7"."""
    if len(pages) == 1:
        return f"p. {pages[0]}"
    return "pp. " + ", ".join(str(p) for p in pages[:-1]) + f" and {pages[-1]}"
