"""Letters of their own (ø, æ, ł, ß, đ, þ...) are searched as the letters a person types for
them, wherever words are searched: titles, abstracts, authors, venues, tags, notes, phrases,
``author:``, ``note:`` and ``venue:``; typed with the letter or without."""

from __future__ import annotations

from pathlib import Path

import pytest

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import DeleteNote, EditNote
from refman.core.values import PaperQuery
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from refman.store.search_schema import damaged_indexes


@pytest.fixture
def ids(library: LibraryService) -> dict[str, int]:
    records = [
        ParsedRecord(
            "Tidal Mixing in the Straße of Ærø",
            False,
            "Measurements from Łódź and Tromsø show how brackish water mixes in narrow straits.",
            authors=("Jørn Østerberg", "Łukasz Dębski"),
            authors_complete=True,
            venue="Þing Proceedings",
            year=2024,
        ),
        ParsedRecord(
            "Coral Reef Acoustics",
            False,
            "Hydrophones record the snapping shrimp of shallow reefs through a whole season.",
            authors=("Jorn Osterberg",),
            authors_complete=True,
            year=2023,
        ),
    ]
    page = ParsedPage("Đorđe Đokić", PageFormat.PUBLICATION_LIST, 2, records)
    fjord, reef = library.import_pages([SourcedPage(page, "page.txt")]).new_ids
    library.tag([reef], ["Ødegaard lab"])
    library.add_note(reef, "Ask Þórunn about the hydrophone calibration.")
    return {"fjord": fjord, "reef": reef}


def found(library: LibraryService, text: str) -> set[int]:
    return set(library.paper_ids(PaperQuery(text=text)))


@pytest.mark.parametrize(
    ("typed", "paper"),
    [
        ("strasse", "fjord"),  # title
        ("aero", "fjord"),
        ("Ærø", "fjord"),  # typed with the letters
        ("lodz tromso", "fjord"),  # abstract
        ("lukasz", "fjord"),  # author
        ("debski", "fjord"),
        ("thing", "fjord"),  # venue
        ('"straits"', "fjord"),
        ('"lodz and tromso"', "fjord"),  # a phrase, checked in the text
        ("odegaard", "reef"),  # tag
        ("thorunn", "reef"),  # note
        ("author:lukasz", "fjord"),
        ("author:Łukasz", "fjord"),
        ("owner:dokic", "both"),
        ("author:osterberg", "both"),  # Østerberg and Osterberg are one person now
        ("osterberg", "both"),
        ("østerberg", "both"),
        ("note:thorunn", "reef"),  # note: and venue: compare the text plain too
        ("note:þórunn", "reef"),
        ("note:THORUNN ABOUT", "reef"),
        ("venue:thing proc", "fjord"),
        ("venue:Þing", "fjord"),
        ('tag:"odegaard lab"', "reef"),  # tag: names the tag, accents and case not counted
        ('tag:"ØDEGAARD LAB"', "reef"),
    ],
)
def test_a_word_is_found_with_or_without_its_letters_of_their_own(
    library: LibraryService, ids: dict[str, int], typed: str, paper: str
) -> None:
    wanted = set(ids.values()) if paper == "both" else {ids[paper]}
    assert found(library, typed) == wanted


def test_the_two_spellings_of_a_name_are_one_person(
    library: LibraryService, ids: dict[str, int]
) -> None:
    fjord, reef = library.paper(ids["fjord"]), library.paper(ids["reef"])
    assert fjord.author_ids[0] == reef.author_ids[0]
    assert fjord.authors[0] == "Jørn Østerberg"  # shown as the first page spelled it
    assert found(library, "reef østerberg") == {ids["reef"]}


def test_a_changed_note_or_title_is_found_by_its_new_words_only(
    library: LibraryService, ids: dict[str, int]
) -> None:
    library.edit_fields(ids["fjord"], title="Brackish Water in the Øresund")
    assert found(library, "oresund") == {ids["fjord"]}
    assert found(library, "strasse") == set()
    (note,) = library.paper(ids["reef"]).notes
    library.apply(EditNote(note.id, "Calibrated by Bjørk."))
    assert found(library, "bjork") == {ids["reef"]}
    assert found(library, "thorunn") == set()
    library.apply(DeleteNote(note.id))
    assert found(library, "bjork") == set()


def test_a_library_files_indexes_stay_in_step_with_what_they_index(
    library: LibraryService, ids: dict[str, int], library_path: Path
) -> None:
    """FTS5's own check of every index against its (folding) view, after changes of every
    kind: an edit, a note, a tag renamed, a paper deleted for good."""
    library.edit_fields(ids["fjord"], title="Brackish Water in the Øresund", venue="Ørsted")
    library.add_note(ids["fjord"], "Þórunn: see the Łódź dataset.")
    library.rename_tag("Ødegaard lab", "Ødegaard group")
    library.trash([ids["reef"]])
    library.empty_trash()
    with library.db.engine.begin() as conn:
        assert damaged_indexes(conn) == []
    assert found(library, "orsted thorunn") == {ids["fjord"]}
    assert found(library, "odegaard") == set()  # the tag's paper is gone


def test_ligatures_and_full_width_letters_are_searched_as_the_letters_they_stand_for(
    library: LibraryService, ids: dict[str, int]
) -> None:
    """Text copied from a PDF holds ligatures ("ﬁ", "ﬄ"), an East Asian page full-width
    letters: the words typed find them, and the words typed with them find plain text."""
    library.edit_fields(ids["fjord"], title="Eﬃcient Conﬁguration of Workﬂows")
    library.edit_fields(ids["reef"], venue="Ｔｏｋｙｏ Ｊｏｕｒｎａｌ")
    library.add_note(ids["reef"], "ﬁnance of hydrophones")
    assert found(library, "efficient configuration workflows") == {ids["fjord"]}
    assert found(library, "eﬃcient") == {ids["fjord"]}
    assert found(library, '"efficient configuration"') == {ids["fjord"]}
    assert found(library, "tokyo") == {ids["reef"]}
    assert found(library, "finance") == {ids["reef"]}
    assert found(library, "ＲＥＥＦ") == {ids["reef"]}  # typed full-width: "reef" of its title
    if library.db.path is not None:
        with library.db.engine.begin() as conn:
            assert damaged_indexes(conn) == []
