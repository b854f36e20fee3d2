"""Ctrl+Z of an import undoes it exactly, so it refuses, changing nothing, when one of its
papers was changed since — by another window, the command line or a colleague on a shared
library — in a way undoing would lose: a tag, a note, a reading mark or rating, an edit.
The revert from the history then keeps that paper."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from refman.common.errors import ConflictError
from refman.core.importing.values import ImportChoices
from refman.core.library import LibraryService
from refman.core.operations import ImportPages, Outcome
from tests.helpers.fixtures import sourced
from tests.helpers.pages import publication_page

RECORDS = [
    ("Rebalancing pipelines around stragglers", 2024, "arXiv"),
    ("Overlapped checkpoint writes", 2025, "arXiv"),
    ("Gradient compression on slow networks", 2023, "ICLR"),
]


def _import(
    library: LibraryService, records: list[tuple[str, int, str]], **choices: object
) -> Outcome[object]:
    page = sourced(publication_page("Zhuo Jiang", records), "zhuo.txt")
    return library.apply(ImportPages((page,), ImportChoices(**choices)))  # type: ignore[arg-type]


def _by_title(library: LibraryService, title: str) -> int:
    return next(d.id for d in library.details(library.paper_ids()) if d.title == title)


CHANGES: dict[str, Callable[[LibraryService, int], object]] = {
    "tagged": lambda lib, pid: lib.tag([pid], ["to read"]),
    "given a note": lambda lib, pid: lib.add_note(pid, "Bruno: check the baseline"),
    "marked or rated": lambda lib, pid: lib.mark([pid], status="read", rating=5),
    "edited": lambda lib, pid: lib.edit_fields(pid, title="Rebalancing pipelines (revised)"),
}


@pytest.mark.parametrize("done", list(CHANGES))
def test_undo_of_an_import_refuses_when_a_paper_it_added_was_changed_since(
    library: LibraryService, done: str
) -> None:
    mine = _import(library, RECORDS)
    paper = _by_title(library, RECORDS[0][0])
    CHANGES[done](library, paper)  # (a colleague, in another window)
    before = (sorted(library.paper_ids()), library.paper(paper))
    assert mine.inverse is not None
    with pytest.raises(ConflictError, match=f"was {done} since") as refused:
        library.apply(mine.inverse)
    assert "cannot be undone exactly" in str(refused.value)
    assert "refman revert" in refused.value.hint
    assert (sorted(library.paper_ids()), library.paper(paper)) == before
    # the revert keeps the paper changed since, and removes the others
    plan = library.revert(library.history()[0].import_id).value
    assert [k.paper_id for k in plan.kept] == [paper]
    assert library.paper_ids() == [paper]


def test_undo_of_an_import_refuses_when_a_paper_it_merged_into_was_tagged_since(
    library: LibraryService,
) -> None:
    library.import_pages([sourced(publication_page("Mira Okafor", RECORDS[:1]), "mira.txt")])
    paper = library.paper_ids()[0]
    mine = _import(library, RECORDS)  # merges into the paper, adds two
    library.tag([paper], ["reading group"])
    assert mine.inverse is not None
    with pytest.raises(ConflictError, match="was tagged since"):
        library.apply(mine.inverse)
    assert [t.name for t in library.paper(paper).tags] == ["reading group"]
    assert len(library.paper_ids()) == 3


def test_undo_of_an_import_goes_through_when_nothing_was_changed_since(
    library: LibraryService,
) -> None:
    """The import's own tags and other papers' changes are no reason to refuse."""
    library.import_pages([sourced(publication_page("Mira Okafor", RECORDS[2:]), "mira.txt")])
    other = library.paper_ids()[0]
    mine = _import(library, RECORDS[:2], tags=("pipelines",))
    library.tag([other], ["elsewhere"])
    library.add_note(other, "not one of the import's papers")
    assert mine.inverse is not None
    library.apply(mine.inverse)
    assert library.paper_ids() == [other]
