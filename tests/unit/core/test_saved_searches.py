"""Saved searches (smart collections) and the All / Any tag filter: saved, counted live,
changed, renamed, deleted, undone, refused when the name is taken, and copied with the
library."""

from __future__ import annotations

from pathlib import Path

import pytest

from refman.common.errors import ConflictError, InvalidValueError
from refman.core.copying import copy_library
from refman.core.library import LibraryService
from refman.core.saved_searches import SaveSearch, within_saved
from refman.core.values import PaperQuery
from tests.helpers.fixtures import sourced
from tests.helpers.pages import THREE_PAPERS as RECORDS
from tests.helpers.pages import publication_page


@pytest.fixture
def ids(library: LibraryService) -> list[int]:
    """The papers' ids in the order of RECORDS; the first tagged "to read", the second
    "systems"."""
    library.import_pages([sourced(publication_page("Zhuo Jiang", RECORDS))])
    by_title = {d.title: d.id for d in library.details(library.paper_ids())}
    found = [by_title[title] for title, _, _ in RECORDS]
    library.tag(found[:1], ["to read"])
    library.tag(found[1:2], ["systems"])
    return found


def test_any_of_several_tags_or_all_of_them(library: LibraryService, ids: list[int]) -> None:
    both = ("to read", "systems")
    assert library.count(PaperQuery(tags=both)) == 0
    assert set(library.paper_ids(PaperQuery(tags=both, any_tags=True))) == set(ids[:2])
    assert library.count(PaperQuery(tags=both, any_tags=True)) == 2
    assert library.count(PaperQuery(text="checkpoint", tags=both, any_tags=True)) == 1


def test_a_saved_search_with_an_open_quote_keeps_its_tags_as_tags(
    library: LibraryService, ids: list[int]
) -> None:
    # An unclosed quote is ignored in a search; in the window's line of a saved search it
    # must not pair with the quote of a tag term (or of what is typed after it).
    view = library.apply(SaveSearch("Open", '"rebalancing', ("to read",), False)).value
    line = view.search_line()
    assert library.paper_ids(PaperQuery(text=line)) == ids[:1]
    typed = f'{line} "around stragglers"'
    assert library.paper_ids(PaperQuery(text=typed)) == ids[:1]


def test_a_saved_search_counts_live_and_is_changed_deleted_and_undone(
    library: LibraryService, ids: list[int]
) -> None:
    view = library.save_search("Recent work", "year:2024..", ["to read", "systems"], any_tags=True)
    assert (view.name, view.text, view.tags, view.any_tags) == (
        "Recent work",
        "year:2024..",
        ("to read", "systems"),
        True,
    )
    (listed,) = library.saved_searches()
    assert listed.count == 2
    library.untag(ids[1:2], ["systems"])
    assert library.saved_searches()[0].count == 1  # counted live

    changed = library.apply(SaveSearch("Recent", "year:2025", (), replace_id=view.id))
    assert [(v.name, v.text, v.count) for v in library.saved_searches()] == [
        ("Recent", "year:2025", 1)
    ]
    assert changed.inverse is not None
    library.apply(changed.inverse)
    assert [v.name for v in library.saved_searches()] == ["Recent work"]

    deleted = library.delete_saved_search(view.id)
    assert library.saved_searches() == []
    assert deleted.inverse is not None
    library.apply(deleted.inverse)
    assert library.saved_search("recent WORK").id == view.id  # a name in any case


def test_names_are_unique_and_never_empty(library: LibraryService, ids: list[int]) -> None:
    library.save_search("To read", "", ["to read"])
    with pytest.raises(ConflictError, match="already a saved search named"):
        library.save_search("to READ", "graph")
    with pytest.raises(InvalidValueError, match="needs a name"):
        library.save_search("   ", "graph")
    assert len(library.saved_searches()) == 1


def test_saved_searches_travel_with_a_copied_library(
    library: LibraryService, ids: list[int], tmp_path: Path
) -> None:
    library.save_search("Recent work", "year:2024..")
    copied = LibraryService.open(tmp_path / "copy.sqlite")
    try:
        copy_library(library, copied)
        assert [(v.name, v.text, v.count) for v in copied.saved_searches()] == [
            ("Recent work", "year:2024..", 2)
        ]
    finally:
        copied.close()


def test_a_renamed_or_merged_tag_is_renamed_in_the_saved_searches_naming_it(
    library: LibraryService, ids: list[int]
) -> None:
    listed = library.save_search("Queue", "", ["to read"])
    typed = library.save_search("Typed", 'tag:"To Read" -tag:systems rebalancing', [])
    library.save_search("Systems", "", ["systems"])

    def seen() -> dict[str, tuple[str, tuple[str, ...], int]]:
        return {v.name: (v.text, v.tags, v.count) for v in library.saved_searches()}

    before = seen()
    renamed = library.rename_tag("to read", "reading list")
    assert seen() == {
        "Queue": ("", ("reading list",), 1),
        "Typed": ('tag:"reading list" -tag:systems rebalancing', (), 1),
        "Systems": ("", ("systems",), 1),
    }
    assert renamed.changes.searches
    assert renamed.inverse is not None
    library.apply(renamed.inverse)  # undo: as they were
    assert seen() == before

    merged = library.rename_tag("systems", "to read")  # merged into "to read"
    assert library.saved_search("Systems").tags == ("to read",)
    assert library.saved_search("Typed").text == 'tag:"To Read" -tag:"to read" rebalancing'
    assert library.saved_search("Queue").id == listed.id
    assert merged.inverse is not None
    library.apply(merged.inverse)
    assert seen() == before
    assert library.saved_search("Typed").id == typed.id


def test_a_saved_search_finds_the_papers_it_counts_where_tags_differ_by_accents(
    library: LibraryService, ids: list[int]
) -> None:
    # "Ökonomie" and "Okonomie" are two tags of the tag pane; ``tag:ökonomie`` typed finds
    # both, but a saved search keeps the tag picked: its list and its count find that one.
    library.tag(ids[:1], ["Ökonomie"])
    library.tag(ids[1:2], ["Okonomie"])
    view = library.save_search("Economics", "", ["Ökonomie"])
    either = library.save_search("Either", "", ["Ökonomie", "systems"], any_tags=True)
    assert {v.name: v.count for v in library.saved_searches()} == {"Economics": 1, "Either": 2}
    assert library.paper_ids(within_saved(view)) == ids[:1]
    assert set(library.paper_ids(within_saved(either))) == set(ids[:2])
    assert library.paper_ids(within_saved(either, PaperQuery(tags=("to read",)))) == ids[:1]
    # what is typed and the tags picked narrow it, the tags still as picked
    picked = PaperQuery(tags=("Okonomie", "systems"), any_tags=True)
    assert library.paper_ids(within_saved(either, picked)) == ids[1:2]
    assert library.paper_ids(within_saved(view, PaperQuery(text="stragglers"))) == ids[:1]
    assert library.paper_ids(within_saved(view, PaperQuery(text="tag:okonomie"))) == ids[:1]


def test_a_tag_the_library_does_not_hold_is_refused_but_one_deleted_since_may_stay(
    library: LibraryService, ids: list[int]
) -> None:
    with pytest.raises(InvalidValueError, match="no tag “to raed”"):
        library.save_search("Queue", "", ["to raed"])
    assert library.saved_searches() == []
    view = library.save_search("Queue", "", ["to read", "systems"])
    library.delete_tag("systems")
    # renamed, with the tag it named deleted since (it says so), but no new tag mistyped
    library.apply(SaveSearch("Reading queue", "", view.tags, replace_id=view.id))
    with pytest.raises(InvalidValueError, match="no tag “sytems”"):
        library.apply(SaveSearch("Queue", "", ("to read", "sytems"), replace_id=view.id))
    (saved,) = library.saved_searches()
    assert (saved.name, saved.tags, saved.gone) == ("Reading queue", view.tags, ("systems",))
