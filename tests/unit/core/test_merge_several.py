"""Merging three copies of one paper as one step: what the kept paper ends with, the others
in the Trash, undo and redo of the whole, and the merges refused as a whole."""

from __future__ import annotations

from datetime import datetime

import pytest

from refman.common.errors import ConflictError, InvalidValueError
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.merge_several import MergeSeveral
from refman.core.values import PaperQuery, Section
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

_BODY = (
    "We measure how far a lattice quorum protocol can shrink its quorums before a partition "
    "of two racks stalls it, and give a rule that keeps the protocol live."
)


def _import(library: LibraryService, owner: str, record: ParsedRecord, month: int) -> int:
    page = ParsedPage(owner, PageFormat.PUBLICATION_LIST, 1, [record])
    result = library.import_pages([SourcedPage(page, f"{owner}.txt")], at=datetime(2024, month, 1))
    (paper_id,) = result.new_ids
    return paper_id


def _record(title: str, **fields: object) -> ParsedRecord:
    values: dict[str, object] = {"title_provisional": False, "abstract": "", "year": 2024}
    values.update(fields)
    return ParsedRecord(title=title, **values)  # type: ignore[arg-type]


@pytest.fixture
def trio(library: LibraryService) -> tuple[int, int, int]:
    """A preprint, its journal version (DOI, pages, a tag, a note, read) and a copy typed in
    by hand (a venue's volume, another tag, a note, a citation key chosen by hand), kept apart
    by their imports."""
    a = _import(
        library,
        "Maren Solvik",
        _record("Shrinking Lattice Quorums", abstract=_BODY, year=2023, venue="arXiv"),
        1,
    )
    b = _import(
        library,
        "Ines Duarte",
        _record(
            "Shrinking Lattice Quorums Under Partitions",
            venue="Journal of Quorum Systems",
            doi="10.5555/quorums.2024",
            pages="12-30",
            authors=("Maren Solvik", "Ines Duarte"),
            authors_complete=True,
        ),
        2,
    )
    c = _import(
        library, "Tomas Berg", _record("Lattice Quorums That Shrink", volume="41", year=2024), 3
    )
    library.tag([b], ["quorums"])
    library.add_note(b, "Journal version: the liveness proof is in the appendix.")
    library.mark([b], status="read", rating=4)
    library.tag([c], ["to cite"])
    library.add_note(c, "Typed in from the printed proceedings.")
    library.edit_fields(c, citekey="solvik-quorums")
    return a, b, c


def _seen(library: LibraryService, paper_id: int) -> tuple[object, ...]:
    d = library.paper(paper_id)
    return (
        d.title,
        d.authors,
        d.year,
        d.venue,
        d.doi,
        d.pages,
        d.volume,
        d.attributed_to,
        tuple(t.name for t in d.tags),
        tuple(n.text for n in d.notes),
        d.status,
        d.rating,
        d.trashed,
        d.possible_duplicate_of,
        d.citekey,
    )


def test_the_kept_paper_ends_with_what_every_copy_brought_and_the_copies_go_to_the_trash(
    library: LibraryService, trio: tuple[int, int, int]
) -> None:
    a, b, c = trio
    outcome = library.apply(MergeSeveral(a, (b, c)))
    result = outcome.value
    assert (result.kept, result.merged, result.others) == (a, b, (b, c))
    assert {"the DOI", "2 tags", "2 notes", "the citation key solvik-quorums"} <= set(result.added)
    kept = library.paper(a)
    assert kept.title == "Shrinking Lattice Quorums" and kept.year == 2023  # its own stay
    assert (kept.doi, kept.pages, kept.volume) == ("10.5555/quorums.2024", "12-30", "41")
    assert sorted(t.name for t in kept.tags) == ["quorums", "to cite"]
    assert len(kept.notes) == 2 and (kept.status, kept.rating) == ("read", 4)
    assert kept.citekey == "solvik-quorums"
    assert set(kept.attributed_to) == {"Maren Solvik", "Ines Duarte", "Tomas Berg"}
    assert library.paper_ids() == [a]
    assert sorted(library.paper_ids(PaperQuery(section=Section.TRASH))) == [b, c]
    assert library.paper_ids(PaperQuery(text="note:proceedings")) == [a]
    assert outcome.changes.papers == {a, b, c}


def test_one_undo_puts_all_three_back_and_redo_merges_them_again(
    library: LibraryService, trio: tuple[int, int, int]
) -> None:
    a, b, c = trio
    before = [_seen(library, i) for i in trio]
    outcome = library.apply(MergeSeveral(a, (b, c)))
    assert outcome.inverse is not None
    undone = library.apply(outcome.inverse)
    assert undone.value == (b, c)  # the papers back from the Trash (the window selects them)
    assert [_seen(library, i) for i in trio] == before
    assert sorted(library.paper_ids()) == [a, b, c]
    assert library.paper_ids(PaperQuery(text="note:proceedings")) == [c]
    assert undone.inverse is not None
    library.apply(undone.inverse)
    assert library.paper_ids() == [a] and library.paper(a).citekey == "solvik-quorums"


def test_undo_is_refused_as_a_whole_once_the_kept_paper_changed(
    library: LibraryService, trio: tuple[int, int, int]
) -> None:
    a, b, c = trio
    outcome = library.apply(MergeSeveral(a, (b, c)))
    library.edit_fields(a, year=2021)
    assert outcome.inverse is not None
    with pytest.raises(ConflictError, match="changed since the merge"):
        library.apply(outcome.inverse)
    assert library.paper_ids() == [a] and library.paper(a).year == 2021
    assert len(library.paper(a).notes) == 2


def test_merges_that_cannot_all_be_done_change_nothing(
    library: LibraryService, trio: tuple[int, int, int]
) -> None:
    a, b, c = trio
    before = [_seen(library, i) for i in trio]
    d = _import(library, "Tomas Berg", _record("Quorums in Lattices", doi="10.5555/other.2024"), 4)
    with pytest.raises(InvalidValueError, match=f"Papers #{b} and #{d} have different DOIs"):
        library.apply(MergeSeveral(a, (c, b, d)))  # b's DOI is not d's: d is another paper
    with pytest.raises(InvalidValueError, match="named twice"):
        library.apply(MergeSeveral(a, (b, c, b)))
    with pytest.raises(InvalidValueError, match="with itself"):
        library.apply(MergeSeveral(a, (b, a)))
    assert [_seen(library, i) for i in trio] == before
    assert sorted(library.paper_ids()) == [a, b, c, d]


def test_a_dry_run_says_what_all_of_them_would_bring_and_changes_nothing(
    library: LibraryService, trio: tuple[int, int, int]
) -> None:
    a, b, c = trio
    before = [_seen(library, i) for i in trio]
    outcome = library.apply(MergeSeveral(a, (b, c), dry_run=True))
    assert outcome.value.dry_run and outcome.inverse is None
    assert {
        "the DOI",
        "2 tags",
        "2 notes",
        "the citation key solvik-quorums",
        "the reading status (read)",
        "the rating (4 stars)",
    } <= set(outcome.value.added)
    assert [_seen(library, i) for i in trio] == before


def test_a_whole_selection_is_not_merged_into_one_paper(
    library: LibraryService, trio: tuple[int, int, int]
) -> None:
    """Copies of one paper are a few: a hundred papers or more (Ctrl+A, then Merge Papers by
    mistake) are refused before anything is read or changed."""
    a, b, c = trio
    others = tuple(range(b, b + 150))
    with pytest.raises(InvalidValueError, match="151 papers cannot be merged at once"):
        library.apply(MergeSeveral(a, others))
    assert sorted(library.paper_ids()) == [a, b, c]
