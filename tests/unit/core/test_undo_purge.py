"""An undone import is out of sight at once; its papers are deleted for good afterwards, a
few thousand per step, and nothing finds them meanwhile (see refman.core.importing.purge)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from refman.common.errors import NotFoundError
from refman.core.importing.purge import PurgeStep
from refman.core.importing.values import ImportChoices, SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import ImportPages, UndoImport
from refman.core.values import PaperQuery, Section
from refman.importers import parse
from refman.store.backup import copy_verified, papers_in
from tests.helpers.fixtures import seed_files, sourced_file
from tests.helpers.pages import generated_page


def _page(n: int, owner: str = "Prolific Author") -> SourcedPage:
    return SourcedPage(parse(generated_page(n, owner)), f"{owner}.txt")


def _rows(library: LibraryService, table: str) -> int:
    with library.db.engine.connect() as conn:
        return int(conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())


def _undo_without_purge(library: LibraryService, done: object) -> None:
    inverse = getattr(done, "inverse", None)
    assert isinstance(inverse, UndoImport)
    outcome = library.apply(inverse)
    assert outcome.changes.purging and outcome.changes.structure


def test_an_undone_import_is_out_of_sight_at_once_and_deleted_afterwards(
    library: LibraryService,
) -> None:
    library.import_pages([sourced_file(seed_files()[0])])
    kept = library.paper_ids()
    people = [p.name for p in library.everyone()]
    done = library.apply(ImportPages((_page(30),), ImportChoices(tags=("fresh",))))
    new = done.value.new_ids
    assert len(new) == 30 and library.count() == len(kept) + 30
    library.trash([new[0]])  # trashed since: it goes too, and not into view

    _undo_without_purge(library, done)

    assert library.paper_ids() == kept
    assert library.count(PaperQuery(section=Section.TRASH)) == 0
    assert library.section_counts().trash == 0 and library.section_counts().all == len(kept)
    assert library.count(PaperQuery(text="Prolific")) == 0
    with pytest.raises(NotFoundError):
        library.paper(new[1])
    with pytest.raises(NotFoundError):
        library.restore([new[0]])
    with pytest.raises(NotFoundError):
        library.edit_fields(new[2], title="Edited after the undo")
    assert library.empty_trash() == 0
    assert library.purge_pending() == 30 and _rows(library, "papers") == len(kept) + 30

    left = library.apply(PurgeStep(limit=12)).value
    assert left == 18 and _rows(library, "papers") == len(kept) + 18
    library.purge()
    assert library.purge_pending() == 0
    assert _rows(library, "papers") == len(kept) and _rows(library, "purges") == 0
    assert [t.name for t in library.tags()] == []  # the tag the import made went last
    assert [p.name for p in library.everyone()] == people


def test_an_import_after_an_undo_never_finds_the_withdrawn_papers(
    library: LibraryService,
) -> None:
    done = library.apply(ImportPages((_page(8),), ImportChoices()))
    _undo_without_purge(library, done)
    again = library.import_pages([_page(8)])
    assert len(again.new_ids) == 8 and not again.merged_ids
    assert library.count() == 8
    library.purge()
    assert library.count() == 8 and _rows(library, "papers") == 8
    assert library.import_pages([_page(8)]).new_ids == ()  # found again now: the new ones


def test_papers_left_waiting_when_the_library_closed_are_deleted_next_time(
    library: LibraryService, library_location: str
) -> None:
    done = library.apply(ImportPages((_page(6),), ImportChoices()))
    _undo_without_purge(library, done)
    library.close()
    reopened = LibraryService.open(library_location)
    try:
        assert reopened.count() == 0 and reopened.purge_pending() == 6
        assert reopened.is_empty() and reopened.paper_count() == 0  # the window's welcome
        reopened.purge()
        assert _rows(reopened, "papers") == 0 and _rows(reopened, "persons") == 0
    finally:
        reopened.close()


def test_a_backup_of_a_library_with_withdrawn_papers_counts_the_papers_one_sees(
    library: LibraryService, library_path: Path
) -> None:
    library.import_pages([sourced_file(seed_files()[0])])
    kept = library.count()
    done = library.apply(ImportPages((_page(7),), ImportChoices()))
    _undo_without_purge(library, done)
    copy = library_path.with_name("backup.sqlite")
    copy_verified(library_path, copy)
    assert papers_in(copy) == kept == library.count()
