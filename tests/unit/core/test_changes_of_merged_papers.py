"""A change of a paper someone saw in the library, made after another member (another
process on the same library) merged it into another paper: it goes to the paper kept, where
the merge took the paper's notes and files, not to the merged paper waiting in the Trash."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from refman.core.attachments import AttachFiles
from refman.core.library import LibraryService
from refman.core.merged_edits import ChangeShownPapers, Followed
from refman.core.operations import AddNote, Operation, TagPapers, UntagPapers
from refman.core.paper_merge import MergePapers
from refman.core.reading_status import MarkPapers
from tests.helpers.fixtures import sourced
from tests.helpers.pages import generated_page


@pytest.fixture
def merged_elsewhere(library: LibraryService, library_location: str) -> Iterator[tuple[int, int]]:
    """(merged, kept): the first paper, tagged “to read”, merged into the second by a
    colleague's service on the same library after this one read it."""
    library.import_pages([sourced(generated_page(3))])
    merged, kept = library.paper_ids()[:2]
    library.tag([merged], ["to read"])
    assert library.paper(merged).trashed is None  # seen in the library
    with closing(LibraryService.open(library_location)) as colleague:
        colleague.apply(MergePapers(keep=kept, other=merged))
    yield merged, kept


def _followed(library: LibraryService, change: Operation[object]) -> Followed[object]:
    done = library.apply(ChangeShownPapers(change))
    assert done.inverse is not None
    return done.value


def test_a_tag_put_on_or_taken_off_a_paper_merged_elsewhere_goes_to_the_paper_kept(
    library: LibraryService, merged_elsewhere: tuple[int, int]
) -> None:
    merged, kept = merged_elsewhere
    assert _followed(library, TagPapers((merged,), ("deep learning",))).moved == ((merged, kept),)
    assert [t.name for t in library.paper(kept).tags] == ["deep learning", "to read"]
    assert [t.name for t in library.paper(merged).tags] == ["to read"]
    assert _followed(library, UntagPapers((merged,), ("to read",))).moved == ((merged, kept),)
    assert [t.name for t in library.paper(kept).tags] == ["deep learning"]
    assert [t.name for t in library.paper(merged).tags] == ["to read"]


def test_the_reading_status_and_stars_of_a_paper_merged_elsewhere_go_to_the_paper_kept(
    library: LibraryService, merged_elsewhere: tuple[int, int]
) -> None:
    merged, kept = merged_elsewhere
    done = library.apply(ChangeShownPapers(MarkPapers((merged,), "read", 4)))
    assert done.value == Followed((kept,), ((merged, kept),))
    assert (library.paper(kept).status, library.paper(kept).rating) == ("read", 4)
    assert (library.paper(merged).status, library.paper(merged).rating) == ("unread", 0)
    assert done.inverse is not None
    library.apply(done.inverse)  # Undo puts the paper kept back
    assert (library.paper(kept).status, library.paper(kept).rating) == ("unread", 0)


def test_a_note_or_a_file_added_to_a_paper_merged_elsewhere_goes_to_the_paper_kept(
    library: LibraryService, merged_elsewhere: tuple[int, int], tmp_path: Path
) -> None:
    merged, kept = merged_elsewhere
    note = _followed(library, AddNote(merged, "read the appendix"))
    assert note.moved == ((merged, kept),)
    assert [n.text for n in library.paper(kept).notes] == ["read the appendix"]
    assert library.paper(merged).notes == ()
    pdf = tmp_path / "supplement.pdf"
    pdf.write_bytes(b"%PDF-1.4 not much of a supplement")
    attached = _followed(library, AttachFiles(merged, (str(pdf),), link=True))
    assert attached.moved == ((merged, kept),)
    assert [f.name for f in library.paper(kept).files] == ["supplement.pdf"]
    assert library.paper(merged).files == ()


def test_a_change_of_a_merged_paper_picked_in_the_trash_is_its_own(
    library: LibraryService, merged_elsewhere: tuple[int, int]
) -> None:
    merged, kept = merged_elsewhere
    done = library.apply(ChangeShownPapers(TagPapers((merged,), ("restore me",)), follow=False))
    assert done.value.moved == ()
    assert [t.name for t in library.paper(merged).tags] == ["restore me", "to read"]
    assert "restore me" not in [t.name for t in library.paper(kept).tags]
