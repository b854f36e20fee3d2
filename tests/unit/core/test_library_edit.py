"""Hand edits: tags, notes, fields, the Trash; invalid values and missing ids."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from refman.common.errors import InvalidValueError, NotFoundError, RefmanError
from refman.core.import_values import ImportChoices, SourcedPage
from refman.core.library import LibraryService
from refman.core.values import NoteView, PaperQuery, Section, TagSnapshot
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from tests.helpers.fixtures import dump

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
    changes = library.tag([a, b], ["  machine   learning ", "To Read"])
    assert changes.papers == {a, b} and changes.tags
    assert tag_names(library, a) == ["machine learning", "To Read"]
    library.tag([b, c], ["MACHINE LEARNING"])  # the same tag, whatever the case
    assert tag_counts(library) == {"machine learning": 3, "To Read": 2}

    library.untag([a], ["machine learning", "no such tag"])
    assert tag_names(library, a) == ["To Read"]
    assert tag_counts(library) == {"machine learning": 2, "To Read": 2}
    library.untag([a, b], ["to read"])
    assert tag_counts(library) == {"machine learning": 2, "To Read": 0}  # kept, unused
    library.tag([a], ["Solo"])
    library.untag([a], ["Solo"], drop_unused=True)
    assert "Solo" not in tag_counts(library)
    assert library.paper_ids(PaperQuery(section=Section.UNTAGGED)) == [ids[3], a]


def test_trashed_papers_do_not_count_for_tags(library: LibraryService, ids: list[int]) -> None:
    library.tag(ids[:3], ["ml"])
    library.trash([ids[0]])
    assert tag_counts(library) == {"ml": 2}
    assert library.papers_with_tag("ML") == frozenset(ids[:3])


def test_rename_tag(library: LibraryService, ids: list[int]) -> None:
    a, b, *_ = ids
    library.tag([a, b], ["ml"])
    library.rename_tag("ml", "Machine Learning")
    assert tag_counts(library) == {"Machine Learning": 2}
    library.rename_tag("machine learning", "MACHINE learning")  # a change of case only
    assert tag_counts(library) == {"MACHINE learning": 2}
    assert library.count(PaperQuery(tags=("machine learning",))) == 2


def _merge_by_rename(library: LibraryService, ids: list[int]) -> tuple[TagSnapshot, ...]:
    a, b, c, _ = ids
    library.tag([a, b], ["ml"])
    library.tag([b, c], ["learning"])
    library.set_tag_colour("ml", "#1e88e5")
    old, target = library.snapshot_tag("ml"), library.snapshot_tag("learning")
    library.rename_tag("ml", "Learning")
    return old, target


def test_rename_onto_an_existing_tag_merges(library: LibraryService, ids: list[int]) -> None:
    a, b, c, _ = ids
    _merge_by_rename(library, ids)
    assert tag_counts(library) == {"learning": 3}
    assert not library.tag_exists("ml")
    assert [tag_names(library, i) for i in (a, b, c)] == [["learning"]] * 3
    assert sorted(library.paper_ids(PaperQuery(text="learning"))) == [a, b, c]


def test_merge_by_rename_is_undone_by_restoring_both_tags(
    library: LibraryService, ids: list[int]
) -> None:
    a, b, c, _ = ids
    old, target = _merge_by_rename(library, ids)
    library.restore_tag(old)
    library.restore_tag(target)
    assert tag_counts(library) == {"learning": 2, "ml": 2}
    assert [tag_names(library, i) for i in (a, b, c)] == [["ml"], ["learning", "ml"], ["learning"]]
    assert [t.colour for t in library.tags()] == [None, "#1e88e5"]


def test_merge_by_rename_undo_keeps_search_in_sync(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    a, b, c, _ = ids
    library.tag([a, b], ["ml"])
    library.tag([b, c], ["learning"])
    library.set_tag_colour("ml", "#1e88e5")
    before = dump(library_path)
    old, target = library.snapshot_tag("ml"), library.snapshot_tag("learning")
    library.rename_tag("ml", "Learning")
    library.restore_tag(old)
    library.restore_tag(target)
    assert sorted(library.paper_ids(PaperQuery(text="learning"))) == [b, c]
    assert dump(library_path) == before


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
    before = dump(library_path)

    snap = library.delete_tag("ML")

    assert snap == TagSnapshot(id=snap.id, name="ml", colour="#00ff00", paper_ids=frozenset({a, b}))
    assert tag_counts(library) == {"other": 1}
    assert tag_names(library, a) == []
    library.restore_tag(snap)
    assert dump(library_path) == before


def test_restore_tag_takes_back_a_name_reused_meanwhile(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    library.tag(ids[:2], ["ml"])
    before = dump(library_path)
    snap = library.delete_tag("ml")
    library.tag(ids[2:3], ["ML"])  # a new tag with the same name (another id)
    library.untag(ids[2:3], ["ML"], drop_unused=True)
    library.restore_tag(snap)
    assert dump(library_path) == before


def test_tag_names_compare_without_case_beyond_ascii(
    library: LibraryService, ids: list[int]
) -> None:
    library.tag(ids[:1], ["Ökonomie"])
    library.tag(ids[1:2], ["ökonomie"])
    assert tag_counts(library) == {"Ökonomie": 2}


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
    gone = library.delete_note(first.id)
    assert [n.id for n in library.paper(a).notes] == [second.id]
    with pytest.raises(NotFoundError):
        library.note(first.id)
    library.restore_note(gone)
    assert dump(library_path) == before
    assert library.note(first.id) == gone


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


def test_restore_fields_puts_back_the_snapshot(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    pid = ids[3]
    snap = library.fields(pid)
    library.edit_fields(pid, title="Halcyon", year=1999, venue="Somewhere")
    library.restore_fields(snap)
    paper = library.paper(pid)
    assert (paper.title, paper.title_provisional, paper.year, paper.venue) == (
        snap.title,
        True,
        snap.year,
        snap.venue,
    )
    assert paper.user_edited == frozenset()
    assert library.count(PaperQuery(text="Halcyon")) == 1
    assert pid in library.paper_ids(PaperQuery(section=Section.ATTENTION))


def test_undoing_a_field_edit_restores_the_library_exactly(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    before = dump(library_path)
    snap = library.fields(ids[0])
    library.edit_fields(ids[0], year=2001)
    library.restore_fields(snap)
    assert dump(library_path) == before


# -- invalid values ----------------------------------------------------------------------------


INVALID: dict[str, Callable[[LibraryService, list[int]], Any]] = {
    "empty title": lambda lib, ids: lib.edit_fields(ids[0], title="   "),
    "year too large": lambda lib, ids: lib.edit_fields(ids[0], year=20000),
    "year too small": lambda lib, ids: lib.edit_fields(ids[0], year=999),
    "year as text": lambda lib, ids: lib.edit_fields(ids[0], year="2024"),
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
    "fields": lambda lib, ids: lib.fields(999),
    "edit fields": lambda lib, ids: lib.edit_fields(999, title="x"),
    "tag": lambda lib, ids: lib.tag([ids[0], 999], ["t"]),
    "untag": lambda lib, ids: lib.untag([999], ["keep"]),
    "trash": lambda lib, ids: lib.trash([ids[0], 999]),
    "restore": lambda lib, ids: lib.restore([999]),
    "add note": lambda lib, ids: lib.add_note(999, "text"),
    "edit note": lambda lib, ids: lib.edit_note(999, "text"),
    "delete note": lambda lib, ids: lib.delete_note(999),
    "note": lambda lib, ids: lib.note(999),
    "rename tag": lambda lib, ids: lib.rename_tag("nope", "new"),
    "colour tag": lambda lib, ids: lib.set_tag_colour("nope", "#000000"),
    "delete tag": lambda lib, ids: lib.delete_tag("nope"),
    "snapshot tag": lambda lib, ids: lib.snapshot_tag("nope"),
}


@pytest.mark.parametrize("case", list(MISSING))
def test_missing_ids_raise_not_found_and_change_nothing(
    library: LibraryService, library_path: Path, ids: list[int], case: str
) -> None:
    library.tag(ids[:1], ["keep"])
    error = unchanged_after(library_path, NotFoundError, lambda: MISSING[case](library, ids))
    assert plain(error.message), error.message


def test_restore_fields_of_a_deleted_paper_raises(library: LibraryService, ids: list[int]) -> None:
    snap = library.fields(ids[0])
    library.trash([ids[0]])
    library.empty_trash()
    with pytest.raises(NotFoundError):
        library.restore_fields(snap)


def test_restore_note_of_a_deleted_paper_raises_plainly(
    library: LibraryService, library_path: Path, ids: list[int]
) -> None:
    view = library.delete_note(library.add_note(ids[0], "x").id)
    library.trash([ids[0]])
    library.empty_trash()
    orphan = NoteView(view.id, view.paper_id, view.text, view.created, view.modified)
    unchanged_after(library_path, NotFoundError, lambda: library.restore_note(orphan))


# -- trash -------------------------------------------------------------------------------------


def test_trash_restore_and_empty(library: LibraryService, ids: list[int]) -> None:
    a, b, c, d = ids
    changes = library.trash([a, b, a])
    assert changes.papers == {a, b} and changes.structure
    assert library.section_counts().trash == 2
    assert library.count() == 2
    assert sorted(library.paper_ids(PaperQuery(section=Section.TRASH))) == [a, b]
    assert library.paper(a).trashed is not None

    library.restore([b])
    assert library.paper_ids(PaperQuery(section=Section.TRASH)) == [a]
    assert library.paper(b).trashed is None

    library.set_trashed({a: None, c: datetime(2024, 5, 1)})
    assert [library.paper(i).trashed for i in (a, c)] == [None, datetime(2024, 5, 1)]

    assert library.empty_trash() == 1
    assert library.paper_count() == 3
    with pytest.raises(NotFoundError):
        library.paper(c)
    assert library.empty_trash() == 0
    assert sorted(library.paper_ids()) == [a, b, d]


def test_trashed_at_reports_trash_times(library: LibraryService, ids: list[int]) -> None:
    a, _, c, _ = ids
    library.trash([a])
    when = library.trashed_at([a, c])
    assert when[a] is not None and when[c] is None


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
