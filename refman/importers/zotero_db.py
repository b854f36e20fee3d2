"""A Zotero library read from its database, ``zotero.sqlite``: the whole library in one step,
without exporting it first.

Every regular item (not a note, attachment or annotation, not in Zotero's trash) becomes a
record, through the same reading as a CSL-JSON item (:func:`~refman.importers.csl_fields.
csl_draft`): its fields as Zotero maps them onto CSL, its creators, its tags, the
collections it is in as tags (a sub-collection as "Parent/Child"), its child notes as notes
(their HTML as text), the annotations made in Zotero's PDF reader (a note per file: each
highlight quoted with its page, and its comment), the items it is related to (a note naming
them), and its files: those Zotero keeps
(``storage/KEY/name`` beside the database) and those it links. Zotero need not be closed:
the file is read as it is on disk, without taking its lock (``immutable``); nothing is
written to it.

The schema read is Zotero's (``items``, ``itemData``/``itemDataValues``/``fields``,
``itemTypes``, ``creators``/``itemCreators``/``creatorTypes``, ``tags``/``itemTags``,
``collections``/``collectionItems``, ``itemNotes``, ``itemAttachments``,
``itemAnnotations``, ``itemRelations``/``relationPredicates``, ``deletedItems``,
``deletedCollections``), as Zotero 5 to 7 write it.
"""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
from pathlib import Path
from typing import Any

from refman.common.text import plural
from refman.importers.bib_common import built, entry_label
from refman.importers.csl_fields import csl_draft
from refman.importers.errors import NotABibliographyError
from refman.importers.html_text import html_to_text
from refman.importers.library_db import annotation, folder_paths, opened, table_names
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from refman.importers.zotero_prefs import base_folder
from refman.importers.zotero_related import related_notes

__all__ = ["is_zotero_database", "zotero_page"]

#: Tables only a Zotero database has, all of them.
_ZOTERO_TABLES = {"items", "itemData", "itemDataValues", "itemTypes", "fields", "itemCreators"}
#: Zotero's item types, as CSL names them (those CSL-JSON readers know already aside).
_TYPES = {
    "journalArticle": "article-journal", "magazineArticle": "article-magazine",
    "newspaperArticle": "article-newspaper", "bookSection": "chapter",
    "conferencePaper": "paper-conference", "preprint": "article", "blogPost": "post-weblog",
    "forumPost": "post", "computerProgram": "software", "encyclopediaArticle":
    "entry-encyclopedia", "dictionaryEntry": "entry-dictionary", "letter":
    "personal_communication", "email": "personal_communication", "presentation": "speech",
    "film": "motion_picture", "videoRecording": "motion_picture", "audioRecording": "song",
    "podcast": "song", "radioBroadcast": "broadcast", "tvBroadcast": "broadcast", "artwork":
    "graphic", "case": "legal_case", "statute": "legislation", "webpage": "webpage",
}  # fmt: skip
#: Zotero's fields, as CSL names them (a field Zotero maps onto a base field, such as
#: ``proceedingsTitle`` onto ``publicationTitle``, goes where its base goes).
_FIELDS = {
    "title": "title", "abstractNote": "abstract", "publicationTitle": "container-title",
    "bookTitle": "container-title", "proceedingsTitle": "container-title",
    "websiteTitle": "container-title", "blogTitle": "container-title",
    "forumTitle": "container-title", "encyclopediaTitle": "container-title",
    "dictionaryTitle": "container-title", "programTitle": "container-title",
    "DOI": "DOI", "url": "URL", "volume": "volume", "issue": "issue", "pages": "page",
    "publisher": "publisher", "institution": "publisher", "university": "publisher",
    "company": "publisher", "label": "publisher", "place": "publisher-place", "ISBN": "ISBN",
    "ISSN": "ISSN", "edition": "edition", "series": "collection-title", "language":
    "language", "shortTitle": "title-short", "journalAbbreviation": "container-title-short",
    "numPages": "number-of-pages", "extra": "note", "archiveID": "number", "number": "number",
    "reportNumber": "number", "thesisType": "genre", "reportType": "genre",
    "citationKey": "citation-key", "conferenceName": "event-title", "accessDate": "accessed",
}  # fmt: skip
#: Zotero's creator types, as CSL names them (any other is a contributor).
_CREATORS = {
    "author": "author", "editor": "editor", "bookAuthor": "container-author",
    "seriesEditor": "collection-editor", "translator": "translator", "director": "director",
    "interviewer": "interviewer", "recipient": "recipient", "reviewedAuthor":
    "reviewed-author", "programmer": "author", "artist": "author", "presenter": "author",
    "inventor": "author", "sponsor": "author", "podcaster": "author", "cartographer": "author",
}  # fmt: skip
#: Zotero's date: "2020-03-00 March 2020" (the parts it read, then the date as typed).
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:\s|$)")
#: How Zotero keeps an attachment: a file it stores, a file it links, a link.
_STORED, _STORED_FROM_URL, _LINKED, _LINK = 0, 1, 2, 3
#: How Zotero writes the path of a file linked relative to its base folder.
_FROM_BASE = "attachments:"


def is_zotero_database(path: Path) -> bool:
    """True when ``path`` is an SQLite database with Zotero's tables."""
    return table_names(path) >= _ZOTERO_TABLES


def zotero_page(path: Path) -> ParsedPage:
    """Read the library of a Zotero database.

    Args:
        path: The database, ``zotero.sqlite`` in Zotero's data folder (its ``storage``
            folder beside it holds the files Zotero keeps).

    Returns:
        A page (format ZOTERO, no owner) with one record per item, oldest first, and
        warnings for what was left out.

    Raises:
        NotABibliographyError: The database cannot be read, or holds no item.
    """
    try:
        with opened(path) as db:
            db.row_factory = sqlite3.Row
            library = _Library(db, path.parent)
            records, warnings = library.records()
            folders = _base_folders(library.from_base, path.parent, warnings)
    except sqlite3.Error as error:
        raise NotABibliographyError(
            f"The Zotero database “{path.name}” cannot be read ({error}).",
            "If Zotero is writing to it, close Zotero and import it again; if it is damaged, "
            "let Zotero check it (Help ▸ Troubleshooting ▸ Check Database Integrity).",
        ) from None
    if not records:
        raise NotABibliographyError(
            f"The Zotero database “{path.name}” holds no items to import.",
            "Its library is empty, or everything in it is in Zotero's trash.",
        )
    return ParsedPage("", PageFormat.ZOTERO, None, records, warnings, file_folders=folders)


def _base_folders(linked: int, data_folder: Path, warnings: list[str]) -> tuple[str, ...]:
    """The folder that files linked relative to Zotero's base folder start from, as the
    Zotero settings on this machine name it (none, with a warning, when they name none)."""
    if not linked:
        return ()
    base = base_folder(data_folder)
    if base is not None:
        return (str(base),)
    warnings.append(
        f"{plural(linked, 'file')} {'is' if linked == 1 else 'are'} linked relative to "
        "Zotero's base folder, which no Zotero settings on this machine name (Zotero ▸ "
        "Settings ▸ Advanced ▸ Files and Folders ▸ Linked Attachment Base Directory): import "
        "the library again where Zotero runs with that setting, or attach those files by hand."
    )
    return ()


class _Library:
    """What one Zotero database holds, read table by table."""

    def __init__(self, db: sqlite3.Connection, folder: Path) -> None:
        self.db = db
        self.folder = folder
        self.tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        #: How many files are linked relative to Zotero's base folder.
        self.from_base = 0

    def _kept(self, column: str) -> str:
        """The SQL condition that the item in ``column`` (a note, a file) is not in the trash."""
        trash = f"AND {column} NOT IN (SELECT itemID FROM deletedItems)"
        return trash if "deletedItems" in self.tables else ""

    def _rows(self, table: str, sql: str) -> list[sqlite3.Row]:
        """The rows of a query on ``table``; none when this Zotero has no such table."""
        return self.db.execute(sql).fetchall() if table in self.tables else []

    def records(self) -> tuple[list[ParsedRecord], list[str]]:
        items = self._items()
        fields = self._fields()
        creators = self._creators()
        tags = self._tags()
        notes, files = self._children()
        for item_id, written in self._annotations().items():
            notes[item_id].extend(written)
        for item_id, related in related_notes(self._relations(), items, fields).items():
            notes[item_id].append(related)
        warnings: list[str] = []
        records = []
        for number, (item_id, kind, key) in enumerate(items, 1):
            item = {"type": _TYPES.get(kind, kind), **fields.get(item_id, {})}
            item.update(creators.get(item_id, {}))
            draft = csl_draft(item, number, "")
            draft.tags.extend(t for t in tags.get(item_id, []) if t not in draft.tags)
            draft.notes.extend(notes.get(item_id, []))
            draft.files.extend(files.get(item_id, []))
            label = f"The item {entry_label(None, draft.title or key)}"
            records.append(built(draft, label, warnings))
        warnings.extend(self._left_out())
        return records, warnings

    def _items(self) -> list[tuple[int, str, str]]:
        """The regular items not in the trash nor a feed's, oldest first: (id, Zotero type,
        key)."""
        left_out = " ".join(
            f"AND i.itemID NOT IN (SELECT itemID FROM {table})"
            for table in ("deletedItems", "feedItems")
            if table in self.tables
        )
        rows = self.db.execute(
            "SELECT i.itemID, t.typeName, i.key FROM items i "
            "JOIN itemTypes t ON t.itemTypeID = i.itemTypeID "
            f"WHERE t.typeName NOT IN ('note', 'attachment', 'annotation') {left_out} "
            "ORDER BY i.dateAdded, i.itemID"
        )
        return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    def _fields(self) -> dict[int, dict[str, Any]]:
        """Every item's fields, as CSL variables."""
        found: dict[int, dict[str, Any]] = defaultdict(dict)
        rows = self.db.execute(
            "SELECT d.itemID, f.fieldName, v.value FROM itemData d "
            "JOIN fields f ON f.fieldID = d.fieldID "
            "JOIN itemDataValues v ON v.valueID = d.valueID"
        )
        for item_id, name, value in rows:
            text = str(value).strip()
            if name == "date":
                found[item_id]["issued"] = _issued(text)
            elif name in _FIELDS and text:
                variable = _FIELDS[name]
                if variable == "accessed":
                    found[item_id][variable] = _issued(text)
                else:
                    found[item_id].setdefault(variable, text)
        return found

    def _creators(self) -> dict[int, dict[str, list[dict[str, str]]]]:
        """Every item's creators, as CSL name lists by role, in Zotero's order."""
        found: dict[int, dict[str, list[dict[str, str]]]] = defaultdict(dict)
        rows = self.db.execute(
            "SELECT ic.itemID, ct.creatorType, c.firstName, c.lastName, c.fieldMode "
            "FROM itemCreators ic JOIN creators c ON c.creatorID = ic.creatorID "
            "JOIN creatorTypes ct ON ct.creatorTypeID = ic.creatorTypeID "
            "ORDER BY ic.itemID, ic.orderIndex"
        )
        for item_id, kind, first, last, mode in rows:
            if mode == 1 or not first:  # one field: an organisation, or a name as written
                name = {"literal": str(last or first or "").strip()}
            else:
                name = {"family": str(last or "").strip(), "given": str(first).strip()}
            role = _CREATORS.get(str(kind), "contributor")
            found[item_id].setdefault(role, []).append(name)
        return found

    def _tags(self) -> dict[int, list[str]]:
        """Every item's tags, then the collections it is in ("Parent/Child")."""
        found: dict[int, list[str]] = defaultdict(list)
        rows = self._rows(
            "itemTags",
            "SELECT it.itemID, t.name FROM itemTags it JOIN tags t ON t.tagID = it.tagID "
            "ORDER BY it.itemID, t.name",
        )
        for item_id, name in rows:
            found[item_id].append(str(name))
        paths = self._collection_paths()
        for item_id, collection in self._rows(
            "collectionItems", "SELECT itemID, collectionID FROM collectionItems"
        ):
            if collection in paths:
                found[item_id].append(paths[collection])
        return found

    def _collection_paths(self) -> dict[int, str]:
        rows = self._rows(
            "collections",
            "SELECT collectionID, collectionName, parentCollectionID FROM collections",
        )
        trashed = self._rows("deletedCollections", "SELECT collectionID FROM deletedCollections")
        return folder_paths(
            {r[0]: (str(r[1]), r[2]) for r in rows}, frozenset(r[0] for r in trashed)
        )

    def _children(self) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
        """Child notes as text, and files (where Zotero keeps or links them), by their parent
        item."""
        notes: dict[int, list[str]] = defaultdict(list)
        for parent, html in self._rows(
            "itemNotes",
            "SELECT n.parentItemID, n.note FROM itemNotes n WHERE n.parentItemID IS NOT NULL "
            f"{self._kept('n.itemID')} ORDER BY n.parentItemID, n.itemID",
        ):
            text = html_to_text(str(html or "")).strip()
            if text:
                notes[parent].append(text)
        files: dict[int, list[str]] = defaultdict(list)
        for parent, mode, stored, key in self._rows(
            "itemAttachments",
            "SELECT a.parentItemID, a.linkMode, a.path, i.key FROM itemAttachments a "
            "JOIN items i ON i.itemID = a.itemID WHERE a.parentItemID IS NOT NULL "
            f"{self._kept('a.itemID')} ORDER BY a.parentItemID, a.itemID",
        ):
            where = self._file(mode, str(stored or ""), str(key))
            if where is not None:
                files[parent].append(where)
        return notes, files

    def _annotations(self) -> dict[int, list[str]]:
        """The annotations made in Zotero's PDF reader, one note per file, by the item the
        file belongs to: each highlight quoted with its page, each comment after it."""
        found: dict[tuple[int, str], list[str]] = defaultdict(list)
        for item_id, stored, text, comment, page in self._rows(
            "itemAnnotations",
            "SELECT a.parentItemID, a.path, n.text, n.comment, n.pageLabel "
            "FROM itemAnnotations n JOIN itemAttachments a ON a.itemID = n.parentItemID "
            "JOIN items i ON i.itemID = n.itemID WHERE a.parentItemID IS NOT NULL "
            f"{self._kept('a.itemID')} "
            "ORDER BY a.parentItemID, n.parentItemID, n.sortIndex, n.itemID",
        ):
            written = annotation(str(text or ""), str(comment or ""), str(page or ""))
            if written:
                name = Path(str(stored or "").removeprefix("storage:")).name or "its file"
                found[(item_id, name)].append(written)
        notes: dict[int, list[str]] = defaultdict(list)
        for (item_id, name), marks in found.items():
            notes[item_id].append(f"Annotations of “{name}” in Zotero\n\n" + "\n\n".join(marks))
        return notes

    def _relations(self) -> list[tuple[int, str]]:
        """Every relation of an item to another (``dc:relation``): (item, the other's URI)."""
        rows = self._rows(
            "itemRelations",
            "SELECT r.itemID, r.object FROM itemRelations r JOIN relationPredicates p "
            "ON p.predicateID = r.predicateID WHERE p.predicate = 'dc:relation'",
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    def _file(self, mode: int, stored: str, key: str) -> str | None:
        """Where an attachment's file is: ``storage/KEY/name`` for one Zotero keeps, the path
        of one it links (relative to Zotero's base folder for ``attachments:…``, which
        Zotero's settings name: :func:`_base_folders`); None for a link."""
        if mode in (_STORED, _STORED_FROM_URL) and stored.startswith("storage:"):
            return str(self.folder / "storage" / key / stored[len("storage:") :])
        if mode == _LINKED and stored.startswith(_FROM_BASE):
            self.from_base += 1
            return stored[len(_FROM_BASE) :]
        if mode == _LINKED and stored:
            return stored
        return None

    def _left_out(self) -> list[str]:
        """Warnings for what the import leaves out: standalone notes, the trash, feeds."""
        said = []
        lone = self._rows(
            "itemNotes",
            "SELECT count(*) FROM itemNotes n JOIN items i ON i.itemID = n.itemID "
            f"WHERE n.parentItemID IS NULL {self._kept('n.itemID')}",
        )
        if lone and lone[0][0]:
            said.append(
                f"{plural(lone[0][0], 'standalone note')} of the Zotero library, in no item, "
                f"{'is' if lone[0][0] == 1 else 'are'} not imported."
            )
        trashed = self._rows(
            "deletedItems",
            "SELECT t.typeName IN ('note', 'attachment') AS child, count(*) FROM deletedItems d "
            "JOIN items i ON i.itemID = d.itemID JOIN itemTypes t ON t.itemTypeID = i.itemTypeID "
            "WHERE t.typeName != 'annotation' GROUP BY child ORDER BY child",
        )
        for child, count in trashed:
            what = plural(count, "note or file", "notes and files") if child else plural(
                count, "item")  # fmt: skip
            said.append(f"{what} in Zotero's trash {'is' if count == 1 else 'are'} not imported.")
        fed = self._rows("feedItems", "SELECT count(*) FROM feedItems")
        if fed and fed[0][0]:
            said.append(
                f"{plural(fed[0][0], 'item')} of Zotero's feeds (its RSS subscriptions) "
                f"{'is' if fed[0][0] == 1 else 'are'} not imported."
            )
        return said


def _issued(text: str) -> dict[str, Any]:
    """A Zotero date as CSL: its parts when Zotero read them ("2020-03-00 …"), else the date
    as typed."""
    found = _DATE.match(text)
    if found is None:
        return {"raw": text}
    parts = [int(p) for p in found.groups()]
    while parts and parts[-1] == 0:
        parts.pop()
    return {"date-parts": [parts]} if parts else {"raw": text[found.end() :].strip() or text}
