"""The same DOI or the same arXiv id (whatever its version) is the same paper; two different
DOIs are never merged, however alike the titles."""

from __future__ import annotations

import pytest

from refman.core.importing.values import RecordStatus, SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

TITLE = "Scaling Laws for Neural Language Models Trained on Very Large Corpora"
ABSTRACT = "We study empirical scaling laws for language model performance on the loss."


def page(*records: ParsedRecord) -> SourcedPage:
    return SourcedPage(ParsedPage("Ada Lovelace", PageFormat.PUBLICATION_LIST, None, list(records)))


def test_the_same_doi_is_the_same_paper_whatever_the_title(library: LibraryService) -> None:
    library.import_pages([page(ParsedRecord(TITLE, False, ABSTRACT, doi="10.1000/abc"))])
    other = ParsedRecord("A Completely Different Title", False, "Another text.", doi="10.1000/ABC")
    [plan] = library.plan_import([page(other)]).records
    assert plan.status is RecordStatus.MERGE


def test_the_same_arxiv_id_in_another_version_is_the_same_paper(library: LibraryService) -> None:
    library.import_pages([page(ParsedRecord(TITLE, False, ABSTRACT, arxiv_id="2402.15627v1"))])
    other = ParsedRecord("Renamed in v3", False, "Rewritten abstract.", arxiv_id="2402.15627v3")
    [plan] = library.plan_import([page(other)]).records
    assert plan.status is RecordStatus.MERGE


def test_different_dois_are_never_merged_however_alike(library: LibraryService) -> None:
    library.import_pages([page(ParsedRecord(TITLE, False, ABSTRACT, doi="10.1000/conference"))])
    journal = ParsedRecord(TITLE, False, ABSTRACT, doi="10.2000/journal")
    near = ParsedRecord(TITLE + ".", False, ABSTRACT + " Extended.", doi="10.3000/other")
    plans = library.plan_import([page(journal, near)]).records
    assert [p.status for p in plans] == [RecordStatus.NEW, RecordStatus.NEW]
    result = library.import_pages([page(journal)])
    assert len(result.new_ids) == 1 and library.count() == 2


def test_a_merge_fills_in_the_doi_and_the_published_version(library: LibraryService) -> None:
    preprint = ParsedRecord(TITLE, False, ABSTRACT, venue="arXiv", type="article", year=2019)
    [pid] = library.import_pages([page(preprint)]).new_ids
    published = ParsedRecord(
        TITLE,
        False,
        ABSTRACT,
        year=2020,
        venue="NeurIPS",
        type="paper-conference",
        doi="10.5555/3495724",
        pages="1877-1901",
    )
    library.import_pages([page(published)])
    paper = library.paper(pid)
    assert (paper.type, paper.venue, paper.doi, paper.pages, paper.year) == (
        "paper-conference",
        "NeurIPS",
        "10.5555/3495724",
        "1877-1901",
        2020,  # cited as published
    )


def test_a_record_without_a_venue_leaves_a_preprint_a_preprint(library: LibraryService) -> None:
    # A co-author's page lists the arXiv paper without a venue: its record is a conference
    # paper only by default, no published version (the export became an @inproceedings
    # without a booktitle).
    preprint = ParsedRecord(TITLE, False, ABSTRACT, venue="arXiv", type="article")
    [pid] = library.import_pages([page(preprint)]).new_ids
    listed = ParsedRecord(TITLE, False, ABSTRACT, type="paper-conference", year=2024)
    library.import_pages([page(listed)])
    paper = library.paper(pid)
    assert (paper.type, paper.venue, paper.year) == ("article", "arXiv", 2024)


def test_author_page_text_gives_identifiers_and_the_type(library: LibraryService) -> None:
    from refman.importers import parse

    text = "\n".join(
        [
            "arXiv subjects",
            "Ada Lovelace",
            "Publications and source records attributed to Ada Lovelace.",
            "1 recordsLinked to original sources",
            "arXiv2024",
            "A Title Of Some Length",
            "An abstract of a few sentences. It says what the paper found.",
            "arXiv:2402.15627v2 · DOI 10.1145/3620665.3640411",
            "cs.LG↗",
        ]
    )
    [record] = parse(text).records
    assert (record.type, record.arxiv_id, record.doi) == (
        "article",
        "2402.15627v2",
        "10.1145/3620665.3640411",
    )


def test_among_many_papers_of_one_title_a_record_finds_its_own_doi(
    library: LibraryService,
) -> None:
    editorials = [
        ParsedRecord("Editorial", False, "", doi=f"10.1000/ed.{i}", year=2000 + i)
        for i in range(12)
    ]
    library.import_pages([page(*editorials)])
    assert library.count() == 12  # one title, different DOIs: different papers
    again = ParsedRecord("Editorial", False, "", doi="10.1000/ED.7")
    fresh = ParsedRecord("Editorial", False, "", doi="10.1000/ed.99")
    bare = ParsedRecord("Editorial", False, "")
    plans = library.plan_import([page(again, fresh, bare)]).records
    assert [p.status for p in plans] == [RecordStatus.MERGE, RecordStatus.NEW, RecordStatus.MERGE]
    assert library.paper(plans[0].target_id or 0).doi == "10.1000/ed.7"
    assert library.paper(plans[2].target_id or 0).title == "Editorial"  # no DOI: any of them


def report(number: int) -> str:
    """A lab's templated abstract: its data reports differ by their numbers alone."""
    return (
        f"We study tidal dynamics with an adaptive approach. Using field data from {number} "
        "sites collected over several years, we show that our method reduces error compared "
        "with baselines. The model is calibrated on tidal observations and validated on "
        f"held-out seasons; code and data are released for study number {number}."
    )


@pytest.mark.parametrize("imports", [1, 2])
def test_records_with_their_own_dois_never_join_one_paper_through_a_look_alike(
    library: LibraryService, imports: int
) -> None:
    """A page's record without a title or DOI, then a bibliography whose records each have a
    DOI of their own: the first look-alike of the page's paper joins it (the paper gains its
    title and DOI); the next look-alike, and a record listing the first again, carry other
    DOIs: papers of their own, not merged into it (their DOIs were lost)."""
    abstracts = SourcedPage(
        ParsedPage(
            "Greta Lindqvist",
            PageFormat.AUTHOR_ABSTRACTS,
            None,
            [ParsedRecord("Tidal dynamics", True, report(6))],
        )
    )
    dois = ["10.5555/geo.2020.0066", "10.5555/geo.2023.0069", "10.5555/geo.2024.0070"]
    titles = ["Adaptive Calibration of Tidal Dynamics", "Stochastic Calibration of Delta Dynamics"]
    records = [
        ParsedRecord(titles[0], False, report(66), doi=dois[0]),
        ParsedRecord(titles[1], False, report(69), doi=dois[1]),
        ParsedRecord(titles[0], False, "", doi=dois[2]),
    ]
    bib = SourcedPage(ParsedPage("", PageFormat.BIBTEX, None, records), "lab.bib")
    if imports == 1:
        library.import_pages([abstracts, bib])
    else:
        library.import_pages([abstracts])
        library.import_pages([bib])
    assert library.count() == 3
    for doi in dois:
        [found] = library.paper_ids(PaperQuery(text=doi))
        paper = library.paper(found)
        assert paper.doi == doi
        assert paper.possible_duplicate_of is None  # (a merge of two DOIs is refused)
