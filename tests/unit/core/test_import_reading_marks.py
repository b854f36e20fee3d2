"""What a researcher read and how they rated it comes in with a JabRef library (``readstatus``,
``ranking``): a new paper takes it, a paper of the library only where the reader has set
none; the review says what a merge gives; undo and revert take exactly that back, and
refuse, or keep, what the reader marked since."""

from __future__ import annotations

import pytest

from refman.common.errors import ConflictError
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import ImportPages
from refman.core.values import PaperQuery, Section
from refman.importers.bibtex import parse_bibtex
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

UNREAD = PaperQuery(section=Section.UNREAD)


def _entry(key: str, title: str, marks: str) -> str:
    return f"@article{{{key},\n  title = {{{title}}},\n  year = {{2021}},\n{marks}}}\n"


JABREF = (
    _entry("kim2021", "Sparse Mixtures for Retrieval", "  readstatus = {read},\n")
    + _entry("ode2021", "Skimmed Notes on Protein Folds", "  readstatus = {skimmed},\n")
    + _entry("lee2021", "Ranked Three Stars", "  ranking = {rank3},\n")
    + _entry("ngo2021", "Both Marks", "  readstatus = {read},\n  ranking = {rank5},\n")
    + _entry("pak2021", "No Marks At All", "")
)


def _bib(text: str = JABREF) -> SourcedPage:
    return SourcedPage(parse_bibtex(text), "library.bib")


def _marks(library: LibraryService) -> dict[str, tuple[str, int]]:
    return {str(d.citekey): (d.status, d.rating) for d in library.details(library.paper_ids())}


def _plain(*titles: str) -> SourcedPage:
    """The same papers as an author page would list them: no marks."""
    records = [
        ParsedRecord(title=t, title_provisional=False, abstract="", year=2021) for t in titles
    ]
    return SourcedPage(ParsedPage("Ines Okafor", PageFormat.PUBLICATION_LIST, None, records), "p")


def test_a_jabref_library_brings_what_was_read_and_how_it_was_rated(
    library: LibraryService,
) -> None:
    result = library.import_pages([_bib()])
    assert len(result.new_ids) == 5
    assert _marks(library) == {
        "kim2021": ("read", 0),
        "ode2021": ("reading", 0),  # skimmed: being read
        "lee2021": ("unread", 3),
        "ngo2021": ("read", 5),
        "pak2021": ("unread", 0),
    }
    assert library.section_counts().unread == 2
    # undone at once: the marks are the import's, not the reader's
    library.undo_import(result.batch_ids)
    assert library.paper_ids() == []


def test_a_paper_of_the_library_takes_marks_only_where_the_reader_set_none(
    library: LibraryService,
) -> None:
    ids = library.import_pages([_plain("Sparse Mixtures for Retrieval", "Both Marks")]).new_ids
    library.mark([ids[1]], status="reading", rating=2)  # the reader's own: kept, never raised
    plan = library.plan_import([_bib()])
    adds = {r.target_id: r.adds for r in plan.records if r.target_id is not None}
    assert "the reading status (read)" in adds[ids[0]]
    assert not any("reading status" in a or "rating" in a for a in adds[ids[1]])
    library.import_pages([_bib()])
    assert (library.paper(ids[0]).status, library.paper(ids[0]).rating) == ("read", 0)
    assert (library.paper(ids[1]).status, library.paper(ids[1]).rating) == ("reading", 2)


def test_an_import_that_only_marks_a_paper_is_undone_to_unread(library: LibraryService) -> None:
    first = library.import_pages([_bib(_entry("ngo2021", "Both Marks", ""))])
    [pid] = first.new_ids
    modified = library.paper(pid).modified
    outcome = library.apply(ImportPages((_bib(),)))
    assert outcome.value.merged_ids == (pid,)
    [merge] = [r for r in outcome.value.pages[0].records if r.paper_id == pid]
    assert merge.updated
    paper = library.paper(pid)
    assert (paper.status, paper.rating, paper.modified) == ("read", 5, modified)  # not an edit
    assert outcome.inverse is not None
    library.apply(outcome.inverse)
    library.purge()
    assert (library.paper(pid).status, library.paper(pid).rating) == ("unread", 0)


def test_undo_is_refused_once_the_reader_changed_what_the_import_gave(
    library: LibraryService,
) -> None:
    outcome = library.apply(ImportPages((_bib(),)))
    lee = next(i for i in outcome.value.new_ids if library.paper(i).citekey == "lee2021")
    library.mark([lee], rating=4)
    assert outcome.inverse is not None
    with pytest.raises(ConflictError, match="“Ranked Three Stars” was marked or rated since"):
        library.apply(outcome.inverse)
    assert library.paper(lee).rating == 4


def test_a_revert_removes_the_papers_marked_by_the_import_and_puts_back_the_merged_ones(
    library: LibraryService,
) -> None:
    [kept] = library.import_pages([_plain("Both Marks")]).new_ids
    library.import_pages([_bib()])
    assert (library.paper(kept).status, library.paper(kept).rating) == ("read", 5)
    outcome = library.revert(library.history()[0].import_id)
    plan = outcome.value
    assert plan.kept == ()  # the marks it gave are no reader's marks
    assert len(plan.removed) == 4 and [pid for pid, _ in plan.restored] == [kept]
    assert (library.paper(kept).status, library.paper(kept).rating) == ("unread", 0)
    assert outcome.inverse is not None
    library.apply(outcome.inverse)  # the revert undone: the marks come back
    assert (library.paper(kept).status, library.paper(kept).rating) == ("read", 5)
    assert _marks(library)["kim2021"] == ("read", 0)
    assert library.count(UNREAD) == 2


def test_a_revert_keeps_what_the_reader_marked_since(library: LibraryService) -> None:
    [merged] = library.import_pages([_plain("Both Marks")]).new_ids
    result = library.import_pages([_bib()])
    kim = next(i for i in result.new_ids if library.paper(i).citekey == "kim2021")
    library.mark([kim], status="reading")
    library.mark([merged], rating=1)
    plan = library.revert(library.history()[0].import_id).value
    assert [(k.paper_id, k.reason) for k in plan.kept] == [(kim, "it was marked or rated since")]
    assert [pid for pid, _ in plan.restored] == [merged]
    assert (library.paper(merged).status, library.paper(merged).rating) == ("read", 1)


def test_a_revert_of_an_import_that_only_marked_a_paper_takes_the_marks_back(
    library: LibraryService,
) -> None:
    [pid] = library.import_pages([_bib(_entry("ngo2021", "Both Marks", ""))]).new_ids
    library.import_pages([_bib(_entry("ngo2021", "Both Marks", "  ranking = {rank2},\n"))])
    assert library.paper(pid).rating == 2
    plan = library.revert(library.history()[0].import_id).value
    assert [p for p, _ in plan.restored] == [pid] and plan.kept == ()
    assert (library.paper(pid).status, library.paper(pid).rating) == ("unread", 0)
