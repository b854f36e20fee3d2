"""Related papers: the papers sharing the rarest words of one paper's title and abstract,
the most related first, each with the words it shares, on both backends."""

from __future__ import annotations

import pytest

from refman.common.errors import NotFoundError
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.importers import parse_text
from tests.helpers.related_library import fill_related


def test_the_papers_sharing_the_rarest_words_come_first_with_why(
    library: LibraryService,
) -> None:
    ids = fill_related(library)
    found = library.related(ids["focus"])
    assert [p.id for p in found[:2]] == [ids["closest"], ids["close"]]
    assert ids["focus"] not in [p.id for p in found]
    closest = found[0]
    assert {"straggler", "pipeline", "parallelism", "MFU"} <= set(closest.shares)
    assert "training" not in found[1].shares  # in most papers: it tells nothing apart
    assert found[0].score > found[1].score
    # Each shared word is in the related paper.
    shown = library.paper(ids["closest"])
    text = (shown.title + " " + (shown.abstract or "")).lower()
    assert all(word.lower() in text for word in closest.shares)


def test_trashed_papers_are_not_related_and_limit_holds(library: LibraryService) -> None:
    ids = fill_related(library)
    library.trash([ids["closest"]])
    found = library.related(ids["focus"], limit=1)
    assert [p.id for p in found] == [ids["close"]]


def test_a_paper_sharing_only_common_words_has_none(library: LibraryService) -> None:
    ids = fill_related(library)
    # Its rare words are its own; the words it shares are in most papers.
    assert library.related(ids["far"]) == []
    with pytest.raises(NotFoundError):
        library.related(99_999)


def test_a_small_library_relates_the_papers_of_one_topic(library: LibraryService) -> None:
    # Ten papers, three on glaciers: "glacier" is in three of ten, which the rule of one
    # paper in twenty counted as too common, and the related papers stayed empty.
    topics = [
        ("Glacier sediment transport under basal melt", "Glacier sediment moves with melt."),
        ("Basal melt and glacier sediment cores", "Cores of glacier sediment record melt."),
        ("Sediment plumes from a tidewater glacier", "A glacier sheds sediment in plumes."),
        *[(f"A survey of {w} markets", f"We survey {w} markets.") for w in "abcdefg"],
    ]
    bib = "\n".join(
        f"@article{{p{i},\n  title = {{{t}}},\n  abstract = {{{a}}},\n  year = {{2024}},\n}}\n"
        for i, (t, a) in enumerate(topics)
    )
    library.import_pages([SourcedPage(parse_text(bib, "small.bib"), "small.bib")])
    by_title = {d.title: d.id for d in library.details(library.paper_ids())}
    found = library.related(by_title[topics[0][0]])
    assert {p.title for p in found} == {topics[1][0], topics[2][0]}
    assert "glacier" in found[0].shares and "sediment" in found[0].shares
