"""A merged paper restored from the Trash takes back the notes and files its merge moved to
the paper kept — none lost, none held twice —; an undo of the restore gives them back to the
kept paper, and an undo of the merge puts everything back as it was."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.merge_several import MergeSeveral
from refman.core.operations import SetTrashed
from refman.core.paper_merge import MergePapers
from refman.core.values import PaperDetail, PaperQuery, Section
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from tests.helpers.fixtures import dump

T0 = datetime(2024, 4, 1, 10, 0, 0)
NOTE = "Camera-ready version: the appendix has the routing proofs."


def _paper(library: LibraryService, owner: str, title: str, doi: str | None = None) -> int:
    record = ParsedRecord(title, False, "", year=2024, authors=(owner,), doi=doi)
    page = ParsedPage(owner, PageFormat.PUBLICATION_LIST, 1, [record])
    (paper_id,) = library.import_pages([SourcedPage(page, f"{owner}.txt")], at=T0).new_ids
    return paper_id


@pytest.fixture
def pair(library: LibraryService) -> tuple[int, int]:
    """A paper, and a second record of it kept apart with a note and a tag of its own (the
    kept paper has a note of its own too)."""
    a = _paper(library, "Maren Solvik", "Routing Tokens Across Sparse Experts")
    b = _paper(library, "Ines Duarte", "Routing Tokens Across Sparse Experts at Scale", "10.5/r")
    library.add_note(a, "Read for the reading group.")
    library.add_note(b, NOTE)
    library.tag([b], ["mixture of experts"])
    return a, b


def _notes(detail: PaperDetail) -> list[str]:
    return [n.text for n in detail.notes]


def test_the_merged_paper_restored_takes_back_its_note_and_undo_gives_it_back(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    library.apply(MergePapers(a, b))
    assert _notes(library.paper(a)) == ["Read for the reading group.", NOTE]
    restored = library.restore([b])
    assert _notes(library.paper(b)) == [NOTE] and library.paper(b).trashed is None
    assert _notes(library.paper(a)) == ["Read for the reading group."]
    assert library.paper_ids(PaperQuery(text="note:appendix")) == [b]
    assert {a, b} <= restored.changes.papers and restored.changes.notes
    # what the merge copied stays with both: the tag, the DOI
    assert [t.name for t in library.paper(a).tags] == ["mixture of experts"]
    assert [t.name for t in library.paper(b).tags] == ["mixture of experts"]
    assert library.paper(a).doi == library.paper(b).doi == "10.5/r"
    # an undo of the restore: back in the Trash, the note with the kept paper again
    assert isinstance(restored.inverse, SetTrashed)
    undone = library.apply(restored.inverse)
    assert library.paper(b).trashed is not None and _notes(library.paper(b)) == []
    assert _notes(library.paper(a)) == ["Read for the reading group.", NOTE]
    assert undone.inverse is not None
    library.apply(undone.inverse)  # a redo of the restore
    assert _notes(library.paper(b)) == [NOTE]
    assert _notes(library.paper(a)) == ["Read for the reading group."]


def test_a_note_deleted_since_stays_deleted_and_one_written_since_stays(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    second = library.add_note(b, "Second thoughts on the proofs.")
    library.apply(MergePapers(a, b))
    library.delete_note(second.id)
    library.add_note(a, "Written on the kept paper since.")
    library.restore([b])
    assert _notes(library.paper(b)) == [NOTE]
    assert _notes(library.paper(a)) == [
        "Read for the reading group.",
        "Written on the kept paper since.",
    ]


def test_a_paper_merged_into_one_merged_in_turn_takes_back_what_it_brought(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    """B into A, then A into C: each restored paper takes back its own note (B's, though A's
    merge moved it on to C), and C keeps its own."""
    a, b = pair
    c = _paper(library, "Tomas Berg", "Routing Tokens Across Sparse Experts, Revisited")
    library.add_note(c, "The journal version.")
    library.apply(MergePapers(a, b))
    library.apply(MergePapers(c, a))
    assert sorted(_notes(library.paper(c))) == sorted(
        ["The journal version.", "Read for the reading group.", NOTE]
    )
    library.restore([b])
    assert _notes(library.paper(b)) == [NOTE]
    library.restore([a])
    assert _notes(library.paper(a)) == ["Read for the reading group."]
    assert _notes(library.paper(c)) == ["The journal version."]


def test_a_paper_in_the_trash_merged_keeps_its_note_once_restored(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    """A paper moved to the Trash and merged from there: it went to the Trash by itself, and
    is restored with its note all the same."""
    a, b = pair
    library.trash([b])
    library.apply(MergePapers(a, b))
    assert _notes(library.paper(b)) == []
    library.restore([b])
    assert _notes(library.paper(b)) == [NOTE]


def test_the_kept_paper_deleted_for_good_leaves_the_merged_one_its_note(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    """Restored, the merged paper holds its note: Empty Trash with the kept paper in it
    leaves it alone."""
    a, b = pair
    library.apply(MergePapers(a, b))
    library.restore([b])
    library.trash([a])
    library.empty_trash()
    assert library.paper_ids() == [b] and _notes(library.paper(b)) == [NOTE]
    assert library.paper_ids(PaperQuery(section=Section.TRASH)) == []


def test_the_merged_paper_deleted_for_good_leaves_its_note_with_the_kept_one(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    library.apply(MergePapers(a, b))
    library.empty_trash()
    assert _notes(library.paper(a)) == ["Read for the reading group.", NOTE]
    library.trash([a])
    library.restore([a])  # (nothing was merged from it: nothing moves)
    assert _notes(library.paper(a)) == ["Read for the reading group.", NOTE]


def test_the_merged_paper_restored_takes_back_its_file(
    library: LibraryService, pair: tuple[int, int], tmp_path: Path, library_path: Path
) -> None:
    """(On a library file: its storage folder is beside it.)"""
    a, b = pair
    pdf = tmp_path / "routing.txt"
    pdf.write_text("the routing proofs")
    (attached,) = library.attach(b, [pdf])
    library.apply(MergePapers(a, b))
    assert [f.id for f in library.paper(a).files] == [attached.id]
    library.restore([b])
    (back,) = library.paper(b).files
    assert back.id == attached.id and not back.missing
    assert Path(back.path).read_text() == "the routing proofs"
    assert library.paper(a).files == ()


def test_undo_of_the_merge_puts_every_row_back(
    library: LibraryService, pair: tuple[int, int], tmp_path: Path, library_path: Path
) -> None:
    """The merge, or the merge and a restore of the merged paper, taken back step by step:
    the library as it was, row for row (but the rows' versions)."""
    a, b = pair
    pdf = tmp_path / "routing.txt"
    pdf.write_text("the routing proofs")
    library.attach(b, [pdf])
    before = dump(library_path)
    merged = library.apply(MergePapers(a, b))
    assert merged.inverse is not None
    library.apply(merged.inverse)
    assert dump(library_path) == before
    merged = library.apply(MergePapers(a, b))
    restored = library.restore([b])
    assert restored.inverse is not None and merged.inverse is not None
    library.apply(restored.inverse)
    library.apply(merged.inverse)
    assert dump(library_path) == before


def test_undo_of_a_merge_of_several_puts_every_row_back_and_each_restored_takes_its_own(
    library: LibraryService, pair: tuple[int, int], library_path: Path
) -> None:
    a, b = pair
    c = _paper(library, "Tomas Berg", "Routing Tokens Across Sparse Experts, Revisited")
    library.add_note(c, "The journal version.")
    before = dump(library_path)
    merged = library.apply(MergeSeveral(a, (b, c)))
    assert merged.inverse is not None
    library.apply(merged.inverse)
    assert dump(library_path) == before
    library.apply(MergeSeveral(a, (b, c)))
    library.restore([c, b])
    assert (_notes(library.paper(b)), _notes(library.paper(c))) == (
        [NOTE],
        ["The journal version."],
    )
    assert _notes(library.paper(a)) == ["Read for the reading group."]
