"""A Zotero library imported from its database, ``zotero.sqlite``: every item with its
fields, creators, tags, collections, child notes, annotations and files; the trash and
standalone notes left out with a word; read while Zotero holds the database; never a duplicate."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from refman.core.csl import csl_item
from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from refman.importers.errors import NotABibliographyError, UnreadableFileError
from refman.importers.records import PageFormat
from refman.importers.sources import check_file, load_source
from tests.helpers.cli import runner
from tests.helpers.fixtures import read_page, sourced_file
from tests.helpers.pdfs import make_pdf
from tests.helpers.zotero import make_zotero_library


@pytest.fixture
def zotero(tmp_path: Path) -> Path:
    return make_zotero_library(tmp_path / "Zotero")


def test_every_item_comes_with_its_fields_creators_tags_collections_and_notes(
    zotero: Path,
) -> None:
    page = read_page(zotero)
    assert page.format is PageFormat.ZOTERO and page.owner == ""
    article, proceedings, preprint = page.records  # (oldest first; the trash left out)
    assert (article.title, article.year, article.venue) == (
        "Sparse Lattices for Retrieval",
        2021,
        "Journal of Lattice Search",
    )
    assert (article.type, article.doi, article.volume, article.issue, article.pages) == (
        "article-journal",
        "10.5555/lattice.2021.12",
        "12",
        "3",
        "101-118",
    )
    assert article.authors == ("Ana García", "Wei Li") and article.authors_complete
    assert article.abstract == "We index sparse lattices for retrieval."
    assert article.tags == ("retrieval", "Thesis/Chapter 2")
    assert article.notes == (
        "Read section 3 again.",
        "Annotations of “Garcia - 2021 - Sparse Lattices.pdf” in Zotero\n\n"
        "> Sparse lattices index\n> in linear time. (p. 3)\n\nCompare with Table 2.\n\n"
        "The proof skips a case. (p. 7)",
    )
    assert [Path(f).name for f in article.files] == ["Garcia - 2021 - Sparse Lattices.pdf"]
    assert (proceedings.type, proceedings.venue, proceedings.authors) == (
        "paper-conference",
        "Proc. of Lattices",
        ("World Health Organization",),
    )
    assert proceedings.extra["editor"] == [{"family": "Lund", "given": "Mia"}]
    assert proceedings.files == ()  # (its linked PDF is gone)
    assert (preprint.arxiv_id, preprint.year) == ("2306.01234", 2023)


def test_the_trash_standalone_notes_and_missing_files_are_named_not_imported(
    zotero: Path,
) -> None:
    warnings = read_page(zotero).warnings
    assert "1 standalone note of the Zotero library, in no item, is not imported." in warnings
    assert "1 item in Zotero's trash is not imported." in warnings
    assert any(
        w.startswith("1 file the Zotero library names was not found (lattices.pdf)")
        for w in warnings
    )


def test_a_zotero_library_imports_once_with_its_files_and_never_twice(
    library: LibraryService, zotero: Path
) -> None:
    first = library.import_pages([sourced_file(zotero)])
    assert len(first.new_ids) == 3
    article = library.paper(min(first.new_ids))
    assert [t.name for t in article.tags] == ["retrieval", "Thesis/Chapter 2"]
    assert article.notes[0].text == "Read section 3 again."
    assert "> Sparse lattices index" in article.notes[1].text
    [kept] = article.files
    assert Path(kept.path).is_file() and kept.pages == 2  # (copied, or linked when shared)
    assert csl_item(library.paper(sorted(first.new_ids)[1]))["author"] == [
        {"literal": "World Health Organization"}
    ]
    again = library.import_pages([sourced_file(zotero)])
    assert not again.new_ids
    assert library.count(PaperQuery()) == 3
    assert len(library.paper(article.id).notes) == 2


def test_a_database_zotero_holds_locked_is_read_as_it_is(zotero: Path) -> None:
    with closing(sqlite3.connect(zotero, isolation_level=None)) as held:
        held.execute("PRAGMA locking_mode = EXCLUSIVE")
        held.execute("BEGIN EXCLUSIVE")  # as Zotero holds it while it runs
        check_file(zotero)
        assert len(load_source(zotero).parse().records) == 3
        held.execute("ROLLBACK")
    before = zotero.read_bytes()
    read_page(zotero)
    assert zotero.read_bytes() == before  # nothing written to it


def test_another_sqlite_database_is_refused_saying_what_it_is(tmp_path: Path) -> None:
    other = tmp_path / "library.sqlite"
    LibraryService.open(other).close()  # refman's own library is no Zotero library
    with pytest.raises(UnreadableFileError) as raised:
        check_file(other)
    assert "is a database (SQLite) that is not a Zotero or Mendeley library." in str(raised.value)
    assert "not text" not in str(raised.value)  # it says what it is not, once
    assert "Zotero and Mendeley libraries (their database file)" in raised.value.hint


def test_an_empty_zotero_library_says_so(zotero: Path) -> None:
    with closing(sqlite3.connect(zotero)) as db:
        db.execute("INSERT OR IGNORE INTO deletedItems (itemID) SELECT itemID FROM items")
        db.commit()
    with pytest.raises(NotABibliographyError) as raised:
        read_page(zotero)
    assert "holds no items to import" in str(raised.value)
    assert "trash" in raised.value.hint


def test_the_command_line_imports_a_zotero_library(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, zotero: Path
) -> None:
    moved = shutil.copytree(zotero.parent, tmp_path / "elsewhere" / "Zotero")
    cli = runner(capsys, tmp_path / "lib.sqlite")
    result = cli("import", moved / "zotero.sqlite")
    assert result.code == 0
    assert "zotero.sqlite: Zotero library (zotero) — 3 new, 0 merged" in result.out
    assert "1 item in Zotero's trash is not imported." in result.out
    listed = cli("list").out
    assert "Sparse Lattices for Retrieval" in listed and "Thrown Away" not in listed


def _link_from_base(zotero: Path, relative: str) -> None:
    """Link a PDF to the conference paper relative to Zotero's base folder, as Zotero does
    when *Linked Attachment Base Directory* is set (``attachments:…``)."""
    with closing(sqlite3.connect(zotero)) as db:
        (paper,) = db.execute("SELECT itemID FROM items WHERE key = 'CONF2345'").fetchone()
        db.execute(
            "INSERT INTO items (itemID, itemTypeID, libraryID, key) VALUES (90, 3, 1, 'BASE2345')"
        )
        db.execute(
            "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) "
            "VALUES (90, ?, 2, 'application/pdf', ?)",
            (paper, f"attachments:{relative}"),
        )
        db.commit()


def _profile(home: Path, **settings: str) -> None:
    """A Zotero profile's prefs.js in ``home``, as Zotero writes it on Linux."""
    prefs = home / ".zotero" / "zotero" / "x1y2z3.default" / "prefs.js"
    prefs.parent.mkdir(parents=True)
    lines = [f'user_pref("extensions.zotero.{k}", {json.dumps(v)});' for k, v in settings.items()]
    prefs.write_text("// Mozilla User Preferences\n\n" + "\n".join(lines) + "\n")


def test_a_file_linked_from_zoteros_base_folder_is_found_where_zotero_says(
    zotero: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    base = tmp_path / "Dropbox" / "Papers"
    (base / "Lattices").mkdir(parents=True)
    make_pdf(base / "Lattices" / "scale.pdf")
    _link_from_base(zotero, "Lattices/scale.pdf")
    _profile(home, baseAttachmentPath=str(base), dataDir=str(zotero.parent))
    proceedings = read_page(zotero).records[1]
    assert [Path(f) for f in proceedings.files] == [base / "Lattices" / "scale.pdf"]


def test_a_file_linked_from_a_base_folder_no_settings_name_is_named(
    zotero: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # (no Zotero profile here)
    _link_from_base(zotero, "Lattices/scale.pdf")
    page = read_page(zotero)
    assert page.records[1].files == ()
    assert (
        "1 file is linked relative to Zotero's base folder, which no Zotero settings on this "
        "machine name" in " ".join(page.warnings)
    )
    assert any("scale.pdf" in w and "not found" in w for w in page.warnings)


def test_related_items_come_as_a_note_naming_them_on_both_sides(zotero: Path) -> None:
    with closing(sqlite3.connect(zotero)) as db:
        db.execute("INSERT INTO relationPredicates VALUES (1, 'dc:relation'), (2, 'owl:sameAs')")
        ids = dict(db.execute("SELECT key, itemID FROM items"))
        db.executemany(
            "INSERT INTO itemRelations VALUES (?, ?, ?)",
            [  # (Zotero writes a relation on one side or both; the trash's item is no paper)
                (ids["ART23456"], 1, "http://zotero.org/users/local/aBcD1234/items/PRE23456"),
                (ids["PRE23456"], 1, "http://zotero.org/users/local/aBcD1234/items/ART23456"),
                (ids["CONF2345"], 1, "http://zotero.org/users/4711/items/PRE23456"),
                (ids["CONF2345"], 1, "http://zotero.org/users/4711/items/TRA23456"),
                (ids["ART23456"], 2, "http://zotero.org/users/4711/items/CONF2345"),
            ],
        )
        db.commit()
    article, proceedings, preprint = read_page(zotero).records
    assert article.notes[-1] == "Related in Zotero\n\n- “Quiet Lattices” (2023)"
    assert proceedings.notes == ("Related in Zotero\n\n- “Quiet Lattices” (2023)",)
    assert preprint.notes == (
        "Related in Zotero\n\n- “Lattices at Scale” (2019)\n"
        "- “Sparse Lattices for Retrieval” (2021)",
    )


def test_changes_zotero_keeps_in_its_write_ahead_log_are_read_too(zotero: Path) -> None:
    with closing(sqlite3.connect(zotero, isolation_level=None)) as held:
        held.execute("PRAGMA journal_mode = WAL")
        held.execute("PRAGMA wal_autocheckpoint = 0")  # (Zotero writes it into the file later)
        held.execute("PRAGMA locking_mode = EXCLUSIVE")
        held.execute("UPDATE itemDataValues SET value = 'Quieter Lattices' "
                     "WHERE value = 'Quiet Lattices'")  # fmt: skip
        held.execute("DELETE FROM deletedItems")  # (restored from the trash)
        assert zotero.with_name(zotero.name + "-wal").stat().st_size > 0
        before = zotero.read_bytes()
        check_file(zotero)
        titles = [r.title for r in load_source(zotero).parse().records]
        assert titles == [
            "Sparse Lattices for Retrieval",
            "Lattices at Scale",
            "Quieter Lattices",
            "Thrown Away",
        ]
        assert zotero.read_bytes() == before  # (read from a copy: nothing written to it)


def test_a_collection_in_zoteros_trash_and_those_in_it_are_no_tags(zotero: Path) -> None:
    with closing(sqlite3.connect(zotero)) as db:  # (Zotero 7 puts collections in its trash)
        db.execute(
            "INSERT INTO collections (collectionID, collectionName, parentCollectionID, "
            "libraryID, key) VALUES (3, 'Old', NULL, 1, 'COL45678'), (4, 'Drafts', 3, 1, "
            "'COL56789')"
        )
        (article,) = db.execute("SELECT itemID FROM items WHERE key = 'ART23456'").fetchone()
        db.executemany("INSERT INTO collectionItems VALUES (?, ?, 0)", [(3, article), (4, article)])
        db.execute("INSERT INTO deletedCollections (collectionID) VALUES (3)")
        db.commit()
    assert read_page(zotero).records[0].tags == ("retrieval", "Thesis/Chapter 2")


def test_the_items_of_zoteros_feeds_are_left_out_with_a_word(zotero: Path) -> None:
    with closing(sqlite3.connect(zotero)) as db:  # an RSS feed Zotero follows: a library
        db.execute("INSERT INTO libraries VALUES (2, 'feed', 0, 0, 0, 0, 0, 0)")
        db.execute("INSERT INTO feeds (libraryID, name, url) VALUES (2, 'arXiv cs.IR', 'x')")
        for number in (1, 2):
            db.execute(
                "INSERT INTO items (itemID, itemTypeID, libraryID, key) VALUES (?, 22, 2, ?)",
                (80 + number, f"FEED{number}234"),
            )
            db.execute("INSERT INTO feedItems (itemID, guid) VALUES (?, ?)", (80 + number, number))
        db.commit()
    page = read_page(zotero)
    assert len(page.records) == 3
    assert "2 items of Zotero's feeds (its RSS subscriptions) are not imported." in page.warnings


def test_a_note_or_file_in_zoteros_trash_stays_out_of_its_item(zotero: Path) -> None:
    with closing(sqlite3.connect(zotero)) as db:  # (trashed alone: their item is kept)
        db.execute(
            "INSERT INTO deletedItems (itemID) SELECT itemID FROM items "
            "WHERE key IN ('NOTE2345', 'PDF23456')"
        )
        db.commit()
    page = read_page(zotero)
    article = page.records[0]
    assert (article.title, article.notes, article.files) == (
        "Sparse Lattices for Retrieval",
        (),
        (),
    )
    assert "1 item in Zotero's trash is not imported." in page.warnings
    assert "2 notes and files in Zotero's trash are not imported." in page.warnings


def test_a_standalone_note_in_zoteros_trash_is_counted_once(zotero: Path) -> None:
    with closing(sqlite3.connect(zotero)) as db:
        db.execute(
            "INSERT INTO deletedItems (itemID) SELECT itemID FROM items WHERE key = 'LONE2345'"
        )
        db.commit()
    warnings = read_page(zotero).warnings
    assert not any("standalone note" in w for w in warnings)
    assert "1 note or file in Zotero's trash is not imported." in warnings
