"""A Zotero data folder written for tests: ``zotero.sqlite`` with the tables of Zotero's own
schema (``resource/schema/userdata.sql`` of Zotero 7, the columns refman reads and those a
real database has beside them) and ``storage/KEY/`` folders for the files Zotero keeps.

The library (:func:`make_zotero_library`):

* a journal article by Ana García and Wei Li, 2021, with a DOI, an abstract, the tag
  "retrieval", in the collection "Thesis" ▸ "Chapter 2", a child note in HTML and its PDF
  kept by Zotero, with a highlight and a comment made in Zotero's reader;
* a conference paper by the World Health Organization (a one-field name), edited by Mia
  Lund, in the proceedings "Proc. of Lattices", with a PDF linked where it is not any more;
* a preprint by Wei Li with its arXiv id as Zotero 7 keeps it (``archiveID``);
* an item in Zotero's trash, and a standalone note: neither is imported.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from tests.helpers.pdfs import make_pdf

SCHEMA = """
CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL);
CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL,
    filesEditable INT NOT NULL, version INT NOT NULL DEFAULT 0, storageVersion INT NOT NULL
    DEFAULT 0, lastSync INT NOT NULL DEFAULT 0, archived INT NOT NULL DEFAULT 0);
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT,
    display INT DEFAULT 1);
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
    dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0,
    synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE TABLE itemNotes (itemID INTEGER PRIMARY KEY, parentItemID INT, note TEXT, title TEXT);
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT,
    contentType TEXT, charsetID INT, path TEXT, syncState INT DEFAULT 0, storageModTime INT,
    storageHash TEXT, lastProcessedModificationTime INT);
CREATE TABLE itemAnnotations (itemID INTEGER PRIMARY KEY, parentItemID INT NOT NULL,
    type INTEGER NOT NULL, authorName TEXT, text TEXT, comment TEXT, color TEXT,
    pageLabel TEXT, sortIndex TEXT NOT NULL, position TEXT NOT NULL, isExternal INT NOT NULL);
CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE itemTags (itemID INT NOT NULL, tagID INT NOT NULL, type INT NOT NULL,
    PRIMARY KEY (itemID, tagID));
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT,
    fieldMode INT, UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL,
    creatorTypeID INT NOT NULL DEFAULT 1, orderIndex INT NOT NULL DEFAULT 0,
    PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex), UNIQUE (itemID, orderIndex));
CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL,
    parentCollectionID INT DEFAULT NULL, clientDateModified TIMESTAMP NOT NULL DEFAULT
    CURRENT_TIMESTAMP, libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL
    DEFAULT 0, synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE collectionItems (collectionID INT NOT NULL, itemID INT NOT NULL,
    orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (collectionID, itemID));
CREATE TABLE relationPredicates (predicateID INTEGER PRIMARY KEY, predicate TEXT UNIQUE);
CREATE TABLE itemRelations (itemID INT NOT NULL, predicateID INT NOT NULL, object TEXT NOT NULL,
    PRIMARY KEY (itemID, predicateID, object));
CREATE TABLE feeds (libraryID INTEGER PRIMARY KEY, name TEXT NOT NULL, url TEXT NOT NULL UNIQUE,
    lastUpdate TIMESTAMP, lastCheck TIMESTAMP, lastCheckError TEXT, cleanupReadAfter INT,
    cleanupUnreadAfter INT, refreshInterval INT);
CREATE TABLE feedItems (itemID INTEGER PRIMARY KEY, guid TEXT NOT NULL UNIQUE,
    readTime TIMESTAMP, translatedTime TIMESTAMP);
CREATE TABLE deletedCollections (collectionID INTEGER PRIMARY KEY,
    dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY,
    dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
"""
#: Zotero's ids of the item types, fields and creator types used (as in its global schema).
TYPES = {"journalArticle": 22, "conferencePaper": 11, "preprint": 37, "note": 28,
         "attachment": 3, "annotation": 41}  # fmt: skip
FIELDS = {"title": 1, "abstractNote": 2, "date": 6, "url": 13, "volume": 19, "issue": 76,
          "pages": 32, "publicationTitle": 38, "DOI": 59, "proceedingsTitle": 94,
          "archiveID": 127, "extra": 16}  # fmt: skip
CREATORS = {"author": 8, "editor": 10}


class _Writer:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.next_item = 1

    def item(self, kind: str, key: str, added: str, **fields: str) -> int:
        item_id = self.next_item
        self.next_item += 1
        self.db.execute(
            "INSERT INTO items (itemID, itemTypeID, dateAdded, libraryID, key) "
            "VALUES (?, ?, ?, 1, ?)",
            (item_id, TYPES[kind], added, key),
        )
        for name, value in fields.items():
            self.db.execute("INSERT OR IGNORE INTO itemDataValues (value) VALUES (?)", (value,))
            (value_id,) = self.db.execute(
                "SELECT valueID FROM itemDataValues WHERE value = ?", (value,)
            ).fetchone()
            self.db.execute(
                "INSERT INTO itemData VALUES (?, ?, ?)", (item_id, FIELDS[name], value_id)
            )
        return item_id

    def creators(self, item_id: int, *names: tuple[str, str, str, int]) -> None:
        for order, (role, first, last, mode) in enumerate(names):
            self.db.execute(
                "INSERT OR IGNORE INTO creators (firstName, lastName, fieldMode) VALUES (?, ?, ?)",
                (first, last, mode),
            )
            (creator,) = self.db.execute(
                "SELECT creatorID FROM creators WHERE firstName = ? AND lastName = ? "
                "AND fieldMode = ?",
                (first, last, mode),
            ).fetchone()
            self.db.execute(
                "INSERT INTO itemCreators VALUES (?, ?, ?, ?)",
                (item_id, creator, CREATORS[role], order),
            )

    def tag(self, item_id: int, name: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO tags (name) VALUES (?)", (name,))
        (tag,) = self.db.execute("SELECT tagID FROM tags WHERE name = ?", (name,)).fetchone()
        self.db.execute("INSERT INTO itemTags VALUES (?, ?, 0)", (item_id, tag))


def make_zotero_library(folder: Path) -> Path:
    """Write the Zotero data folder described above into ``folder``; its database's path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "zotero.sqlite"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(SCHEMA)
        db.executemany("INSERT INTO itemTypes (itemTypeID, typeName) VALUES (?, ?)",
                       [(v, k) for k, v in TYPES.items()])  # fmt: skip
        db.executemany("INSERT INTO fields (fieldID, fieldName) VALUES (?, ?)",
                       [(v, k) for k, v in FIELDS.items()])  # fmt: skip
        db.executemany("INSERT INTO creatorTypes VALUES (?, ?)",
                       [(v, k) for k, v in CREATORS.items()])  # fmt: skip
        db.execute("INSERT INTO libraries VALUES (1, 'user', 1, 1, 0, 0, 0, 0)")
        _fill(_Writer(db), folder)
        db.commit()
    return path


def _fill(w: _Writer, folder: Path) -> None:
    article = w.item(
        "journalArticle", "ART23456", "2024-01-05 10:00:00",
        title="Sparse Lattices for Retrieval", date="2021-03-00 March 2021",
        publicationTitle="Journal of Lattice Search", volume="12", issue="3", pages="101-118",
        DOI="10.5555/lattice.2021.12", abstractNote="We index sparse lattices for retrieval.",
    )  # fmt: skip
    w.creators(article, ("author", "Ana", "García", 0), ("author", "Wei", "Li", 0))
    w.tag(article, "retrieval")
    w.db.execute(
        "INSERT INTO collections (collectionID, collectionName, libraryID, key) "
        "VALUES (1, 'Thesis', 1, 'COL23456'), (2, 'Chapter 2', 1, 'COL34567')"
    )
    w.db.execute("UPDATE collections SET parentCollectionID = 1 WHERE collectionID = 2")
    w.db.execute("INSERT INTO collectionItems VALUES (2, ?, 0)", (article,))
    note = w.item("note", "NOTE2345", "2024-01-05 10:05:00")
    w.db.execute(
        "INSERT INTO itemNotes VALUES (?, ?, ?, 'Read')",
        (note, article, "<div><p>Read <b>section 3</b> again.</p></div>"),
    )
    pdf = w.item("attachment", "PDF23456", "2024-01-05 10:06:00")
    w.db.execute(
        "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) "
        "VALUES (?, ?, 0, 'application/pdf', 'storage:Garcia - 2021 - Sparse Lattices.pdf')",
        (pdf, article),
    )
    for sort, (kind, text, comment, page) in enumerate(
        [
            (1, "Sparse lattices index\nin linear time.", "Compare with Table 2.", "3"),
            (2, None, "The proof skips a case.", "7"),
        ]
    ):
        mark = w.item("annotation", f"ANN{sort}2345", "2024-01-06 10:00:00")
        w.db.execute(
            "INSERT INTO itemAnnotations (itemID, parentItemID, type, text, comment, color, "
            "pageLabel, sortIndex, position, isExternal) VALUES (?, ?, ?, ?, ?, '#ffd400', ?, "
            "?, '{}', 0)",
            (mark, pdf, kind, text, comment, page, f"0000{sort}|000000|00000"),
        )
    (folder / "storage" / "PDF23456").mkdir(parents=True)
    make_pdf(folder / "storage" / "PDF23456" / "Garcia - 2021 - Sparse Lattices.pdf")
    paper = w.item(
        "conferencePaper", "CONF2345", "2024-02-01 09:00:00",
        title="Lattices at Scale", date="2019-00-00 2019", proceedingsTitle="Proc. of Lattices",
    )  # fmt: skip
    w.creators(paper, ("author", "", "World Health Organization", 1), ("editor", "Mia", "Lund", 0))
    linked = w.item("attachment", "LNK23456", "2024-02-01 09:01:00")
    w.db.execute(
        "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) "
        "VALUES (?, ?, 2, 'application/pdf', ?)",
        (linked, paper, str(folder / "gone" / "lattices.pdf")),
    )
    preprint = w.item(
        "preprint", "PRE23456", "2024-03-01 08:00:00",
        title="Quiet Lattices", date="2023-06-14 2023-06-14", archiveID="arXiv:2306.01234",
    )  # fmt: skip
    w.creators(preprint, ("author", "Wei", "Li", 0))
    trashed = w.item("journalArticle", "TRA23456", "2024-03-02 08:00:00", title="Thrown Away")
    w.db.execute("INSERT INTO deletedItems (itemID) VALUES (?)", (trashed,))
    lone = w.item("note", "LONE2345", "2024-03-03 08:00:00")
    w.db.execute("INSERT INTO itemNotes VALUES (?, NULL, '<p>Ideas</p>', 'Ideas')", (lone,))
