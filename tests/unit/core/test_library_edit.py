"""Hand edits as operations: tags, notes, fields, the Trash; their inverses; invalid values,
missing ids and conflicts with changes made elsewhere."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from refman.common import sequences
from refman.common.errors import ConflictError, InvalidValueError, NotFoundError, RefmanError
from refman.common.sequences import Distinct
from refman.core.importing.values import ImportChoices, RecordStatus, SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import (
    DeleteNote,
    EditNote,
    EmptyTrash,
    Outcome,
    RestoreNote,
    SetTrashed,
    UntagPapers,
)
from refman.core.tag_names import tags_like
from refman.core.values import Emptied, NoteView, PaperQuery, Section
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from tests.helpers.fixtures import dump
from tests.helpers.sets import is_parted

T0 = datetime(2024, 4, 1, 10, 0, 0)


def _record(title: str, n: int, provisional: bool = False) -> ParsedRecord:
    words = ["amber", "basalt", "canyon", "delta", "estuary", "ferric", "granite", "heron"]
    body = " ".join(words[(n * 7 + i * (n + 3)) % len(words)] for i in range(40))
    return ParsedRecord(
        title=title,
        title_provisional=provisional,
        abstract=f"Result {n} on {title.lower()}: {body}.",
        year=2020 + n,
        venue="arXiv",
        subjects=("cs.LG",),
    )


@pytest.fixture
def ids(library: LibraryService) -> list[int]:
    """Four papers; the fourth has a provisional title."""
    records = [
        _record("Gradient Checkpointing Revisited", 1),
        _record("Lantern: Tracing Parameter Servers", 2),
        _record("Sentinel: Failing Host Detection", 3),
        _record("HALCYON", 4, provisional=True),
    ]
    page = ParsedPage("Maren Solvik", PageFormat.PUBLICATION_LIST, 4, records)
    return list(library.import_pages([SourcedPage(page, "maren.txt")], at=T0).new_ids)


def undo(library: LibraryService, outcome: Outcome[Any]) -> Outcome[Any]:
    """Apply an outcome's inverse (what the window's Undo does)."""
    assert outcome.inverse is not None, "the change left nothing to undo"
    return library.apply(outcome.inverse)


def tag_names(library: LibraryService, paper_id: int) -> list[str]:
    return [t.name for t in library.paper(paper_id).tags]


def tag_counts(library: LibraryService) -> dict[str, int]:
    return {t.name: t.count for t in library.tags()}


def unchanged_after(
    library_path: Path, error: type[RefmanError], action: Callable[[], Any]
) -> RefmanError:
    """Run an action that must fail with ``error`` and leave the library file as it was."""
    before = dump(library_path)
    with pytest.raises(error) as caught:
        action()
    assert dump(library_path) == before
    return caught.value


def plain(message: str) -> bool:
    """A message a person can read: a sentence, no exception jargon."""
    return (
        bool(message)
        and (message[0].isupper() or message[0] in '“‘"')
        and message.endswith((".", "?", "!"))
        and "Traceback" not in message
        and "Error" not in message
        and "sqlalchemy" not in message.lower()
    )


# -- tags --------------------------------------------------------------------------------------


def test_tag_and_untag(library: LibraryService, ids: list[int]) -> None:
    a, b, c, _ = ids
    changes = library.tag([a, b], ["  machine   learning ", "To Read"]).changes
    assert changes.papers == {a, b} and changes.tags
    assert tag_names(library, a) == ["machine learning", "To Read"]
    library.tag([b, c], ["MACHINE LEARNING"])  # the same tag, whatever the case
    assert tag_counts(library) == {"machine learning": 3, "To Read": 2}

    library.untag([a], ["machine learning", "no such tag"])
    assert tag_names(library, a) == ["To Read"]
    assert tag_counts(library) == {"machine learning": 2, "To Read": 2}
    library.untag([a, b], ["to read"])
    assert tag_counts(library) == {"machine learning": 2, "To Read": 0}  # kept, unused
    undo(library, library.tag([a], ["Solo"]))  # undo drops the tag the change created
    assert "Solo" not in tag_counts(library)
    assert library.paper_ids(PaperQuery(section=Section.UNTAGGED)) == [ids[3], a]


def test_a_tag_the_library_does_not_hold_is_refused_with_the_tags_like_it(
    library: LibraryService, ids: list[int]
) -> None:
    """A list filtered by a mistyped tag would be a list of no papers: the name is refused,
    with the library's tags most like it, the most alike first."""
    library.tag([ids[0]], ["NeurIPS", "to read", "systems", "system design"])
    library.require_tags(["neurips", "  TO   Read "])  # any case, any spaces: no error
    with pytest.raises(NotFoundError) as caught:
        library.require_tags(["systems", "nuerips", "zebra"])
    assert str(caught.value) == "There is no tag “nuerips”. Tags like it: NeurIPS."
    assert plain(caught.value.message) and plain(caught.value.hint)
    with pytest.raises(NotFoundError) as caught:
        library.require_tags(["zebra"])
    assert caught.value.hint == "Use “refman tags” to see the tags."
    assert tags_like("sytems", [t.name for t in library.tags()]) == ["systems"]
    alike = ["read later", "to read", "thread", "zebra"]  # read later: too far (57 of 100)
    assert tags_like("read", alike) == ["thread", "to read"]


def test_a_change_to_many_papers_reports_them_in_parts(
    library: LibraryService, ids: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tagging, marking and trashing "many" papers (here three and more) tell the window
    which papers changed in parts its thread never waits on; the changes are the same."""
    monkeypatch.setattr(sequences, "PARTED_FROM", 3)
    a, b, c, d = ids
    tagged = library.tag(Distinct([a, b, c]), ["bulk"])
    assert is_parted(tagged.changes.papers)
    assert tagged.changes.papers == {a, b, c} and d not in tagged.changes.papers
    assert tag_counts(library) == {"bulk": 3}
    untagged = undo(library, tagged)
    assert untagged.changes.papers == {a, b, c}
    assert tag_counts(library) == {}
    trashed = library.trash([a, b, c, d]).changes
    assert is_parted(trashed.papers) and trashed.papers == set(ids)
    assert library.paper_ids(PaperQuery(section=Section.TRASH)) != []


def test_trashed_papers_do_not_count_for_tags(library: LibraryService, ids: list[int]) -> None:
    library.tag(ids[:3], ["ml"])
    library.tag([ids[0]], ["only trashed"])
    library.trash([ids[0]])
    assert tag_counts(library) == {"ml": 2, "only trashed": 0}
    assert library.count(PaperQuery(tags=("ML",))) == 2
    assert library.count(PaperQuery(tags=("ML",), section=Section.TRASH)) == 1
    library.restore([ids[0]])
    assert tag_counts(library) == {"ml": 3, "only trashed": 1}


def test_rename_tag(library: LibraryService, ids: list[int]) -> None:
    a, b, *_ = ids
    library.tag([a, b], ["ml"])
    library.rename_tag("ml", "Machine Learning")
    assert tag_counts(library) == {"Machine Learning": 2}
    library.rename_tag("machine learning", "MACHINE learning")  # a change of case only
    assert tag_counts(library) == {"MACHINE learning": 2}
    assert library.count(PaperQuery(tags=("machine learning",))) == 2


def _merge_by_rename(library: LibraryService, ids: list[int]) -> Outcome[None]:
    a, b, c, _ = ids
    library.tag([a, b], ["ml"])
    library.tag([b, c], ["learning"])
    library.set_tag_colour("ml", "#1e88e5")
    return library.rename_tag("ml", "Learning")


def test_rename_onto_an_existing_tag_merges(library: LibraryService, ids: list[int]) -> None:
    a, b, c, _ = ids
    merge = _merge_by_rename(library, ids)
    assert merge.label == "Merge tag “ml” into “learning”"
    assert tag_counts(library) == {"learning": 3}
    assert [tag_names(library, i) for i in (a, b, c)] == [["learning"]] * 3
    assert sorted(library.paper_ids(PaperQuery(text="learning"))) == [a, b, c]


def test_merge_by_rename_is_undone_exactly_and_redone(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    a, b, c, _ = ids
    merge = _merge_by_rename(library, ids)
    undone = undo(library, merge)
    assert tag_counts(library) == {"learning": 2, "ml": 2}
    assert [tag_names(library, i) for i in (a, b, c)] == [["ml"], ["learning", "ml"], ["learning"]]
    assert [t.colour for t in library.tags()] == [None, "#1e88e5"]
    assert sorted(library.paper_ids(PaperQuery(text="learning"))) == [b, c]
    undo(library, undone)  # redo
    assert tag_counts(library) == {"learning": 3}


def test_undoing_a_merge_restores_the_library_exactly(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    a, b, c, _ = ids
    library.tag([a, b], ["ml"])
    library.tag([b, c], ["learning"])
    library.set_tag_colour("ml", "#1e88e5")
    before = dump(library_path)
    undo(library, library.rename_tag("ml", "Learning"))
    assert dump(library_path) == before


def test_undo_of_tagging_leaves_what_others_added_meanwhile(
    library: LibraryService, ids: list[int]
) -> None:
    """Another process tags a third paper with the new tag: undo takes back only its own."""
    a, b, c, _ = ids
    mine = library.tag([a, b], ["fresh"])
    library.tag([c], ["fresh"])  # elsewhere
    undo(library, mine)
    assert tag_counts(library) == {"fresh": 1}
    assert tag_names(library, c) == ["fresh"]


def test_colour(library: LibraryService, ids: list[int]) -> None:
    library.tag(ids[:1], ["ml"])
    library.set_tag_colour("ML", "#1E88e5")
    assert [t.colour for t in library.tags()] == ["#1E88e5"]
    assert library.paper(ids[0]).tags[0].colour == "#1E88e5"
    library.set_tag_colour("ml", None)
    assert [t.colour for t in library.tags()] == [None]


def test_delete_and_restore_tag_exactly(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    a, b, c, _ = ids
    library.tag([a, b], ["ml"])
    library.tag([c], ["other"])
    library.set_tag_colour("ml", "#00ff00")
    before = {t.name: (t.colour, t.count) for t in library.tags()}

    deleted = library.delete_tag("ML")

    assert deleted.label == "Delete tag “ml”"
    assert tag_counts(library) == {"other": 1}
    assert tag_names(library, a) == []
    undo(library, deleted)
    assert {t.name: (t.colour, t.count) for t in library.tags()} == before
    assert tag_names(library, b) == ["ml"]


def test_undoing_a_delete_brings_the_tag_back_beside_one_made_meanwhile(
    library: LibraryService, ids: list[int]
) -> None:
    library.tag(ids[:2], ["ml"])
    deleted = library.delete_tag("ml")
    library.tag(ids[2:3], ["ML"])  # elsewhere, a new tag with the same name
    undo(library, deleted)
    assert tag_counts(library) == {"ML": 3}


def test_tag_names_compare_without_case_beyond_ascii(
    library: LibraryService, ids: list[int]
) -> None:
    library.tag(ids[:1], ["Ökonomie"])
    tagged = library.tag(ids[1:2], ["ökonomie"])
    assert tag_counts(library) == {"Ökonomie": 2}
    assert tagged.label == "Add tag “Ökonomie” to 1 paper"  # the tag's name (Edit ▸ Undo …)


# -- notes -------------------------------------------------------------------------------------


def test_notes_add_edit_delete_restore(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    a = ids[0]
    first = library.add_note(a, "# Reading\nSection 3 is **key**.")
    second = library.add_note(a, "Second thought.")
    assert [n.text for n in library.paper(a).notes] == [first.text, second.text]
    assert library.note(first.id) == first

    edited = library.edit_note(first.id, "Section 4 is key.")
    assert (edited.id, edited.paper_id, edited.text, edited.created) == (
        first.id,
        a,
        "Section 4 is key.",
        first.created,
    )
    assert library.note(first.id).text == "Section 4 is key."

    before = dump(library_path)
    gone = library.apply(DeleteNote(first.id))
    assert [n.id for n in library.paper(a).notes] == [second.id]
    with pytest.raises(NotFoundError):
        library.note(first.id)
    undo(library, gone)
    assert dump(library_path) == before
    assert library.note(first.id) == gone.value


def test_undoing_a_note_edit_refuses_when_the_note_changed_elsewhere(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    note = library.add_note(ids[0], "first")
    edit = library.apply(EditNote(note.id, "second"))
    library.edit_note(note.id, "third, typed in another window")
    error = unchanged_after(library_path, ConflictError, lambda: undo(library, edit))
    assert plain(error.message), error.message
    assert library.note(note.id).text == "third, typed in another window"


def test_note_text_may_be_empty_or_long(library: LibraryService, ids: list[int]) -> None:
    empty = library.add_note(ids[0], "")
    long = library.add_note(ids[0], "ü" * 100_000)
    assert library.note(empty.id).text == ""
    assert len(library.note(long.id).text) == 100_000


def test_deleting_a_paper_deletes_its_notes(library: LibraryService, ids: list[int]) -> None:
    note = library.add_note(ids[0], "bye")
    library.trash([ids[0]])
    assert library.note(note.id) == note  # notes of trashed papers are kept
    library.empty_trash()
    with pytest.raises(NotFoundError):
        library.note(note.id)


# -- fields ------------------------------------------------------------------------------------


def test_edit_fields_marks_them_as_the_users(library: LibraryService, ids: list[int]) -> None:
    pid = ids[3]
    assert library.paper(pid).title_provisional
    library.edit_fields(pid, title="  Halcyon:   Molten Salt  Dynamics ", year=2019, venue="JCP")
    paper = library.paper(pid)
    assert (paper.title, paper.title_provisional, paper.year, paper.venue) == (
        "Halcyon: Molten Salt Dynamics",
        False,
        2019,
        "JCP",
    )
    assert paper.user_edited == {"title", "year", "venue"}
    assert pid not in library.paper_ids(PaperQuery(section=Section.ATTENTION))

    library.edit_fields(pid, year=None, venue="   ")
    paper = library.paper(pid)
    assert (paper.year, paper.venue) == (None, None)


def test_edited_title_is_found_by_later_imports(library: LibraryService, ids: list[int]) -> None:
    library.edit_fields(ids[0], title="Checkpointing, Revisited Again")
    again = ParsedRecord(
        title="checkpointing, revisited again.",
        title_provisional=False,
        abstract="An unrelated abstract long enough to be a key, about something else entirely.",
    )
    page = ParsedPage("Tobias Ferreira", PageFormat.PUBLICATION_LIST, 1, [again])
    result = library.import_pages([SourcedPage(page)])
    assert result.new_ids == ()
    assert library.paper(ids[0]).title == "Checkpointing, Revisited Again"


def _near(library: LibraryService, title: str) -> RecordStatus:
    """How an import would take a record whose title is this (its abstract unlike any)."""
    record = ParsedRecord(
        title=title,
        title_provisional=False,
        abstract="Pottery glazes, kiln firing curves and clay bodies, nothing like the others.",
    )
    page = ParsedPage("Tobias Ferreira", PageFormat.PUBLICATION_LIST, 1, [record])
    return library.plan_import([SourcedPage(page)]).records[0].status


def test_a_paper_is_found_by_its_blocking_keys_after_edits_of_other_fields_and_its_title(
    library: LibraryService, ids: list[int]
) -> None:
    typo = "Lantern: Tracing Parameter Servars"
    assert _near(library, typo) is RecordStatus.POSSIBLE_DUPLICATE
    library.edit_fields(ids[1], venue="OSDI", year=2019)  # its texts as they were: keys kept
    assert _near(library, typo) is RecordStatus.POSSIBLE_DUPLICATE
    library.edit_fields(ids[1], title="Beacon: Gossip Membership Across Racks")
    assert _near(library, typo) is RecordStatus.NEW
    assert _near(library, "Beacon: Gossip Membership Across Rakcs") is (
        RecordStatus.POSSIBLE_DUPLICATE
    )


def test_undoing_an_edit_puts_back_the_fields_before_it(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    pid = ids[3]
    before = library.paper(pid)
    edit = library.edit_fields(pid, title="Halcyon", year=1999, venue="Somewhere")
    assert edit.label == "Edit title, year and venue"
    undo(library, edit)
    paper = library.paper(pid)
    assert (paper.title, paper.title_provisional, paper.year, paper.venue) == (
        before.title,
        True,
        before.year,
        before.venue,
    )
    assert paper.user_edited == frozenset()
    assert library.count(PaperQuery(text="Halcyon")) == 1
    assert pid in library.paper_ids(PaperQuery(section=Section.ATTENTION))


def test_undoing_a_field_edit_restores_the_library_exactly(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    before = dump(library_path)
    undo(library, library.edit_fields(ids[0], year=2001))
    assert dump(library_path) == before


def test_an_edit_that_changes_nothing_leaves_nothing_to_undo(
    library: LibraryService, ids: list[int]
) -> None:
    library.edit_fields(ids[0], year=2001)
    again = library.edit_fields(ids[0], year=2001)
    assert again.inverse is None and not again.changes


def test_undoing_an_edit_refuses_when_the_field_changed_elsewhere(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    edit = library.edit_fields(ids[0], title="Mine")
    library.edit_fields(ids[0], title="Theirs")
    error = unchanged_after(library_path, ConflictError, lambda: undo(library, edit))
    assert "title" in error.message and plain(error.message), error.message


# -- invalid values ----------------------------------------------------------------------------


INVALID: dict[str, Callable[[LibraryService, list[int]], Any]] = {
    "empty title": lambda lib, ids: lib.edit_fields(ids[0], title="   "),
    "year too large": lambda lib, ids: lib.edit_fields(ids[0], year=20000),
    "year too small": lambda lib, ids: lib.edit_fields(ids[0], year=999),
    "valid title, invalid year": lambda lib, ids: lib.edit_fields(
        ids[0], title="A Fine Title", venue="X", year=-5
    ),
    "empty tag": lambda lib, ids: lib.tag(ids, ["  "]),
    "one empty tag among others": lambda lib, ids: lib.tag(ids, ["good", ""]),
    "long tag": lambda lib, ids: lib.tag(ids, ["x" * 101]),
    "rename to empty": lambda lib, ids: lib.rename_tag("keep", " "),
    "colour name": lambda lib, ids: lib.set_tag_colour("keep", "red"),
    "short colour": lambda lib, ids: lib.set_tag_colour("keep", "#fff"),
    "colour with alpha": lambda lib, ids: lib.set_tag_colour("keep", "#11223344"),
}


@pytest.mark.parametrize("case", list(INVALID))
def test_invalid_values_raise_plainly_and_change_nothing(
    library: LibraryService, library_path: Path, ids: list[int], case: str
) -> None:
    library.tag(ids[:1], ["keep"])
    error = unchanged_after(library_path, InvalidValueError, lambda: INVALID[case](library, ids))
    assert plain(error.message), error.message


def test_year_limits_are_inclusive(library: LibraryService, ids: list[int]) -> None:
    library.edit_fields(ids[0], year=1000)
    library.edit_fields(ids[1], year=2100)
    assert [library.paper(i).year for i in ids[:2]] == [1000, 2100]


# -- missing ids -------------------------------------------------------------------------------

MISSING: dict[str, Callable[[LibraryService, list[int]], Any]] = {
    "paper": lambda lib, ids: lib.paper(999),
    "edit fields": lambda lib, ids: lib.edit_fields(999, title="x"),
    "tag": lambda lib, ids: lib.tag([ids[0], 999], ["t"]),
    "untag": lambda lib, ids: lib.untag([999], ["keep"]),
    "untag links": lambda lib, ids: lib.apply(UntagPapers((999,), ("keep",))),
    "trash": lambda lib, ids: lib.trash([ids[0], 999]),
    "restore": lambda lib, ids: lib.restore([999]),
    "add note": lambda lib, ids: lib.add_note(999, "text"),
    "edit note": lambda lib, ids: lib.edit_note(999, "text"),
    "delete note": lambda lib, ids: lib.delete_note(999),
    "note": lambda lib, ids: lib.note(999),
    "rename tag": lambda lib, ids: lib.rename_tag("nope", "new"),
    "colour tag": lambda lib, ids: lib.set_tag_colour("nope", "#000000"),
    "delete tag": lambda lib, ids: lib.delete_tag("nope"),
    "restore note": lambda lib, ids: lib.apply(RestoreNote(NoteView(50, 999, "text", T0, T0))),
}


@pytest.mark.parametrize("case", list(MISSING))
def test_missing_ids_raise_not_found_and_change_nothing(
    library: LibraryService, library_path: Path, ids: list[int], case: str
) -> None:
    library.tag(ids[:1], ["keep"])
    error = unchanged_after(library_path, NotFoundError, lambda: MISSING[case](library, ids))
    assert plain(error.message), error.message


def test_undoing_an_edit_of_a_deleted_paper_is_refused(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    edit = library.edit_fields(ids[0], year=1999)
    library.trash([ids[0]])
    library.empty_trash()
    unchanged_after(library_path, NotFoundError, lambda: undo(library, edit))


def test_undoing_a_note_delete_of_a_deleted_paper_is_refused_plainly(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    gone = library.apply(DeleteNote(library.add_note(ids[0], "x").id))
    library.trash([ids[0]])
    library.empty_trash()
    error = unchanged_after(library_path, NotFoundError, lambda: undo(library, gone))
    assert plain(error.message), error.message


# -- trash -------------------------------------------------------------------------------------


def test_trash_restore_and_empty(library: LibraryService, ids: list[int]) -> None:
    a, b, c, d = ids
    trashed = library.trash([a, b, a])
    assert trashed.value == (a, b)
    assert trashed.changes.papers == {a, b} and trashed.changes.structure
    assert library.section_counts().trash == 2
    assert library.count() == 2
    assert sorted(library.paper_ids(PaperQuery(section=Section.TRASH))) == [a, b]
    assert library.paper(a).trashed is not None

    library.restore([b])
    assert library.paper_ids(PaperQuery(section=Section.TRASH)) == [a]
    assert library.paper(b).trashed is None

    library.apply(SetTrashed(((None, (a,)), (datetime(2024, 5, 1), (c,)))))
    assert [library.paper(i).trashed for i in (a, c)] == [None, datetime(2024, 5, 1)]

    assert library.empty_trash() == 1
    assert library.paper_count() == 3
    with pytest.raises(NotFoundError):
        library.paper(c)
    assert library.empty_trash() == 0
    assert sorted(library.paper_ids()) == [a, b, d]


def test_undoing_trash_puts_papers_back_and_refuses_when_restored_elsewhere(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    a, b, *_ = ids
    before = dump(library_path)
    undo(library, library.trash([a, b]))
    assert dump(library_path) == before
    trashed = library.trash([a])
    library.restore([a])  # elsewhere
    error = unchanged_after(library_path, ConflictError, lambda: undo(library, trashed))
    assert plain(error.message), error.message


def test_restoring_papers_trashed_at_different_times_undoes_to_each_time(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    a, b, c, d = ids
    library.apply(SetTrashed(((datetime(2024, 5, 1), (a, b)), (datetime(2025, 1, 2), (c,)))))
    before = dump(library_path)
    restored = library.restore([a, b, c, d])  # d was never in the Trash
    assert sorted(restored.value) == [a, b, c] and restored.changes.papers == {a, b, c}
    assert library.section_counts().trash == 0
    undo(library, restored)
    assert dump(library_path) == before
    assert [library.paper(i).trashed for i in ids] == [
        datetime(2024, 5, 1),
        datetime(2024, 5, 1),
        datetime(2025, 1, 2),
        None,
    ]


def test_trashing_a_paper_the_library_does_not_hold_changes_nothing(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    error = unchanged_after(library_path, NotFoundError, lambda: library.trash([ids[0], 10_000]))
    assert "10000" in error.message, error.message


def test_empty_trash_cannot_be_undone_and_says_so(library: LibraryService, ids: list[int]) -> None:
    library.trash(ids[:2])
    emptied = library.apply(EmptyTrash())  # its value: the papers deleted for good
    deleted = sorted(ids[:2])
    assert (sorted(emptied.value.papers), emptied.irreversible, emptied.inverse) == (
        deleted,
        True,
        None,
    )
    again = library.apply(EmptyTrash())  # nothing left: nothing to clear from the history
    assert (again.value, again.irreversible) == (Emptied(()), False)


def test_deleting_papers_for_good_deletes_the_tags_left_on_no_paper(
    library: LibraryService, ids: list[int]
) -> None:
    """As Zotero purges the tags no item carries once items are erased: a tag only the
    papers deleted carried goes with them (said in the outcome), by Empty Trash and Delete
    Permanently alike; kept are a tag another paper carries (one in the Trash too), a tag
    with a colour, a tag a saved search names (its tags, a ``tag:`` term), and a tag taken
    off its last paper by hand."""
    first, second, third, fourth = ids
    library.tag([first], ["gone", "Kept Colour", "queued", "Ødegaard", "shared"])
    library.tag([second], ["trash-shared", "shared"])
    library.tag([third], ["trash-shared", "by hand"])
    library.untag([third], ["by hand"])
    library.set_tag_colour("Kept Colour", "#ff0000")
    library.save_search("Queue", "", ["QUEUED"])
    library.save_search("Norway", "tag:odegaard")
    library.trash([first, second, third])
    deleted = library.apply(EmptyTrash((first,)))
    assert deleted.value == Emptied((first,), ("gone",))
    names = {t.name: t.count for t in library.tags()}
    assert set(names) == {"Kept Colour", "queued", "Ødegaard", "shared", "trash-shared", "by hand"}
    assert [s.gone for s in library.saved_searches()] == [(), ()]
    emptied = library.apply(EmptyTrash())  # second and third: their tags now on no paper
    assert sorted(emptied.value.papers) == sorted([second, third])
    assert emptied.value.tags == ("shared", "trash-shared")
    assert {t.name for t in library.tags()} == {"Kept Colour", "queued", "Ødegaard", "by hand"}
    library.tag([fourth], ["gone"])  # a tag made again: a new one
    assert "gone" in {t.name for t in library.tags()}


def test_emptying_the_trash_clears_duplicate_links(library: LibraryService) -> None:
    long = "Placement-Aware Job Scheduling for Training Across More Than Eight Thousand Chips"
    first = ParsedRecord(long, False, "Abstract one about many things in a cluster scheduler.")
    second = ParsedRecord(
        long.replace("Job", "Jab"), False, "Abstract two, another text entirely on something."
    )
    page = ParsedPage("Maren Solvik", PageFormat.PUBLICATION_LIST, 2, [first, second])
    result = library.import_pages([SourcedPage(page)], ImportChoices(keep_all_separate=True))
    original, duplicate = result.new_ids
    assert library.paper(duplicate).possible_duplicate_of == original

    library.trash([original])
    library.empty_trash()

    assert library.paper(duplicate).possible_duplicate_of is None
    assert library.paper_ids(PaperQuery(section=Section.ATTENTION)) == []


def test_clear_possible_duplicate(library: LibraryService) -> None:
    long = "Placement-Aware Job Scheduling for Training Across More Than Eight Thousand Chips"
    first = ParsedRecord(long, False, "Abstract one about many things in a cluster scheduler.")
    second = ParsedRecord(
        long.replace("Job", "Jab"), False, "Abstract two, another text entirely on something."
    )
    page = ParsedPage("Maren Solvik", PageFormat.PUBLICATION_LIST, 2, [first, second])
    result = library.import_pages([SourcedPage(page)], ImportChoices(keep_all_separate=True))
    duplicate = result.new_ids[1]
    library.clear_possible_duplicate(duplicate)
    assert library.paper(duplicate).possible_duplicate_of is None
    assert library.section_counts().attention == 0
