"""Changes to papers' files when the disk refuses, or the files changed behind refman's
back: a storage folder that cannot be written to refuses Empty Trash, the undo of an import
and a restored backup while nothing has changed (the files were left behind, or an internal
error told); a removed file deleted for good since is not put back by Undo, a missing file
is not renamed, and a file the disk will not delete once a change is decided is left and
logged, never raised."""

from __future__ import annotations

from pathlib import Path

import pytest

from refman.common.errors import NotFoundError, RefmanError
from refman.core.importing.values import ImportChoices, SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import ImportPages
from refman.core.values import PaperQuery, Section
from refman.importers.sources import load_source
from refman.store.file_store import storage_beside
from tests.helpers.disk import read_only
from tests.helpers.fixtures import dump, sourced
from tests.helpers.pages import THREE_PAPERS, publication_page
from tests.helpers.pdfs import make_pdf

_TRASH = PaperQuery(section=Section.TRASH)


@pytest.fixture
def service(library_path: Path, tmp_path: Path) -> LibraryService:
    opened = LibraryService.open(library_path, backups=tmp_path / "backups")
    opened.import_pages([sourced(publication_page("Zhuo Jiang", THREE_PAPERS))])
    return opened


def test_empty_trash_is_refused_while_the_files_cannot_be_deleted(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    pid = service.paper_ids()[0]
    (file,) = service.attach(pid, [make_pdf(tmp_path / "trashed.pdf")])
    service.trash([pid])
    before = dump(library_path)
    with read_only(Path(file.path).parent), pytest.raises(RefmanError) as refused:
        service.empty_trash()
    assert refused.value.message.startswith("“trashed.pdf” could not be deleted: the folder")
    assert "cannot be written to" in refused.value.message
    assert dump(library_path) == before  # the paper still in the Trash, with its file
    assert service.paper_ids(_TRASH) == [pid] and Path(file.path).is_file()
    assert service.empty_trash() == 1  # once the folder may be written to again
    assert not Path(file.path).exists()


@pytest.mark.logs_warnings("refman.library")
def test_a_file_the_disk_will_not_delete_is_left_once_the_papers_are_deleted(
    service: LibraryService, tmp_path: Path
) -> None:
    pid = service.paper_ids()[0]
    (file,) = service.attach(pid, [make_pdf(tmp_path / "stuck.pdf")])
    service.trash([pid])
    with read_only(Path(file.path)):  # its folder may be written to; the file is immutable
        assert service.empty_trash() == 1  # decided: said done, not an internal error
    assert service.paper_ids(_TRASH) == []
    assert service.check_files().stray == (f"{pid}/stuck.pdf",)  # left, and listed


def test_undo_of_a_removal_is_refused_once_a_file_was_deleted_for_good(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    pid = service.paper_ids()[0]
    kept, gone = service.attach(
        pid, [make_pdf(tmp_path / "kept.pdf"), make_pdf(tmp_path / "gone.pdf", pages=3)]
    )
    removed = service.remove_files([kept.id, gone.id])
    assert removed.inverse is not None
    aside = storage_beside(library_path) / ".removed"
    (gone_aside,) = aside.rglob("gone.pdf")
    gone_aside.unlink()  # deleted for good meanwhile (Empty Trash, in another process)
    before = dump(library_path)
    with pytest.raises(NotFoundError, match=r"“gone\.pdf” is no longer in the library's folder"):
        service.apply(removed.inverse)  # the window's Undo: an internal error before
    assert dump(library_path) == before and service.paper(pid).files == ()
    assert [p.name for p in aside.rglob("*.pdf")] == ["kept.pdf"]  # set aside again
    assert not Path(kept.path).exists()


def test_a_missing_file_is_not_renamed(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    pid = service.paper_ids()[0]
    (file,) = service.attach(pid, [make_pdf(tmp_path / "draft.pdf")])
    Path(file.path).unlink()  # deleted outside refman
    before = dump(library_path)
    with pytest.raises(RefmanError) as refused:
        service.rename_file(file.id, "final.pdf")  # an internal error before
    assert refused.value.message.startswith("“draft.pdf” cannot be renamed: it is missing")
    assert refused.value.hint == "Locate it first (Locate… in its menu), then rename it."
    assert dump(library_path) == before


def test_undo_of_a_pdf_import_is_refused_while_its_copy_cannot_be_set_aside(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    pdf = make_pdf(tmp_path / "imported.pdf", title="Tiered Object Stores Revisited")
    page = SourcedPage(load_source(pdf).parse(), pdf.name)
    done = service.apply(ImportPages((page,), ImportChoices()))
    (pid,) = done.value.new_ids
    (file,) = service.paper(pid).files
    assert done.inverse is not None
    before = dump(library_path)
    with read_only(Path(file.path).parent), pytest.raises(RefmanError, match="cannot be writ"):
        service.apply(done.inverse)
    assert dump(library_path) == before and Path(file.path).is_file()
    service.apply(done.inverse)  # once it can be: the paper goes, its copy set aside
    assert not Path(file.path).exists() and pid not in service.paper_ids()


def test_a_backup_whose_files_cannot_be_put_back_is_not_restored(
    service: LibraryService, library_path: Path, tmp_path: Path
) -> None:
    pid = service.paper_ids()[0]
    (file,) = service.attach(pid, [make_pdf(tmp_path / "kept.pdf")])
    made = service.file.backup()
    service.trash([pid])
    service.empty_trash()  # the paper and its file gone for good
    (storage_beside(library_path) / str(pid)).mkdir()
    before = dump(library_path)
    with read_only(storage_beside(library_path) / str(pid)), pytest.raises(RefmanError) as no:
        service.file.restore(made.path)  # an internal error before, the library restored
    assert no.value.message.startswith("The backup was not restored: “kept.pdf” could not")
    assert dump(library_path) == before and pid not in service.paper_ids()
    service.file.restore(made.path)
    assert not service.paper(pid).files[0].missing
    assert Path(file.path).read_bytes()[:5] == b"%PDF-"
