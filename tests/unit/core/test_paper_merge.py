"""Merging two papers that are one: what the kept paper gains, where the other goes, what an
import of the other finds afterwards, undo and redo, and the merges refused."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest

from refman.common.errors import ConflictError, InvalidValueError, NotFoundError
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.merged_edits import EditShownPaper
from refman.core.paper_merge import MergePapers, MergeResult
from refman.core.rules import FieldEdits
from refman.core.values import PaperDetail, PaperQuery, Section
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

T0 = datetime(2024, 4, 1, 10, 0, 0)
T1 = datetime(2024, 5, 2, 9, 30, 0)

_BODY = (
    "We study how sparse attention patterns transfer between language and vision models, "
    "measure the cost of routing tokens across experts, and report the memory each layer needs."
)


def _import(
    library: LibraryService, owner: str, records: list[ParsedRecord], at: datetime
) -> list[int]:
    page = ParsedPage(owner, PageFormat.PUBLICATION_LIST, len(records), records)
    result = library.import_pages([SourcedPage(page, f"{owner}.txt")], at=at)
    return list(result.new_ids)


@pytest.fixture
def pair(library: LibraryService) -> tuple[int, int]:
    """Two papers of one work: the preprint (kept) and a published record of it that an
    import kept apart (another title, another owner), with a DOI, a tag, a note and a file."""
    kept = ParsedRecord(
        title="Routing Tokens Across Sparse Experts",
        title_provisional=False,
        abstract=_BODY,
        year=2023,
        venue="arXiv",
        authors=("Maren Solvik", "Tomas Berg"),
        authors_complete=False,
    )
    other = ParsedRecord(
        title="Routing Tokens Across Sparse Experts at Scale",
        title_provisional=False,
        abstract="",
        year=2024,
        venue="NeurIPS",
        type="paper-conference",
        authors=("Maren Solvik", "Tomas Berg", "Ines Duarte"),
        authors_complete=True,
        doi="10.5555/routing.2024",
        pages="101-117",
    )
    (a,) = _import(library, "Maren Solvik", [kept], T0)
    (b,) = _import(library, "Ines Duarte", [other], T1)
    library.tag([b], ["mixture of experts"])
    library.add_note(b, "Camera-ready version: the appendix has the routing proofs.")
    library.mark([b], status="read", rating=4)
    return a, b


def _merge(library: LibraryService, keep: int, other: int) -> MergeResult:
    return library.apply(MergePapers(keep, other)).value


def _seen(detail: PaperDetail) -> tuple[object, ...]:
    """What the window shows of a paper (not its version, which moves on)."""
    return (
        detail.title,
        detail.authors,
        detail.authors_complete,
        detail.year,
        detail.venue,
        detail.type,
        detail.doi,
        detail.pages,
        detail.attributed_to,
        tuple(t.name for t in detail.tags),
        tuple(n.text for n in detail.notes),
        detail.status,
        detail.rating,
        detail.trashed,
        detail.possible_duplicate_of,
        detail.modified,
        detail.citekey,
    )


def test_the_kept_paper_gains_what_it_lacked_and_the_other_goes_to_the_trash(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    result = _merge(library, a, b)
    assert (result.kept, result.merged) == (a, b)
    assert "the DOI" in result.added and "1 note" in result.added and "1 tag" in result.added
    assert {"the reading status (read)", "the rating (4 stars)"} <= set(result.added)
    kept = library.paper(a)
    # its own title stays; the complete author list and the DOI come in, and as the kept
    # paper is the preprint of the other, the published version's type, venue and year
    assert kept.title == "Routing Tokens Across Sparse Experts"
    assert (kept.type, kept.venue, kept.year) == ("paper-conference", "NeurIPS", 2024)
    assert kept.authors == ("Maren Solvik", "Tomas Berg", "Ines Duarte")
    assert kept.authors_complete and kept.doi == "10.5555/routing.2024"
    assert kept.pages == "101-117" and kept.abstract == _BODY
    assert set(kept.attributed_to) == {"Maren Solvik", "Ines Duarte"}
    assert [t.name for t in kept.tags] == ["mixture of experts"]
    assert [n.text for n in kept.notes] == [
        "Camera-ready version: the appendix has the routing proofs."
    ]
    assert (kept.status, kept.rating) == ("read", 4)
    assert kept.possible_duplicate_of is None
    merged = library.paper(b)
    assert merged.trashed is not None and merged.notes == () and merged.possible_duplicate_of == a
    assert library.paper_ids() == [a]
    assert library.paper_ids(PaperQuery(section=Section.TRASH)) == [b]
    assert {t.name: t.count for t in library.tags()} == {"mixture of experts": 1}
    # the kept paper is found by what came with the other one
    assert library.paper_ids(PaperQuery(text="Duarte")) == [a]
    assert library.paper_ids(PaperQuery(text="note:appendix")) == [a]


def test_an_import_listing_the_merged_paper_again_brings_no_copy_back(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    _merge(library, a, b)
    again = library.paper(b)
    record = ParsedRecord(
        title=again.title,
        title_provisional=False,
        abstract="",
        year=2024,
        venue="NeurIPS",
        doi="10.5555/routing.2024",
    )
    _import(library, "Ines Duarte", [record], datetime(2024, 6, 1))
    assert library.paper_ids() == [a]
    assert library.paper_ids(PaperQuery(section=Section.TRASH)) == [b]


def test_undo_puts_both_papers_back_and_redo_merges_again(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    before = (_seen(library.paper(a)), _seen(library.paper(b)))
    outcome = library.apply(MergePapers(a, b))
    assert outcome.inverse is not None and outcome.changes.papers == {a, b}
    undone = library.apply(outcome.inverse)
    assert (_seen(library.paper(a)), _seen(library.paper(b))) == before
    assert sorted(library.paper_ids()) == [a, b]
    assert library.paper_ids(PaperQuery(text="note:appendix")) == [b]
    assert undone.inverse is not None
    library.apply(undone.inverse)
    assert library.paper_ids() == [a] and library.paper(a).doi == "10.5555/routing.2024"


def test_undo_is_refused_once_the_kept_paper_changed(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    outcome = library.apply(MergePapers(a, b))
    library.edit_fields(a, year=2022)
    assert outcome.inverse is not None
    with pytest.raises(ConflictError, match=f"#{a} was changed since the merge"):
        library.apply(outcome.inverse)
    assert library.paper(a).year == 2022 and library.paper(b).trashed is not None


def test_merges_that_cannot_be_are_refused_and_change_nothing(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    with pytest.raises(InvalidValueError, match="cannot be merged with itself"):
        _merge(library, a, a)
    with pytest.raises(NotFoundError, match="no paper #999"):
        _merge(library, a, 999)
    other_doi = ParsedRecord(
        title="Sparse Experts Route Tokens",
        title_provisional=False,
        abstract="",
        year=2024,
        doi="10.5555/another.2024",
    )
    (c,) = _import(library, "Tomas Berg", [other_doi], T1)
    with pytest.raises(InvalidValueError, match="different DOIs") as refused:
        _merge(library, c, b)
    assert "Not a duplicate" in refused.value.hint
    _merge(library, a, b)
    with pytest.raises(InvalidValueError, match=f"#{b} was merged into #{a} already") as twice:
        _merge(library, c, b)
    assert twice.value.hint == f"Merge #{a} instead, or restore #{b} from the Trash first."
    library.trash([a])
    with pytest.raises(InvalidValueError, match="in the Trash"):
        _merge(library, a, c)
    assert library.paper(c).doi == "10.5555/another.2024" and library.paper(c).trashed is None


def test_the_files_of_the_merged_paper_move_with_it(
    library: LibraryService, pair: tuple[int, int], tmp_path: Path, library_path: Path
) -> None:
    """(On a library file: its storage folder is beside it.)"""
    a, b = pair
    pdf = tmp_path / "routing.txt"
    pdf.write_text("proofs")
    (attached,) = library.attach(b, [pdf])
    outcome = library.apply(MergePapers(a, b))
    assert [f.id for f in library.paper(a).files] == [attached.id]
    assert library.paper(b).files == ()
    library.empty_trash()  # the merged paper is deleted; the file it brought stays
    (kept_file,) = library.paper(a).files
    assert kept_file.name == attached.name and not kept_file.missing
    assert Path(kept_file.path).read_text() == "proofs"
    assert outcome.inverse is not None


def _published(abstract: str = "") -> ParsedRecord:
    """The record of the merged paper as its page lists it (again)."""
    return ParsedRecord(
        title="Routing Tokens Across Sparse Experts at Scale",
        title_provisional=False,
        abstract=abstract,
        year=2024,
        venue="NeurIPS",
        authors=("Maren Solvik", "Tomas Berg", "Ines Duarte"),
        authors_complete=True,
        doi="10.5555/routing.2024",
    )


def test_a_page_listing_the_merged_paper_again_finds_the_kept_paper_even_after_empty_trash(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    _merge(library, a, b)
    library.empty_trash()
    page = ParsedPage("Ines Duarte", PageFormat.PUBLICATION_LIST, 1, [_published()])
    result = library.import_pages([SourcedPage(page, "ines.txt")], at=datetime(2024, 7, 1))
    assert not result.new_ids and library.paper_ids() == [a]
    assert library.paper_ids(PaperQuery(section=Section.TRASH)) == []


def test_what_a_page_brings_for_the_merged_paper_goes_to_the_kept_paper(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    """While the merged paper waits in the Trash, an import that lists it (with more than
    before) updates the paper kept, not the copy in the Trash."""
    a, b = pair
    _merge(library, a, b)
    longer = _BODY + " We also release the routing code."
    page = ParsedPage("Ines Duarte", PageFormat.PUBLICATION_LIST, 1, [_published(longer)])
    result = library.import_pages([SourcedPage(page, "ines.txt")], at=datetime(2024, 7, 1))
    assert not result.new_ids
    assert library.paper(a).abstract == longer  # the whole abstract completes the kept one
    assert library.paper(b).abstract == ""  # the copy in the Trash is left as it was


def test_reverting_the_kept_papers_import_keeps_it_with_what_was_merged_into_it(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    _merge(library, a, b)
    first = min(h.import_id for h in library.history())
    plan = library.revert(first).value
    (kept,) = plan.kept
    assert kept.paper_id == a and kept.reason.startswith("another paper was merged into it")
    assert library.paper_ids() == [a] and library.paper(a).doi == "10.5555/routing.2024"


def test_undo_is_refused_once_the_kept_paper_was_marked_or_rated(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    outcome = library.apply(MergePapers(a, b))
    library.mark([a], rating=5)
    assert outcome.inverse is not None
    with pytest.raises(ConflictError, match="marked or rated elsewhere since"):
        library.apply(outcome.inverse)
    assert library.paper(a).rating == 5 and library.paper(b).trashed is not None


def test_a_citation_key_chosen_by_hand_goes_with_the_merge_and_comes_back_with_undo(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    library.edit_fields(b, citekey="routing-neurips")
    own = library.paper(a).citekey
    outcome = library.apply(MergePapers(a, b))
    assert "the citation key routing-neurips" in outcome.value.added
    assert not any("as another citation key" in words for words in outcome.value.added)
    assert library.paper(a).citekey == "routing-neurips"
    assert library.paper(b).citekey not in (None, "routing-neurips", own)  # a key of its own
    assert library.paper(a).aliases == (own,)  # its own key still cites it
    assert outcome.inverse is not None
    undone = library.apply(outcome.inverse)
    assert undone.value == (b,)  # the paper back from the Trash (the window selects it)
    assert (library.paper(a).citekey, library.paper(b).citekey) == (own, "routing-neurips")
    assert library.paper(a).aliases == ()


def test_a_file_both_papers_hold_is_held_once_by_the_kept_paper(
    library: LibraryService, pair: tuple[int, int], tmp_path: Path, library_path: Path
) -> None:
    """(On a library file: its storage folder is beside it.)"""
    a, b = pair
    pdf = tmp_path / "routing.txt"
    pdf.write_text("the same bytes")
    library.attach(a, [pdf])
    copy = tmp_path / "routing (camera-ready).txt"
    copy.write_text("the same bytes")
    library.attach(b, [copy])
    result = _merge(library, a, b)
    assert "1 file" not in result.added
    assert [f.name for f in library.paper(a).files] == ["routing.txt"]


def test_a_merged_paper_restored_from_the_trash_is_a_paper_of_its_own_again(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    _merge(library, a, b)
    library.restore([b])
    assert library.paper(b).merged_into is None  # (a paper of the library again)
    # (by its title: the DOI is the kept paper's too now, which finds that one)
    record = replace(_published(), doi=None, url="https://example.org/routing")
    page = ParsedPage("Ines Duarte", PageFormat.PUBLICATION_LIST, 1, [record])
    result = library.import_pages([SourcedPage(page, "ines.txt")], at=datetime(2024, 7, 1))
    assert not result.new_ids and sorted(library.paper_ids()) == [a, b]
    assert library.paper(b).url == "https://example.org/routing"  # found as itself
    assert library.paper(a).url is None


def test_a_dry_run_says_what_the_kept_paper_would_gain_and_changes_nothing(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    library.edit_fields(b, citekey="routing-neurips")
    before = (_seen(library.paper(a)), _seen(library.paper(b)))
    outcome = library.apply(MergePapers(a, b, dry_run=True))
    assert outcome.value.dry_run and outcome.inverse is None
    assert {"the DOI", "1 note", "1 tag", "the citation key routing-neurips"} <= set(
        outcome.value.added
    )
    assert (_seen(library.paper(a)), _seen(library.paper(b))) == before
    assert sorted(library.paper_ids()) == [a, b]


@pytest.mark.parametrize("emptied", [False, True])
def test_a_record_of_the_merged_paper_finds_the_kept_one_whatever_script_names_its_authors(
    library: LibraryService, emptied: bool
) -> None:
    """Two records of one paper whose author lists share no name (one in Chinese script, one
    in Latin) are kept apart by an import; once the person merged them, a page listing
    either again finds the kept paper — also after the Trash was emptied."""
    title = "Graph Networks for Traffic Forecasting in Megacities"
    chinese = ParsedRecord(title, False, "", year=2021, authors=("张伟", "李娜"))
    latin = replace(chinese, authors=("Wei Zhang", "Na Li"), venue="KDD")
    (a,) = _import(library, "张伟", [replace(chinese, authors_complete=True)], T0)
    (b,) = _import(library, "Wei Zhang", [replace(latin, authors_complete=True)], T1)
    assert a != b  # no author in common: two papers, as far as an import can tell
    _merge(library, a, b)
    if emptied:
        library.empty_trash()
    for owner, record in (("Wei Zhang", latin), ("张伟", chinese)):
        page = ParsedPage(
            owner, PageFormat.PUBLICATION_LIST, 1, [replace(record, authors_complete=True)]
        )
        result = library.import_pages([SourcedPage(page, "again.txt")], at=datetime(2024, 8, 1))
        assert not result.new_ids
    assert library.paper_ids() == [a]
    other = ParsedRecord(
        title, False, "", year=2021, authors=("Ola Nordmann",), authors_complete=True
    )
    page = ParsedPage("Ola Nordmann", PageFormat.PUBLICATION_LIST, 1, [other])
    new = library.import_pages([SourcedPage(page, "ola.txt")], at=datetime(2024, 9, 1)).new_ids
    assert len(new) == 1  # another author's paper of that title is another paper


def test_merging_the_preprint_into_the_published_paper_keeps_its_type(
    library: LibraryService,
) -> None:
    """A conference paper with no venue given merged with its arXiv preprint stays a
    conference paper (not "arXiv", an article): it gains the arXiv id."""
    title = "Horses Route Packets Faster"
    paper = ParsedRecord(title, False, "", year=2019, type="paper-conference")
    preprint = ParsedRecord(
        f"{title} (preprint)", False, "", year=2018, venue="arXiv", arxiv_id="2101.00003"
    )
    (a,) = _import(library, "Hal Hu", [paper], T0)
    (b,) = _import(library, "Hal Hu", [preprint], T1)
    cited_as = library.paper(b).citekey
    result = _merge(library, a, b)
    kept = library.paper(a)
    assert (kept.type, kept.venue, kept.arxiv_id) == ("paper-conference", None, "2101.00003")
    assert result.added == ("the arXiv id", f"{cited_as} as another citation key")
    assert kept.aliases == (cited_as,)  # a \cite of the preprint still finds the paper


def test_the_merged_papers_key_still_cites_the_kept_paper_until_the_merge_is_undone(
    library: LibraryService,
) -> None:
    a, b = _import(
        library,
        "Hal Hu",
        [
            ParsedRecord("Horses Route Packets Faster", False, "", year=2019),
            ParsedRecord("Packet Routing by Horses", False, "", year=2018, venue="arXiv"),
        ],
        T0,
    )
    kept_key, other_key = library.paper(a).citekey, library.paper(b).citekey
    assert other_key is not None

    def cited_by(key: str) -> list[int]:
        return library.paper_ids(PaperQuery(text=f"key:{key}"))

    outcome = library.apply(MergePapers(a, b))
    assert library.paper(a).aliases == (other_key,)
    assert cited_by(other_key) == [a]  # (the merged paper waits in the Trash)
    assert outcome.inverse is not None
    library.apply(outcome.inverse)
    assert library.paper(a).aliases == () and cited_by(other_key) == [b]

    library.apply(MergePapers(a, b))
    library.empty_trash()
    assert cited_by(other_key) == [a] and cited_by(kept_key or "") == [a]
    assert library.paper(a).aliases == (other_key,)


def test_a_published_paper_merged_by_hand_with_its_preprint_takes_nothing_that_is_arxivs(
    library: LibraryService,
) -> None:
    title = "Exploring the Limits of Transfer Learning"
    paper = ParsedRecord(
        title, False, "", year=2020, type="article-journal", venue="JMLR", doi="10.5555/t5"
    )
    preprint = ParsedRecord(
        f"{title} with a Unified Text-to-Text Transformer",
        False,
        "",
        year=2019,
        venue="arXiv",
        arxiv_id="1910.10683",
        doi="10.48550/arXiv.1910.10683",
        publisher="arXiv",
        extra={"note": "arXiv:1910.10683 [cs, stat]", "issued": {"date-parts": [[2019, 10]]}},
    )
    (a,) = _import(library, "Colin Raffel", [paper], T0)
    (b,) = _import(library, "Colin Raffel", [preprint], T1)
    _merge(library, a, b)  # two DOIs, one of them arXiv's: one paper still
    kept = library.paper(a)
    assert (kept.type, kept.venue, kept.doi, kept.arxiv_id) == (
        "article-journal",
        "JMLR",
        "10.5555/t5",
        "1910.10683",
    )
    assert kept.publisher is None and "note" not in kept.extra and "issued" not in kept.extra


def test_a_merged_paper_restored_from_the_trash_takes_its_key_back(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    a, b = pair
    key = library.paper(b).citekey
    library.apply(MergePapers(a, b))
    assert library.paper(a).aliases == (key,)
    restored = library.restore([b])
    assert library.paper(a).aliases == ()
    assert library.paper_ids(PaperQuery(text=f"key:{key}")) == [b]
    # An undo of the restore: the merged paper back in the Trash, its key the kept one's
    # other key again; a redo: its own again.
    assert restored.inverse is not None
    redo = library.apply(restored.inverse).inverse
    assert library.paper(a).aliases == (key,)
    assert library.paper_ids(PaperQuery(text=f"key:{key}")) == [a]
    assert redo is not None
    library.apply(redo)
    assert library.paper(a).aliases == ()
    assert library.paper_ids(PaperQuery(text=f"key:{key}")) == [b]


def test_an_edit_of_a_paper_seen_in_the_library_follows_its_merges_to_the_paper_kept(
    library: LibraryService, pair: tuple[int, int]
) -> None:
    """Merged since (merged on again), the edit goes where the notes went; one seen in the
    Trash (``follow=False``) is the paper's own."""
    kept, other = pair
    third_record = ParsedRecord(
        title="Sparse Experts Routed Again", title_provisional=False, abstract="", year=2022
    )
    third = _import(library, "Ines Duarte", [third_record], T1)[0]
    library.apply(MergePapers(keep=kept, other=other))
    library.apply(MergePapers(keep=third, other=kept))
    done = library.apply(EditShownPaper(other, FieldEdits(year=2020)))
    assert done.value == third
    assert library.paper(third).year == 2020
    assert library.paper(other).year == 2024
    own = library.apply(EditShownPaper(other, FieldEdits(year=2021), follow=False))
    assert own.value == other
    assert library.paper(other).year == 2021
    assert library.paper(third).year == 2020
