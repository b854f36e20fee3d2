"""Files attached to papers: copied into the storage folder beside the library (or linked),
listed with their pages and size, renamed and removed, each undoable; the Trash keeps them
until Empty Trash; a failed attachment leaves nothing behind."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from refman.common.errors import InvalidValueError, NotFoundError, RefmanError
from refman.core import extraction
from refman.core.attachments import AttachFiles
from refman.core.extraction import Extractor
from refman.core.library import LibraryService
from refman.core.operations import EmptyTrash
from refman.core.values import PaperQuery, Section
from refman.store.file_store import storage_beside
from tests.helpers.fixtures import dump, sourced
from tests.helpers.pages import THREE_PAPERS, publication_page
from tests.helpers.pdfs import damaged_pdf, encrypted_pdf, make_pdf


@pytest.fixture
def service(library_path: Path) -> LibraryService:
    opened = LibraryService.open(library_path)
    opened.import_pages([sourced(publication_page("Zhuo Jiang", THREE_PAPERS))])
    return opened


def _first(service: LibraryService) -> int:
    return service.paper_ids()[0]


def test_a_pdf_is_copied_beside_the_library_with_its_pages(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    pid = _first(service)
    source = make_pdf(tmp_path / "stragglers.pdf", pages=4)
    (view,) = service.attach(pid, [source])
    stored = storage_beside(library_path) / str(pid) / "stragglers.pdf"
    assert stored.read_bytes() == source.read_bytes()
    assert (view.name, view.path, view.pages, view.size, view.missing) == (
        "stragglers.pdf",
        str(stored),
        4,
        source.stat().st_size,
        False,
    )
    assert [f.name for f in service.paper(pid).files] == ["stragglers.pdf"]
    # The same name again is kept apart, not written over.
    (tmp_path / "other").mkdir()
    (again,) = service.attach(pid, [make_pdf(tmp_path / "other" / "stragglers.pdf", pages=1)])
    assert again.name == "stragglers (2).pdf" and again.pages == 1
    assert stored.read_bytes() == source.read_bytes()


def test_any_file_attaches_and_bad_pdfs_have_no_pages(
    service: LibraryService, tmp_path: Path
) -> None:
    pid = _first(service)
    notes = tmp_path / "notes.txt"
    notes.write_text("reading notes", encoding="utf-8")
    fake = tmp_path / "fake.pdf"
    fake.write_text("not a pdf at all", encoding="utf-8")
    views = service.attach(
        pid,
        [notes, fake, encrypted_pdf(tmp_path / "locked.pdf"), damaged_pdf(tmp_path / "cut.pdf")],
    )
    assert [(v.name, v.pages) for v in views] == [
        ("notes.txt", None),
        ("fake.pdf", None),
        ("locked.pdf", None),
        ("cut.pdf", None),
    ]
    assert all(Path(v.path).is_file() for v in views)


def test_a_pdf_too_slow_to_count_is_attached_and_its_pages_come_with_its_text(
    service: LibraryService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid = _first(service)
    slow = Extractor(time_limit=0.001)  # the pages of a hostile PDF: the worker is stopped
    monkeypatch.setattr(extraction, "_counter", slow)
    try:
        (view,) = service.attach(pid, [make_pdf(tmp_path / "slow.pdf", pages=3)])
    finally:
        slow.close()
    assert view.pages is None and Path(view.path).is_file()
    assert service.index_files().read == 1  # read later, in the text's own worker
    (read,) = service.paper(pid).files
    assert read.pages == 3


def test_a_missing_file_or_paper_changes_nothing(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    pid = _first(service)
    good = make_pdf(tmp_path / "good.pdf")
    with pytest.raises(RefmanError, match="There is no file"):
        service.attach(pid, [good, tmp_path / "gone.pdf"])
    with pytest.raises(RefmanError, match="is a folder"):
        service.attach(pid, [tmp_path])
    with pytest.raises(NotFoundError):
        service.attach(99_999, [good])
    assert service.paper(pid).files == ()
    folder = storage_beside(library_path)
    assert not folder.exists() or not any(p.is_file() for p in folder.rglob("*"))


def test_remove_rename_and_undo_bring_the_file_back(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    pid = _first(service)
    (view,) = service.attach(pid, [make_pdf(tmp_path / "draft.pdf")])
    renamed = service.rename_file(view.id, "Jiang 2024 - stragglers.pdf")
    (shown,) = service.paper(pid).files
    assert shown.name == "Jiang 2024 - stragglers.pdf" and Path(shown.path).is_file()
    assert not Path(view.path).exists()
    assert renamed.inverse is not None
    service.apply(renamed.inverse)
    assert service.paper(pid).files[0].name == "draft.pdf" and Path(view.path).is_file()

    removed = service.remove_files([view.id])
    assert service.paper(pid).files == () and not Path(view.path).exists()
    assert removed.inverse is not None
    service.apply(removed.inverse)  # Undo
    (back,) = service.paper(pid).files
    assert (back.id, back.name, back.missing) == (view.id, "draft.pdf", False)
    assert Path(back.path).read_bytes()[:5] == b"%PDF-"


def test_the_trash_keeps_files_until_it_is_emptied(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    first, second = service.paper_ids()[:2]
    (kept,) = service.attach(first, [make_pdf(tmp_path / "kept.pdf")])
    (gone,) = service.attach(second, [make_pdf(tmp_path / "gone.pdf")])
    (removed,) = service.attach(first, [make_pdf(tmp_path / "removed.pdf")])
    service.remove_files([removed.id])
    service.trash([second])
    assert Path(gone.path).is_file()
    service.restore([second])
    assert service.paper(second).files[0].missing is False
    service.trash([second])
    assert service.empty_trash() == 1
    assert not Path(gone.path).exists() and not Path(gone.path).parent.exists()
    assert not (storage_beside(library_path) / ".removed").exists()
    assert Path(kept.path).is_file()  # another paper's file stays


def test_removed_files_wait_thirty_days_when_no_empty_trash_deletes_them(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    first, second = service.paper_ids()[:2]
    (old,) = service.attach(first, [make_pdf(tmp_path / "old.pdf")])
    (recent,) = service.attach(second, [make_pdf(tmp_path / "recent.pdf")])
    service.remove_files([old.id])
    aside = storage_beside(library_path) / ".removed"
    [old_folder] = list(aside.iterdir())
    month_ago = time.time() - 31 * 86400
    os.utime(old_folder, (month_ago, month_ago))  # set aside 31 days ago
    undo_recent = service.remove_files([recent.id]).inverse
    service.close()
    reopened = LibraryService.open(library_path)
    try:
        assert not old_folder.exists()  # its Undo was in a session long closed
        [kept] = [f for f in aside.rglob("*") if f.is_file()]
        assert kept.name == "recent.pdf"
        assert undo_recent is not None
        reopened.apply(undo_recent)  # a recent removal can still be undone
        assert Path(reopened.paper(second).files[0].path).is_file()
    finally:
        reopened.close()


def test_a_linked_file_stays_where_it_is(service: LibraryService, tmp_path: Path) -> None:
    pid = _first(service)
    (tmp_path / "shared").mkdir()
    source = make_pdf(tmp_path / "shared" / "paper.pdf")
    (view,) = service.attach(pid, [source], link=True)
    assert view.linked and view.path == str(source.resolve())
    removed = service.remove_files([view.id])
    assert source.is_file()  # removing a link never touches the file
    assert removed.value == 1
    (again,) = service.attach(pid, [source], link=True)
    source.unlink()
    assert (
        service.paper(pid).files[0].missing is True and again.id == service.paper(pid).files[0].id
    )


def test_missing_files_are_found_at_once_and_located_again(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    first, second = service.paper_ids()[:2]
    (tmp_path / "sync").mkdir()
    linked_source = make_pdf(tmp_path / "sync" / "linked.pdf", pages=2)
    (linked,) = service.attach(first, [linked_source], link=True)
    (stored,) = service.attach(second, [make_pdf(tmp_path / "stored.pdf", pages=3)])
    stray = storage_beside(library_path) / "99" / "left-behind.pdf"
    stray.parent.mkdir(parents=True)
    stray.write_bytes(b"%PDF-1.4 left by a crash")
    assert service.check_files().missing == ()

    moved = tmp_path / "moved" / "linked.pdf"
    moved.parent.mkdir()
    linked_source.rename(moved)
    Path(stored.path).unlink()
    found = service.check_files()
    assert found.files == 2 and [f.id for f in found.missing] == [linked.id, stored.id]
    assert found.stray == ("99/left-behind.pdf",)

    relinked = service.locate_file(linked.id, moved)
    service.locate_file(stored.id, make_pdf(tmp_path / "copy of stored.pdf", pages=3))
    assert service.check_files().missing == ()
    assert service.paper(first).files[0].path == str(moved.resolve())
    assert Path(service.paper(second).files[0].path) == Path(stored.path)  # back in its place
    assert relinked.inverse is not None
    service.apply(relinked.inverse)  # Undo: where it was before
    assert service.paper(first).files[0].missing


def test_linked_files_under_the_base_folder_follow_it_to_another_machine(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    pid = _first(service)
    here = tmp_path / "Dropbox on this machine"
    (here / "papers").mkdir(parents=True)
    service.use_base_folder(here)
    (view,) = service.attach(pid, [make_pdf(here / "papers" / "a.pdf")], link=True)
    assert view.path == str(here / "papers" / "a.pdf") and not view.missing
    there = tmp_path / "Dropbox on the laptop"
    (there / "papers").mkdir(parents=True)
    make_pdf(there / "papers" / "a.pdf")
    laptop = LibraryService.open(library_path)  # the same library, opened on the laptop
    laptop.use_base_folder(there)
    (file,) = laptop.paper(pid).files
    assert file.path == str(there / "papers" / "a.pdf") and not file.missing
    laptop.use_base_folder(None)  # without its base folder the path is not found
    assert laptop.paper(pid).files[0].missing
    laptop.close()


def test_a_backup_holds_the_files_and_restoring_it_brings_them_back(
    library_path: Path, tmp_path: Path
) -> None:
    backups = tmp_path / "backups"
    service = LibraryService.open(library_path, backups=backups)
    service.import_pages([sourced(publication_page("Zhuo Jiang", THREE_PAPERS))])
    pid = service.paper_ids()[0]
    (view,) = service.attach(pid, [make_pdf(tmp_path / "kept.pdf", pages=2)])
    made = service.file.backup()
    assert made.files == 1
    assert (storage_beside(made.path) / str(pid) / "kept.pdf").read_bytes() == Path(
        view.path
    ).read_bytes()
    service.trash([pid])
    service.empty_trash()  # the paper and its file gone for good
    assert not Path(view.path).exists()
    service.file.restore(made.path)
    (back,) = service.paper(pid).files
    assert not back.missing and Path(back.path).read_bytes()[:5] == b"%PDF-"
    service.close()


def test_a_file_the_paper_has_already_is_not_attached_twice(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    pid = _first(service)
    source = make_pdf(tmp_path / "stragglers.pdf", pages=3)
    (first,) = service.attach(pid, [source])
    renamed = tmp_path / "downloaded again.pdf"
    renamed.write_bytes(source.read_bytes())
    outcome = service.apply(AttachFiles(pid, (str(source), str(renamed))))
    assert [v.id for v in outcome.value] == [first.id, first.id]  # the copy it has stands in
    assert outcome.inverse is None  # nothing changed: nothing to undo
    assert [f.name for f in service.paper(pid).files] == ["stragglers.pdf"]
    assert sorted(p.name for p in (storage_beside(library_path) / str(pid)).iterdir()) == [
        "stragglers.pdf"
    ]  # no stray copy in the storage folder
    # the same file linked twice, and one that differs by a byte, named alike
    (linked,) = service.attach(pid, [renamed], link=True)
    assert linked.id == first.id
    other = tmp_path / "other" / "stragglers.pdf"
    other.parent.mkdir()
    other.write_bytes(source.read_bytes() + b"\n")
    (new,) = service.attach(pid, [other])
    assert new.id != first.id and new.name == "stragglers (2).pdf"
    assert len(service.paper(pid).files) == 2


def test_papers_of_the_trash_are_deleted_for_good_one_by_one_with_their_files(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    """Delete Permanently: only the papers named, each in the Trash, with their files; a
    paper named that is not in the Trash (or not in the library) refuses it all."""
    first, second, third = service.paper_ids()[:3]
    (gone,) = service.attach(first, [make_pdf(tmp_path / "gone.pdf")])
    (stays,) = service.attach(second, [make_pdf(tmp_path / "stays.pdf")])
    service.trash([first, second])
    before = dump(library_path)
    with pytest.raises(InvalidValueError, match=f"#{third} is not in the Trash"):
        service.apply(EmptyTrash((first, third)))
    with pytest.raises(NotFoundError):
        service.apply(EmptyTrash((first, 999)))
    assert dump(library_path) == before
    deleted = service.apply(EmptyTrash((first,)))
    assert deleted.value.papers == (first,) and deleted.irreversible
    assert deleted.label == "Delete 1 paper permanently"
    assert service.paper_ids(PaperQuery(section=Section.TRASH)) == [second]
    assert third in service.paper_ids()
    assert not Path(gone.path).exists() and Path(stays.path).is_file()
    assert service.empty_trash() == 1
