"""No lost update: versions, edits based on what a person saw, who did what, and two people
changing one library at the same time (a library file and a shared library alike)."""

from __future__ import annotations

import getpass
import threading
from collections.abc import Callable
from functools import partial

import pytest
from sqlalchemy import text

from refman.common.errors import EditConflictError, NotFoundError
from refman.core.library import LibraryService
from refman.core.operations import EditNote, EditPaper
from refman.core.rules import FieldEdits
from tests.helpers.fixtures import sourced
from tests.helpers.pages import generated_page


def _all_at_once(calls: list[Callable[[], object]]) -> list[BaseException]:
    """Run the calls in threads at the same time; the errors they raised."""
    errors: list[BaseException] = []

    def run(call: Callable[[], object]) -> None:
        try:
            call()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return errors


@pytest.fixture
def paper(library: LibraryService) -> int:
    return library.import_pages([sourced(generated_page(3))]).new_ids[0]


def test_every_change_moves_the_papers_version_on(library: LibraryService, paper: int) -> None:
    first = library.paper(paper).version
    library.edit_fields(paper, title="A Title of My Own")
    library.trash([paper])
    library.restore([paper])
    assert library.paper(paper).version == first + 3


def test_an_edit_of_a_field_changed_since_it_was_seen_is_refused_with_both_values(
    library: LibraryService, paper: int
) -> None:
    seen = library.paper(paper).title
    library.edit_fields(paper, title="Their Title")  # someone else, meanwhile
    with pytest.raises(EditConflictError) as refused:
        library.apply(EditPaper(paper, FieldEdits(title="My Title"), based_on=(("title", seen),)))
    assert refused.value.fields == (("title", seen, "My Title", "Their Title"),)
    assert "changed since you began editing" in refused.value.message
    assert library.paper(paper).title == "Their Title"  # nothing was changed


def test_an_edit_goes_through_when_only_other_fields_changed_meanwhile(
    library: LibraryService, paper: int
) -> None:
    seen = library.paper(paper)
    library.edit_fields(paper, venue="Their Venue")  # someone else, another field
    library.apply(EditPaper(paper, FieldEdits(title="My Title"), based_on=(("title", seen.title),)))
    now = library.paper(paper)
    assert (now.title, now.venue) == ("My Title", "Their Venue")


def test_choosing_theirs_or_mine_after_a_conflict(library: LibraryService, paper: int) -> None:
    seen = library.paper(paper).title
    library.edit_fields(paper, title="Their Title")
    with pytest.raises(EditConflictError) as refused:
        library.apply(EditPaper(paper, FieldEdits(title="My Title"), based_on=(("title", seen),)))
    _, _, mine, theirs = refused.value.fields[0]
    # "Keep mine": the same edit, now based on what is there
    library.apply(EditPaper(paper, FieldEdits(title=str(mine)), based_on=(("title", str(theirs)),)))
    assert library.paper(paper).title == "My Title"


def test_a_note_changed_since_it_was_opened_is_kept_and_both_texts_offered(
    library: LibraryService, paper: int
) -> None:
    note = library.add_note(paper, "first draft")
    library.edit_note(note.id, "their edit")
    with pytest.raises(EditConflictError) as refused:
        library.apply(EditNote(note.id, "my edit", based_on="first draft"))
    assert refused.value.fields == (("text", "first draft", "my edit", "their edit"),)
    assert library.note(note.id).text == "their edit"
    # "Keep both": mine becomes a second note
    library.add_note(paper, "my edit")
    assert sorted(n.text for n in library.paper(paper).notes) == ["my edit", "their edit"]


def test_a_note_deleted_since_it_was_opened_is_a_conflict_with_theirs_gone(
    library: LibraryService, paper: int
) -> None:
    """Saving the text of a note someone deleted meanwhile: refused as a conflict (the
    window keeps what was written as a new note), not 'there is no note'."""
    note = library.add_note(paper, "first draft")
    library.delete_note(note.id)  # someone else, meanwhile
    with pytest.raises(EditConflictError) as refused:
        library.apply(EditNote(note.id, "first draft, and more", based_on="first draft"))
    assert refused.value.fields == (("text", "first draft", "first draft, and more", None),)
    assert "was deleted elsewhere since you began editing it" in refused.value.message
    assert library.paper(paper).notes == ()  # nothing was changed
    with pytest.raises(NotFoundError, match="There is no note"):  # an edit based on nothing
        library.apply(EditNote(note.id, "text"))


def test_who_added_and_changed_papers_and_notes_is_recorded(
    library: LibraryService, paper: int, backend: str
) -> None:
    with library.db.reading() as session:
        me = (
            str(session.execute(text("SELECT current_user")).scalar_one())
            if backend == "postgres"
            else getpass.getuser()
        )
    detail = library.paper(paper)
    assert (detail.created_by, detail.modified_by) == (me, me)
    note = library.add_note(paper, "hello")
    assert (note.created_by, note.modified_by) == (me, me)
    assert library.paper(paper).notes[0].created_by == me


def test_two_people_editing_one_paper_at_once_lose_nothing(
    library: LibraryService, library_location: str, paper: int
) -> None:
    """Eight people each change their own field of the same paper at the same time: every
    change is in the library afterwards (a change that met another one was tried again)."""
    others = [LibraryService.open(library_location) for _ in range(4)]
    fields = ["title", "venue", "doi", "url", "publisher", "volume", "issue", "pages"]
    values = {name: f"{name} value" for name in fields}
    values.update(doi="10.1234/refman.5", url="https://example.org/paper")
    try:
        errors = _all_at_once(
            [
                partial(others[i % 4].edit_fields, paper, **{name: values[name]})
                for i, name in enumerate(fields)
            ]
        )
    finally:
        for service in others:
            service.close()
    assert errors == []
    detail = library.paper(paper)
    assert {name: getattr(detail, name) for name in fields} == values


def test_two_imports_of_overlapping_pages_at_once_create_no_duplicate(
    library: LibraryService, library_location: str
) -> None:
    pages = [generated_page(40), generated_page(60)]  # the first 40 papers are on both
    services = [LibraryService.open(library_location) for _ in pages]
    try:
        errors = _all_at_once(
            [partial(s.import_pages, [sourced(p)]) for s, p in zip(services, pages, strict=True)]
        )
    finally:
        for service in services:
            service.close()
    assert errors == []
    titles = [library.paper(i).title for i in library.paper_ids()]
    assert len(titles) == len(set(titles)) == 60
