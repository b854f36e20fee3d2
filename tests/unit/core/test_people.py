"""Following researchers: everyone in the People list, a person's page, what a page imported
again brings since the last time, the "new" badge, and spellings of one person's name
proposed, merged, told apart and undone."""

from __future__ import annotations

from datetime import datetime

import pytest

from refman.common.errors import InvalidValueError, NotFoundError
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.name_variants import alike
from refman.core.values import PaperQuery
from refman.importers.bibtex import parse_bibtex
from tests.helpers.fixtures import sourced
from tests.helpers.pages import abstracts_page, publication_page

ABSTRACTS = [
    (
        "Zhuo Jiang, Mira Okafor, Lars Berg",
        "We schedule pipeline parallel training across straggling accelerators and recover "
        "most of the lost throughput with a simple rebalancing rule.",
    ),
    (
        "Mira Okafor and Zhuo Jiang",
        "Checkpointing large models to remote storage stalls training; we overlap the "
        "writes with computation and cut the stall to a few seconds.",
    ),
    (
        "Lars Berg, José Núñez",
        "A survey of gradient compression for data parallel training on slow networks, "
        "with measurements on three clusters.",
    ),
]

TITLES = [
    ("Rebalancing pipelines around stragglers", 2024, "arXiv"),
    ("Overlapped checkpoint writes", 2025, "arXiv"),
]


def _at(day: int) -> datetime:
    return datetime(2026, 3, day, 9, 30)


def test_everyone_lists_authors_and_owners_with_their_papers(library: LibraryService) -> None:
    library.import_pages([sourced(abstracts_page("Zhuo Jiang", ABSTRACTS))])
    counts = {p.name: p.count for p in library.everyone()}
    # the owner has the three papers of the page; authors only those they wrote
    assert counts == {
        "Zhuo Jiang": 3,
        "Lars Berg": 2,
        "Mira Okafor": 2,
        "José Núñez": 1,
    }
    assert [p.name for p in library.everyone()][:1] == ["Zhuo Jiang"]
    assert library.count_people() == 4
    # accents and case never matter when looking someone up; the name shows as written
    assert [p.name for p in library.everyone("jose nunez")] == ["José Núñez"]
    assert [p.name for p in library.everyone("OKAF")] == ["Mira Okafor"]
    # as a bibliography writes a name: family name first, given names as initials
    assert [p.name for p in library.everyone("Núñez, José")] == ["José Núñez"]
    assert [p.name for p in library.everyone("okafor, m.")] == ["Mira Okafor"]
    # the People of the sidebar are the people followed
    assert [(p.name, p.count, p.pages) for p in library.people()] == [("Zhuo Jiang", 3, 1)]


def test_a_hyphen_and_a_space_are_one_when_looking_someone_up(library: LibraryService) -> None:
    page = [("Jean-Pierre Dupont, Ana García-Márquez", ABSTRACTS[0][1])]
    library.import_pages([sourced(abstracts_page("Ana García-Márquez", page))])
    assert [p.name for p in library.everyone("jean pierre")] == ["Jean-Pierre Dupont"]
    assert [p.name for p in library.everyone("Garcia Marquez")] == ["Ana García-Márquez"]
    assert [p.name for p in library.everyone("dupont, j-p")] == ["Jean-Pierre Dupont"]


def test_a_persons_page_has_their_pages_and_coauthors_ranked(library: LibraryService) -> None:
    library.import_pages([sourced(abstracts_page("Zhuo Jiang", ABSTRACTS), "zhuo.txt")], at=_at(12))
    zhuo = next(p for p in library.everyone() if p.name == "Zhuo Jiang")
    page = library.person_page(zhuo.id)
    assert page is not None
    assert page.person.count == 3 == library.count(PaperQuery(person_id=zhuo.id))
    assert [(p.source, p.imported_at, p.parsed) for p in page.pages] == [("zhuo.txt", _at(12), 3)]
    assert [(c.name, c.shared) for c in page.coauthors] == [
        ("Lars Berg", 2),
        ("Mira Okafor", 2),
        ("José Núñez", 1),
    ]
    lars = next(p for p in library.everyone() if p.name == "Lars Berg")
    lars_page = library.person_page(lars.id)
    assert lars_page is not None and lars_page.pages == ()
    # one paper with each: ties by name
    assert [(c.name, c.shared) for c in lars_page.coauthors] == [
        ("José Núñez", 1),
        ("Mira Okafor", 1),
        ("Zhuo Jiang", 1),
    ]
    assert library.person_page(999_999) is None


def test_importing_a_page_again_says_what_changed_since_the_last_import(
    library: LibraryService,
) -> None:
    first = library.import_pages([sourced(abstracts_page("Zhuo Jiang", ABSTRACTS[:2]))], at=_at(12))
    assert first.pages[0].since_last is None  # never imported before
    # the page again, now with titles, with one paper more
    records = [*TITLES, ("Gradient compression on slow networks", 2023, "arXiv")]
    text = publication_page("Zhuo Jiang", records)
    # the publication list's abstracts differ: give the two known papers their abstracts
    for n, (_, abstract) in enumerate(ABSTRACTS[:2]):
        text = text.replace(
            f"Abstract number {n} about {records[n][0].lower()}, long enough to read as an "
            "abstract.",
            abstract,
        )
    plan = library.plan_import([sourced(text)])
    since = plan.pages[0].since_last
    assert since is not None
    assert (since.date, since.new, since.titled, since.updated, since.unchanged) == (
        _at(12),
        1,
        2,
        0,
        0,
    )
    result = library.import_pages([sourced(text)], at=_at(20))
    report = result.pages[0].since_last
    assert report is not None and (report.date, report.new, report.titled) == (_at(12), 1, 2)
    # and a third time, nothing is new
    again = library.import_pages([sourced(text)], at=_at(25)).pages[0].since_last
    assert again is not None
    assert (again.date, again.new, again.titled, again.unchanged) == (_at(20), 0, 0, 3)


def test_people_with_new_papers_carry_a_badge_until_looked_at(library: LibraryService) -> None:
    library.import_pages([sourced(abstracts_page("Zhuo Jiang", ABSTRACTS[:2]))], at=_at(12))
    (zhuo,) = library.people()
    assert zhuo.new == 2
    outcome = library.see_person(zhuo.id)
    assert outcome.inverse is None  # looking is not a change to undo
    assert library.people()[0].new == 0
    library.import_pages([sourced(abstracts_page("Zhuo Jiang", ABSTRACTS))], at=_at(20))
    assert library.people()[0].new == 1  # only the paper the last import added
    library.see_person(zhuo.id)
    assert library.people()[0].new == 0


VARIANT_PAGES = [
    abstracts_page("Z. Jiang", [ABSTRACTS[0]]),
    abstracts_page("Zhuo Jiang", [ABSTRACTS[1]]),
]


def _by_name(library: LibraryService) -> dict[str, int]:
    return {p.name: p.id for p in library.everyone()}


def test_spellings_of_one_name_are_proposed_merged_and_undone(library: LibraryService) -> None:
    for text in VARIANT_PAGES:
        library.import_pages([sourced(text)])
    people = _by_name(library)
    (proposal,) = library.name_variants()
    assert {proposal.first.name, proposal.second.name} == {"Z. Jiang", "Zhuo Jiang"}
    assert proposal.first.name == "Zhuo Jiang"  # the one with more papers is kept
    assert proposal.overlap >= 1
    before = {p.name: p.count for p in library.everyone()}

    outcome = library.merge_people(people["Zhuo Jiang"], people["Z. Jiang"])
    assert outcome.label == "Merge “Z. Jiang” into “Zhuo Jiang”"
    after = {p.name: p.count for p in library.everyone()}
    assert "Z. Jiang" not in after and after["Zhuo Jiang"] == 2
    assert library.name_variants() == []
    assert [p.name for p in library.people()] == ["Zhuo Jiang"]
    zhuo_page = library.person_page(people["Zhuo Jiang"])
    assert zhuo_page is not None and len(zhuo_page.pages) == 2
    # the search finds the merged papers under the kept name
    assert len(library.paper_ids(PaperQuery(text="zhuo jiang"))) == 2
    # a page that brings the old spelling again means the same person
    again = library.import_pages([sourced(VARIANT_PAGES[0])])
    assert again.new_ids == ()
    assert "Z. Jiang" not in _by_name(library)

    assert outcome.inverse is not None
    library.apply(outcome.inverse)
    assert {p.name: p.count for p in library.everyone()} == before
    assert _by_name(library)["Z. Jiang"] == people["Z. Jiang"]
    assert len(library.name_variants()) == 1


def test_the_list_names_a_merged_persons_papers_by_the_kept_spelling(
    library: LibraryService,
) -> None:
    library.import_pages(
        [sourced(abstracts_page("Lars Berg", [("Z. Jiang, Lars Berg", ABSTRACTS[0][1])]))]
    )
    library.import_pages(
        [sourced(abstracts_page("Lars Berg", [("Zhuo Jiang, Lars Berg", ABSTRACTS[1][1])]))]
    )

    def first_authors() -> list[str]:
        return sorted(r.first_author for r in library.rows(library.paper_ids(PaperQuery())))

    assert first_authors() == ["Z. Jiang et al.", "Zhuo Jiang et al."]
    people = _by_name(library)
    outcome = library.merge_people(people["Zhuo Jiang"], people["Z. Jiang"])
    assert first_authors() == ["Zhuo Jiang et al.", "Zhuo Jiang et al."]
    assert outcome.inverse is not None
    library.apply(outcome.inverse)
    assert first_authors() == ["Z. Jiang et al.", "Zhuo Jiang et al."]


def test_a_spelling_merged_into_a_person_finds_them(library: LibraryService) -> None:
    library.import_pages([sourced(abstracts_page("Zhuo Jiang", [ABSTRACTS[1]]))])
    swapped = [("Jiang Zhuo, Lars Berg", ABSTRACTS[2][1])]
    library.import_pages([sourced(abstracts_page("Lars Berg", swapped))])
    people = _by_name(library)
    library.merge_people(people["Zhuo Jiang"], people["Jiang Zhuo"])
    assert [p.name for p in library.everyone("jiang zhuo")] == ["Zhuo Jiang"]
    assert len(library.paper_ids(PaperQuery(text='author:"Jiang Zhuo"'))) == 2
    assert len(library.paper_ids(PaperQuery(text='owner:"Jiang Zhuo"'))) == 1


def test_two_people_told_apart_are_not_proposed_again(library: LibraryService) -> None:
    for text in VARIANT_PAGES:
        library.import_pages([sourced(text)])
    people = _by_name(library)
    outcome = library.tell_apart(people["Z. Jiang"], people["Zhuo Jiang"])
    assert library.name_variants() == []
    assert outcome.inverse is not None
    library.apply(outcome.inverse)
    assert len(library.name_variants()) == 1


def test_coauthors_of_one_paper_are_never_proposed_as_one(library: LibraryService) -> None:
    text = abstracts_page("J. Smith", [("John Smith, Jane Smith", ABSTRACTS[2][1])])
    library.import_pages([sourced(text)])
    names = {(v.first.name, v.second.name) for v in library.name_variants()}
    # J. Smith owns the page of both; John and Jane wrote it together: two people
    assert ("John Smith", "Jane Smith") not in names and ("Jane Smith", "John Smith") not in names
    assert len(names) == 2


def test_two_authors_of_one_paper_are_never_merged(library: LibraryService) -> None:
    text = abstracts_page("Lars Berg", [ABSTRACTS[0]])
    library.import_pages([sourced(text)])
    people = _by_name(library)
    with pytest.raises(InvalidValueError, match="both authors of"):
        library.merge_people(people["Mira Okafor"], people["Zhuo Jiang"])
    (paper,) = library.details(library.paper_ids())
    assert paper.authors == ("Zhuo Jiang", "Mira Okafor", "Lars Berg")


def test_undoing_a_merge_after_a_later_import_added_people_brings_the_person_back(
    library: LibraryService,
) -> None:
    for text in VARIANT_PAGES:
        library.import_pages([sourced(text)])
    people = _by_name(library)
    outcome = library.merge_people(people["Zhuo Jiang"], people["Z. Jiang"])
    # a later import adds a person, never with the merged-away person's id
    library.import_pages([sourced(abstracts_page("Ada Lovelace", [ABSTRACTS[2]]))])
    assert _by_name(library)["Ada Lovelace"] > max(people.values())
    assert outcome.inverse is not None
    library.apply(outcome.inverse)  # Z. Jiang back, under the id they had
    assert {name: i for name, i in _by_name(library).items() if name in people} == people


def test_a_merge_and_a_not_the_same_outlive_a_revert_taken_back(library: LibraryService) -> None:
    """Reverting the import that brought them deletes the people; its undo brings them back
    merged and told apart as they were."""
    berg = abstracts_page("Lars Berg", [("L. Berg, Mira Okafor", ABSTRACTS[2][1])])
    library.import_pages([sourced(text) for text in (*VARIANT_PAGES, berg)])
    people = _by_name(library)
    assert len(library.name_variants()) == 2
    library.merge_people(people["Zhuo Jiang"], people["Z. Jiang"])
    library.tell_apart(people["Lars Berg"], people["L. Berg"])
    assert library.name_variants() == []
    reverted = library.revert(library.history()[0].import_id)
    assert library.everyone() == []
    assert reverted.inverse is not None
    library.apply(reverted.inverse)
    assert library.name_variants() == []  # Lars Berg and L. Berg are still two people
    # a page that brings the merged spelling again still means Zhuo Jiang
    library.import_pages([sourced(abstracts_page("Z. Jiang", [ABSTRACTS[2]]))])
    assert "Z. Jiang" not in _by_name(library)
    assert library.name_variants() == []


def test_a_merge_is_undone_after_a_revert_took_papers_of_the_merged_spelling(
    library: LibraryService,
) -> None:
    """A revert from elsewhere (the command line, a colleague) deleted a paper of Z. Jiang's
    page since the merge: Undo brings Z. Jiang back with what is left of theirs."""
    library.import_pages([sourced(abstracts_page("Z. Jiang", [ABSTRACTS[0], ABSTRACTS[2]]))])
    library.import_pages([sourced(abstracts_page("Zhuo Jiang", ABSTRACTS[1:]))])
    people = _by_name(library)
    merged = library.merge_people(people["Zhuo Jiang"], people["Z. Jiang"])
    reverted = library.revert(library.history()[1].import_id)  # Z. Jiang's page
    assert len(reverted.value.removed) == 1
    assert merged.inverse is not None
    library.apply(merged.inverse)
    assert {p.name: p.count for p in library.everyone()}["Z. Jiang"] == 1
    assert _by_name(library)["Z. Jiang"] == people["Z. Jiang"]


def test_a_name_written_with_a_typographic_apostrophe_is_the_same_person(
    library: LibraryService,
) -> None:
    """A web page writes “O’Brien”, a bibliography “O'Brien”: one person (they were two,
    proposed as one to be merged by hand)."""
    mine = [("Conor O’Brien, Mira Okafor", ABSTRACTS[0][1])]
    library.import_pages([sourced(abstracts_page("Conor O’Brien", mine))])
    theirs = [("Mira Okafor and Conor O'Brien", ABSTRACTS[1][1])]
    library.import_pages([sourced(abstracts_page("Mira Okafor", theirs))])
    assert library.name_variants() == []
    assert {p.name: p.count for p in library.everyone()}["Conor O’Brien"] == 2


@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        (("Z. Jiang", "Jiang", "Z."), ("Zhuo Jiang", "Jiang", "Zhuo"), True),
        (("Jiang, Zhuo", "Jiang", "Zhuo"), ("Zhuo Jiang", "", ""), True),
        (("Jiang Zhuo", "Zhuo", "Jiang"), ("Zhuo Jiang", "Jiang", "Zhuo"), True),
        (("Zhuo Jiang", "Jiang", "Zhuo"), ("Zhou Jiang", "Jiang", "Zhou"), False),
        (("Z. Q. Jiang", "Jiang", "Z. Q."), ("Zhuo Jiang", "Jiang", "Zhuo"), True),
        (("Y. Jiang", "Jiang", "Y."), ("Zhuo Jiang", "Jiang", "Zhuo"), False),
        (("José Núñez", "Núñez", "José"), ("J. Nunez", "Nunez", "J."), True),
        (("Zhuo Jiang", "Jiang", "Zhuo"), ("Zhuo Jiangsu", "Jiangsu", "Zhuo"), False),
        # a given name of two syllables with a hyphen, a space or neither
        (("Xiao-Ming Li", "Li", "Xiao-Ming"), ("Xiaoming Li", "Li", "Xiaoming"), True),
        (("Min Jun Kim", "Kim", "Min Jun"), ("Minjun Kim", "Kim", "Minjun"), True),
        (("Xiao-Ming Li", "Li", "Xiao-Ming"), ("Xiaoming Lin", "Lin", "Xiaoming"), False),
        # an apostrophe or a hyphen as a web page or a bibliography writes it
        (("Conor O’Brien", "O’Brien", "Conor"), ("C. O'Brien", "O'Brien", "C."), True),
        (("Jean\u2010Pierre Roy", "Roy", "Jean\u2010Pierre"), ("J.-P. Roy", "Roy", "J.-P."), True),
    ],
)
def test_which_spellings_may_be_one_person(
    first: tuple[str, str, str], second: tuple[str, str, str], same: bool
) -> None:
    assert alike(first, second) is same
    assert alike(second, first) is same


def test_counts_leave_out_the_trash_and_count_a_paper_once(library: LibraryService) -> None:
    # Zhuo Jiang owns the page and wrote two of its papers: three papers, not five
    library.import_pages([sourced(abstracts_page("Zhuo Jiang", ABSTRACTS))])
    assert {p.name: p.count for p in library.everyone()}["Zhuo Jiang"] == 3
    lars_papers = library.paper_ids(PaperQuery(text="gradient compression"))
    library.trash(lars_papers)
    counts = {p.name: p.count for p in library.everyone()}
    assert (counts["Zhuo Jiang"], counts["Lars Berg"]) == (2, 1)
    assert "José Núñez" not in counts  # his only paper is in the Trash
    assert library.count_people() == 3
    assert [(p.name, p.count) for p in library.people()] == [("Zhuo Jiang", 2)]


def test_a_name_twice_on_one_paper_counts_that_paper_once(library: LibraryService) -> None:
    """An author named twice on a paper: one paper in the People list, as on their page,
    narrowed by a name typed or not; an owner of a page listing it too."""
    bib = (
        "@article{a, title={Rebalancing pipelines}, year={2024}, journal={J},\n"
        "  author={Jiang, Zhuo and Okafor, Mira and Jiang, Zhuo}}\n"
        "@article{b, title={Overlapped checkpoint writes}, year={2025}, journal={J},\n"
        "  author={Jiang, Zhuo}}\n"
    )
    library.import_pages([SourcedPage(parse_bibtex(bib), "twice.bib")])
    assert {p.name: p.count for p in library.everyone()} == {"Zhuo Jiang": 2, "Mira Okafor": 1}
    (jiang,) = library.everyone("jiang")
    assert jiang.count == 2
    person = library.person(jiang.id)
    assert person is not None and person.count == 2
    library.import_pages(
        [sourced(publication_page("Zhuo Jiang", [("Rebalancing pipelines", 2024, "J")]))]
    )
    assert {p.name: p.count for p in library.everyone()}["Zhuo Jiang"] == 2
    assert [(p.name, p.count) for p in library.people()] == [("Zhuo Jiang", 2)]
    library.trash(library.paper_ids(PaperQuery(text="overlapped")))
    assert {p.name: p.count for p in library.everyone()}["Zhuo Jiang"] == 1


def test_a_person_merged_into_another_is_said_to_be_there(library: LibraryService) -> None:
    """``refman person OLD_ID`` after a merge: where the person went (merged on since: the
    last of them); undone, the person is theirs again."""
    for text in VARIANT_PAGES:
        library.import_pages([sourced(text)])
    people = _by_name(library)
    zhuo, z = people["Zhuo Jiang"], people["Z. Jiang"]
    outcome = library.merge_people(zhuo, z)
    assert library.person(z) is None
    gone = library.no_person(z)
    assert (gone.message, gone.hint) == (
        f"Person #{z} was merged into #{zhuo} Zhuo Jiang.",
        f"See them with “refman person {zhuo}”.",
    )
    with pytest.raises(NotFoundError, match=f"Person #{z} was merged into #{zhuo}"):
        library.merge_people(zhuo, z)
    assert library.no_person(999).message == "There is no person #999 in this library."
    assert outcome.inverse is not None
    library.apply(outcome.inverse)  # undone: a person of their own again
    assert library.person(z) is not None
    library.merge_people(zhuo, z)
    library.import_pages([sourced(abstracts_page("José Núñez", [ABSTRACTS[2]]))])
    jose = _by_name(library)["José Núñez"]
    library.merge_people(jose, zhuo)  # (merged on: Z. Jiang is José Núñez now)
    assert library.no_person(z).message == f"Person #{z} was merged into #{jose} José Núñez."
