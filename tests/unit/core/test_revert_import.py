"""The import history, and reverting any import of it: what goes, what is put back, what
stays (and why), a dry run that changes nothing, and the undo of a revert."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from refman.common.errors import ConflictError, NotFoundError
from refman.core.importing.purge import withdraw
from refman.core.importing.values import ImportChoices
from refman.core.library import LibraryService
from refman.core.operations import ImportPages
from refman.core.values import PaperQuery, Section
from tests.helpers.fixtures import sourced
from tests.helpers.pages import publication_page

FIRST = [("Rebalancing pipelines around stragglers", 2024, "arXiv")]
SECOND = [
    ("Rebalancing pipelines around stragglers", 2024, "arXiv"),
    ("Overlapped checkpoint writes", 2025, "arXiv"),
    ("Gradient compression on slow networks", 2023, "ICLR"),
]


def _titles(library: LibraryService) -> list[str]:
    return sorted(d.title for d in library.details(library.paper_ids()))


@pytest.fixture
def imports(library: LibraryService) -> tuple[int, int]:
    """Zhuo Jiang's page twice: one paper, then three (one of them the first); and Mira
    Okafor's page listing the third paper. Returns the two imports of Zhuo's page."""
    library.import_pages([sourced(publication_page("Zhuo Jiang", FIRST), "zhuo-old.txt")])
    library.import_pages([sourced(publication_page("Zhuo Jiang", SECOND), "zhuo.txt")])
    history = library.history()
    return history[1].import_id, history[0].import_id


def test_the_history_lists_every_import_newest_first(
    library: LibraryService, imports: tuple[int, int]
) -> None:
    older, newer = imports
    history = library.history()
    assert [h.import_id for h in history] == [newer, older]
    assert [(h.label, h.records, h.new) for h in history] == [
        ("zhuo.txt", 3, 2),
        ("zhuo-old.txt", 1, 1),
    ]
    assert history[0].pages[0].owner == "Zhuo Jiang"
    assert history[0].found_again == 1


def test_a_dry_run_says_what_would_go_and_changes_nothing(
    library: LibraryService, imports: tuple[int, int]
) -> None:
    _, newer = imports
    before = _titles(library)
    plan = library.revert(newer, dry_run=True).value
    assert plan.dry_run
    assert sorted(t for _, t in plan.removed) == [
        "Gradient compression on slow networks",
        "Overlapped checkpoint writes",
    ]
    assert _titles(library) == before
    assert len(library.history()) == 2


def test_reverting_an_older_import_keeps_what_a_later_import_also_brought(
    library: LibraryService, imports: tuple[int, int]
) -> None:
    older, _ = imports
    outcome = library.revert(older)
    plan = outcome.value
    assert plan.removed == ()
    assert [(k.title, k.reason) for k in plan.kept] == [
        ("Rebalancing pipelines around stragglers", "a later import also brought it")
    ]
    assert len(_titles(library)) == 3
    assert [h.label for h in library.history()] == ["zhuo.txt"]
    assert outcome.inverse is not None
    library.apply(outcome.inverse)  # undo
    assert [h.label for h in library.history()] == ["zhuo.txt", "zhuo-old.txt"]


def test_reverting_keeps_papers_tagged_or_noted_since_and_says_why(
    library: LibraryService, imports: tuple[int, int]
) -> None:
    _, newer = imports
    by_title = {d.title: d.id for d in library.details(library.paper_ids())}
    library.tag([by_title["Overlapped checkpoint writes"]], ["to read"])
    library.add_note(by_title["Gradient compression on slow networks"], "Compare with ours.")
    outcome = library.revert(newer)
    plan = outcome.value
    assert plan.removed == ()
    assert {k.title: k.reason for k in plan.kept} == {
        "Overlapped checkpoint writes": "it was tagged since",
        "Gradient compression on slow networks": "it has notes written since",
    }
    # they stay, with what was done to them; the page's attribution goes with the import
    kept = library.paper(by_title["Overlapped checkpoint writes"])
    assert [t.name for t in kept.tags] == ["to read"]
    assert kept.attributed_to == ()
    # the paper the earlier import brought is left as that import made it
    assert library.paper(by_title["Rebalancing pipelines around stragglers"]).attributed_to == (
        "Zhuo Jiang",
    )
    assert outcome.inverse is not None
    library.apply(outcome.inverse)
    assert library.paper(by_title["Overlapped checkpoint writes"]).attributed_to == ("Zhuo Jiang",)


def test_reverting_the_last_import_removes_its_papers_and_puts_back_what_it_merged(
    library: LibraryService,
) -> None:
    library.import_pages([sourced(publication_page("Zhuo Jiang", FIRST))])
    first_id = library.paper_ids()[0]
    # Mira Okafor's page lists the same paper (and a new one), with the import's tag
    page = publication_page("Mira Okafor", [*FIRST, ("Quiet progress in sketching", 2024, "VLDB")])
    library.import_pages([sourced(page, "mira.txt")], ImportChoices(tags=("systems",)))
    library.tag([first_id], ["mine"])  # a tag given since stays
    (latest, _) = library.history()
    outcome = library.revert(latest.import_id)
    plan = outcome.value
    assert [t for _, t in plan.removed] == ["Quiet progress in sketching"]
    assert [t for _, t in plan.restored] == ["Rebalancing pipelines around stragglers"]
    paper = library.paper(first_id)
    assert paper.attributed_to == ("Zhuo Jiang",)
    assert [t.name for t in paper.tags] == ["mine"]  # "systems" came with the reverted import
    assert [p.name for p in library.people()] == ["Zhuo Jiang"]
    assert library.count(PaperQuery(text="sketching")) == 0
    assert outcome.inverse is not None
    library.apply(outcome.inverse)
    assert library.count(PaperQuery(text="sketching")) == 1
    assert set(library.paper(first_id).attributed_to) == {"Zhuo Jiang", "Mira Okafor"}
    assert {t.name for t in library.paper(first_id).tags} == {"mine", "systems"}
    # and the undo of the undo reverts again
    again = library.revert(latest.import_id)
    assert [t for _, t in again.value.removed] == ["Quiet progress in sketching"]


def test_an_unknown_import_is_refused(library: LibraryService) -> None:
    with pytest.raises(NotFoundError, match="no import #42"):
        library.revert(42)


BIB = """@article{okafor2024,
  author = {Okafor, Mira and Berg, Lars},
  title = {Overlapped checkpoint writes},
  journal = {Systems Letters},
  year = {2024},
  annote = {Read for the survey.},
}
@article{berg2023,
  author = {Berg, Lars},
  title = {Gradient compression on slow networks},
  journal = {Systems Letters},
  year = {2023},
}
"""


def test_a_bibliography_import_is_reverted_with_its_notes_and_comes_back(
    library: LibraryService,
) -> None:
    from refman.core.importing.values import SourcedPage
    from refman.importers.bibtex import parse_bibtex

    library.import_pages([SourcedPage(parse_bibtex(BIB), "lab.bib")])
    edited = next(
        d.id for d in library.details(library.paper_ids()) if d.title.startswith("Gradient")
    )
    library.edit_fields(edited, year=2022)  # an edit since: this paper stays
    (only,) = library.history()
    outcome = library.revert(only.import_id)
    assert [t for _, t in outcome.value.removed] == ["Overlapped checkpoint writes"]
    assert [(k.title, k.reason) for k in outcome.value.kept] == [
        ("Gradient compression on slow networks", "it was edited since")
    ]
    assert library.paper(edited).year == 2022
    assert library.history() == []
    assert [p.name for p in library.everyone()] == ["Lars Berg"]
    assert outcome.inverse is not None
    library.apply(outcome.inverse)
    back = next(d for d in library.details(library.paper_ids()) if d.title.startswith("Overlapped"))
    assert [n.text for n in back.notes] == ["Read for the survey."]
    assert back.citekey == "okafor2024"
    assert [h.label for h in library.history()] == ["lab.bib"]


def _import(owner: str, records: list[tuple[str, int, str]], name: str) -> ImportPages:
    """The operation of importing one page (its outcome carries the Undo)."""
    return ImportPages((sourced(publication_page(owner, records), name),), ImportChoices())


def test_undo_refuses_when_a_later_import_found_the_new_paper_again(
    library: LibraryService,
) -> None:
    """The window's Undo of its import, after another window or the command line imported a
    page that found one of its new papers again: deleting that paper would take the later
    import's record with it. Undo says so and changes nothing; the revert from the history
    then keeps the paper the later import found too."""
    mine = library.apply(_import("Zhuo Jiang", FIRST, "zhuo.txt"))
    paper = library.paper_ids()[0]
    library.import_pages([sourced(publication_page("Mira Okafor", SECOND), "mira.txt")])
    before = (_titles(library), library.paper(paper).attributed_to, len(library.history()))
    assert mine.inverse is not None
    with pytest.raises(ConflictError, match="found again by a later import") as refused:
        library.apply(mine.inverse)
    assert "“Rebalancing pipelines around stragglers”" in str(refused.value)
    assert "mira.txt" in str(refused.value)
    assert "refman revert" in refused.value.hint
    assert (_titles(library), library.paper(paper).attributed_to, len(library.history())) == before
    older = library.history()[1]
    plan = library.revert(older.import_id).value
    assert plan.removed == ()
    assert library.paper(paper).attributed_to == ("Mira Okafor",)


def test_undo_of_two_imports_in_turn_still_works(library: LibraryService) -> None:
    """The later import undone first (the usual order), the first one's Undo is not refused."""
    first = library.apply(_import("Zhuo Jiang", FIRST, "zhuo.txt"))
    second = library.apply(_import("Mira Okafor", SECOND, "mira.txt"))
    assert second.inverse is not None and first.inverse is not None
    library.apply(second.inverse)
    library.apply(first.inverse)
    assert library.count() == 0
    assert library.history() == []


def test_reverting_an_import_whose_paper_is_being_deleted_leaves_that_paper_alone(
    library: LibraryService,
) -> None:
    """A paper an undone import withdrew (deleted in the background) that a later import had
    merged into, as a library from before the refusal above may hold: the later import's
    revert removes its own new papers and neither restores nor fails on the withdrawn one."""
    library.import_pages([sourced(publication_page("Zhuo Jiang", FIRST), "zhuo.txt")])
    paper = library.paper_ids()[0]
    library.import_pages([sourced(publication_page("Mira Okafor", SECOND), "mira.txt")])
    with library.db.transaction() as session:
        withdraw(session, [paper], {})
    later = library.history()[0]
    plan = library.revert(later.import_id).value
    assert sorted(t for _, t in plan.removed) == [
        "Gradient compression on slow networks",
        "Overlapped checkpoint writes",
    ]
    assert plan.restored == ()
    assert library.count() == 0
    library.purge()
    assert library.purge_pending() == 0


def test_reverting_every_import_newest_first_leaves_nothing_nobody_chose_to_keep(
    library: LibraryService, imports: tuple[int, int]
) -> None:
    # Later imports merged into the papers of earlier ones (and their reverts put them back):
    # no one edited them, so each revert takes what its import brought.
    mira = publication_page(
        "Mira Okafor", [SECOND[2], ("Quiet progress in sketching", 2024, "VLDB")]
    )
    library.import_pages([sourced(mira, "mira.txt")])
    for entry in library.history():  # newest first
        plan = library.revert(entry.import_id).value
        assert plan.kept == (), [(k.title, k.reason) for k in plan.kept]
    assert library.count() == 0 and library.history() == []


def test_a_reverted_import_keeps_what_was_edited_by_hand_and_not_what_was_trashed(
    library: LibraryService, imports: tuple[int, int]
) -> None:
    _, newer = imports
    by_title = {d.title: d.id for d in library.details(library.paper_ids())}
    library.edit_fields(by_title["Overlapped checkpoint writes"], year=2026)
    library.trash([by_title["Gradient compression on slow networks"]])
    plan = library.revert(newer).value
    assert {k.title: k.reason for k in plan.kept} == {
        "Overlapped checkpoint writes": "it was edited since"
    }
    assert [t for _, t in plan.removed] == ["Gradient compression on slow networks"]


def test_a_paper_an_import_merged_into_and_trashed_since_stays_in_the_trash(
    library: LibraryService,
) -> None:
    library.import_pages([sourced(publication_page("Zhuo Jiang", FIRST))])
    first_id = library.paper_ids()[0]
    page = publication_page("Mira Okafor", [*FIRST, ("Quiet progress in sketching", 2024, "VLDB")])
    library.import_pages([sourced(page, "mira.txt")])
    library.trash([first_id])
    (latest, _) = library.history()
    plan = library.revert(latest.import_id).value
    assert [(k.title, k.reason) for k in plan.kept] == [
        ("Rebalancing pipelines around stragglers", "it was moved to the Trash since")
    ]
    assert library.paper_ids(PaperQuery(section=Section.TRASH)) == [first_id]


def test_a_paper_given_a_file_since_stays_with_it(
    library: LibraryService, imports: tuple[int, int], tmp_path: Path
) -> None:
    _, newer = imports
    by_title = {d.title: d.id for d in library.details(library.paper_ids())}
    notes = tmp_path / "reading-notes.txt"
    notes.write_text("my annotations\n", encoding="utf-8")
    time.sleep(1.05)  # times are kept to the second: the file comes after the import
    library.attach(by_title["Overlapped checkpoint writes"], [notes], link=True)
    plan = library.revert(newer).value
    assert [(k.title, k.reason) for k in plan.kept] == [
        ("Overlapped checkpoint writes", "it was edited since")
    ]
    assert [f.name for f in library.paper(by_title["Overlapped checkpoint writes"]).files] == [
        "reading-notes.txt"
    ]
