"""Backups: made on their own at the moments that matter, on demand, listed, restored, and
rotated within bounds."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from refman import paths
from refman.common.errors import InvalidValueError
from refman.core.library import LibraryService
from refman.store.backup import (
    KEEP_LATEST,
    MIN_BUDGET,
    BackupFile,
    backup_path,
    copy_verified,
    folder_for,
    listed,
    papers_in,
    to_prune,
)
from tests.helpers.cli import Cli
from tests.helpers.fixtures import sourced
from tests.helpers.pages import generated_page


@pytest.fixture
def page(tmp_path: Path) -> Path:
    path = tmp_path / "page.txt"
    path.write_text(generated_page(20, owner="Ada Lovelace"), encoding="utf-8")
    return path


def _backups(cli: Cli) -> list[dict[str, object]]:
    result = cli("backups", "--json")
    assert result.code == 0, result.err
    found: list[dict[str, object]] = json.loads(result.out)
    return found


def _titles(cli: Cli) -> list[str]:
    return sorted(p["title"] for p in json.loads(cli("list", "--json").out))


def test_a_changed_library_is_backed_up_when_closed_at_most_hourly(
    cli: Cli, page: Path, library_path: Path
) -> None:
    assert _backups(cli) == []
    assert cli("import", str(page)).code == 0
    found = _backups(cli)
    assert [(b["reason"], b["papers"]) for b in found] == [("close", 20)]
    assert set(found[0]) == {"path", "made", "reason", "size", "papers", "files"}
    assert Path(str(found[0]["path"])).parent == folder_for(paths.backup_dir(), library_path)
    assert cli("tag", "1", "later").code == 0  # within the hour: no second backup
    assert len(_backups(cli)) == 1
    assert cli("list").code == 0  # nothing changed: no backup
    assert len(_backups(cli)) == 1


@pytest.mark.sqlite_only
def test_backup_on_demand_and_restore_bring_the_library_back(
    cli: Cli, page: Path, tmp_path: Path
) -> None:
    assert cli("import", str(page)).code == 0
    assert cli("tag", "1", "keep").code == 0
    made = json.loads(cli("backup", "--json").out)
    assert made["reason"] == "manual" and made["papers"] == 20
    before = _titles(cli)
    assert cli("trash", "1", "2", "3").code == 0
    assert cli("untag", "1", "keep").code == 0
    assert len(_titles(cli)) == 17
    result = cli("restore-backup", Path(str(made["path"])).name, "--json")
    assert result.code == 0, result.err
    restored = json.loads(result.out)
    assert restored["before"]["reason"] == "restore" and restored["before"]["papers"] == 17
    assert _titles(cli) == before
    assert [t["name"] for t in json.loads(cli("tags", "--json").out)] == ["keep"]
    assert cli("check").code == 0
    # The restore itself can be undone by restoring the backup it made.
    assert cli("restore-backup", str(restored["before"]["path"])).code == 0
    assert len(_titles(cli)) == 17
    copy = tmp_path / "elsewhere" / "copy.sqlite"
    assert cli("backup", "--to", str(copy)).code == 0 and copy.is_file()
    assert cli("restore-backup", "no-such-backup.sqlite").code == 2


@pytest.mark.sqlite_only
def test_empty_trash_and_a_large_import_are_backed_up_first(
    cli: Cli, page: Path, tmp_path: Path
) -> None:
    assert cli("import", str(page)).code == 0
    assert cli("trash", "1").code == 0
    assert cli("empty-trash").code == 0
    reasons = [b["reason"] for b in _backups(cli)]
    assert "empty-trash" in reasons
    emptied = next(b for b in _backups(cli) if b["reason"] == "empty-trash")
    assert emptied["papers"] == 19  # the copy was made before the paper left for good
    big = tmp_path / "big.txt"
    big.write_text(generated_page(1_100, owner="Grace Hopper"), encoding="utf-8")
    assert cli("import", str(big)).code == 0
    made = next(b for b in _backups(cli) if b["reason"] == "import")
    assert made["papers"] == 19


@pytest.mark.sqlite_only
def test_a_backups_name_wins_over_a_file_of_that_name_in_the_current_folder(
    cli: Cli, page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``restore-backup NAME`` restored a file NAME of the current folder, not the backup."""
    assert cli("import", str(page)).code == 0
    made = json.loads(cli("backup", "--json").out)  # 20 papers
    name = Path(str(made["path"])).name
    assert cli("trash", "1", "2", "3").code == 0
    here = tmp_path / "here"
    assert cli("backup", "--to", str(here / name)).code == 0  # 17 papers, the same name
    monkeypatch.chdir(here)
    result = cli("restore-backup", name, "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["restored"] == name and len(_titles(cli)) == 20
    assert cli("restore-backup", f"./{name}").code == 0  # clearly a path: the file
    assert len(_titles(cli)) == 17
    (here / "mine.sqlite").write_bytes((here / name).read_bytes())
    assert cli("restore-backup", "mine.sqlite").code == 0  # no backup of that name: the file
    assert len(_titles(cli)) == 17
    missing = cli("restore-backup", "./gone.sqlite")  # a path: named a file, not a backup
    assert missing.code == 2 and "There is no file “./gone.sqlite”." in missing.err
    assert "There is no backup “gone.sqlite”." in cli("restore-backup", "gone.sqlite").err


def _backup(made: datetime, size: int = 1000) -> BackupFile:
    return BackupFile(Path(f"{made:%Y%m%d-%H%M%S}-close.sqlite"), made, "close", size)


def test_the_rotation_keeps_the_latest_then_daily_then_weekly() -> None:
    now = datetime(2026, 12, 1, 12, 0)
    hourly = [_backup(now - timedelta(hours=h)) for h in range(24 * 45)]
    dropped = {b.path for b in to_prune(hourly, now, library_size=1000)}
    kept = sorted((b for b in hourly if b.path not in dropped), key=lambda b: b.made)
    assert kept[-KEEP_LATEST:] == sorted(hourly[:KEEP_LATEST], key=lambda b: b.made)
    older = kept[:-KEEP_LATEST]
    assert all(now - b.made <= timedelta(days=30) for b in older)
    days = [b.made.date() for b in older if now - b.made <= timedelta(days=7)]
    assert len(days) == len(set(days)) and len(days) >= 6
    assert len(older) <= 7 + 5


def test_the_rotation_keeps_the_backups_within_their_room() -> None:
    now = datetime(2026, 12, 1, 12, 0)
    huge = [_backup(now - timedelta(minutes=m), size=MIN_BUDGET // 3) for m in range(8)]
    dropped = to_prune(huge, now, library_size=1000)
    kept = [b for b in huge if b not in dropped]
    assert huge[0] in kept and sum(b.size for b in kept) <= MIN_BUDGET
    assert len(kept) == 3


def test_listing_ignores_files_that_are_not_backups(tmp_path: Path) -> None:
    (tmp_path / "20261201-101010-close.sqlite").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "20261201-101010-close.sqlite.part").write_bytes(b"x")
    assert [b.reason for b in listed(tmp_path)] == ["close"]


def test_two_backups_wanting_one_name_are_both_kept(tmp_path: Path) -> None:
    # Two programs importing into one library back it up in the same second: the second
    # copy takes the next second's name instead of replacing (or losing) the first.
    library = tmp_path / "library.sqlite"
    conn = sqlite3.connect(library)
    conn.execute("CREATE TABLE papers (id INTEGER PRIMARY KEY, trashed_at TEXT)")
    conn.execute("INSERT INTO papers (trashed_at) VALUES (NULL)")
    conn.commit()
    conn.close()
    target = backup_path(tmp_path / "backups", datetime(2026, 12, 5, 9, 0, 0), "import")
    first = copy_verified(library, target, keep_others=True)
    second = copy_verified(library, target, keep_others=True)
    assert first == target and second.name == "20261205-090001-import.sqlite"
    assert [b.path for b in listed(tmp_path / "backups")] == [second, first]
    assert papers_in(first) == papers_in(second) == 1
    assert not list((tmp_path / "backups").glob("*.part"))


@pytest.mark.sqlite_only
def test_a_file_that_is_not_a_refman_library_is_never_restored(
    cli: Cli, page: Path, tmp_path: Path, library_path: Path
) -> None:
    assert cli("import", str(page)).code == 0
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE x (a)")
    prose = tmp_path / "notes.txt"
    prose.write_text("not a library\n", encoding="utf-8")
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    before = library_path.read_bytes()
    for wrong, said in (
        (foreign, "not a refman library"),
        (prose, "not an SQLite"),
        (empty, "holds no library"),
    ):
        result = cli("restore-backup", str(wrong))
        assert result.code == 2, result.err
        assert said in result.err and "cannot be restored" in result.err
        assert "refman backups" in result.err and "Traceback" not in result.err
    assert library_path.read_bytes() == before and len(_titles(cli)) == 20
    assert _backups(cli) == [] or all(b["reason"] != "restore" for b in _backups(cli))


@pytest.mark.sqlite_only
def test_backing_up_to_the_same_file_again_replaces_it_files_and_all(
    cli: Cli, page: Path, tmp_path: Path
) -> None:
    assert cli("import", str(page)).code == 0
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(b"%PDF-1.4\n% a stored file\n")
    assert cli("attach", "1", str(pdf)).code == 0
    copy = tmp_path / "nightly" / "library.sqlite"
    for _ in range(2):
        result = cli("backup", "--to", str(copy), "--json")
        assert result.code == 0, result.err
        assert json.loads(result.out)["files"] == 1
    assert papers_in(copy) == 20
    folder = tmp_path / "into-this-folder"
    folder.mkdir()
    result = cli("backup", "--to", str(folder), "--json")
    assert result.code == 0, result.err
    made = Path(json.loads(result.out)["path"])
    assert made.parent == folder and papers_in(made) == 20
    missing = tmp_path / "no-such-folder"
    refused = cli("backup", "--to", f"{missing}/")  # a folder's name, as cp reads it
    assert refused.code == 2 and "There is no folder" in refused.err
    assert not missing.exists()


@pytest.mark.sqlite_only
def test_a_backup_never_writes_over_the_library_itself_or_a_file_that_is_no_library(
    cli: Cli, page: Path, tmp_path: Path, library_path: Path
) -> None:
    assert cli("import", str(page)).code == 0
    bibliography = tmp_path / "mine.bib"
    bibliography.write_text("@article{a, title = {Mine}}\n", encoding="utf-8")
    foreign = tmp_path / "other.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE x (a)")
    linked = tmp_path / "link.sqlite"
    linked.symlink_to(library_path)
    for target, said in (
        (bibliography, "not an SQLite database"),
        (foreign, "not a refman library"),
        (library_path, "is the library itself"),
        (linked, "is the library itself"),
    ):
        before = target.read_bytes()
        result = cli("backup", "--to", str(target))
        assert result.code == 2, (target, result.out)
        assert said in result.err and "Traceback" not in result.err
        assert target.read_bytes() == before
    assert bibliography.read_text(encoding="utf-8").startswith("@article")
    assert linked.is_symlink() and len(_titles(cli)) == 20
    assert cli("tag", "1", "still-written").code == 0 and cli("check").code == 0
    empty = tmp_path / "empty.sqlite"
    empty.touch()  # an empty file, as an earlier copy: written over
    assert cli("backup", "--to", str(empty)).code == 0 and papers_in(empty) == 20


def _downgraded(copy: Path, revision: str) -> None:
    """A copy of a library made as an older refman wrote it (its schema at ``revision``)."""
    from alembic import command
    from sqlalchemy import create_engine

    from refman.store import schema

    config = schema._alembic_config()
    engine = create_engine(f"sqlite:///{copy}")
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, revision)
    engine.dispose()


@pytest.mark.sqlite_only
def test_a_backup_an_older_refman_made_is_restored_upgraded_and_a_newer_ones_refused(
    page: Path, tmp_path: Path, library_path: Path
) -> None:
    service = LibraryService.open(library_path, paths.check_record(), paths.backup_dir())
    try:
        service.import_pages([sourced(page.read_text(encoding="utf-8"))])
        older = service.file.backup("manual", tmp_path / "older.sqlite").path
        _downgraded(older, "0026")
        service.trash(service.paper_ids()[:5])
        service.file.restore(older)  # as the window's Restore from Backup… does
        assert service.count() == 20
        service.tag(service.paper_ids()[:2], ["after"])  # failed: no such table: id_marks
        assert [(t.name, t.count) for t in service.tags()] == [("after", 2)]
        reasons = sorted(b.reason for b in service.file.backups())
        assert reasons == ["restore", "upgrade"]  # the older copy kept as it was, too
        newer = service.file.backup("manual", tmp_path / "newer.sqlite").path
        with sqlite3.connect(newer) as conn:
            conn.execute("UPDATE alembic_version SET version_num = '9999'")
        conn.close()
        before = library_path.read_bytes()
        with pytest.raises(InvalidValueError, match="newer version of refman"):
            service.file.restore(newer)  # it left a library this refman cannot open
        assert library_path.read_bytes() == before
    finally:
        service.close()
    assert LibraryService.open(library_path).count() == 20
