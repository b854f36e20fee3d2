"""Opening a library: creation at the newest schema, SQLite settings, upgrades, refusals."""

from __future__ import annotations

import gc
import random
import shutil
import sqlite3
import threading
from collections.abc import Callable
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

import refman.store.schema as schema
from refman.__main__ import main
from refman.common.collector import EASED
from refman.common.errors import LibraryOpenError
from refman.core.importing.apply import apply_import
from refman.core.importing.plan import plan_import, prepare_import
from refman.core.importing.values import ImportChoices, SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from refman.store.backup import copy_verified
from refman.store.connection import BUSY_TIMEOUT_MS, CACHE_SIZE, LARGE_CACHE_SIZE
from refman.store.database import SCHEMA_HEAD, head_revision
from refman.store.models import Base
from tests.helpers.disk import read_only


def _revision(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("SELECT version_num FROM alembic_version").fetchone()[0])
    finally:
        conn.close()


def _tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()


_TOPICS = ["Glacier", "Harbor", "Meadow", "Quorum", "Vector", "Zenith", "Timber", "Prism"]


def _page(n: int = 3) -> SourcedPage:
    rng = random.Random(n)
    records = [
        ParsedRecord(
            title=f"{_TOPICS[i]} Methods Are Distinct",
            title_provisional=False,
            abstract=f"{_TOPICS[i]}: " + " ".join(rng.choice(_TOPICS) for _ in range(40)),
            year=2020 + i,
        )
        for i in range(n)
    ]
    return SourcedPage(ParsedPage("Maren Solvik", PageFormat.PUBLICATION_LIST, n, records))


def _files_beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


# -- a new library -----------------------------------------------------------------------------


def test_a_new_library_is_created_at_the_newest_schema(tmp_path: Path) -> None:
    path = tmp_path / "new folder" / "deeper" / "library.sqlite"
    library = LibraryService.open(path)
    try:
        assert library.location == str(path)
        assert library.db.path == path
        assert library.count() == 0
    finally:
        library.close()
    assert path.is_file()
    assert _revision(path) == head_revision()
    assert {"papers", "persons", "tags", "notes", "import_batches", "papers_fts"} <= _tables(path)


@pytest.mark.sqlite_only
def test_connections_use_wal_foreign_keys_and_a_busy_timeout(library: LibraryService) -> None:
    engine = library.db.engine
    with engine.connect() as first, engine.connect() as second:
        for conn in (first, second):
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == BUSY_TIMEOUT_MS
    assert BUSY_TIMEOUT_MS >= 1000


@pytest.mark.sqlite_only
def test_a_large_change_keeps_its_pages_in_memory_and_hands_back_a_usual_connection(
    library: LibraryService,
) -> None:
    # A statement journal written to a temporary file page by page cost an import a sixth
    # of its time; the next reader must not keep the large change's 256 MiB cache.
    with library.db.transaction(large=True) as session:
        conn = session.connection()
        assert conn.exec_driver_sql("PRAGMA temp_store").scalar() == 2  # memory
        assert conn.exec_driver_sql("PRAGMA cache_size").scalar() == LARGE_CACHE_SIZE
    with library.db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA temp_store").scalar() == 0  # as built
        assert conn.exec_driver_sql("PRAGMA cache_size").scalar() == CACHE_SIZE
    with library.db.transaction() as session:
        conn = session.connection()
        assert conn.exec_driver_sql("PRAGMA temp_store").scalar() == 0


def test_an_import_eases_the_cycle_collector_and_brings_the_usual_one_back(
    library: LibraryService,
) -> None:
    usual = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []
    library.import_pages([_page(3)], progress=lambda done, total: seen.append(gc.get_threshold()))
    assert seen and all(t == EASED for t in seen)
    assert gc.get_threshold() == usual
    assert library.count() == 3


def test_foreign_keys_are_enforced(library: LibraryService) -> None:
    with pytest.raises(IntegrityError), library.db.transaction() as session:
        session.execute(
            text("INSERT INTO authorships (paper_id, position, person_id) VALUES (999, 0, 999)")
        )


def test_reopening_keeps_the_papers_and_makes_no_copy(library_path: Path) -> None:
    library = LibraryService.open(library_path)
    library.import_pages([_page()])
    library.close()
    files = _files_beside(library_path)
    again = LibraryService.open(library_path)
    try:
        assert again.count() == 3
    finally:
        again.close()
    assert _files_beside(library_path) == files
    assert not any("before-upgrade" in name for name in files)


def test_the_models_agree_with_the_migrated_schema(library: LibraryService) -> None:
    def ours(name: str | None, type_: str, _parent: object) -> bool:
        # The search indexes are the store's own, outside the models: SQLite's FTS tables
        # (and their shadow tables), PostgreSQL's word vectors and their indexes.
        if name is None:
            return True
        if type_ == "table":  # (and a shared library's revision counters, a file's id marks)
            return "_fts" not in name and name not in {
                "paper_words",
                "library_counters",
                "id_marks",
            }
        return name != "words" and not name.endswith("_words")

    with library.db.engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"include_name": ours, "compare_type": True, "compare_server_default": True}
        )
        differences = compare_metadata(context, Base.metadata)
    assert differences == []


@pytest.mark.sqlite_only
def test_copy_library_copies_everything(library: LibraryService, tmp_path: Path) -> None:
    library.import_pages([_page(5)])
    target = tmp_path / "copy.sqlite"
    target.write_bytes(b"old content")
    assert library.db.path is not None
    copy_verified(library.db.path, target)
    copy = LibraryService.open(target)
    try:
        assert copy.count() == 5
    finally:
        copy.close()


# -- upgrades ----------------------------------------------------------------------------------

_NEXT_REVISION = '''"""test revision

Revision ID: 9999
Revises: {head}
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "9999"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("upgrade_marker", sa.Column("id", sa.Integer(), primary_key=True))


def downgrade() -> None:
    op.drop_table("upgrade_marker")
'''


@pytest.fixture
def newer_refman(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[], str]:
    """Call to pretend this refman has one more schema revision (9999) beyond the shipped ones."""
    scripts = tmp_path / "migrations"
    shutil.copytree(
        str(resources.files("refman.store") / "migrations"),
        scripts,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    (scripts / "versions" / "9999_test_revision.py").write_text(
        _NEXT_REVISION.replace("{head}", head_revision())
    )

    def config() -> Config:
        cfg = Config()
        cfg.set_main_option("script_location", str(scripts))
        return cfg

    def activate() -> str:
        monkeypatch.setattr(schema, "_alembic_config", config)
        monkeypatch.setattr(schema, "SCHEMA_HEAD", "9999")
        return head_revision()

    return activate


def test_an_older_library_is_upgraded_and_a_copy_kept_beside_it(
    library_path: Path, newer_refman: Callable[[], str]
) -> None:
    library = LibraryService.open(library_path)
    library.import_pages([_page(4)])
    library.tag(library.paper_ids()[:2], ["kept"])
    library.close()
    old_revision = _revision(library_path)

    new_revision = newer_refman()
    assert new_revision == "9999" != old_revision
    upgraded = LibraryService.open(library_path)
    try:
        assert upgraded.count() == 4
        assert [(t.name, t.count) for t in upgraded.tags()] == [("kept", 2)]
        assert upgraded.count(PaperQuery(text="distinct")) == 4
    finally:
        upgraded.close()

    assert _revision(library_path) == new_revision
    assert "upgrade_marker" in _tables(library_path)
    copies = [n for n in _files_beside(library_path) if ".before-upgrade-" in n]
    assert len(copies) == 1
    assert copies[0].startswith(f"{library_path.name}.before-upgrade-{old_revision}-")
    copy = library_path.parent / copies[0]
    assert _revision(copy) == old_revision
    assert "upgrade_marker" not in _tables(copy)
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT count(*) FROM papers").fetchone()[0] == 4
    conn.close()

    # Opening again makes no further copy.
    LibraryService.open(library_path).close()
    assert [n for n in _files_beside(library_path) if ".before-upgrade-" in n] == copies


def test_an_older_library_that_can_only_be_read_is_refused_saying_why(
    library_path: Path, newer_refman: Callable[[], str], capsys: pytest.CaptureFixture[str]
) -> None:
    library = LibraryService.open(library_path)
    library.import_pages([_page(4)])
    library.close()
    old_revision = _revision(library_path)
    newer_refman()
    before = library_path.read_bytes()
    with read_only(library_path):
        with pytest.raises(LibraryOpenError) as caught:
            LibraryService.open(library_path)
        # Every command said "The library cannot be changed … You can browse, search and
        # export it", and did none of that (the upkeep after an upgrade wrote to it).
        assert main(["--db", str(library_path), "list"]) == 2
    _plain(caught.value)
    said = caught.value.message
    assert f"older refman (schema {old_revision})" in said and "read-only" in said
    assert "writable" in caught.value.hint
    assert "older refman" in capsys.readouterr().err
    assert library_path.read_bytes() == before and _revision(library_path) == old_revision


def test_a_new_library_needs_no_copy_even_when_there_are_several_revisions(
    tmp_path: Path, newer_refman: Callable[[], str]
) -> None:
    newer_refman()
    path = tmp_path / "new" / "fresh.sqlite"
    LibraryService.open(path).close()
    assert _revision(path) == "9999"
    assert _files_beside(path) == ["fresh.sqlite"]


# -- refusals ----------------------------------------------------------------------------------


def _plain(error: LibraryOpenError) -> None:
    assert error.message and error.message.endswith(".")
    assert "Traceback" not in str(error) and "sqlalchemy" not in str(error).lower()
    assert error.hint


def test_a_library_from_a_newer_refman_is_refused_unchanged(library_path: Path) -> None:
    with sqlite3.connect(library_path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00dcafe9999'")
    conn.close()
    before = library_path.read_bytes()
    files = _files_beside(library_path)

    with pytest.raises(LibraryOpenError, match="newer version") as caught:
        LibraryService.open(library_path)

    _plain(caught.value)
    assert "f00dcafe9999" in caught.value.message
    assert library_path.read_bytes() == before
    assert _files_beside(library_path) == files


@pytest.mark.parametrize(
    "content",
    [b"hello, this is a text file and not a database\n" * 40, bytes(range(256)) * 20],
    ids=["text", "binary"],
)
def test_a_file_that_is_not_sqlite_is_refused_unchanged(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(content)

    with pytest.raises(LibraryOpenError, match="is not a refman library") as caught:
        LibraryService.open(path)

    _plain(caught.value)
    assert path.read_bytes() == content
    assert _files_beside(path) == ["notes.txt"]


def _foreign_database(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")
    conn.execute("INSERT INTO recipes VALUES ('soup', 30)")
    conn.commit()
    conn.close()


def test_another_programs_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "recipes.sqlite"
    _foreign_database(path)

    with pytest.raises(LibraryOpenError, match="not a refman library") as caught:
        LibraryService.open(path)

    _plain(caught.value)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT * FROM recipes").fetchall() == [("soup", 30)]
        assert "alembic_version" not in _tables(path)
    finally:
        conn.close()


def test_another_programs_sqlite_database_is_left_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "recipes.sqlite"
    _foreign_database(path)
    before = path.read_bytes()
    with pytest.raises(LibraryOpenError):
        LibraryService.open(path)
    assert path.read_bytes() == before


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(LibraryOpenError, match="folder") as caught:
        LibraryService.open(tmp_path)
    _plain(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_a_location_below_a_file_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "plain.txt"
    blocker.write_text("x")
    with pytest.raises(LibraryOpenError, match="Cannot create the folder") as caught:
        LibraryService.open(blocker / "library.sqlite")
    _plain(caught.value)
    assert blocker.read_text() == "x"


# -- sharing the file --------------------------------------------------------------------------


def test_reads_go_on_and_writes_wait_while_another_program_writes(
    library: LibraryService, library_path: Path
) -> None:
    library.import_pages([_page(2)])
    other = sqlite3.connect(library_path, isolation_level=None, check_same_thread=False)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        other.execute("UPDATE papers SET venue = 'Elsewhere'")
        assert library.count() == 2  # WAL: readers are not blocked by a writer
        outcome: list[object] = []

        def write() -> None:
            try:
                outcome.append(library.tag(library.paper_ids(), ["waited"]))
            except Exception as exc:  # pragma: no cover - reported below
                outcome.append(exc)

        worker = threading.Thread(target=write)
        worker.start()
        worker.join(timeout=0.4)
        assert worker.is_alive() and outcome == []  # still waiting for the lock, not failed
        other.execute("COMMIT")
        worker.join(timeout=BUSY_TIMEOUT_MS / 1000)
        assert len(outcome) == 1 and not isinstance(outcome[0], Exception), outcome
    finally:
        other.close()
    assert [t.count for t in library.tags()] == [2]
    assert {d.venue for d in library.details(library.paper_ids())} == {"Elsewhere"}


def test_the_schema_head_refman_writes_is_the_newest_migration() -> None:
    assert head_revision() == SCHEMA_HEAD


def test_a_command_waits_for_another_writer_and_says_so(
    library: LibraryService, library_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    library.import_pages([_page(2)])
    other = sqlite3.connect(library_path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another refman is writing for two seconds
    release = threading.Timer(2.0, lambda: other.execute("COMMIT"))
    release.start()
    try:
        assert main(["--db", str(library_path), "tag", "1", "waited"]) == 0
    finally:
        release.join()
        other.close()
    captured = capsys.readouterr()
    assert "Waiting for another refman to finish writing" in captured.err
    assert [t.name for t in library.tags()] == ["waited"]


def test_an_import_planned_on_a_quiet_library_is_not_planned_again(
    library: LibraryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    import refman.core.importing.plan as planning

    library.import_pages([_page(2)])
    pages = (_page(3),)
    with library.db.reading() as session:
        prepared = prepare_import(session, library.db.search, pages)
    planned: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        planned.append(1)
        return plan_import(*args, **kwargs)

    monkeypatch.setattr(planning, "plan_import", counted)
    with library.db.transaction() as session:
        result = apply_import(
            session,
            library.db.search,
            pages,
            ImportChoices(),
            datetime(2026, 1, 1),
            prepared=prepared,
        )
    assert planned == []  # nobody changed the library in between: the plan stands
    assert len(result.new_ids) == 1 and library.count() == 3


def test_an_import_planned_before_another_change_is_planned_again(
    library: LibraryService,
) -> None:
    pages = (_page(3),)
    with library.db.reading() as session:
        stale = prepare_import(session, library.db.search, pages)
    library.import_pages([_page(3)])  # meanwhile, another process imported the same page
    with library.db.transaction() as session:
        result = apply_import(
            session, library.db.search, pages, ImportChoices(), datetime(2026, 1, 1), prepared=stale
        )
    assert not result.new_ids  # planned again: every record is already there
    assert library.count() == 3
