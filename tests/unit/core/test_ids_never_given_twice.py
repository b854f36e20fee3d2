"""An id is never given twice in a library's life (refman.store.id_marks): the papers, notes,
people, files, imports and saved searches deleted for good leave their ids to nobody, so that
an undo step (of this window or another one on the library), "#93" on the command line or
an import's record of what it made never reaches another row."""

from __future__ import annotations

from pathlib import Path

import pytest

from refman.common.errors import ConflictError, NotFoundError
from refman.core.attachments import AttachFiles
from refman.core.importing.values import ImportChoices, ImportResult, SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import AddNote, ImportPages, Operation, Outcome, UndoImport
from refman.core.saved_searches import SaveSearch
from tests.helpers.fixtures import sourced
from tests.helpers.pages import publication_page


def _page(owner: str, *titles: str) -> SourcedPage:
    records = [(title, 2020 + i, "arXiv") for i, title in enumerate(titles)]
    return sourced(publication_page(owner, records), f"{owner}.txt")


def _inverse(op: Operation[object] | None) -> Operation[object]:
    assert op is not None
    return op


def test_papers_deleted_for_good_leave_their_ids_to_nobody(library: LibraryService) -> None:
    given = library.import_pages([_page("Ada Lund", "Fjords", "Moraines", "Eskers", "Tarns")])
    ever = set(given.new_ids)
    library.trash(sorted(ever)[-2:])  # the newest papers, deleted for good
    library.empty_trash()

    second = library.import_pages([_page("Bo Kerr", "Drumlins", "Cirques")]).new_ids
    assert len(second) == 2 and min(second) > max(ever)
    ever |= set(second)

    undone = library.apply(ImportPages((_page("Cy Moe", "Kames", "Aretes"),)))
    ever |= set(undone.value.new_ids)
    library.apply(_inverse(undone.inverse))
    library.purge()  # the undone import's papers, deleted for good
    third = library.import_pages([_page("Di Ray", "Erratics", "Loess")])
    assert min(third.new_ids) > max(ever)
    ever |= set(third.new_ids)

    library.revert(third.batch_ids[0])  # its papers deleted at once
    fourth = library.import_pages([_page("Ed Vos", "Outwash", "Nunataks")]).new_ids
    assert min(fourth) > max(ever)
    assert [library.paper(pid).title for pid in fourth] == ["Outwash", "Nunataks"]


def test_a_step_on_a_paper_deleted_for_good_is_refused_not_done_to_a_new_paper(
    library: LibraryService,
) -> None:
    # QA's case: another window tags the newest paper and writes a note on it, then undoes
    # both (its Redo holds them); the paper is deleted for good and an import adds a paper.
    newest = max(library.import_pages([_page("Ada Lund", "Fjords", "Moraines")]).new_ids)
    tagged = library.tag([newest], ["to read"])
    noted = library.apply(AddNote(newest, "Check the proofs."))
    redo_note = _inverse(library.apply(_inverse(noted.inverse)).inverse)
    redo_tag = _inverse(library.apply(_inverse(tagged.inverse)).inverse)
    library.trash([newest])
    library.empty_trash()
    (new,) = library.import_pages([_page("Bo Kerr", "Drumlins")]).new_ids
    assert new > newest

    for step in (redo_tag, redo_note):
        with pytest.raises(NotFoundError, match=f"There is no paper #{newest} in this library"):
            library.apply(step)
    shown = library.paper(new)
    assert (shown.title, shown.tags, shown.notes) == ("Drumlins", (), ())
    assert [t.name for t in library.tags()] == []


def test_undoing_a_note_never_deletes_a_note_written_since_on_another_paper(
    library: LibraryService,
) -> None:
    first, second = library.import_pages([_page("Ada Lund", "Fjords", "Moraines")]).new_ids
    added = library.apply(AddNote(first))  # an empty note; its undo deletes it
    library.delete_note(added.value.id)  # deleted in another window
    other = library.add_note(second, "")
    assert other.id > added.value.id
    with pytest.raises(NotFoundError, match=f"There is no note #{added.value.id}"):
        library.apply(_inverse(added.inverse))
    assert [n.id for n in library.paper(second).notes] == [other.id]


def test_undoing_an_import_reverted_elsewhere_never_undoes_a_later_import(
    library: LibraryService,
) -> None:
    done = library.apply(ImportPages((_page("Ada Lund", "Fjords", "Moraines"),)))
    assert isinstance(done.inverse, UndoImport)
    library.revert(done.value.batch_ids[0])  # in another window, from Import History
    later = library.import_pages([_page("Bo Kerr", "Drumlins", "Cirques")])
    assert min(later.batch_ids) > max(done.value.batch_ids)
    assert min(later.new_ids) > max(done.value.new_ids)
    with pytest.raises(ConflictError, match="no longer in the library"):
        library.apply(done.inverse)
    assert sorted(library.paper_ids()) == sorted(later.new_ids)
    assert [h.import_id for h in library.history()] == [later.batch_ids[0]]


def test_undoing_a_saved_search_never_deletes_one_saved_since(library: LibraryService) -> None:
    saved = library.apply(SaveSearch("Glaciers", "glacier"))
    library.delete_saved_search(saved.value.id)  # in another window
    later = library.save_search("Fjords", "fjord")
    assert later.id > saved.value.id
    with pytest.raises(NotFoundError, match="deleted already"):
        library.apply(_inverse(saved.inverse))
    assert [s.name for s in library.saved_searches()] == ["Fjords"]


def test_undoing_an_attachment_never_removes_a_file_attached_since(
    library: LibraryService, tmp_path: Path
) -> None:
    first, second = library.import_pages([_page("Ada Lund", "Fjords", "Moraines")]).new_ids
    (tmp_path / "a.txt").write_text("field notes")
    (tmp_path / "b.txt").write_text("other notes")
    attached = library.apply(AttachFiles(first, (str(tmp_path / "a.txt"),), link=True))
    (view,) = attached.value
    library.remove_files([view.id])  # in another window
    (later,) = library.attach(second, [tmp_path / "b.txt"], link=True)
    assert later.id > view.id
    with pytest.raises(NotFoundError, match=f"no attached file #{view.id}"):
        library.apply(_inverse(attached.inverse))
    assert [f.name for f in library.paper(second).files] == ["b.txt"]


def test_new_tags_and_people_take_ids_never_given(library: LibraryService) -> None:
    (first,) = library.import_pages([_page("Ada Lund", "Fjords")]).new_ids
    library.tag([first], ["alpine", "polar"])
    polar = {t.name: t.id for t in library.tags()}["polar"]
    library.delete_tag("polar")
    library.tag([first], ["coastal"])
    assert {t.name: t.id for t in library.tags()}["coastal"] > polar

    undone = library.apply(ImportPages((_page("Bo Kerr", "Drumlins"),)))
    bo = {p.name: p.id for p in library.everyone()}["Bo Kerr"]
    library.apply(_inverse(undone.inverse))
    library.purge()  # Bo Kerr goes with the last of the import's papers
    library.import_pages([_page("Cy Moe", "Kames")])
    assert {p.name: p.id for p in library.everyone()}["Cy Moe"] > bo


def _ids_of(library: LibraryService) -> tuple[dict[str, int], dict[str, int]]:
    """The people's and the tags' ids, by name."""
    return {p.name: p.id for p in library.everyone()}, {t.name: t.id for t in library.tags()}


def _undo(library: LibraryService, done: Outcome[ImportResult]) -> ImportPages:
    """Undo an import (its papers wait to be deleted for good); its Redo."""
    redo = library.apply(_inverse(done.inverse)).inverse
    assert isinstance(redo, ImportPages)
    return redo


def test_redo_gives_an_undone_imports_papers_their_ids_back(library: LibraryService) -> None:
    page = _page("Ada Lund", "Fjords", "Moraines", "Eskers")
    done = library.apply(ImportPages((page,), ImportChoices(tags=("glacial",))))
    ids = done.value.new_ids
    tagged = library.tag([ids[2]], ["to read"])
    made = _ids_of(library)
    redo_tag = _inverse(library.apply(_inverse(tagged.inverse)).inverse)

    again = library.apply(_undo(library, done))  # at once: before the purge
    assert again.value.new_ids == ids
    tag_again = library.apply(redo_tag)  # the next step of the history finds its paper again
    assert [t.name for t in library.paper(ids[2]).tags] == ["glacial", "to read"]
    assert library.paper(ids[2]).title == "Eskers"
    library.apply(_inverse(tag_again.inverse))  # (Undo goes back through the tag first)

    redo = _undo(library, again)
    library.purge()  # deleted for good, Ada Lund and the tag too: the ids stay the import's
    assert _ids_of(library) == ({}, {})  # ("to read" went with its undo)
    again = library.apply(redo)
    assert again.value.new_ids == ids
    assert _ids_of(library) == (made[0], {"glacial": made[1]["glacial"]})
    assert again.value.batch_ids == done.value.batch_ids  # its number in the history too
    assert [library.paper(pid).title for pid in ids] == ["Fjords", "Moraines", "Eskers"]

    redo = _undo(library, again)
    (other, drumlins) = library.import_pages([_page("Bo Kerr", "Moraines", "Drumlins")]).new_ids
    again = library.apply(redo)  # Moraines joins Bo Kerr's paper; its old id stays unused
    assert again.value.new_ids == (ids[0], ids[2]) and again.value.merged_ids == (other,)
    assert min(other, drumlins) > max(ids)
    assert sorted(library.paper_ids()) == sorted([ids[0], ids[2], other, drumlins])


def test_undoing_a_revert_gives_back_its_papers_people_and_tags_their_ids(
    library: LibraryService,
) -> None:
    library.import_pages([_page("Zhuo Jiang", "Fjords")])
    brought = library.import_pages(
        [_page("Mira Okafor", "Fjords", "Moraines")], ImportChoices(tags=("glacial",))
    )
    before = {d.id: (d.title, [t.id for t in d.tags]) for d in library.details(library.paper_ids())}
    people = {p.name: p.id for p in library.everyone()}
    reverted = library.revert(brought.batch_ids[0])
    assert [p.name for p in library.everyone()] == ["Zhuo Jiang"]
    library.import_pages([_page("Wen Li", "Drumlins")], ImportChoices(tags=("alpine",)))

    library.apply(_inverse(reverted.inverse))
    shown = {d.id: (d.title, [t.id for t in d.tags]) for d in library.details(library.paper_ids())}
    assert {pid: shown[pid] for pid in before} == before
    assert {p.name: p.id for p in library.everyone() if p.name in people} == people
    assert [h.import_id for h in library.history()][1] == brought.batch_ids[0]


def test_undoing_a_revert_after_its_owner_was_merged_into_another_spelling(
    library: LibraryService,
) -> None:
    brought = library.import_pages([_page("Mira Okafor", "Fjords")])
    reverted = library.revert(brought.batch_ids[0])  # Mira Okafor goes with her paper
    library.import_pages([_page("M. Okafor", "Moraines")])
    library.import_pages([_page("Mira Okafor", "Drumlins")])  # back, under a new id
    ids = {p.name: p.id for p in library.everyone()}
    library.merge_people(ids["M. Okafor"], ids["Mira Okafor"])

    library.apply(_inverse(reverted.inverse))  # her spelling now names M. Okafor
    assert [(p.name, p.id) for p in library.everyone()] == [("M. Okafor", ids["M. Okafor"])]
    assert library.paper(brought.new_ids[0]).attributed_to == ("M. Okafor",)
    assert [v.pages[0].owner for v in library.history()] == ["M. Okafor"] * 3
