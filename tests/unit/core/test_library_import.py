"""Importing pages into a library: new or merged, the merge rules, choices, atomicity, undo.

Pages are built from :class:`ParsedRecord` values directly so that these tests pin down the
library's behaviour independently of the page parser.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from refman.common.errors import InvalidValueError
from refman.core.importing import apply
from refman.core.importing.values import ImportChoices, RecordStatus, SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperDetail, PaperQuery, Section
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from refman.store.search import Fts5Index
from tests.helpers.fixtures import dump, sourced
from tests.helpers.pages import generated_page

T0 = datetime(2024, 3, 1, 9, 0, 0)
T1 = datetime(2024, 3, 2, 9, 0, 0)
T2 = datetime(2024, 3, 3, 9, 0, 0)

_WORDS_TEXT = (
    "lattice quorum kernel beacon vector cipher glacier harbor meadow orbit prism rivet "
    "saddle timber umbra velvet willow yonder zenith anchor bramble cobalt dune ember fjord "
    "garnet hollow inlet juniper kestrel lagoon marble nectar onyx pylon quartz ridge summit "
    "tundra upland vortex wharf xenon yarrow zephyr amber basalt canyon delta estuary ferric "
    "granite heron isthmus jasper knoll loam mesa nimbus oxbow plateau quarry rapids scree"
)
_WORDS = _WORDS_TEXT.split()
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def prose(seed: int, words: int = 60) -> str:
    """An invented abstract; different seeds give texts far below the near-duplicate bar."""
    rng = random.Random(seed)
    body = " ".join(rng.choice(_WORDS) for _ in range(words))
    return f"Study {seed}: {body.capitalize()}."


def rec(
    title: str = "",
    abstract: str = "",
    *,
    year: int | None = None,
    venue: str | None = None,
    subjects: tuple[str, ...] = (),
    authors: tuple[str, ...] = (),
    complete: bool = False,
) -> ParsedRecord:
    """A record; an empty title makes it a provisional one (as on an author-abstracts page)."""
    provisional = not title
    return ParsedRecord(
        title=title or (abstract.split(":")[0] if abstract else "Untitled record"),
        title_provisional=provisional,
        abstract=abstract,
        year=year,
        venue=venue,
        subjects=subjects,
        authors=authors,
        authors_complete=complete,
    )


def page(owner: str, *records: ParsedRecord, source: str | None = None) -> SourcedPage:
    """A page of records owned by ``owner``."""
    fmt = (
        PageFormat.AUTHOR_ABSTRACTS
        if records and all(r.title_provisional for r in records)
        else PageFormat.PUBLICATION_LIST
    )
    parsed = ParsedPage(owner=owner, format=fmt, claimed=len(records), records=list(records))
    return SourcedPage(parsed, source or f"{owner.split()[0].lower()}.txt")


def only(library: LibraryService) -> PaperDetail:
    """The one paper of a library (asserting there is exactly one)."""
    ids = library.paper_ids()
    assert len(ids) == 1, f"expected one paper, found {len(ids)}"
    return library.paper(ids[0])


def by_title(library: LibraryService) -> dict[str, PaperDetail]:
    """Every paper (outside the Trash) by title."""
    return {d.title: d for d in library.details(library.paper_ids())}


GIGA = rec(
    "GigaLoom: Training Language Models on Twenty Thousand Accelerators",
    prose(1),
    year=2024,
    venue="arXiv",
    subjects=("cs.LG",),
)
QUARRY = rec(
    "Quarry: Placement-Aware Scheduling for Large Training Jobs",
    prose(2),
    year=2025,
    venue="arXiv",
    subjects=("cs.DC", "cs.NI"),
)
FRUGAL = rec(
    "Frugal: Memory-Light Adaptive Optimization",
    prose(3),
    year=2023,
    venue="ICLR",
    subjects=("cs.LG", "stat.ML"),
)


# -- new papers and plain merges ---------------------------------------------------------------


def test_new_records_become_papers_with_their_fields(library: LibraryService) -> None:
    result = library.import_pages([page("Maren Solvik", GIGA, QUARRY, FRUGAL)], at=T0)

    assert len(result.new_ids) == 3
    assert result.merged_ids == ()
    report = result.pages[0]
    assert (report.new, report.merged, report.skipped, report.parsed) == (3, 0, 0, 3)
    assert report.batch_id is not None
    assert library.count() == 3
    papers = by_title(library)
    frugal = papers[FRUGAL.title]
    assert not frugal.title_provisional
    assert (frugal.year, frugal.venue, frugal.subjects) == (2023, "ICLR", ("cs.LG", "stat.ML"))
    assert frugal.attributed_to == ("Maren Solvik",)
    assert frugal.added == T0
    assert [(s.owner, s.file) for s in frugal.sources] == [("Maren Solvik", "maren.txt")]
    assert [p.name for p in library.people()] == ["Maren Solvik"]


def test_plan_changes_nothing_and_counts_each_page(
    library: LibraryService, library_path: Path
) -> None:
    library.import_pages([page("Maren Solvik", GIGA)], at=T0)
    before = dump(library_path)

    plan = library.plan_import([page("Tobias Ferreira", GIGA, QUARRY)])

    assert dump(library_path) == before
    assert [p.status for p in plan.records] == [RecordStatus.MERGE, RecordStatus.NEW]
    assert plan.records[0].target_title == GIGA.title
    assert "attribution to Tobias Ferreira" in plan.records[0].adds
    pp = plan.pages[0]
    assert (pp.owner, pp.parsed, pp.new, pp.merge, pp.possible_duplicates) == (
        "Tobias Ferreira",
        2,
        1,
        1,
        0,
    )


def _variants(abstract: str) -> dict[str, str]:
    words = abstract.split()
    return {
        "case": abstract.upper(),
        "whitespace": "  "
        + "\n   ".join(" \t ".join(words[i : i + 3]) for i in range(0, len(words), 3)),
        "trailing punctuation": abstract.rstrip(".") + " !?",
        "latex": abstract.replace(words[3], r"\textbf{" + words[3] + "}", 1).replace(
            words[5], r"\emph{" + words[5] + "}", 1
        ),
    }


@pytest.mark.parametrize("variant", ["case", "whitespace", "trailing punctuation", "latex"])
def test_same_abstract_after_normalizing_merges(library: LibraryService, variant: str) -> None:
    library.import_pages([page("Maren Solvik", GIGA)], at=T0)
    other = rec("A Different Title Given Elsewhere", _variants(GIGA.abstract)[variant], year=2024)
    pages = [page("Tobias Ferreira", other)]
    assert library.plan_import(pages).records[0].status is RecordStatus.MERGE

    result = library.import_pages(pages, at=T1)

    assert (len(result.new_ids), len(result.merged_ids)) == (0, 1)
    paper = only(library)
    assert paper.title == GIGA.title  # a real title is never replaced by another
    assert sorted(paper.attributed_to) == ["Maren Solvik", "Tobias Ferreira"]


def test_latex_math_and_unicode_abstracts_merge(library: LibraryService) -> None:
    latex = rec("Molten Salt Dynamics", prose(9) + r" Error of 0.02 g/cm$^3$ at $2.3$x speed.")
    plain = rec("", prose(9) + " Error of 0.02 g/cm³ at 2.3x speed.")
    library.import_pages([page("Ines Carvalho", plain)], at=T0)
    pages = [page("Maren Solvik", latex)]
    assert library.plan_import(pages).records[0].status is RecordStatus.MERGE
    library.import_pages(pages, at=T1)
    assert only(library).title == "Molten Salt Dynamics"


@pytest.mark.parametrize(
    "title",
    [
        "GIGALOOM: TRAINING LANGUAGE MODELS ON TWENTY THOUSAND ACCELERATORS",
        "GigaLoom:   Training Language Models\non Twenty Thousand Accelerators.",
        r"\textbf{GigaLoom}: Training Language Models on Twenty Thousand Accelerators",
    ],
)
def test_same_normalized_title_merges_even_with_another_abstract(
    library: LibraryService, title: str
) -> None:
    library.import_pages([page("Maren Solvik", GIGA)], at=T0)
    pages = [page("Tobias Ferreira", rec(title, prose(77)))]
    assert library.plan_import(pages).records[0].status is RecordStatus.MERGE
    result = library.import_pages(pages, at=T1)
    assert result.new_ids == ()
    paper = only(library)
    assert paper.title == GIGA.title
    assert paper.abstract == GIGA.abstract  # the abstract the paper had is kept


def test_provisional_titles_never_match_each_other(library: LibraryService) -> None:
    a = rec("", "HALCYON: " + prose(11))
    b = rec("", "HALCYON: " + prose(12))
    library.import_pages([page("Ines Carvalho", a, b)], at=T0)
    assert library.count() == 2


# -- merge rules -------------------------------------------------------------------------------


def test_real_title_replaces_provisional_and_fills_year_venue_subjects(
    library: LibraryService,
) -> None:
    provisional = rec("", GIGA.abstract, authors=("Pavel Dunmore", "Akiko Seppala"))
    library.import_pages([page("Ines Carvalho", provisional)], at=T0)
    assert only(library).title_provisional

    plan = library.plan_import([page("Maren Solvik", GIGA)])
    assert plan.records[0].status is RecordStatus.MERGE
    assert {"a title", "the year", "the venue"} <= set(plan.records[0].adds)
    library.import_pages([page("Maren Solvik", GIGA)], at=T1)

    paper = only(library)
    assert (paper.title, paper.title_provisional) == (GIGA.title, False)
    assert (paper.year, paper.venue, paper.subjects) == (2024, "arXiv", ("cs.LG",))
    assert paper.authors == ("Pavel Dunmore", "Akiko Seppala")
    assert paper.modified == T1
    assert paper.added == T0


def test_provisional_record_does_not_replace_a_real_title(library: LibraryService) -> None:
    library.import_pages([page("Maren Solvik", GIGA)], at=T0)
    authors = ("Pavel Dunmore", "Akiko Seppala", "Ravi Castellane")
    pages = [page("Ines Carvalho", rec("", GIGA.abstract, authors=authors))]
    assert library.plan_import(pages).records[0].adds == (
        "attribution to Ines Carvalho",
        "3 authors",
    )
    result = library.import_pages(pages, at=T1)
    assert (result.new_ids, len(result.merged_ids)) == ((), 1)
    paper = only(library)
    assert (paper.title, paper.title_provisional) == (GIGA.title, False)
    assert paper.authors == authors
    assert not paper.authors_complete


def test_existing_year_venue_are_kept_and_subjects_accumulate(library: LibraryService) -> None:
    library.import_pages([page("Maren Solvik", GIGA)], at=T0)
    other = ParsedRecord(
        title=GIGA.title,
        title_provisional=False,
        abstract=GIGA.abstract,
        year=2023,
        venue="NeurIPS",
        subjects=("cs.DC", "cs.LG"),
    )
    library.import_pages([page("Tobias Ferreira", other)], at=T1)
    paper = only(library)
    assert (paper.year, paper.venue) == (2024, "arXiv")
    assert paper.subjects == ("cs.LG", "cs.DC")


def test_complete_author_list_replaces_an_incomplete_one(library: LibraryService) -> None:
    a = ("Pavel Dunmore", "Akiko Seppala", "Ravi Castellane")
    library.import_pages([page("Ines Carvalho", rec("", GIGA.abstract, authors=a))], at=T0)
    library.import_pages(
        [page("Maren Solvik", rec("", GIGA.abstract, authors=a, complete=True))], at=T1
    )
    paper = only(library)
    assert (paper.authors, paper.authors_complete) == (a, True)

    # Once complete, neither an incomplete list of as many names nor a shorter list replaces it.
    library.import_pages([page("Tobias Ferreira", rec("", GIGA.abstract, authors=a))], at=T2)
    short = ("Pavel Dunmore", "Akiko Seppala")
    library.import_pages(
        [page("Kofi Mensah", rec("", GIGA.abstract, authors=short, complete=True))], at=T2
    )
    paper = only(library)
    assert (paper.authors, paper.authors_complete) == (a, True)
    assert paper.title_provisional


def test_a_shorter_complete_list_never_takes_names_away(library: LibraryService) -> None:
    """A source naming fewer authors, though it says that is all of them, does not replace
    the names another source gave: the paper keeps the longer list."""
    three = ("Pavel Dunmore", "Akiko Seppala", "Ravi Castellane")
    two = three[:2]
    library.import_pages([page("Ines Carvalho", rec("", GIGA.abstract, authors=three))], at=T0)
    library.import_pages(
        [page("Maren Solvik", rec("", GIGA.abstract, authors=two, complete=True))], at=T1
    )
    assert (only(library).authors, only(library).authors_complete) == (three, False)


def test_longer_incomplete_list_replaces_a_shorter_one(library: LibraryService) -> None:
    library.import_pages(
        [page("Ines Carvalho", rec("", GIGA.abstract, authors=("Pavel Dunmore",)))], at=T0
    )
    three = ("Pavel Dunmore", "Akiko Seppala", "Ravi Castellane")
    result = library.import_pages(
        [page("Maren Solvik", rec("", GIGA.abstract, authors=three))], at=T1
    )
    assert result.merged_ids and only(library).authors == three

    library.import_pages(
        [page("Tobias Ferreira", rec("", GIGA.abstract, authors=three[:2]))], at=T2
    )
    paper = only(library)
    assert (paper.authors, paper.authors_complete) == (three, False)


def test_attributions_and_sources_accumulate(library: LibraryService) -> None:
    library.import_pages([page("Maren Solvik", GIGA, source="maren.txt")], at=T0)
    library.import_pages([page("Tobias Ferreira", GIGA, source="tobias.txt")], at=T1)
    library.import_pages([page("Ines Carvalho", GIGA, source="pasted text")], at=T2)
    paper = only(library)
    assert sorted(paper.attributed_to) == ["Ines Carvalho", "Maren Solvik", "Tobias Ferreira"]
    assert [(s.owner, s.file, s.imported) for s in paper.sources] == [
        ("Maren Solvik", "maren.txt", T0),
        ("Tobias Ferreira", "tobias.txt", T1),
        ("Ines Carvalho", "pasted text", T2),
    ]
    assert {p.name: p.count for p in library.people()} == {
        "Ines Carvalho": 1,
        "Maren Solvik": 1,
        "Tobias Ferreira": 1,
    }


def test_person_names_match_across_spellings(library: LibraryService) -> None:
    library.import_pages(
        [page("Zoë Müller", rec("", GIGA.abstract, authors=("Zoë Müller", "Akiko Seppala")))],
        at=T0,
    )
    library.import_pages([page("zoe muller", GIGA)], at=T1)
    paper = only(library)
    assert paper.attributed_to == ("Zoë Müller",)
    assert [p.name for p in library.people()] == ["Zoë Müller"]


# -- the user's edits win ----------------------------------------------------------------------


def test_user_title_is_never_overwritten_by_an_import(library: LibraryService) -> None:
    library.import_pages([page("Ines Carvalho", rec("", GIGA.abstract))], at=T0)
    pid = only(library).id
    library.edit_fields(pid, title="My Own Name For It")

    library.import_pages([page("Maren Solvik", GIGA)], at=T1)

    paper = library.paper(pid)
    assert (paper.title, paper.title_provisional) == ("My Own Name For It", False)
    assert paper.year == 2024  # fields the user did not touch are still filled
    assert "title" in paper.user_edited


def test_user_year_and_venue_survive_imports_even_when_cleared(library: LibraryService) -> None:
    library.import_pages([page("Ines Carvalho", rec("", GIGA.abstract))], at=T0)
    pid = only(library).id
    library.edit_fields(pid, year=None, venue="Workshop on Systems")

    library.import_pages([page("Maren Solvik", GIGA)], at=T1)

    paper = library.paper(pid)
    assert (paper.year, paper.venue) == (None, "Workshop on Systems")
    assert paper.title == GIGA.title  # the title was not edited, so the real one arrives
    assert paper.user_edited == frozenset({"year", "venue"})


# -- near duplicates ---------------------------------------------------------------------------

LONG = "Placement-Aware Job Scheduling for Training Across More Than Eight Thousand Accelerators"
NEAR = LONG.replace("Scheduling", "Schedulinq")


def test_one_character_different_title_is_a_possible_duplicate(library: LibraryService) -> None:
    first = library.import_pages([page("Maren Solvik", rec(LONG, prose(21)))], at=T0)
    target = first.new_ids[0]

    plan = library.plan_import([page("Tobias Ferreira", rec(NEAR, prose(22)))])

    p = plan.records[0]
    assert p.status is RecordStatus.POSSIBLE_DUPLICATE
    assert p.target_id == target
    assert p.target_title == LONG
    assert p.similarity is not None and 95 <= p.similarity < 100
    assert plan.pages[0].possible_duplicates == 1


def test_possible_duplicate_merges_by_default(library: LibraryService) -> None:
    library.import_pages([page("Maren Solvik", rec(LONG, prose(21)))], at=T0)
    result = library.import_pages([page("Tobias Ferreira", rec(NEAR, prose(22)))], at=T1)
    assert result.new_ids == ()
    assert len(result.possible_duplicates) == 1
    paper = only(library)
    assert paper.title == LONG
    assert sorted(paper.attributed_to) == ["Maren Solvik", "Tobias Ferreira"]


@pytest.mark.parametrize("how", ["keep_separate", "keep_all_separate"])
def test_kept_apart_possible_duplicate_needs_attention(library: LibraryService, how: str) -> None:
    target = library.import_pages([page("Maren Solvik", rec(LONG, prose(21)))], at=T0).new_ids[0]
    choices = (
        ImportChoices(keep_separate=frozenset({(0, 0)}))
        if how == "keep_separate"
        else ImportChoices(keep_all_separate=True)
    )
    result = library.import_pages([page("Tobias Ferreira", rec(NEAR, prose(22)))], choices, at=T1)

    assert len(result.new_ids) == 1
    new = library.paper(result.new_ids[0])
    assert new.title == NEAR
    assert new.possible_duplicate_of == target
    attention = library.paper_ids(PaperQuery(section=Section.ATTENTION))
    assert attention == [new.id]
    assert [r.needs_attention for r in library.rows([target, new.id])] == [False, True]
    assert library.paper(target).attributed_to == ("Maren Solvik",)


WITH = "Deep residual learning for image recognition with convolutional networks"


@pytest.mark.parametrize(
    ("other", "apart"),
    [
        (WITH.replace("with", "without"), True),  # a word that turns the meaning
        (WITH.replace("image", "video"), True),  # another subject
        (WITH.replace("networks", "network"), False),  # a plural
        (WITH.replace("recognition", "recogntion"), False),  # a typo
        (WITH.replace("for image", "of image"), False),  # small words swap
    ],
)
@pytest.mark.parametrize("merge", [False, True])
def test_a_look_alike_worded_apart_is_kept_as_a_paper_of_its_own_unless_merged(
    library: LibraryService, other: str, apart: bool, merge: bool
) -> None:
    """Titles 95% alike letter for letter, but one says "without" where the other says
    "with": two papers until the person says otherwise; a plural or a typo: one paper."""
    [target] = library.import_pages([page("Maren Solvik", rec(WITH, year=2016))], at=T0).new_ids
    pages = [page("Tobias Ferreira", rec(other, year=2017))]
    [plan] = library.plan_import(pages).records
    assert plan.status is RecordStatus.POSSIBLE_DUPLICATE and plan.apart is apart
    choices = ImportChoices(merge=frozenset({(0, 0)}) if merge else frozenset())
    result = library.import_pages(pages, choices, at=T1)
    if apart and not merge:
        [new] = result.new_ids
        assert library.paper(new).possible_duplicate_of == target
        assert library.paper_ids(PaperQuery(section=Section.ATTENTION)) == [new]
        assert library.paper(target).attributed_to == ("Maren Solvik",)
    else:
        assert result.new_ids == () and library.paper_ids() == [target]
        assert sorted(library.paper(target).attributed_to) == ["Maren Solvik", "Tobias Ferreira"]


def lab_report(place: str, number: int) -> str:
    """A lab's templated abstract: its reports differ by a place and a few numbers."""
    return (
        f"We study {place} dynamics with an adaptive approach. Using field data from {number} "
        f"sites collected over {number + 2} years, we show that our method reduces error by "
        f"{number + 10}% compared with baselines. The model is calibrated on {place} "
        "observations and validated on held-out seasons; code and data are released."
    )


GLACIER = "Bayesian Modelling of Glacier Dynamics"
AQUIFER = "Ensemble Modelling of Aquifer Dynamics"
TYPO = lab_report("glacier", 3).replace("approach", "aproach")


@pytest.mark.parametrize(
    ("first", "second", "abstract", "one_paper"),
    [
        (GLACIER, AQUIFER, lab_report("aquifer", 7), False),  # a template: other words
        (GLACIER, AQUIFER, lab_report("glacier", 7), False),  # a template: other numbers
        (GLACIER, GLACIER + " 2", TYPO, False),  # a title with another number
        (GLACIER, AQUIFER, TYPO, True),  # retitled, its abstract with a typo
        (WITH, WITH.replace("image", "video"), lab_report("aquifer", 7), True),  # reworded
    ],
)
def test_abstracts_alike_under_titles_of_their_own_may_be_one_template(
    library: LibraryService, first: str, second: str, abstract: str, one_paper: bool
) -> None:
    """Abstracts 95% alike that differ by words or numbers of their own, under titles of
    their own, are one template (a lab's reports, a series): papers of their own, the
    look-alike marked for the person to check (they merged, the second title lost). Alike
    but for a typo, or under a title reworded by a word, they say one paper."""
    records = [rec(first, lab_report("glacier", 3)), rec(second, abstract)]
    pages = [page("Greta Lindqvist", *records)]
    [_, plan] = library.plan_import(pages).records
    assert plan.status is RecordStatus.POSSIBLE_DUPLICATE and plan.apart is not one_paper
    result = library.import_pages(pages, at=T0)
    if one_paper:
        assert only(library).title == first
    else:
        kept, look_alike = result.new_ids
        assert library.paper(look_alike).title == second
        assert library.paper(look_alike).possible_duplicate_of == kept


def test_possible_duplicate_within_one_import(library: LibraryService) -> None:
    pages = [page("Maren Solvik", rec(LONG, prose(21)), rec(NEAR, prose(22)))]
    plan = library.plan_import(pages)
    assert [p.status for p in plan.records] == [RecordStatus.NEW, RecordStatus.POSSIBLE_DUPLICATE]
    assert plan.records[1].target_ref == (0, 0)

    result = library.import_pages(pages, ImportChoices(keep_all_separate=True), at=T0)
    first, second = result.new_ids
    assert library.paper(second).possible_duplicate_of == first


def test_clearly_different_titles_are_not_possible_duplicates(library: LibraryService) -> None:
    library.import_pages([page("Maren Solvik", rec(LONG, prose(21)))], at=T0)
    other = LONG.replace("Eight Thousand", "Forty Thousand").replace("Job", "Task")
    plan = library.plan_import([page("Tobias Ferreira", rec(other, prose(22)))])
    assert plan.records[0].status is RecordStatus.NEW


# -- choices -----------------------------------------------------------------------------------


def test_skipped_records_are_not_imported(library: LibraryService) -> None:
    library.import_pages([page("Maren Solvik", GIGA)], at=T0)
    choices = ImportChoices(skip=frozenset({(0, 0), (0, 2)}))
    result = library.import_pages([page("Tobias Ferreira", GIGA, QUARRY, FRUGAL)], choices, at=T1)
    assert result.skipped == 2
    assert result.pages[0].skipped == 2
    assert [library.paper(i).title for i in result.new_ids] == [QUARRY.title]
    assert library.count() == 2
    assert by_title(library)[GIGA.title].attributed_to == ("Maren Solvik",)


def test_typed_titles_replace_suggestions_and_count_as_the_users(
    library: LibraryService,
) -> None:
    a = rec("", "HALCYON: " + prose(31))
    b = rec("", "Loomis: " + prose(32))
    pages = [page("Ines Carvalho", a, b)]
    plan = library.plan_import(pages)
    assert [p.needs_title for p in plan.records] == [True, True]

    choices = ImportChoices(titles={(0, 0): "  Halcyon: Molten Salt Dynamics ", (0, 1): "   "})
    result = library.import_pages(pages, choices, at=T0)

    typed, blank = (library.paper(i) for i in result.new_ids)
    assert (typed.title, typed.title_provisional) == ("Halcyon: Molten Salt Dynamics", False)
    assert "title" in typed.user_edited
    assert (blank.title, blank.title_provisional) == ("Loomis", True)

    # A later page with the paper's real title does not replace the typed one.
    library.import_pages([page("Maren Solvik", rec("HALCYON for Molten Salts", a.abstract))])
    assert library.paper(typed.id).title == "Halcyon: Molten Salt Dynamics"


def test_typed_title_for_a_record_merging_into_a_provisional_paper(
    library: LibraryService,
) -> None:
    library.import_pages([page("Ines Carvalho", rec("", GIGA.abstract))], at=T0)
    choices = ImportChoices(titles={(0, 0): "GigaLoom"})
    library.import_pages([page("Tobias Ferreira", rec("", GIGA.abstract))], choices, at=T1)
    paper = only(library)
    assert (paper.title, paper.title_provisional) == ("GigaLoom", False)
    assert "title" in paper.user_edited


def test_tags_and_subject_tags_go_on_new_and_merged_papers(library: LibraryService) -> None:
    old = library.import_pages([page("Maren Solvik", GIGA)], at=T0).new_ids[0]
    library.tag([old], ["To-Read"])

    choices = ImportChoices(tags=("to-read", "systems"), subject_tags=True)
    result = library.import_pages([page("Tobias Ferreira", GIGA, QUARRY)], choices, at=T1)

    tags = {t.name: t.count for t in library.tags()}
    assert tags == {"To-Read": 2, "systems": 2, "cs.LG": 1, "cs.DC": 1, "cs.NI": 1}
    quarry = library.paper(result.new_ids[0])
    assert [t.name for t in quarry.tags] == ["cs.DC", "cs.NI", "systems", "To-Read"]
    assert library.paper(old).modified == T1


def test_dry_run_reports_but_changes_nothing(library: LibraryService, library_path: Path) -> None:
    library.import_pages([page("Maren Solvik", GIGA)], at=T0)
    before = dump(library_path)

    result = library.import_pages(
        [page("Tobias Ferreira", GIGA, QUARRY, FRUGAL)],
        ImportChoices(dry_run=True, tags=("new-tag",), subject_tags=True),
        at=T1,
    )

    assert dump(library_path) == before
    assert (result.pages[0].new, result.pages[0].merged) == (2, 1)
    assert result.batch_ids == ()
    assert library.count() == 1
    assert library.tags() == []


# -- atomicity ---------------------------------------------------------------------------------


def _fail_after(real: Callable[..., Any]) -> Callable[..., Any]:
    def failing(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        raise RuntimeError("disk on fire")

    return failing


@pytest.mark.parametrize("where", ["write_states", "search.remember", "write_batches"])
def test_an_import_that_fails_midway_changes_nothing(
    library: LibraryService,
    library_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
) -> None:
    library.import_pages([page("Maren Solvik", rec("", GIGA.abstract), QUARRY)], at=T0)
    before = dump(library_path)
    pages = [page("Tobias Ferreira", GIGA, QUARRY, FRUGAL)]
    choices = ImportChoices(tags=("fresh",), subject_tags=True)

    with monkeypatch.context() as m:
        if where == "search.remember":
            m.setattr(Fts5Index, "remember", _fail_after(Fts5Index.remember))
        else:
            m.setattr(apply, where, _fail_after(getattr(apply, where)))
        with pytest.raises(RuntimeError, match="disk on fire"):
            library.import_pages(pages, choices, at=T1)

    assert dump(library_path) == before
    # The library is still fine: the same import now succeeds.
    result = library.import_pages(pages, choices, at=T1)
    assert (len(result.new_ids), len(result.merged_ids)) == (1, 2)
    assert library.count() == 3


# -- repeats -----------------------------------------------------------------------------------


def test_reimporting_the_same_page_changes_nothing(
    library: LibraryService, library_path: Path
) -> None:
    pages = [page("Maren Solvik", GIGA, QUARRY, FRUGAL)]
    library.import_pages(pages, at=T0)
    before = dump(library_path)

    result = library.import_pages(pages, at=T1)

    # Every record is found again; whether a paper counts as "merged" or "unchanged" when
    # the page brings nothing new, none is new and the library does not change.
    found_again = len(result.merged_ids) + len(getattr(result, "unchanged_ids", ()))
    report = result.pages[0]
    assert (result.new_ids, found_again) == ((), 3)
    assert (report.new, report.merged + getattr(report, "unchanged", 0)) == (0, 3)
    assert result.batch_ids == ()
    assert dump(library_path) == before


def test_a_record_repeated_within_a_page_is_one_paper(library: LibraryService) -> None:
    pages = [page("Maren Solvik", GIGA, QUARRY, GIGA)]
    plan = library.plan_import(pages)
    assert [p.status for p in plan.records] == [
        RecordStatus.NEW,
        RecordStatus.NEW,
        RecordStatus.REPEAT,
    ]
    assert plan.records[2].target_ref == (0, 0)
    result = library.import_pages(pages, at=T0)
    assert len(result.new_ids) == 2
    assert library.count() == 2


def test_provisional_and_titled_versions_in_one_import_are_one_paper(
    library: LibraryService,
) -> None:
    authors = ("Pavel Dunmore", "Akiko Seppala", "Ravi Castellane")
    pages = [page("Ines Carvalho", rec("", GIGA.abstract, authors=authors)), page("Maren", GIGA)]
    result = library.import_pages(pages, at=T0)
    assert len(result.new_ids) == 1
    paper = only(library)
    assert (paper.title, paper.title_provisional, paper.authors) == (GIGA.title, False, authors)
    assert sorted(paper.attributed_to) == ["Ines Carvalho", "Maren"]


# -- undo --------------------------------------------------------------------------------------


def test_undo_of_a_first_import_empties_the_library(
    library: LibraryService, library_path: Path
) -> None:
    before = dump(library_path)
    result = library.import_pages(
        [page("Maren Solvik", GIGA, QUARRY)], ImportChoices(tags=("a",)), at=T0
    )
    undone = library.undo_import(result.batch_ids)
    assert set(result.new_ids) <= undone.changes.papers
    assert dump(library_path) == before
    assert library.count(PaperQuery(text="GigaLoom")) == 0


def _papers(library: LibraryService) -> dict[str, tuple[object, ...]]:
    """Every paper's title, authors, pages and tags (not its ids)."""
    return {
        t: (d.authors, d.attributed_to, [tag.name for tag in d.tags])
        for t, d in by_title(library).items()
    }


def test_undo_restores_merged_papers_and_drops_created_tags_and_people(
    library: LibraryService, library_path: Path
) -> None:
    library.import_pages(
        [page("Ines Carvalho", rec("", GIGA.abstract, authors=("Pavel Dunmore",)), FRUGAL)],
        ImportChoices(tags=("kept",)),
        at=T0,
    )
    before = dump(library_path)
    pages = [
        page("Maren Solvik", GIGA, QUARRY),
        page(
            "Tobias Ferreira",
            rec("", GIGA.abstract, authors=("Pavel Dunmore", "Akiko Seppala", "Ravi Castellane")),
            FRUGAL,
        ),
    ]
    choices = ImportChoices(tags=("kept", "fresh"), subject_tags=True)
    result = library.import_pages(pages, choices, at=T1)
    assert len(result.batch_ids) == 2
    after = dump(library_path)
    assert after != before
    papers = _papers(library)

    library.undo_import(result.batch_ids)

    assert dump(library_path) == before
    assert [t.name for t in library.tags()] == ["kept"]
    assert library.count(PaperQuery(text="fresh")) == 0
    assert library.count(PaperQuery(text="Seppala")) == 0

    # Importing again after the undo makes the same papers, under ids never given before:
    # the undone import's stay its own (a Redo gives them back).
    again = library.import_pages(pages, choices, at=T1)
    assert len(again.new_ids) == len(result.new_ids)
    assert min(again.new_ids) > max(result.new_ids)
    assert again.merged_ids == result.merged_ids
    assert min(again.batch_ids) > max(result.batch_ids)
    assert _papers(library) == papers


def test_undo_of_the_last_import_leaves_earlier_imports(
    library: LibraryService, library_path: Path
) -> None:
    library.import_pages([page("Maren Solvik", GIGA)], at=T0)
    middle = dump(library_path)
    second = library.import_pages([page("Tobias Ferreira", GIGA, QUARRY)], at=T1)
    library.undo_import(second.batch_ids)
    assert dump(library_path) == middle
    assert library.section_counts().recent == 1


def test_skipping_the_first_of_a_repeated_record_imports_the_repeat(
    library: LibraryService,
) -> None:
    pages = [page("Maren Solvik", GIGA, QUARRY, GIGA)]
    result = library.import_pages(pages, ImportChoices(skip=frozenset({(0, 0)})), at=T0)
    assert result.skipped == 1
    assert sorted(by_title(library)) == sorted([GIGA.title, QUARRY.title])


UNRELATED = (
    "Completely unrelated abstract about pottery glazes, kiln firing curves and clay bodies.",
    "Another unrelated abstract on alpine botany: saxifrages, gentians and edelweiss habitats.",
)


def test_typo_in_a_short_title_is_a_possible_duplicate(library: LibraryService) -> None:
    library.import_pages([page("Maren Solvik", rec("Attention Is All You Need", UNRELATED[0]))])
    typo = rec("Attention Is All You Neeb", UNRELATED[1])
    plan = library.plan_import([page("Tobias Ferreira", typo)])
    assert plan.records[0].status is RecordStatus.POSSIBLE_DUPLICATE


_TITLE_SHAPES = {
    "common words": "Training {a} {b} with {c} Using {d} {e}",
    "topic words": "Understanding Vision Transformers: {a} {b} and {c} for {d} {e}",
}


@pytest.mark.parametrize("shape", ["common words", "topic words"])
def test_typo_in_a_title_among_many_similar_titles_is_a_possible_duplicate(
    library: LibraryService, shape: str
) -> None:
    """A library focused on one topic: 60 titles share their most distinctive words."""
    rng = random.Random(3)
    adjectives = ["Adaptive", "Robust", "Sparse", "Noisy", "Frozen", "Large", "Small", "Deep"]
    things = ["Images", "Patches", "Encoders", "Agents", "Kernels", "Experts", "Adapters"]
    means = ["Curricula", "Gradients", "Schedules", "Budgets", "Rewards", "Momentum", "Masking"]
    titles: set[str] = set()
    while len(titles) < 60:
        titles.add(
            _TITLE_SHAPES[shape].format(
                a=rng.choice(adjectives),
                b=rng.choice(things),
                c=rng.choice(means),
                d=rng.choice(adjectives),
                e=rng.choice(means),
            )
        )
    records = [rec(t, f"Abstract {i}: " + prose(100 + i)) for i, t in enumerate(sorted(titles))]
    target = library.import_pages([page("Maren Solvik", *records)]).new_ids[0]
    original = library.paper(target).title
    typo = original[:-3] + ("x" if original[-3] != "x" else "y") + original[-2:]

    plan = library.plan_import([page("Tobias Ferreira", rec(typo, UNRELATED[1]))])

    assert plan.records[0].status is RecordStatus.POSSIBLE_DUPLICATE
    assert plan.records[0].target_id == target


def test_import_tags_are_cleaned_like_typed_tags(
    library: LibraryService, library_path: Path
) -> None:
    choices = ImportChoices(tags=(" padded ", "two  words"))
    library.import_pages([page("Maren Solvik", GIGA)], choices, at=T0)
    assert sorted(t.name for t in library.tags()) == ["padded", "two words"]

    before = dump(library_path)
    for bad in ("  ", "x" * 101):
        with pytest.raises(InvalidValueError):
            library.import_pages([page("Tobias Ferreira", QUARRY)], ImportChoices(tags=(bad,)))
    assert dump(library_path) == before


def test_pages_imported_together_count_shared_papers_as_repeats_not_merges(
    library: LibraryService,
) -> None:
    from tests.helpers.fixtures import seed_files, sourced_file

    result = library.import_pages([sourced_file(p) for p in seed_files()])
    counts = [(r.new, r.merged, r.unchanged, r.repeats) for r in result.pages]
    assert counts == [(12, 0, 0, 0), (5, 0, 0, 1), (3, 0, 0, 1)]
    assert len(result.new_ids) == 20 and result.merged_ids == ()
    shared = [d for d in library.details(library.paper_ids()) if len(d.sources) == 2]
    assert len(shared) == 2  # each shared paper records both pages it came from


def test_a_paper_in_the_trash_is_found_again_and_the_plan_says_where(
    library: LibraryService,
) -> None:
    from tests.helpers.fixtures import seed_files, sourced_file

    page = sourced_file(seed_files()[0])
    first = library.import_pages([page]).new_ids[0]
    library.trash([first])
    plan = library.plan_import([page])
    record = next(p for p in plan.records if p.target_id == first)
    assert record.status is RecordStatus.MERGE and record.target_in_trash
    assert library.import_pages([page]).new_ids == ()  # no duplicate of the trashed paper


def _count_plans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the plans made of an import (before the lock, and again under it)."""
    from refman.core.importing import plan

    made: list[int] = []
    original = plan.plan_import

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(plan, "plan_import", counted)  # (planning before and under the lock)
    return made


@pytest.mark.sqlite_only
def test_an_import_is_planned_once_when_nothing_else_wrote_meanwhile(
    library: LibraryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    library.import_pages([sourced(generated_page(40))])
    made = _count_plans(monkeypatch)
    result = library.import_pages([sourced(generated_page(60))])
    assert len(made) == 1  # the plan made before the write lock was used as it was
    assert len(result.new_ids) == 20 and library.count() == 60


def test_an_import_is_planned_again_when_another_program_wrote_meanwhile(
    library: LibraryService, library_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from refman.core.importing import handlers
    from refman.core.operations import ImportPages

    made = _count_plans(monkeypatch)
    prepare = handlers.PREPARERS[ImportPages]

    def prepared_then_overtaken(*args: Any) -> Any:
        found = prepare(*args)
        monkeypatch.setitem(handlers.PREPARERS, ImportPages, prepare)
        other = LibraryService.open(library_path)  # another program imports the same page
        try:
            other.import_pages([sourced(generated_page(30))])
        finally:
            other.close()
        return found

    monkeypatch.setitem(handlers.PREPARERS, ImportPages, prepared_then_overtaken)
    result = library.import_pages([sourced(generated_page(30))])
    assert len(made) == 3  # before the lock, the other import, and again under the lock
    assert result.new_ids == ()  # the papers the other import brought are not duplicated
    assert library.count() == 30


@pytest.mark.sqlite_only
def test_a_page_imported_again_reads_each_paper_it_finds_once(
    library: LibraryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Planning reads the papers the records merge into (to show what each merge adds);
    applying the plan in a library file takes them as read instead of reading them again."""
    from refman.core import state_io
    from refman.core.importing import plan

    library.import_pages([sourced(generated_page(60))])
    read: list[int] = []
    original = state_io.load_states

    def counted(session: Any, ids: Any) -> Any:
        ids = list(ids)
        read.extend(ids)
        return original(session, ids)

    monkeypatch.setattr(plan, "load_states", counted)
    monkeypatch.setattr(apply, "load_states", counted)
    library.tag(library.paper_ids()[:5], ["kept"])
    result = library.import_pages([sourced(generated_page(60, owner="Second Owner"))])
    assert len(result.merged_ids) == 60
    assert sorted(read) == sorted(library.paper_ids())  # each paper once
    assert len(library.paper_ids(PaperQuery(tags=("kept",)))) == 5  # nothing lost on the way
    assert {library.paper(i).attributed_to for i in library.paper_ids()} == {
        ("Prolific Author", "Second Owner")
    }


def test_a_typo_in_the_rarest_title_word_is_found_though_the_abstract_finds_another_paper(
    library: LibraryService,
) -> None:
    """Sixty titles of one topic crowd the key their common words make; a record whose only
    distinctive title word has a typo shares no other key with its paper, and its abstract
    shares words with an unrelated paper. It used to be planned as new (a duplicate, found
    re-importing a generated page of 50,000 records); its title's neighbours are looked up
    in the search index now, and it merges."""
    rng = random.Random(7)
    names = [
        "".join(rng.choice("uvwxyz") for _ in range(1)) + "".join(rng.sample(_LETTERS, 7))
        for _ in range(60)
    ]
    ends = ["accretion", "erosion", "deposition", "dunes", "currents"]
    topic = [
        rec(f"{n.title()} tidal basin sediment {ends[i % 5]}", prose(i), year=2020)
        for i, n in enumerate(names)
    ]
    shared = "zeppelins yachtsman xylophones wanderings"
    wanted = rec("Zephyrine tidal basin sediment flux", prose(900), year=2021)
    unrelated = rec("Harbour seal census methods", f"Counting {shared} along coasts.", year=2019)
    library.import_pages([page("Ines Varga", *topic, wanted, unrelated)])
    assert library.count() == 62
    typo = rec("Zephrine tidal basin sediment flux", f"Other {shared} here.", year=2021)
    planned = library.import_pages([page("Ola Berg", typo)], ImportChoices(dry_run=True))
    [record] = planned.possible_duplicates
    assert record.target_title == "Zephyrine tidal basin sediment flux"
    library.import_pages([page("Ola Berg", typo)])
    assert library.count() == 62  # merged into its paper, no duplicate
