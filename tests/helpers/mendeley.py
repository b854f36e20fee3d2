"""A Mendeley Desktop database written for tests: ``you@www.mendeley.com.sqlite`` with the
tables of Mendeley Desktop 1.x's own schema (the columns refman reads and those a real
database has beside them; flags written as Mendeley writes them, "true" / "false") and a
``Downloaded`` folder for the files it keeps.

The library (:func:`make_mendeley_library`):

* a journal article by Ana García and Wei Li, 2021-03, with a DOI, an abstract, the tag
  "retrieval" and the keyword "lattices", in the folder "Thesis" ▸ "Chapter 2", read and a
  favourite, with a note (its Notes field, in HTML) and its PDF (a ``file://`` address) with
  a comment and two highlights made in Mendeley's viewer;
* a conference paper by the World Health Organization (a one-field name), edited by Mia
  Lund, in "Proc. of Lattices", with a PDF that is not there any more;
* a preprint by Wei Li with its arXiv id, two web addresses;
* a document in Mendeley's trash (``deletionPending``), one in a group's library: neither
  is imported.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from urllib.parse import quote

from tests.helpers.pdfs import make_pdf

_DOCUMENT_COLUMNS = """id INTEGER PRIMARY KEY AUTOINCREMENT, uuid VARCHAR NOT NULL UNIQUE,
    confirmed INT, deduplicated INT, deletionPending INT, favourite INT, read INT, type VARCHAR,
    abstract VARCHAR, added INT, modified INT, importer VARCHAR, note VARCHAR, privacy VARCHAR,
    title VARCHAR, advisor VARCHAR, articleColumn VARCHAR, applicationNumber VARCHAR,
    arxivId VARCHAR, chapter VARCHAR, citationKey VARCHAR, city VARCHAR, code VARCHAR,
    codeNumber VARCHAR, codeSection VARCHAR, codeVolume VARCHAR, committee VARCHAR,
    counsel VARCHAR, country VARCHAR, dateAccessed VARCHAR, department VARCHAR, doi VARCHAR,
    edition VARCHAR, genre VARCHAR, hideFromMendeleyWebIndex INT, institution VARCHAR,
    internationalAuthor VARCHAR, internationalNumber VARCHAR, internationalTitle VARCHAR,
    internationalUserType VARCHAR, isbn VARCHAR, issn VARCHAR, issue VARCHAR, language VARCHAR,
    lastUpdate VARCHAR, legalStatus VARCHAR, length VARCHAR, medium VARCHAR, month INT,
    originalPublication VARCHAR, owner VARCHAR, pages VARCHAR, pmid BIGINT,
    publication VARCHAR, publicLawNumber VARCHAR, publisher VARCHAR, reprintEdition VARCHAR,
    reviewedArticle VARCHAR, revisionNumber VARCHAR, sections VARCHAR, seriesEditor VARCHAR,
    series VARCHAR, seriesNumber VARCHAR, session VARCHAR, shortTitle VARCHAR,
    sourceType VARCHAR, userType VARCHAR, volume VARCHAR, year INT, day INT"""
SCHEMA = f"""
CREATE TABLE Documents ({_DOCUMENT_COLUMNS});
CREATE TABLE DocumentContributors (id INTEGER PRIMARY KEY AUTOINCREMENT,
    documentId INTEGER NOT NULL, contribution VARCHAR NOT NULL, firstNames VARCHAR,
    lastName VARCHAR NOT NULL);
CREATE TABLE DocumentTags (documentId INTEGER NOT NULL, tag VARCHAR NOT NULL,
    UNIQUE (documentId, tag));
CREATE TABLE DocumentKeywords (documentId INTEGER NOT NULL, keyword VARCHAR NOT NULL,
    UNIQUE (documentId, keyword));
CREATE TABLE Folders (id INTEGER PRIMARY KEY AUTOINCREMENT, uuid VARCHAR UNIQUE,
    name VARCHAR NOT NULL, parentId INT, access VARCHAR NOT NULL, syncPolicy VARCHAR NOT NULL,
    downloadFilesPolicy INT NOT NULL, uploadFilesPolicy INT NOT NULL, publicUrl VARCHAR,
    description VARCHAR, creatorName VARCHAR, creatorProfileUrl VARCHAR);
CREATE TABLE DocumentFolders (documentId INTEGER NOT NULL, folderId INTEGER NOT NULL,
    status VARCHAR NOT NULL, PRIMARY KEY (documentId, folderId));
CREATE TABLE DocumentNotes (id INTEGER PRIMARY KEY AUTOINCREMENT, documentId INTEGER NOT NULL,
    text VARCHAR NOT NULL, baseNote VARCHAR, uuid VARCHAR NOT NULL UNIQUE,
    unlinked INT NOT NULL DEFAULT 0);
CREATE TABLE Files (hash CHAR[40] PRIMARY KEY, localUrl VARCHAR NOT NULL);
CREATE TABLE DocumentFiles (documentId INTEGER NOT NULL, hash CHAR[40] NOT NULL,
    remoteUrl VARCHAR, unlinked BOOLEAN NOT NULL, downloadRestricted BOOLEAN NOT NULL DEFAULT 0,
    remoteFileUuid CHAR[38] NOT NULL DEFAULT '', UNIQUE (documentId, hash));
CREATE TABLE DocumentUrls (documentId INTEGER NOT NULL, position INTEGER NOT NULL,
    url VARCHAR NOT NULL, PRIMARY KEY (documentId, position));
CREATE TABLE FileNotes (id INTEGER PRIMARY KEY AUTOINCREMENT, author VARCHAR,
    uuid VARCHAR NOT NULL UNIQUE, documentId INTEGER NOT NULL, fileHash CHAR[40] NOT NULL,
    page INTEGER NOT NULL, x FLOAT NOT NULL, y FLOAT NOT NULL, note VARCHAR NOT NULL,
    modifiedTime VARCHAR NOT NULL, createdTime VARCHAR NOT NULL, unlinked BOOLEAN NOT NULL,
    baseNote VARCHAR, color VARCHAR, profileUuid VARCHAR);
CREATE TABLE FileHighlights (id INTEGER PRIMARY KEY AUTOINCREMENT, author VARCHAR,
    uuid VARCHAR NOT NULL UNIQUE, documentId INTEGER NOT NULL, fileHash CHAR[40] NOT NULL,
    createdTime VARCHAR NOT NULL, unlinked BOOLEAN NOT NULL, color VARCHAR,
    profileUuid VARCHAR);
CREATE TABLE FileHighlightRects (id INTEGER PRIMARY KEY AUTOINCREMENT,
    highlightId INTEGER NOT NULL, page INTEGER NOT NULL, x1 FLOAT NOT NULL, y1 FLOAT NOT NULL,
    x2 FLOAT NOT NULL, y2 FLOAT NOT NULL);
CREATE TABLE RemoteDocuments (documentId INTEGER, remoteUuid VARCHAR UNIQUE,
    remoteId INTEGER, groupId INTEGER NOT NULL, status VARCHAR NOT NULL,
    inTrash BOOLEAN NOT NULL, UNIQUE (documentId, remoteUuid));
CREATE TABLE Groups (id INTEGER PRIMARY KEY AUTOINCREMENT, remoteId INTEGER,
    remoteUuid VARCHAR UNIQUE, name VARCHAR, groupType VARCHAR NOT NULL, status VARCHAR NOT NULL,
    access VARCHAR NOT NULL, syncPolicy VARCHAR NOT NULL, downloadFilesPolicy INT NOT NULL,
    uploadFilesPolicy INT NOT NULL, publicUrl VARCHAR, isOwner BOOLEAN NOT NULL,
    isReadOnly BOOLEAN NOT NULL, isPrivate BOOLEAN NOT NULL, iconName VARCHAR);
"""
#: The name Mendeley Desktop gives its database.
NAME = "you@www.mendeley.com.sqlite"


class _Writer:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.next_id = 1

    def document(self, kind: str, added: int, group: int = 0, **columns: object) -> int:
        doc = self.next_id
        self.next_id += 1
        values = {"id": doc, "uuid": f"{{0000000{doc}-aaaa-bbbb-cccc-dddddddddddd}}",
                  "type": kind, "added": added, "confirmed": "true", "deletionPending": "false",
                  "favourite": "false", "read": "false", **columns}  # fmt: skip
        names = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        self.db.execute(f"INSERT INTO Documents ({names}) VALUES ({marks})", list(values.values()))
        self.db.execute(
            "INSERT INTO RemoteDocuments VALUES (?, ?, ?, ?, 'Synced', 'false')",
            (doc, f"remote-{doc}", 100 + doc, group),
        )
        return doc

    def contributors(self, doc: int, *names: tuple[str, str, str]) -> None:
        for role, first, last in names:
            self.db.execute(
                "INSERT INTO DocumentContributors (documentId, contribution, firstNames, "
                "lastName) VALUES (?, ?, ?, ?)",
                (doc, role, first or None, last),
            )

    def file(self, doc: int, digest: str, path: Path) -> None:
        url = "file://" + quote(path.as_posix())
        self.db.execute("INSERT INTO Files VALUES (?, ?)", (digest, url))
        self.db.execute(
            "INSERT INTO DocumentFiles (documentId, hash, unlinked) VALUES (?, ?, 'false')",
            (doc, digest),
        )


def make_mendeley_library(folder: Path) -> Path:
    """Write the Mendeley database described above into ``folder``; its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / NAME
    with closing(sqlite3.connect(path)) as db:
        db.executescript(SCHEMA)
        _fill(_Writer(db), folder)
        db.commit()
    return path


def _fill(w: _Writer, folder: Path) -> None:
    article = w.document(
        "JournalArticle", 1704448800, title="Sparse Lattices for Retrieval", year=2021, month=3,
        publication="Journal of Lattice Search", volume="12", issue="3", pages="101-118",
        doi="10.5555/lattice.2021.12", abstract="We index sparse lattices for retrieval.",
        read="true", favourite="true", note="<p>Read <b>section 3</b> again.</p>",
    )  # fmt: skip
    w.contributors(article, ("DocumentAuthor", "Ana", "García"), ("DocumentAuthor", "Wei", "Li"))
    w.db.execute("INSERT INTO DocumentTags VALUES (?, 'retrieval')", (article,))
    w.db.execute("INSERT INTO DocumentKeywords VALUES (?, 'lattices')", (article,))
    w.db.execute(
        "INSERT INTO Folders (id, uuid, name, parentId, access, syncPolicy, "
        "downloadFilesPolicy, uploadFilesPolicy) VALUES (1, 'f1', 'Thesis', -1, 'PrivateAccess', "
        "'SyncMetadataAndFiles', 0, 0), (2, 'f2', 'Chapter 2', 1, 'PrivateAccess', "
        "'SyncMetadataAndFiles', 0, 0)"
    )
    w.db.execute("INSERT INTO DocumentFolders VALUES (?, 2, 'ObjectUnchanged')", (article,))
    pdf = folder / "Downloaded" / "García, Li - 2021 - Sparse Lattices.pdf"
    pdf.parent.mkdir(parents=True, exist_ok=True)
    make_pdf(pdf)
    w.file(article, "a" * 40, pdf)
    w.db.execute(
        "INSERT INTO FileNotes (uuid, documentId, fileHash, page, x, y, note, modifiedTime, "
        "createdTime, unlinked) VALUES ('n1', ?, ?, 3, 100, 200, 'Compare with Table 2.', "
        "'2024-01-06T10:00:00Z', '2024-01-06T10:00:00Z', 'false')",
        (article, "a" * 40),
    )
    for number, page in ((1, 7), (2, 3)):
        w.db.execute(
            "INSERT INTO FileHighlights (id, uuid, documentId, fileHash, createdTime, unlinked) "
            "VALUES (?, ?, ?, ?, '2024-01-06T10:00:00Z', 'false')",
            (number, f"h{number}", article, "a" * 40),
        )
        w.db.execute(
            "INSERT INTO FileHighlightRects (highlightId, page, x1, y1, x2, y2) "
            "VALUES (?, ?, 10, 20, 300, 40)",
            (number, page),
        )
    paper = w.document(
        "ConferenceProceedings", 1706778000, title="Lattices at Scale", year=2019,
        publication="Proc. of Lattices",
    )  # fmt: skip
    w.contributors(
        paper,
        ("DocumentAuthor", "", "World Health Organization"),
        ("DocumentEditor", "Mia", "Lund"),
    )
    w.file(paper, "b" * 40, folder / "gone" / "lattices.pdf")
    preprint = w.document(
        "JournalArticle", 1709280000, title="Quiet Lattices", year=2023, month=6, day=14,
        arxivId="2306.01234",
    )  # fmt: skip
    w.contributors(preprint, ("DocumentAuthor", "Wei", "Li"))
    w.db.execute(
        "INSERT INTO DocumentUrls VALUES (?, 0, 'https://arxiv.org/abs/2306.01234'), "
        "(?, 1, 'https://example.org/quiet.pdf')",
        (preprint, preprint),
    )
    w.document("JournalArticle", 1709366400, title="Thrown Away", deletionPending="true")
    w.document("JournalArticle", 1709452800, group=7, title="A Group's Paper")
