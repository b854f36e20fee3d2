"""The backup before a large import: made while the import is planned, kept only when the
import changes many papers, and the import refused when the copy cannot be made."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from refman.common.errors import LibraryUnavailableError
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.library_file import BIG_IMPORT, LibraryFile
from refman.core.values import PaperQuery, Section
from refman.importers import parse
from refman.store.backup import folder_for, listed, papers_in
from tests.helpers.pages import generated_page, publication_page

pytestmark = pytest.mark.sqlite_only


def _page(text: str) -> list[SourcedPage]:
    return [SourcedPage(parse(text), "page.txt")]


@pytest.fixture
def service(tmp_path: Path) -> LibraryService:
    library = LibraryService.open(tmp_path / "library.sqlite", backups=tmp_path / "backups")
    library.import_pages(_page(generated_page(12, owner="Ada Lovelace")))
    return library


def _backup_files(tmp_path: Path) -> list[Path]:
    folder = folder_for(tmp_path / "backups", tmp_path / "library.sqlite")
    return sorted(folder.iterdir()) if folder.is_dir() else []


def test_a_large_import_keeps_a_copy_of_the_library_as_it_was(
    service: LibraryService, tmp_path: Path
) -> None:
    result = service.import_pages(_page(generated_page(BIG_IMPORT + 50, owner="Grace Hopper")))
    assert len(result.new_ids) > BIG_IMPORT
    made = listed(folder_for(tmp_path / "backups", tmp_path / "library.sqlite"))
    assert [b.reason for b in made] == ["import"]
    assert papers_in(made[0].path) == 12  # the copy was made before the import
    assert [p.name for p in _backup_files(tmp_path)] == [made[0].path.name]  # no part left
    service.close()


def test_a_copy_still_being_made_while_the_import_writes_holds_the_library_before_it(
    service: LibraryService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The copy is made beside the import; here it only begins once the import writes (a
    # slow disk): it must still hold the library as it was, and be done before the import
    # is kept.
    writing = threading.Event()
    copy = LibraryFile._copy

    def late_copy(self: LibraryFile, target: Path, reason: str) -> None:
        assert writing.wait(30)
        copy(self, target, reason)

    monkeypatch.setattr(LibraryFile, "_copy", late_copy)
    page = _page(generated_page(BIG_IMPORT + 50, owner="Grace Hopper"))
    service.import_pages(page, progress=lambda done, total: writing.set())
    made = listed(folder_for(tmp_path / "backups", tmp_path / "library.sqlite"))
    assert [(b.reason, papers_in(b.path)) for b in made] == [("import", 12)]
    assert service.count() == BIG_IMPORT + 50  # (its first twelve are the same papers)
    service.close()


def test_a_long_page_that_changes_few_papers_leaves_no_copy(
    service: LibraryService, tmp_path: Path
) -> None:
    # Over a thousand records, all the same paper: one paper changes, no backup is due.
    same = [("Glacier Flow at Scale", 2024, "arXiv")] * (BIG_IMPORT + 50)
    result = service.import_pages(_page(publication_page("Grace Hopper", same)))
    assert len(result.new_ids) == 1
    assert _backup_files(tmp_path) == []
    assert service.count() == 13
    service.close()


def test_an_import_whose_backup_cannot_be_made_changes_nothing(tmp_path: Path) -> None:
    blocked = tmp_path / "backups"
    blocked.write_text("a file where the backups' folder should be")
    library = LibraryService.open(tmp_path / "library.sqlite", backups=blocked)
    with pytest.raises(LibraryUnavailableError, match="backup") as refused:
        library.import_pages(_page(generated_page(BIG_IMPORT + 50, owner="Grace Hopper")))
    # It says that nothing was imported, and why (it said only that no backup was written).
    assert refused.value.message.startswith("Nothing was imported: refman backs up the library")
    assert "Could not write a backup" in refused.value.message and refused.value.hint
    assert library.count() == 0
    library.close()


@pytest.mark.logs_warnings("refman.core")  # (no backup at close either)
def test_empty_trash_whose_backup_cannot_be_made_deletes_nothing(tmp_path: Path) -> None:
    blocked = tmp_path / "backups"
    library = LibraryService.open(tmp_path / "library.sqlite", backups=blocked)
    library.import_pages(_page(generated_page(3, owner="Grace Hopper")))
    library.trash(library.paper_ids()[:1])
    blocked.write_text("a file where the backups' folder should be")
    with pytest.raises(LibraryUnavailableError) as refused:
        library.empty_trash()
    assert refused.value.message.startswith("The Trash was not emptied: refman backs up")
    assert "Could not write a backup" in refused.value.message
    assert library.count(PaperQuery(section=Section.TRASH)) == 1
    library.close()


def test_a_copy_left_unfinished_by_a_stopped_program_is_dropped_by_the_rotation(
    service: LibraryService, tmp_path: Path
) -> None:
    folder = folder_for(tmp_path / "backups", tmp_path / "library.sqlite")
    folder.mkdir(parents=True)
    left = folder / "20261205-080000-import.sqlite.4242-1.part"  # killed mid-copy
    left.write_bytes(b"half a library")
    hours_ago = time.time() - 2 * 3600
    os.utime(left, (hours_ago, hours_ago))
    running = folder / "20261205-090000-import.sqlite.4343-1.part"  # being written now
    running.write_bytes(b"a copy going on")
    service.file.backup()
    assert not left.exists() and running.exists()
    assert [b.reason for b in listed(folder)] == ["manual"]
    service.close()
