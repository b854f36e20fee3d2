"""A Mendeley Desktop library imported from its database, ``…@www.mendeley.com.sqlite``: every
document with its fields, contributors, tags and keywords, folders, notes, the comments and
highlights of its PDF, its files and its read and favourite flags; the trash and the groups'
documents left out with a word; read while Mendeley holds the database; an encrypted one,
or another program's SQLite file, refused saying what to do; never a duplicate."""

from __future__ import annotations

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
from tests.helpers.mendeley import NAME, make_mendeley_library
from tests.helpers.zotero import make_zotero_library


@pytest.fixture
def mendeley(tmp_path: Path) -> Path:
    return make_mendeley_library(tmp_path / "Mendeley Desktop")


def test_every_document_comes_with_its_fields_people_tags_folders_notes_and_flags(
    mendeley: Path,
) -> None:
    page = read_page(mendeley)
    assert page.format is PageFormat.MENDELEY and page.owner == ""
    article, proceedings, preprint = page.records  # (oldest first; trash and group left out)
    assert (article.title, article.year, article.venue, article.type) == (
        "Sparse Lattices for Retrieval",
        2021,
        "Journal of Lattice Search",
        "article-journal",
    )
    assert (article.doi, article.volume, article.issue, article.pages) == (
        "10.5555/lattice.2021.12",
        "12",
        "3",
        "101-118",
    )
    assert article.authors == ("Ana García", "Wei Li") and article.authors_complete
    assert article.abstract == "We index sparse lattices for retrieval."
    assert article.tags == ("retrieval", "lattices", "Thesis/Chapter 2")
    assert article.notes == (
        "Read section 3 again.",
        "Annotations of “García, Li - 2021 - Sparse Lattices.pdf” in Mendeley\n\n"
        "Compare with Table 2. (p. 3)\n\n"
        "Highlighted passages on pp. 3 and 7 (Mendeley keeps where they are, not their words).",
    )
    assert [Path(f).name for f in article.files] == ["García, Li - 2021 - Sparse Lattices.pdf"]
    assert (article.status, article.rating) == ("read", 5)  # read, and Mendeley's star
    assert (proceedings.type, proceedings.venue, proceedings.authors) == (
        "paper-conference",
        "Proc. of Lattices",
        ("World Health Organization",),
    )
    assert proceedings.extra["editor"] == [{"family": "Lund", "given": "Mia"}]
    assert proceedings.files == ()  # (its PDF is gone)
    assert (proceedings.status, proceedings.rating) == (None, None)
    assert (preprint.arxiv_id, preprint.year) == ("2306.01234", 2023)
    assert preprint.url == "https://arxiv.org/abs/2306.01234"  # (its first web address)


def test_the_trash_the_groups_and_missing_files_are_named_not_imported(mendeley: Path) -> None:
    warnings = read_page(mendeley).warnings
    assert "1 document in Mendeley's trash is not imported." in warnings
    assert (
        "1 document of Mendeley groups is not imported "
        "(only the documents of your own library are)." in warnings
    )
    assert (
        "1 file the Mendeley library names was not found (lattices.pdf): the papers are "
        "imported without them." in warnings
    )


def test_a_mendeley_library_imports_once_with_its_files_and_flags_and_never_twice(
    library: LibraryService, mendeley: Path
) -> None:
    first = library.import_pages([sourced_file(mendeley)])
    assert len(first.new_ids) == 3
    article = library.paper(min(first.new_ids))
    assert {t.name for t in article.tags} == {"retrieval", "lattices", "Thesis/Chapter 2"}
    assert article.notes[0].text == "Read section 3 again."
    assert "Compare with Table 2. (p. 3)" in article.notes[1].text
    assert (article.status, article.rating) == ("read", 5)
    [kept] = article.files
    assert Path(kept.path).is_file() and kept.pages == 2
    assert csl_item(library.paper(sorted(first.new_ids)[1]))["author"] == [
        {"literal": "World Health Organization"}
    ]
    again = library.import_pages([sourced_file(mendeley)])
    assert not again.new_ids
    assert library.count(PaperQuery()) == 3
    assert len(library.paper(article.id).notes) == 2


def test_a_database_mendeley_holds_locked_is_read_as_it_is_and_never_written(
    mendeley: Path,
) -> None:
    with closing(sqlite3.connect(mendeley, isolation_level=None)) as held:
        held.execute("PRAGMA locking_mode = EXCLUSIVE")
        held.execute("BEGIN EXCLUSIVE")  # as Mendeley Desktop holds it while it runs
        check_file(mendeley)
        assert len(load_source(mendeley).parse().records) == 3
        held.execute("ROLLBACK")
    before = mendeley.read_bytes()
    read_page(mendeley)
    assert mendeley.read_bytes() == before


def test_an_encrypted_mendeley_database_is_refused_saying_what_to_do(tmp_path: Path) -> None:
    encrypted = tmp_path / NAME
    encrypted.write_bytes(bytes(range(256)) * 64)  # (Mendeley 1.19+: no SQLite header)
    for reading in (check_file, load_source):
        with pytest.raises(UnreadableFileError) as raised:
            reading(encrypted)
        assert "Mendeley Desktop's database encrypted" in str(raised.value)
        assert "File ▸ Export…" in raised.value.hint and "BibTeX" in raised.value.hint


def test_another_sqlite_database_is_refused_as_neither_zotero_nor_mendeley(
    tmp_path: Path,
) -> None:
    other = tmp_path / "library.sqlite"
    with closing(sqlite3.connect(other)) as db:  # a table named Documents, not Mendeley's
        db.execute("CREATE TABLE Documents (id INTEGER PRIMARY KEY, title TEXT)")
        for table in ("DocumentContributors", "DocumentFiles", "Files"):
            db.execute(f"CREATE TABLE {table} (documentId INTEGER)")
        db.commit()
    with pytest.raises(UnreadableFileError) as raised:
        check_file(other)
    assert "a database (SQLite) that is not a Zotero or Mendeley library" in str(raised.value)


def test_a_zotero_database_is_still_read_as_zotero(tmp_path: Path) -> None:
    assert read_page(make_zotero_library(tmp_path / "Zotero")).format is PageFormat.ZOTERO


def test_an_empty_mendeley_library_says_so(mendeley: Path) -> None:
    with closing(sqlite3.connect(mendeley)) as db:
        db.execute("UPDATE Documents SET deletionPending = 'true'")
        db.commit()
    with pytest.raises(NotABibliographyError) as raised:
        read_page(mendeley)
    assert "holds no documents to import" in str(raised.value)
    assert "trash" in raised.value.hint


def test_the_command_line_imports_a_mendeley_library(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mendeley: Path
) -> None:
    moved = shutil.copytree(mendeley.parent, tmp_path / "elsewhere" / "Mendeley Desktop")
    cli = runner(capsys, tmp_path / "lib.sqlite")
    result = cli("import", moved / NAME)
    assert result.code == 0
    assert f"{NAME}: Mendeley library (mendeley) — 3 new, 0 merged" in result.out
    assert "1 document in Mendeley's trash is not imported." in result.out
    listed = cli("list").out
    assert "Sparse Lattices for Retrieval" in listed and "Thrown Away" not in listed


def test_keys_identifiers_general_notes_and_a_generic_document_are_kept(mendeley: Path) -> None:
    with closing(sqlite3.connect(mendeley)) as db:
        db.execute(
            "UPDATE Documents SET citationKey = 'garcia2021sparse', pmid = 123456, "
            "isbn = '978-3-16-148410-0', type = 'Generic' WHERE title LIKE 'Sparse%'"
        )
        db.execute(
            "INSERT INTO DocumentNotes (documentId, text, uuid) SELECT id, "
            "'<p>Read <b>section 3</b> again.</p>', 'n1' FROM Documents WHERE title LIKE 'Sparse%'"
        )  # (the viewer's general note, the same as the Notes field: one note)
        db.execute(
            "INSERT INTO DocumentNotes (documentId, text, uuid) SELECT id, "
            "'Cite for the &amp; bound.', 'n2' FROM Documents WHERE title = 'Quiet Lattices'"
        )
        db.commit()
    article, _, preprint = read_page(mendeley).records
    assert (article.type, article.citekey) == ("document", "garcia2021sparse")
    assert (article.extra["ISBN"], article.extra["PMID"]) == ("978-3-16-148410-0", "123456")
    assert article.notes[0] == "Read section 3 again." and len(article.notes) == 2
    assert preprint.notes == ("Cite for the & bound.",)


def test_changes_mendeley_keeps_in_its_write_ahead_log_are_read_too(mendeley: Path) -> None:
    with closing(sqlite3.connect(mendeley, isolation_level=None)) as held:
        held.execute("PRAGMA journal_mode = WAL")
        held.execute("PRAGMA wal_autocheckpoint = 0")
        held.execute("PRAGMA locking_mode = EXCLUSIVE")
        held.execute("UPDATE Documents SET read = 'true' WHERE title = 'Quiet Lattices'")
        check_file(mendeley)
        preprint = load_source(mendeley).parse().records[2]
        assert (preprint.title, preprint.status) == ("Quiet Lattices", "read")
