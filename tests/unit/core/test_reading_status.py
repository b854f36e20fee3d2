"""Reading status and rating: marked for one paper or many, the Unread section, sorting by
them, undo and redo, what an import leaves alone, and what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from refman.common.errors import ConflictError, InvalidValueError
from refman.core.library import LibraryService
from refman.core.values import PaperQuery, Section, SortKey
from tests.helpers.fixtures import sourced
from tests.helpers.pages import generated_page

UNREAD = PaperQuery(section=Section.UNREAD)


@pytest.fixture
def ids(library: LibraryService) -> list[int]:
    """Six papers, newest first."""
    library.import_pages([sourced(generated_page(6, owner="Ines Okafor"))])
    return library.paper_ids()


def test_a_new_paper_is_unread_and_unrated(library: LibraryService, ids: list[int]) -> None:
    assert {(d.status, d.rating) for d in library.details(ids)} == {("unread", 0)}
    assert library.count(UNREAD) == 6
    assert library.section_counts().unread == 6


def test_marking_papers_read_moves_them_out_of_unread_and_undo_brings_them_back(
    library: LibraryService, ids: list[int]
) -> None:
    modified = library.paper(ids[0]).modified
    outcome = library.mark(ids[:4], status="read")
    assert outcome.label == "Mark 4 papers as read"
    assert [d.status for d in library.details(ids)] == ["read"] * 4 + ["unread"] * 2
    assert library.paper_ids(UNREAD) == ids[4:]
    assert library.section_counts().unread == 2
    assert [r.status for r in library.papers(PaperQuery(), 0, 6)][:4] == ["read"] * 4
    assert library.paper(ids[0]).modified == modified  # reading is not editing
    assert outcome.inverse is not None
    undone = library.apply(outcome.inverse)
    assert library.count(UNREAD) == 6
    assert undone.inverse is not None
    library.apply(undone.inverse)  # redo
    assert library.count(UNREAD) == 2


def test_a_rating_is_kept_beside_the_status_and_sorts_the_list(
    library: LibraryService, ids: list[int]
) -> None:
    library.mark([ids[0]], rating=2)
    library.mark([ids[1]], rating=5)
    library.mark([ids[1]], status="reading")
    assert (library.paper(ids[1]).status, library.paper(ids[1]).rating) == ("reading", 5)
    best_first = library.paper_ids(PaperQuery(sort=SortKey.RATING, descending=True))
    assert best_first[:2] == [ids[1], ids[0]]
    # ties (the unrated) run the same way as the sort: newest first, as the index hands them
    assert best_first[2:] == sorted(ids[2:], reverse=True)
    by_status = library.paper_ids(PaperQuery(sort=SortKey.STATUS))
    assert by_status[0] == ids[1] and set(by_status[1:]) == set(ids) - {ids[1]}  # reading first
    assert library.mark([ids[0]], rating=0).label == "Clear the rating of 1 paper"
    assert library.paper(ids[0]).rating == 0


@pytest.mark.parametrize(
    ("status", "rating"), [("finished", None), (None, 6), (None, -1), ("", None)]
)
def test_an_unknown_status_or_rating_is_refused_and_changes_nothing(
    library: LibraryService, ids: list[int], status: str | None, rating: int | None
) -> None:
    with pytest.raises(InvalidValueError):
        library.mark(ids, status=status, rating=rating)
    assert {(d.status, d.rating) for d in library.details(ids)} == {("unread", 0)}


def test_statuses_are_read_in_any_case(library: LibraryService, ids: list[int]) -> None:
    library.mark(ids[:1], status=" Read ")
    assert library.paper(ids[0]).status == "read"


def test_importing_the_page_again_keeps_what_the_reader_marked(
    library: LibraryService, ids: list[int]
) -> None:
    library.mark(ids, status="read", rating=3)
    library.import_pages([sourced(generated_page(8, owner="Ines Okafor"))])
    marked = {d.id: (d.status, d.rating) for d in library.details(library.paper_ids())}
    assert [marked[i] for i in ids] == [("read", 3)] * 6
    assert sorted(marked.values()).count(("unread", 0)) == 2  # the two new ones


def test_undo_of_a_mark_changed_elsewhere_since_is_refused(
    library: LibraryService, ids: list[int], library_location: str
) -> None:
    outcome = library.mark(ids[:2], status="read")
    other = LibraryService.open(library_location)
    try:
        other.mark(ids[:1], status="reading")
    finally:
        other.close()
    assert outcome.inverse is not None
    with pytest.raises(ConflictError, match="marked or rated elsewhere"):
        library.apply(outcome.inverse)
    assert library.paper(ids[0]).status == "reading"
    assert library.paper(ids[1]).status == "read"  # all or nothing


def test_marking_a_paper_the_library_lacks_changes_nothing(
    library: LibraryService, ids: list[int]
) -> None:
    with pytest.raises(Exception, match="#999"):
        library.mark([ids[0], 999], status="read")
    assert library.paper(ids[0]).status == "unread"


def test_a_library_from_before_reading_status_upgrades_with_every_paper_unread(
    library_path: Path,
) -> None:
    from tests.unit.store.test_migrations import _at_revision

    service = LibraryService.open(library_path)
    service.import_pages([sourced(generated_page(3))])
    service.close()
    _at_revision(library_path, "0005")
    upgraded = LibraryService.open(library_path)
    try:
        assert {(d.status, d.rating) for d in upgraded.details(upgraded.paper_ids())} == {
            ("unread", 0)
        }
        assert upgraded.section_counts().unread == 3
    finally:
        upgraded.close()
