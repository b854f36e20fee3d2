"""Citation keys: made once when a paper is added, unique, kept through merges and edits
unless the user changes them."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refman.common.errors import InvalidValueError
from refman.core.citekeys import ascii_words, base_key, first_free
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.importers.detect import parse_text
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

ABSTRACT = "We describe a system of many parts, with enough words to make an abstract of it."


def abstract(n: int) -> str:
    """An abstract of its own (no two are near-identical)."""
    words = ["amber", "basalt", "canyon", "delta", "estuary", "ferric", "granite", "heron"]
    return " ".join(words[(n * 3 + i * (n + 2)) % len(words)] for i in range(30)) + f" {n}."


def page(owner: str, *records: ParsedRecord) -> SourcedPage:
    return SourcedPage(ParsedPage(owner, PageFormat.PUBLICATION_LIST, None, list(records)))


def test_the_key_is_family_year_and_first_significant_word() -> None:
    assert base_key("Jiang", 2024, "MegaScale: Scaling Large Language Models") == (
        "jiang2024megascale"
    )
    assert base_key("Müller-Lüdenscheidt", 2021, "The Art of Folding") == (
        "mullerludenscheidt2021art"
    )
    assert base_key("", None, "On the 2 Ways") == "anonways"


def test_an_apostrophe_does_not_end_a_word_of_the_title() -> None:
    """Better BibTeX's reading: "O'Brien's Law" gave ``obrien2020o``."""
    assert base_key("O'Brien", 2020, "O'Brien's Law") == "obrien2020obriens"
    assert base_key("O’Brien", 2020, "O’Brien’s Law of Things") == "obrien2020obriens"
    assert base_key("Ng", 2020, "Don't Stop Pretraining") == "ng2020dont"
    assert base_key("Ng", 2020, "'Quoted' Words") == "ng2020quoted"


@given(st.text(alphabet=st.sampled_from("aZ0 9-:'éß Øı The of"), max_size=40))
def test_an_ascii_title_gives_the_word_its_folded_words_give(title: str) -> None:
    """A title's word in its key is the first significant word of its folded words (an
    apostrophe between two letters or digits joins them), whether the title is ASCII (read
    only up to that word) or not (folded whole)."""
    joined = re.sub(r"(?<=\w)'(?=\w)", "", title)
    words = [w for w in ascii_words(joined) if not w.isdigit()]
    key = base_key("Ng", 2020, title)
    assert key == "ng2020" + next((w for w in words if base_key("", None, w) == f"anon{w}"), "")


@pytest.mark.parametrize(
    ("family", "title", "key"),
    [
        ("Ørsted", "Experiments on the Effect of a Current", "orsted1820experiments"),
        ("Żółć", "Łąkowe Studia", "zolc1820lakowe"),
        ("Straße", "Æsthetic Œuvres", "strasse1820aesthetic"),
        ("李明", "中文 Deep Nets", "liming1820zhongwen"),  # (pinyin, as Better BibTeX writes it)
        ("张", "黄河三角洲湿地的碳储量", "zhang1820huanghe"),  # two letters of a run
        ("Иванов", "Теория чисел", "ivanov1820teoriya"),
        ("김", "한국어 형태소 분석", "gim1820hangugeo"),
    ],
)
def test_keys_are_transliterated_to_ascii_whatever_the_script(
    family: str, title: str, key: str
) -> None:
    assert base_key(family, 1820, title) == key


def test_letters_tell_apart_papers_that_share_a_key() -> None:
    taken = {"jiang2024megascale", "jiang2024megascalea"}
    assert first_free("jiang2024megascale", taken.__contains__) == "jiang2024megascaleb"
    everything = {"x"} | {f"x{c}" for c in "abcdefghijklmnopqrstuvwxyz"}
    assert first_free("x", everything.__contains__) == "xaa"


def test_every_new_paper_gets_a_unique_key_that_survives_merges_and_edits(
    library: LibraryService,
) -> None:
    first = ParsedRecord(
        "MegaScale: Scaling LLM Training", False, ABSTRACT, year=2024, authors=("Ziheng Jiang",)
    )
    second = ParsedRecord("MegaScale: a Second Paper", False, abstract(2), year=2024)
    result = library.import_pages([page("Zhuo Jiang", first, second)])
    a, b = (library.paper(i) for i in result.new_ids)
    assert (a.citekey, b.citekey) == ("jiang2024megascale", "jiang2024megascalea")

    # A later page brings a complete author list and a real venue: the key stays.
    again = ParsedRecord(
        first.title, False, ABSTRACT, year=2024, authors=("Hui Zhang", "Ziheng Jiang")
    )
    library.import_pages([page("Hui Zhang", again)])
    assert library.paper(a.id).citekey == "jiang2024megascale"
    library.edit_fields(a.id, title="A Different Title Now")
    assert library.paper(a.id).citekey == "jiang2024megascale"


def test_an_edited_key_must_be_free_and_well_formed(library: LibraryService) -> None:
    records = [ParsedRecord(f"Paper number {n}", False, abstract(n)) for n in (1, 2)]
    a, b = library.import_pages([page("Ada Lovelace", *records)]).new_ids
    taken = library.paper(b).citekey
    with pytest.raises(InvalidValueError, match="already the citation key of paper"):
        library.edit_fields(a, citekey=taken)
    with pytest.raises(InvalidValueError, match="cannot be a citation key"):
        library.edit_fields(a, citekey="two words")
    edit = library.edit_fields(a, citekey="lovelace1843notes")
    assert library.paper(a).citekey == "lovelace1843notes" and edit.label == "Edit citation key"
    assert edit.inverse is not None
    library.apply(edit.inverse)
    assert library.paper(a).citekey != "lovelace1843notes"


def test_a_key_a_bibliography_gives_is_kept_when_free(library: LibraryService) -> None:
    mine = ParsedRecord("A Paper", False, ABSTRACT, year=2020, citekey="smith2020paper")
    clash = ParsedRecord("Another", False, abstract(3), year=2020, citekey="smith2020paper")
    a, b = library.import_pages([page("", mine, clash)]).new_ids
    assert library.paper(a).citekey == "smith2020paper"
    assert library.paper(b).citekey != "smith2020paper"


def test_an_edited_book_is_keyed_by_its_first_editor(library: LibraryService) -> None:
    """A book with editors and no authors (a handbook, proceedings) is cited under its
    editor, as Better BibTeX keys it: it was ``anon1990handbook``."""
    ris = (
        "TY  - BOOK\nA2  - van Leeuwen, Jan\nA2  - Smith, Ann\n"
        "TI  - Handbook of Theoretical Computer Science\nPY  - 1990\nER  - \n\n"
        "TY  - EDBOOK\nA2  - World Health Organization\nTI  - Global Tables\n"
        "PY  - 2019\nER  - \n\n"
        "TY  - CHAP\nAU  - Doe, Jane\nA2  - Knuth, Donald\nTI  - A Chapter\nPY  - 2018\nER  - \n"
    )
    result = library.import_pages([SourcedPage(parse_text(ris, "books.ris"), "books.ris")])
    keys = {library.paper(i).title: library.paper(i).citekey for i in result.new_ids}
    assert keys == {
        "Handbook of Theoretical Computer Science": "leeuwen1990handbook",
        "Global Tables": "worldhealthorganization2019global",
        "A Chapter": "doe2018chapter",  # (an author first)
    }
