"""A file is identified before refman touches it: anything that is not a refman library this
version can open is refused with a message naming the real cause, exit status 2, and the
file's bytes unchanged (no journal switch, no -wal/-shm beside it)."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from refman import paths
from refman.__main__ import main
from refman.core.library import LibraryService
from refman.store.database import head_revision
from refman.store.identity import APPLICATION_ID, KNOWN_REVISIONS
from refman.store.integrity import CheckRecord
from tests.helpers.cli import Cli
from tests.helpers.fixtures import sourced
from tests.helpers.pages import generated_page, publication_page
from tests.helpers.pdfs import make_pdf

PAGE = """Ada Lovelace

Publications and source records attributed to Ada Lovelace.

arXiv2021

Lattice engines for the analytical age

We study lattice engines and their use in the analytical age of computing machines.

cs.LG↗
"""


def _refused(
    capsys: pytest.CaptureFixture[str], path: Path, message: str, *commands: list[str]
) -> None:
    """Every command exits 2 with ``message`` and leaves the file and its folder as they were."""
    before = path.read_bytes() if path.is_file() else None
    beside = sorted(os.listdir(path.parent))
    for command in commands or (["list"], ["tag", "1", "x"]):
        code = main(["--db", str(path), *command])
        err = capsys.readouterr().err
        assert code == 2, err
        assert message in err, err
        assert "internal error" not in err
        assert len(err.strip().splitlines()) == 1
    if before is not None:
        assert path.read_bytes() == before
    assert sorted(os.listdir(path.parent)) == beside  # no -wal, -shm or journal left


def _sqlite(path: Path, *statements: str, wal: bool = False) -> Path:
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode = WAL")
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()
    return path


Make = Callable[[Path], Path]


def _text(tmp: Path) -> Path:
    (tmp / "notes.txt").write_text("just some notes\n" * 50)
    return tmp / "notes.txt"


def _random(tmp: Path) -> Path:
    (tmp / "noise.sqlite").write_bytes(os.urandom(8192))
    return tmp / "noise.sqlite"


def _foreign(tmp: Path) -> Path:
    return _sqlite(tmp / "other.sqlite", "CREATE TABLE contacts (name TEXT)", wal=True)


def _foreign_alembic(tmp: Path) -> Path:
    return _sqlite(
        tmp / "alembic.sqlite",
        "CREATE TABLE alembic_version (version_num TEXT)",
        "INSERT INTO alembic_version VALUES ('0001')",
        "CREATE TABLE users (id INTEGER)",
    )


def _other_application(tmp: Path) -> Path:
    return _sqlite(tmp / "app.sqlite", "PRAGMA application_id = 1234", "CREATE TABLE t (a)")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (_text, "not an SQLite database"),
        (_random, "not an SQLite database"),
        (_foreign, "an SQLite database, but not a refman library"),
        (_foreign_alembic, "an SQLite database, but not a refman library"),
        (_other_application, "another program's SQLite database"),
    ],
    ids=["text", "random-bytes", "foreign-wal", "foreign-with-alembic", "other-application"],
)
def test_a_file_that_is_no_refman_library_is_refused_untouched(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, make: Make, message: str
) -> None:
    _refused(capsys, make(tmp_path), message)


def test_a_folder_and_a_fifo_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "shelf"
    folder.mkdir()
    _refused(capsys, folder, "is a folder")
    fifo = tmp_path / "pipe.sqlite"
    os.mkfifo(fifo)
    _refused(capsys, fifo, "not a regular file")


def test_a_truncated_library_is_refused_untouched(
    capsys: pytest.CaptureFixture[str], library_path: Path
) -> None:
    _imported(library_path, PAGE)
    data = library_path.read_bytes()
    library_path.write_bytes(data[: len(data) // 3])
    _refused(capsys, library_path, "damaged")


def test_a_library_of_a_newer_refman_is_refused_untouched(
    capsys: pytest.CaptureFixture[str], library_path: Path
) -> None:
    _sqlite(library_path, "UPDATE alembic_version SET version_num = '9999'")
    _refused(capsys, library_path, "newer version of refman")


def test_new_and_older_libraries_are_stamped_as_refman_libraries(tmp_path: Path) -> None:
    new = tmp_path / "new.sqlite"
    LibraryService.open(new).close()
    assert _application_id(new) == APPLICATION_ID
    older = tmp_path / "older.sqlite"
    LibraryService.open(older).close()
    _sqlite(older, "PRAGMA application_id = 0")  # as refman wrote files before the stamp
    library = LibraryService.open(older)
    library.import_pages([sourced(PAGE)])
    library.close()
    assert _application_id(older) == APPLICATION_ID


def test_known_revisions_end_at_the_migrations_head() -> None:
    assert KNOWN_REVISIONS[-1] == head_revision()


def _fts_hits(path: Path, word: str) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        found = conn.execute("SELECT rowid FROM papers_fts WHERE papers_fts MATCH ?", (word,))
        return [int(row[0]) for row in found]
    finally:
        conn.close()


def _imported(path: Path, page: str) -> None:
    library = LibraryService.open(path)
    library.import_pages([sourced(page)])
    library.close()


def _application_id(path: Path) -> int:
    return int.from_bytes(path.read_bytes()[68:72], "big")


def _damage_middle_pages(path: Path, pages: int = 16) -> None:
    """Overwrite pages in the middle of the file with random bytes, as a disk fault would."""
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    middle = (len(data) // page // 2) * page
    data[middle : middle + pages * page] = os.urandom(pages * page)
    path.write_bytes(bytes(data))


@pytest.fixture
def damaged(library_path: Path) -> Path:
    _imported(library_path, generated_page(2_000))
    _damage_middle_pages(library_path)
    return library_path


@pytest.mark.logs_warnings("refman.store")
def test_a_damaged_library_is_never_written_to(
    capsys: pytest.CaptureFixture[str], damaged: Path
) -> None:
    before = damaged.read_bytes()
    for command in (["tag", "1", "x"], ["note", "1", "hello"], ["empty-trash"], ["trash", "2"]):
        code = main(["--db", str(damaged), *command])
        err = capsys.readouterr().err
        assert code == 2, err
        assert "is damaged" in err and "refman restore" in err
        assert "internal error" not in err and err.count("\n") == 1  # one line
    assert damaged.read_bytes() == before
    assert main(["--db", str(damaged), "check"]) == 2
    assert "is damaged" in capsys.readouterr().err
    assert main(["--db", str(damaged), "check", "--json"]) == 2
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["problems"]
    assert damaged.read_bytes() == before


def test_check_says_a_whole_library_is_whole_and_refman_remembers_it_as_left(
    capsys: pytest.CaptureFixture[str], library_path: Path
) -> None:
    _imported(library_path, PAGE)
    assert main(["--db", str(library_path), "check", "--full"]) == 0
    assert "is whole (integrity check: ok)" in capsys.readouterr().out
    assert main(["--db", str(library_path), "check", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "library": str(library_path),
        "full": False,
        "ok": True,
        "problems": [],
    }
    assert CheckRecord(paths.check_record()).trusted(library_path)
    assert main(["--db", str(library_path), "tag", "1", "read"]) == 0
    assert CheckRecord(paths.check_record()).trusted(library_path)  # as refman left it
    _sqlite(library_path, "CREATE TABLE scratch (a)")  # another program wrote to it
    assert not CheckRecord(paths.check_record()).trusted(library_path)


@pytest.mark.logs_warnings("refman.store")
@pytest.mark.parametrize(
    "statement",
    ["DROP TABLE papers_fts", "DROP TABLE notes_fts", "DROP TRIGGER tags_fts_ai"],
    ids=["papers", "notes", "tag-trigger"],
)
def test_a_missing_search_index_is_rebuilt(cli: Cli, library_path: Path, statement: str) -> None:
    _imported(library_path, PAGE)
    assert cli("note", "1", "remember the lattice").code == 0
    assert cli("tag", "1", "engines").code == 0
    _sqlite(library_path, statement)
    for query in ("lattice", "remember", "engines"):
        result = cli("search", query, "--json")
        assert result.code == 0, result.err
        assert [p["title"] for p in json.loads(result.out)] == [
            "Lattice engines for the analytical age"
        ]
    assert cli("tag", "1", "newer").code == 0
    assert [p["id"] for p in json.loads(cli("search", "newer", "--json").out)] == [1]


@pytest.mark.sqlite_only
@pytest.mark.logs_warnings("refman.store")
def test_recover_copies_what_a_damaged_library_can_give(
    cli: Cli, damaged: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = damaged.read_bytes()
    rescued = tmp_path / "rescued.sqlite"
    result = cli("recover", str(rescued), "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert set(report) == {
        "library",
        "recovered_to",
        "copied",
        "lost",
        "complete",
        "files",
        "files_missing",
    }
    assert damaged.read_bytes() == before  # the damaged file was only read
    papers = report["copied"]["papers"]
    assert 0 < papers <= 2_000
    assert main(["--db", str(rescued), "check", "--full"]) == 0
    assert "is whole" in capsys.readouterr().out
    assert main(["--db", str(rescued), "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == papers
    word = listed[0]["title"].split()[0]
    assert main(["--db", str(rescued), "search", word, "--json"]) == 0  # indexes made again
    assert listed[0]["id"] in [p["id"] for p in json.loads(capsys.readouterr().out)]
    assert main(["--db", str(rescued), "tag", str(listed[0]["id"]), "rescued"]) == 0
    assert cli("recover", str(rescued)).code == 2  # never over an existing file


@pytest.mark.sqlite_only
def test_a_recovered_library_never_gives_an_id_the_old_one_gave(
    cli: Cli, library_path: Path, tmp_path: Path
) -> None:
    library = LibraryService.open(library_path)
    try:
        ids = library.import_pages([sourced(generated_page(10))]).new_ids
        library.trash(ids[-3:])
        library.empty_trash()  # the newest papers deleted for good
    finally:
        library.close()
    rescued = tmp_path / "rescued.sqlite"
    assert cli("recover", str(rescued)).code == 0
    later = LibraryService.open(rescued)
    try:
        page = publication_page("Late Comer", [("Tidewater glaciers", 2025, "arXiv")])
        assert later.import_pages([sourced(page)]).new_ids == (max(ids) + 1,)
    finally:
        later.close()


@pytest.mark.sqlite_only
def test_a_recovered_library_keeps_its_attached_files_and_names_those_missing(
    cli: Cli, library_path: Path, tmp_path: Path
) -> None:
    """The recovered library's rows name its stored files: they are copied into its own
    storage folder (they were all missing there); one the damaged library had lost already
    is named with its paper."""
    library = LibraryService.open(library_path)
    try:
        first, second = library.import_pages([sourced(generated_page(2))]).new_ids
        (kept,) = library.attach(first, [make_pdf(tmp_path / "kept.pdf", pages=2)])
        (gone,) = library.attach(second, [make_pdf(tmp_path / "gone.pdf", pages=1)])
    finally:
        library.close()
    Path(gone.path).unlink()
    rescued = tmp_path / "rescued.sqlite"
    result = cli("recover", str(rescued), "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["files"] == 1
    assert [(f["paper"], f["name"]) for f in report["files_missing"]] == [(second, "gone.pdf")]
    later = LibraryService.open(rescued)
    try:
        (file,) = later.paper(first).files
        assert not file.missing and Path(file.path).read_bytes() == Path(kept.path).read_bytes()
        assert Path(file.path).parent.parent == rescued.with_name("rescued-files")
        assert [f.name for f in later.check_files().missing] == ["gone.pdf"]
    finally:
        later.close()
    said = cli("recover", str(tmp_path / "again.sqlite")).out
    assert "Recovered 2 papers of" in said and "1 attached file copied with it." in said
    assert f"#{second}  gone.pdf: not at {gone.path}" in said


def test_a_check_report_of_many_lines_is_said_in_one() -> None:
    from refman.store.database import _one_line

    report = (
        "*** in database main ***\nOn tree page 7 cell 3: Rowid 9 out of order\nPage 12: never used"
    )
    said = _one_line(report, 4)
    assert "\n" not in said and said.startswith("*** in database main *** On tree page 7")
    assert said.endswith("; 4 more") and len(_one_line("x" * 500, 0)) == 160


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("typo.sqlite", "There is no library"),
        ("prose.txt", "not an SQLite database"),
        ("foreign.sqlite", "not a refman library"),
        ("empty.sqlite", "is empty"),
    ],
)
def test_recover_refuses_what_holds_no_library_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, said: str
) -> None:
    (tmp_path / "prose.txt").write_text("a note, not a library\n", encoding="utf-8")
    _sqlite(tmp_path / "foreign.sqlite", "CREATE TABLE x (a)")
    (tmp_path / "empty.sqlite").touch()
    before = sorted(p.name for p in tmp_path.iterdir())
    rescued = tmp_path / "rescued.sqlite"
    assert main(["--db", str(tmp_path / source), "recover", str(rescued)]) == 2
    err = capsys.readouterr().err
    assert said in err and "refman --db LIBRARY recover NEW-FILE" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no file made on either side


@pytest.mark.logs_warnings("refman.store")
def test_the_full_check_fills_a_search_index_that_no_longer_matches_its_rows(
    cli: Cli, library_path: Path
) -> None:
    _imported(library_path, PAGE)
    assert cli("tag", "1", "first").code == 0  # refman has opened and left it whole
    _sqlite(library_path, "UPDATE papers SET title = 'Quokka engines' WHERE id = 1")
    assert _fts_hits(library_path, "quokka") == []  # the index no longer matches the rows
    result = cli("check", "--full")
    assert result.code == 0, result.err
    assert [p["id"] for p in json.loads(cli("search", "quokka", "--json").out)] == [1]
    assert _fts_hits(library_path, "quokka") == [1]
