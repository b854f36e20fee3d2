"""Copying a whole library between a file and a shared library, both ways, with everything
in it and checked before it is called done."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from refman.__main__ import main
from refman.common.errors import InvalidValueError, LibraryUnavailableError
from refman.core.copying import copy_library, copy_library_to
from refman.core.library import LibraryService
from refman.core.operations import ImportPages
from refman.core.paper_merge import MergePapers
from refman.core.values import PaperQuery, Section, SortKey
from refman.store.models import ImportBatch
from tests.helpers.fixtures import dump, fill_library, sourced
from tests.helpers.pages import generated_page, publication_page
from tests.helpers.pdfs import make_pdf


@contextmanager
def opened(location: str | Path) -> Iterator[LibraryService]:
    service = LibraryService.open(location)
    try:
        yield service
    finally:
        service.close()


def _last_import(service: LibraryService) -> list[int]:
    with service.db.reading() as session:
        last = select(func.max(ImportBatch.import_id)).scalar_subquery()
        return list(session.scalars(select(ImportBatch.id).where(ImportBatch.import_id == last)))


@pytest.fixture
def filled(library_path: Path) -> Path:
    """A library file with papers, people, tags, notes, the Trash, a merge and two imports."""
    with opened(library_path) as service:
        fill_library(service)
        service.import_pages([sourced(generated_page(12))])
        ids = service.paper_ids()
        service.add_note(ids[0], "a note that must travel")
        service.edit_fields(ids[1], title="A Title Edited By Hand", year=2020)
        service.set_tag_colour("picked", "#aa3300")
        service.apply(MergePapers(ids[-1], ids[-2]))  # (where a merged paper went travels)
    return library_path


def test_a_file_copied_to_a_server_and_back_is_the_same_library(
    filled: Path, shared_library_url: str, tmp_path: Path
) -> None:
    back = tmp_path / "back.sqlite"
    with opened(filled) as source, opened(shared_library_url) as shared:
        there = copy_library(source, shared)
        everything = source.count(PaperQuery(section=Section.ALL))
        assert there.rows["papers"] == everything + source.count(PaperQuery(section=Section.TRASH))
        with opened(back) as home:
            again = copy_library(shared, home)
        assert again.digest == there.digest
        # what a person sees: searches, tags, notes, the Trash, on the server too
        for query in (
            PaperQuery(text="pipeline", sort=SortKey.ADDED),
            PaperQuery(tags=("picked",)),
            PaperQuery(section=Section.TRASH),
            PaperQuery(text="travel"),
        ):
            assert shared.paper_ids(query) == source.paper_ids(query)
        assert [(t.name, t.colour, t.count) for t in shared.tags()] == [
            (t.name, t.colour, t.count) for t in source.tags()
        ]
    assert dump(back) == dump(filled)


def test_a_copy_never_gives_the_ids_its_source_gave(
    filled: Path, shared_library_url: str, tmp_path: Path
) -> None:
    with opened(filled) as source:
        newest = max(source.paper_ids())
        note = source.add_note(newest, "gone with its paper")
        source.trash([newest])
        source.empty_trash()  # the newest paper and note deleted for good
        late = publication_page("Late Comer", [("Tidewater glaciers", 2025, "arXiv")])
        page = sourced(late, "late.txt")
        with opened(shared_library_url) as shared:
            copy_library(source, shared)
            with opened(tmp_path / "back.sqlite") as home:
                copy_library(shared, home)
                for copy in (shared, home):
                    (paper,) = copy.import_pages([page]).new_ids
                    assert paper > newest
                    assert copy.add_note(paper, "new").id > note.id


def test_the_copy_keeps_the_import_history(filled: Path, shared_library_url: str) -> None:
    with opened(filled) as source, opened(shared_library_url) as shared:
        copy_library(source, shared)
        before = shared.count()
        # (a revert: some of the import's papers were noted, edited and merged since, so
        # Ctrl+Z's exact undo refuses — as on the file it came from)
        last = shared.history()[0]
        plan = shared.revert(last.import_id).value
        assert len(plan.removed) >= 9 and plan.kept
        assert shared.count() == before - len(plan.removed)
        # new notes, tags and people get ids of their own after the copied ones
        with shared.db.reading() as session:
            for name in ("notes", "tags", "persons", "import_batches"):
                highest = session.scalar(text(f"SELECT max(id) FROM {name}"))
                following = session.scalar(
                    text(f"SELECT nextval(pg_get_serial_sequence('{name}', 'id'))")
                )
                assert following > (highest or 0), name
        kept = shared.paper_ids()
        note = shared.add_note(kept[0], "written on the server")
        shared.tag(kept[:1], ["new on the server"])
        added = shared.import_pages([sourced(generated_page(14))]).new_ids
        assert set(added).isdisjoint(kept)
        assert note.id > max(n.id for n in source.paper(source.paper_ids()[0]).notes)


def test_a_library_that_is_not_empty_is_never_copied_into(filled: Path, tmp_path: Path) -> None:
    target = tmp_path / "other.sqlite"
    with opened(target) as other:
        other.import_pages([sourced(generated_page(2))])
    before = dump(target)
    with (
        opened(filled) as source,
        opened(target) as other,
        pytest.raises(InvalidValueError, match="already holds a library"),
    ):
        copy_library(source, other)
    assert dump(target) == before


def test_copy_library_on_the_command_line(
    filled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = tmp_path / "copy.sqlite"
    assert main(["copy-library", str(filled), str(dest), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["verified"] is True
    assert report["rows"]["papers"] > 20
    assert set(report) == {
        "source",
        "dest",
        "rows",
        "digest",
        "verified",
        "files",
        "files_left",
        "files_missing",
    }
    assert (report["files"], report["files_left"], report["files_missing"]) == (0, 0, [])
    assert dump(dest) == dump(filled)
    assert main(["copy-library", str(tmp_path / "nowhere.sqlite"), str(dest)]) == 2
    assert "There is no library" in capsys.readouterr().err


def test_attached_files_go_with_a_copy_into_a_file_and_a_server_says_they_stay(
    filled: Path, tmp_path: Path, shared_library_url: str
) -> None:
    with opened(filled) as service:
        pid = service.paper_ids()[0]
        (attached,) = service.attach(pid, [make_pdf(tmp_path / "paper.pdf", pages=2)])
    copy = tmp_path / "copy.sqlite"
    with opened(filled) as source, opened(copy) as dest:
        report = copy_library(source, dest)
        (file,) = dest.paper(pid).files
    assert (report.files, report.files_left) == (1, 0)
    assert not file.missing and Path(file.path) != Path(attached.path)
    assert Path(file.path).read_bytes() == Path(attached.path).read_bytes()
    with opened(filled) as source, opened(shared_library_url) as shared:
        report = copy_library(source, shared)
        assert shared.paper(pid).files[0].missing  # no storage folder on a server
    assert (report.files, report.files_left) == (0, 1)


def test_a_file_missing_in_the_source_is_named_by_the_copy_which_takes_the_rest(
    filled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with opened(filled) as service:
        first, second = service.paper_ids()[:2]
        (gone,) = service.attach(first, [make_pdf(tmp_path / "gone.pdf", pages=1)])
        (kept,) = service.attach(second, [make_pdf(tmp_path / "kept.pdf", pages=2)])
    Path(gone.path).unlink()  # deleted outside refman
    dest = tmp_path / "copy.sqlite"
    assert main(["copy-library", str(filled), str(dest), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["files"], report["files_left"]) == (1, 0)
    (missing,) = report["files_missing"]
    assert (missing["paper"], missing["name"], missing["missing"]) == (first, "gone.pdf", True)
    with opened(dest) as copy:
        assert copy.paper(first).files[0].missing
        assert Path(copy.paper(second).files[0].path).read_bytes() == Path(kept.path).read_bytes()
    assert dump(dest) == dump(filled)
    again = tmp_path / "again.sqlite"
    assert main(["copy-library", str(filled), str(again)]) == 0
    said = capsys.readouterr().out
    assert "1 attached file copied with it." in said
    assert "1 attached file of 1 paper could not be copied: missing in the source" in said
    assert f"#{first}  gone.pdf: not at {gone.path}" in said


def test_a_copy_made_while_an_undone_import_is_being_deleted_shows_the_same_library(
    filled: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy.sqlite"
    with opened(filled) as source:
        kept = source.paper_ids()
        done = source.apply(ImportPages((sourced(generated_page(21, "Late Author")),)))
        assert done.inverse is not None and len(done.value.new_ids) == 9
        source.apply(done.inverse)  # withdrawn: deleted for good later
        assert source.purge_pending() == 9
        with opened(copy) as there:
            copy_library(source, there)
            assert there.paper_ids() == kept
            assert there.paper_ids(PaperQuery(section=Section.TRASH)) == source.paper_ids(
                PaperQuery(section=Section.TRASH)
            )
            there.purge()
            assert there.paper_ids() == kept and there.purge_pending() == 0


def test_a_server_gone_mid_copy_is_named_and_leaves_no_file_behind(
    filled: Path, shared_library_url: str, tmp_path: Path
) -> None:
    import psycopg

    with opened(filled) as source, opened(shared_library_url) as shared:
        copy_library(source, shared)
    dest = tmp_path / "home" / "copy.sqlite"
    dest.parent.mkdir()
    dsn = shared_library_url.replace("postgresql+psycopg://", "postgresql://")

    def cut_off(table: str, done: int) -> None:  # the network goes after the first table
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )

    with opened(shared_library_url) as shared, pytest.raises(LibraryUnavailableError) as raised:
        copy_library_to(shared, str(dest), cut_off)
    message = str(raised.value)
    assert shared.location in message
    assert str(dest) not in message
    assert list(dest.parent.iterdir()) == []  # no empty library that looks like a copy
    # a file that was there is never removed: copying into it fails and it stays
    with opened(dest) as kept:
        kept.import_pages([sourced(generated_page(2))])
    before = dump(dest)
    with opened(shared_library_url) as shared, pytest.raises(InvalidValueError):
        copy_library_to(shared, str(dest))
    assert dump(dest) == before


def test_the_command_line_counts_what_it_copied_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One paper, one person, one tag and one note: it said '1 people … and 1 notes'."""
    source = tmp_path / "one.sqlite"
    with opened(source) as service:
        page = publication_page("Ada Quist", [("One Paper Alone", 2021, "arXiv")])
        service.import_pages([sourced(page)])
        (pid,) = service.paper_ids()
        service.tag([pid], ["picked"])
        service.add_note(pid, "the one note")
        people = len(service.people())
    assert people == 1
    assert main(["copy-library", str(source), str(tmp_path / "copy.sqlite")]) == 0
    said = capsys.readouterr().out
    assert said.startswith("Copied 1 paper, 1 person, 1 tag and 1 note from ")
