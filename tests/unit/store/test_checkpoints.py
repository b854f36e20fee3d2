"""The write-ahead log is copied into the library file in the background, never inside a
change the person waits for (:mod:`refman.store.checkpoints`); nothing is lost on the way."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from refman.core.library import LibraryService
from refman.store import checkpoints
from tests.helpers.fixtures import sourced
from tests.helpers.pages import generated_page

#: Enough records that their change fills more than SQLite's 1,000-page default for a
#: checkpoint inside the commit.
RECORDS = 5_000


def _wal(path: Path) -> Path:
    return Path(f"{path}-wal")


def _papers(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
        return int(conn.execute("SELECT count(*) FROM papers").fetchone()[0])
    finally:
        conn.close()


def test_a_large_change_returns_before_its_log_is_copied_and_is_copied_once_changes_pause(
    library_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A pause long enough that a slow machine still looks at the file before the copy.
    monkeypatch.setattr(checkpoints, "QUIET_S", 2.0)
    service = LibraryService.open(library_path)
    try:
        size_before = library_path.stat().st_size
        service.import_pages([sourced(generated_page(RECORDS))])
        # Committed to the log only: the file is as it was, the log holds the change.
        assert library_path.stat().st_size == size_before
        assert _wal(library_path).stat().st_size > 1_000 * 4096
        assert service.count() == RECORDS
        deadline = time.monotonic() + 20
        while library_path.stat().st_size == size_before and time.monotonic() < deadline:
            time.sleep(0.05)
        # Copied in the background while the library stays open.
        assert library_path.stat().st_size > size_before
    finally:
        service.close()
    # Closed: one file again, holding every paper.
    assert not _wal(library_path).exists()
    assert _papers(library_path) == RECORDS


_CHILD = """
import sys
from refman.core.library import LibraryService
from tests.helpers.fixtures import sourced
from tests.helpers.pages import generated_page
service = LibraryService.open(sys.argv[1])
service.import_pages([sourced(generated_page(int(sys.argv[2])))])
print("committed", flush=True)
sys.stdin.read()
"""


def test_a_process_killed_before_the_log_is_copied_loses_nothing(library_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(library_path), str(RECORDS)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "committed"
        child.send_signal(signal.SIGKILL)  # at once: before the changes have paused
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
    assert _wal(library_path).exists()  # the change is in the log, not yet in the file
    assert _papers(library_path) == RECORDS
    reopened = LibraryService.open(library_path)
    try:
        assert reopened.count() == RECORDS
    finally:
        reopened.close()


def test_a_library_removed_while_open_is_not_made_again_as_an_empty_file(
    library_path: Path,
) -> None:
    service = LibraryService.open(library_path)
    try:
        service.import_pages([sourced(generated_page(10))])
        for path in (library_path, _wal(library_path), Path(f"{library_path}-shm")):
            path.unlink()  # moved away while refman has it open, before the log was copied
        time.sleep(1.5)  # the changes have paused: the copy is tried
        assert not library_path.exists()
    finally:
        service.close()
    assert not library_path.exists()
