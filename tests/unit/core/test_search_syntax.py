"""The search line's syntax on real libraries (both backends): fields, year ranges,
exclusions, alternatives and phrases, and what is read as plain words instead of an error."""

from __future__ import annotations

import unicodedata
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import SetDuplicateFlag
from refman.core.search_syntax import SearchFilter, parse_search
from refman.core.values import PaperQuery
from refman.importers.bibtex import parse_bibtex
from tests.helpers.fixtures import sourced
from tests.helpers.pages import publication_page

BIB = """@article{jiang2024,
  author = {Jiang, Zhuo and Okafor, Mira},
  title = {Pipeline parallel training around stragglers},
  journal = {arXiv},
  year = {2024},
}
@inproceedings{okafor2023,
  author = {Okafor, Mira and Berg, Lars},
  title = {Overlapped checkpoint writes for large models},
  booktitle = {USENIX ATC},
  year = {2023},
}
@article{nunez2021,
  author = {N{\\'u}{\\~n}ez, Jos{\\'e}},
  title = {A survey of gradient compression},
  journal = {Distributed Computing Surveys},
  year = {2021},
}
"""


@pytest.fixture
def titles(library: LibraryService) -> dict[str, int]:
    library.import_pages([SourcedPage(parse_bibtex(BIB), "lab.bib")])
    page = publication_page(
        "Lena Fischer", [("Columnar storage for hydrophone archives", 2025, "VLDB")]
    )
    library.import_pages([sourced(page)])
    ids = {d.title.split()[0].lower(): d.id for d in library.details(library.paper_ids())}
    library.tag([ids["overlapped"]], ["to read"])
    library.add_note(ids["a"], "TODO: compare with our compressor")
    return ids


def found(library: LibraryService, typed: str) -> set[str]:
    ids = library.paper_ids(PaperQuery(text=typed))
    assert library.count(PaperQuery(text=typed)) == len(ids)
    return {d.title.split()[0].lower() for d in library.details(ids)}


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("author:okafor", {"pipeline", "overlapped"}),
        ("author:jose", {"a"}),  # accents never matter
        ("author:nun", {"a"}),  # as you type: a word's start
        # a whole name in any order, as bibliographies write it, or with an initial
        ('author:"okafor, mira"', {"pipeline", "overlapped"}),
        ('author:"M. Okafor"', {"pipeline", "overlapped"}),
        ('author:"mira okafor"', {"pipeline", "overlapped"}),
        ('author:"okafor berg"', set()),  # the words of one person's name
        ('owner:"Lena Fischer"', {"columnar"}),
        ("year:2024", {"pipeline"}),
        ("year:2023..2025", {"pipeline", "overlapped", "columnar"}),
        ("year:2025..2023", {"pipeline", "overlapped", "columnar"}),  # either way round
        ("year:..2022", {"a"}),
        # ranges as people type them too: a hyphen or a dash, comparisons
        ("year:2023-2025", {"pipeline", "overlapped", "columnar"}),
        ("year:2025–2024", {"pipeline", "columnar"}),
        ("year:>2023", {"pipeline", "columnar"}),
        ("year:>=2023 -year:2025", {"pipeline", "overlapped"}),
        ("year:<2023", {"a"}),
        ("year:<=2023", {"a", "overlapped"}),
        ("venue:usenix", {"overlapped"}),
        ("title:compression", {"a"}),
        ("title:computing", set()),  # (the venue of "a": not its title)
        ('title:"checkpoint writes"', {"overlapped"}),
        ("title:checkpoint OR title:hydrophone", {"overlapped", "columnar"}),
        ("-title:for", {"pipeline", "a"}),
        ('tag:"to read"', {"overlapped"}),
        ("note:todo", {"a"}),
        ("training -stragglers", set()),
        ("-author:okafor", {"a", "columnar"}),
        ("stragglers OR checkpoint", {"pipeline", "overlapped"}),
        ("author:berg OR author:jiang", {"pipeline", "overlapped"}),
        # AND and NOT as other searches write them (in capitals): both, and leave out
        ("stragglers AND pipeline", {"pipeline"}),
        ("training NOT stragglers", set()),
        ("NOT author:okafor", {"a", "columnar"}),
        ("checkpoint OR compression NOT survey", {"overlapped"}),
        ('"gradient compression"', {"a"}),
        ('"compression gradient"', set()),
        ("author:okafor year:2023", {"overlapped"}),
        ("-venue:arxiv year:2021..", {"overlapped", "a", "columnar"}),
        # unknown fields and broken syntax are plain words, never an error
        ("colour:blue", set()),
        ("year:soon", set()),
        ('"unbalanced quote', set()),
    ],
)
def test_fields_ranges_exclusions_and_alternatives(
    library: LibraryService, titles: dict[str, int], typed: str, expected: set[str]
) -> None:
    assert found(library, typed) == expected


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("note:Été", {"a"}),
        ("note:été", {"a"}),
        ("note:ÉTÉ", {"a"}),
        ("note:ÇA", {"a"}),
        ("note:étè", {"a"}),  # accents do not count, as in the words of a search
        ("note:ete", {"a"}),
        ("note:ca marche", {"a"}),
        ("note:é", {"a"}),
        ("note:ètè ça", {"a"}),
        ("venue:etudes", {"overlapped"}),
        ("venue:συστημα", {"overlapped"}),
        ("venue:Études", {"overlapped"}),
        ("venue:études", {"overlapped"}),
        ("venue:ÉTUDES", {"overlapped"}),
        ("venue:ΣΎΣΤΗΜΑ", {"overlapped"}),
        ("venue:systems", {"pipeline"}),
        ("-venue:études", {"pipeline", "a", "columnar"}),
        ('note:"À 100% (VRAIMENT?)"', {"a"}),  # punctuation is itself
        ("note:Ét.", set()),
        ("note:Ét*", set()),
        ('note:"[é]"', set()),
    ],
)
def test_note_and_venue_ignore_the_case_and_the_accents_of_any_letter(
    library: LibraryService, titles: dict[str, int], typed: str, expected: set[str]
) -> None:
    library.add_note(titles["a"], "Été: ça marche à 100% (vraiment?)")
    library.edit_fields(titles["overlapped"], venue="Études Informatiques — σύστημα")
    library.edit_fields(titles["pipeline"], venue="Operating SYSTEMS Review")
    assert found(library, typed) == expected


@pytest.mark.parametrize("stored", ["NFC", "NFD"])
@pytest.mark.parametrize("typed", ["NFC", "NFD"])
def test_note_and_venue_match_accents_however_they_are_encoded(
    library: LibraryService,
    titles: dict[str, int],
    stored: Literal["NFC", "NFD"],
    typed: Literal["NFC", "NFD"],
) -> None:
    """An "é" is one character or an "e" and a combining accent (text pasted from a PDF or
    typed on a Mac); either finds the other."""
    library.add_note(titles["a"], unicodedata.normalize(stored, "Résumé: à revoir"))
    venue = unicodedata.normalize(stored, "Études Informatiques")
    library.edit_fields(titles["overlapped"], venue=venue)
    assert found(library, unicodedata.normalize(typed, "note:résumé")) == {"a"}
    assert found(library, unicodedata.normalize(typed, "venue:ÉTUDES")) == {"overlapped"}
    assert found(library, unicodedata.normalize(typed, "-venue:études")) == {
        "pipeline",
        "a",
        "columnar",
    }
    library.edit_fields(titles["columnar"], title=unicodedata.normalize(stored, "Zürich façades"))
    for words in ("zürich façades", "façad", '"zürich façades"'):
        expected = {unicodedata.normalize(stored, "zürich")}
        assert found(library, unicodedata.normalize(typed, words)) == expected, words


def test_a_pasted_doi_arxiv_id_or_citation_key_finds_its_paper(
    library: LibraryService, titles: dict[str, int]
) -> None:
    library.edit_fields(titles["a"], doi="10.1145/3188720")
    library.edit_fields(titles["overlapped"], arxiv_id="2401.01234")
    key = library.paper(titles["pipeline"]).citekey
    assert key is not None
    for typed in ("10.1145/3188720", "https://doi.org/10.1145/3188720", "doi:10.1145/3188720"):
        assert found(library, typed) == {"a"}, typed
    # as a paper prints them, a space after the label
    assert found(library, "DOI: 10.1145/3188720") == {"a"}
    assert found(library, "arXiv: 2401.01234") == {"overlapped"}
    for typed in ("2401.01234", "arXiv:2401.01234v2", "https://arxiv.org/abs/2401.01234"):
        assert found(library, typed) == {"overlapped"}, typed
    # an id a bibliography gave with its version is found with or without it
    library.edit_fields(titles["overlapped"], arxiv_id="2401.01234v3")
    for typed in ("2401.01234", "2401.01234v3", "arxiv:2401.01234v1", "arxiv.org/abs/2401.01234"):
        assert found(library, typed) == {"overlapped"}, typed
    assert found(library, key) == {"pipeline"}
    assert found(library, key.upper()) == {"pipeline"}
    assert found(library, f"key:{key} year:2024") == {"pipeline"}
    assert found(library, "10.1145/0000000") == set()
    assert found(library, "gradient") == {"a"}  # plain words as ever
    # DBLP's keys and older ACL keys carry a prefix that is no field: pasted alone, they find
    # their paper; the prefix and the rest are still words too.
    for dblp in ("DBLP:conf/nips/JiangO24", "Okafor:2023", "Kaplan20", "N19-1423"):
        library.edit_fields(titles["columnar"], citekey=dblp)
        assert found(library, dblp) == {"columnar"}, dblp
        assert found(library, dblp.lower()) == {"columnar"}, dblp
    assert found(library, "pipeline:parallel") == {"pipeline"}  # (words, as before)
    library.edit_fields(titles["columnar"], citekey="10.5555/31")
    assert found(library, "key:10.5555/31") == {"columnar"}  # a key, though shaped as a DOI


def test_subjects_match_a_code_or_its_archive(library: LibraryService) -> None:
    page = publication_page(
        "Lena Fischer", [("Columnar storage for hydrophone archives", 2025, "VLDB")]
    )
    library.import_pages([sourced(page.replace("cs.LG↗", "cs.DC↗"))])
    assert found(library, "subject:cs.dc") == {"columnar"}
    assert found(library, "subject:cs") == {"columnar"}
    assert found(library, "subject:cs.LG") == set()


def test_the_reading_of_a_search_line() -> None:
    assert parse_search("graph nets").filters == ()
    parsed = parse_search('author:jiang "pipeline parallel" -survey')
    assert parsed.text == '"pipeline parallel"'
    assert parsed.filters == (
        SearchFilter("author", "jiang"),
        SearchFilter("text", "survey", negated=True),
    )
    either = parse_search("a OR b").filters[0]
    assert either.field == "any" and [o.value for o in either.options] == ["a", "b"]
    assert parse_search("foo:bar").text == "foo bar"
    assert parse_search("year:2024").filters == (SearchFilter("year", "2024"),)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('ab :-".OR20'))))
def test_any_line_is_read_without_an_error(typed: str) -> None:
    parsed = parse_search(typed)
    assert isinstance(parsed.text, str)
    assert all(
        f.field
        in (*("author", "owner", "year", "venue"), "subject", "tag", "note", "is", "text", "any")
        for f in parsed.filters
    )


def test_rating_finds_the_papers_of_those_stars(
    library: LibraryService, titles: dict[str, int]
) -> None:
    library.mark([titles["pipeline"]], rating=5)
    library.mark([titles["overlapped"]], rating=3)
    assert found(library, "rating:5") == {"pipeline"}
    assert (
        found(library, "rating:3..") == found(library, "rating:>=3") == {"pipeline", "overlapped"}
    )
    assert found(library, "rating:4-5") == {"pipeline"}
    assert found(library, "rating:0") == {"a", "columnar"}  # (not rated)
    assert found(library, "-rating:0 -rating:5") == {"overlapped"}
    assert found(library, "rating:many") == set()  # (plain words)


def test_is_finds_why_a_paper_needs_attention_and_its_reading_status(
    library: LibraryService, titles: dict[str, int]
) -> None:
    library.mark([titles["pipeline"]], status="read")
    library.mark([titles["overlapped"]], status="reading")
    library.apply(SetDuplicateFlag(titles["a"], titles["pipeline"]))
    provisional = sourced("Ada Lovelace\n\nAda Lovelace et al.\n\nWe study engines at length.\n")
    (engine,) = library.import_pages([provisional]).new_ids
    assert library.paper(engine).title_provisional
    assert found(library, "is:duplicate") == {"a"}
    assert found(library, "is:read") == {"pipeline"}
    assert found(library, "is:READ") == {"pipeline"}  # (case never matters)
    assert found(library, "is:reading") == {"overlapped"}
    assert found(library, "-is:unread") == {"pipeline", "overlapped"}
    assert found(library, "is:suggested") == found(library, "is:incomplete") == {"we"}
    assert found(library, "is:duplicate OR is:read") == {"a", "pipeline"}
    assert found(library, "is:soon") == set()  # no such state: plain words


@pytest.mark.parametrize("text", ["κόσμος", "がく", "Straße", "Ça va"])
def test_note_venue_and_tag_find_text_typed_as_stored_in_any_script(
    library: LibraryService, titles: dict[str, int], text: str
) -> None:
    """On both backends, the way each writes text plain (marks and case dropped) reads the
    typed value as it reads the stored one."""
    library.add_note(titles["a"], f"See {text} again")
    library.edit_fields(titles["overlapped"], venue=f"Journal of {text}")
    library.tag([titles["pipeline"]], [text])
    assert found(library, f'note:"{text}"') == {"a"}
    assert found(library, f'venue:"{text}"') == {"overlapped"}
    assert found(library, f'tag:"{text}"') == {"pipeline"}


HYPHENS = """@article{dupont2022,
  author = {Dupont, Jean-Pierre and Garc{\\'\\i}a-M{\\'a}rquez, Ana and van der Berg, Jan},
  title = {Flood maps for polders},
  journal = {Water},
  year = {2022},
}
"""


@pytest.mark.parametrize(
    "typed",
    [
        'author:"Dupont, Jean-Pierre"',  # as a bibliography writes a name
        'author:"van der Berg, Jan"',
        'author:"van der Berg, J"',
        'author:"J. van der Berg"',  # an initial finds the names it starts
        'author:"jean pierre"',  # a space for the hyphen, and the other way round
        'author:"jan-van der berg"',
        "author:pierre",  # a word after a hyphen starts a word
        "author:marquez",
        'author:"Garcia Marquez"',
        'owner:"Dupont, Jean-Pierre"',
    ],
)
def test_an_author_is_found_however_the_name_is_typed(library: LibraryService, typed: str) -> None:
    library.import_pages([SourcedPage(parse_bibtex(HYPHENS), "lab.bib")])
    page = publication_page("Jean-Pierre Dupont", [("Flood maps for polders", 2022, "Water")])
    library.import_pages([sourced(page)])
    assert found(library, typed) == {"flood"}
    assert found(library, typed.replace("author:", "-author:").replace("owner:", "-owner:")) == (
        set()
    )
