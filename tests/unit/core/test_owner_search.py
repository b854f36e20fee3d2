"""A search finds the papers of an author page that gave no authors by its owner's name — the
name the list shows in their place, in grey italics — as it finds papers by their authors."""

from __future__ import annotations

import pytest

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from refman.importers import parse_text
from refman.store.search_schema import damaged_indexes
from tests.helpers.fixtures import sourced
from tests.helpers.pages import publication_page


@pytest.fixture
def ids(library: LibraryService) -> dict[str, set[int]]:
    """Łukasz Østergaard's page (no authors given) and a bibliography paper by another."""
    page = publication_page(
        "Łukasz Østergaard",
        [
            ("Tidal Mixing in Narrow Straits", 2024, "arXiv"),
            ("Sparse Reef Acoustics", 2023, "ICML"),
        ],
    )
    owned = set(library.import_pages([sourced(page, "lukasz.txt")]).new_ids)
    bib = "@article{x, author={Berg, Ola}, title={Tidal Power Budgets}, year={2022}}\n"
    other = set(library.import_pages([SourcedPage(parse_text(bib), "ola.bib")]).new_ids)
    return {"owned": owned, "other": other}


def found(library: LibraryService, text: str) -> set[int]:
    return set(library.paper_ids(PaperQuery(text=text)))


@pytest.mark.parametrize(
    ("typed", "wanted"),
    [
        ("lukasz", "owned"),
        ("Østergaard", "owned"),
        ("osterg", "owned"),  # the last word as it is typed
        ("lukasz ostergaard", "owned"),
        ('"lukasz ostergaard"', "owned"),
        ("ostergaard tidal", "tidal"),  # with a word of the paper's own
        ("ostergaard power", "none"),
        ("tidal luk", "tidal"),  # (only the last word is a prefix)
        ("berg", "other"),  # an author, as before
        ("ergaard", "none"),  # words, not the middle of one
        ("lukasz reef", "reef"),
    ],
)
def test_a_page_owners_name_finds_the_papers_of_the_page(
    library: LibraryService, ids: dict[str, set[int]], typed: str, wanted: str
) -> None:
    titles = {library.paper(i).title: i for i in ids["owned"]}
    expected = {
        "owned": ids["owned"],
        "other": ids["other"],
        "none": set(),
        "tidal": {titles["Tidal Mixing in Narrow Straits"]},
        "reef": {titles["Sparse Reef Acoustics"]},
    }[wanted]
    assert found(library, typed) == expected
    assert library.count(PaperQuery(text=typed)) == len(expected)


def test_the_owners_words_follow_the_papers_authors_and_attributions(
    library: LibraryService, ids: dict[str, set[int]]
) -> None:
    """Given authors, a paper is found by them and no longer by its owner's name; a page of
    another owner listing it adds that owner's name, and reverting that import takes the name
    away again; the index stays in step with what it indexes throughout."""
    reef = next(i for i in ids["owned"] if library.paper(i).title == "Sparse Reef Acoustics")

    def in_step() -> None:
        if library.db.path is not None:
            with library.db.engine.begin() as conn:
                assert damaged_indexes(conn) == []

    other_page = publication_page("Mira Kask", [("Sparse Reef Acoustics", 2023, "ICML")])
    library.import_pages([sourced(other_page, "mira.txt")])
    assert found(library, "kask") == {reef} and reef in found(library, "ostergaard")
    in_step()
    library.edit_fields(reef, year=2022)  # edited since: the revert keeps it, without Mira
    plan = library.revert(max(h.import_id for h in library.history())).value
    assert [k.paper_id for k in plan.kept] == [reef]
    assert found(library, "kask") == set() and reef in found(library, "ostergaard")
    in_step()
    bib = "@article{r, author={Vaher, Tiit}, title={Sparse Reef Acoustics}, year={2023}}"
    library.import_pages([SourcedPage(parse_text(bib), "vaher.bib")])  # gives it an author
    assert found(library, "vaher") == {reef} and reef not in found(library, "ostergaard")
    in_step()
