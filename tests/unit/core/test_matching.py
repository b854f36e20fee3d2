"""Finding a paper again: exact match keys and the fuzzy near-duplicate check."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refman.core.importing.index import MatchIndex
from refman.core.matching import (
    NEAR_DUPLICATE,
    MatchKeys,
    best_match,
    distinctive_title_words,
    match_keys,
    may_be_one_paper,
    name_words,
    similarity,
)

TITLE = "Placement-Aware Job Scheduling for Training Across More Than Eight Thousand Accelerators"
ABSTRACT = (
    "Large training jobs spread over thousands of accelerators exchange data in bursty, "
    "group-structured patterns; we map communication groups onto the physical network and "
    r"raise throughput by $7.4\%$ on jobs using more than $8000$ accelerators."
)


EXACT_KINDS = ("abstract", "title")


def is_exact(a: MatchKeys, b: MatchKeys) -> bool:
    """An import finds ``b`` as the same paper as ``a`` (the index the importer uses)."""
    index = MatchIndex()
    index.add(1, a, "a")
    return index.exact_match(b) == 1


def keys(title: str = TITLE, abstract: str = ABSTRACT, provisional: bool = False) -> MatchKeys:
    return match_keys(title, provisional, abstract)


def exact_keys(k: MatchKeys) -> list[tuple[str, int]]:
    """The keys that identify a paper exactly (hashes of the normalized title and abstract)."""
    return [kv for kv in k.exact if kv[0] in EXACT_KINDS]


def block_keys(k: MatchKeys) -> set[int]:
    """The keys that pick candidates for the fuzzy check."""
    return set(k.blocks)


# -- exact keys --------------------------------------------------------------------------------


def test_keys_of_a_paper() -> None:
    k = keys()
    assert k.title == TITLE.casefold()
    assert k.abstract is not None and k.abstract.startswith("large training jobs")
    assert k.abstract.endswith("raise throughput by 7.4% on jobs using more than 8000 accelerators")
    assert [kind for kind, _ in exact_keys(k)] == ["abstract", "title"]
    assert k.value("title") == TITLE.casefold()
    assert all(-(2**63) <= key < 2**63 for _, key in k.exact)  # stored as 64-bit hashes
    assert k.columns() == {
        "title_key": dict(k.exact)["title"],
        "abstract_key": dict(k.exact)["abstract"],
        "doi_key": None,
        "arxiv_key": None,
    }
    assert block_keys(k)
    assert len(set(k.blocks)) == len(k.blocks)


def test_provisional_titles_and_short_texts_give_no_keys() -> None:
    k = keys(provisional=True)
    assert k.title is None
    assert [kind for kind, _ in exact_keys(k)] == ["abstract"]
    short = keys("Short Title", "Too short.")
    assert short.abstract is None
    assert [kind for kind, _ in exact_keys(short)] == ["title"]
    assert short.value("title") == "short title"
    for empty in (keys("", ""), keys("   ", "   ")):
        assert (empty.exact, empty.blocks) == ((), ())


TITLE_VARIANTS = [
    TITLE.upper(),
    "  " + TITLE.replace(" ", " \n\t ") + "  ",
    TITLE + ".",
    TITLE + " ?!",
    TITLE.replace("Placement-Aware", "Placement–Aware"),  # en dash
    TITLE.replace("Job", r"\textbf{Job}"),
    TITLE.replace("Job", r"\emph{Job}"),
]


@pytest.mark.parametrize("variant", TITLE_VARIANTS)
def test_titles_that_differ_only_in_form_are_exact(variant: str) -> None:
    a, b = keys(TITLE, ""), keys(variant, "")
    assert a.title == b.title
    assert is_exact(a, b)


ABSTRACT_VARIANTS = [
    ABSTRACT.upper(),
    ABSTRACT.replace(" ", "\n\n   "),
    ABSTRACT + "..",
    ABSTRACT.replace(r"$7.4\%$", "7.4%").replace("$8000$", "8000"),
    ABSTRACT.replace("bursty", r"\emph{bursty}"),
    ABSTRACT.replace("group-structured", "group‐structured"),  # a Unicode hyphen
]


@pytest.mark.parametrize("variant", ABSTRACT_VARIANTS)
def test_abstracts_that_differ_only_in_form_are_exact(variant: str) -> None:
    a, b = keys("One Title", ABSTRACT), keys("Another Title", variant)
    assert a.abstract == b.abstract
    assert dict(exact_keys(a))["abstract"] == dict(exact_keys(b))["abstract"]
    assert is_exact(a, b)


def test_a_different_word_is_not_exact() -> None:
    a = keys(TITLE, "")
    b = keys(TITLE.replace("Eight", "Nine"), "")
    assert not is_exact(a, b)
    assert not is_exact(keys(abstract=ABSTRACT), keys("Other", ABSTRACT.replace("data", "bytes")))


# -- similarity --------------------------------------------------------------------------------


def test_one_character_in_a_long_title_is_a_near_duplicate() -> None:
    a = keys(TITLE, "")
    b = keys(TITLE.replace("Scheduling", "Schedulinq"), "")
    assert NEAR_DUPLICATE <= similarity(a, b) < 100
    assert block_keys(a) & block_keys(b)  # they share a blocking key, so they are compared


def test_one_character_in_a_short_title_is_not() -> None:
    assert similarity(keys("Graph Nets", ""), keys("Graph Neta", "")) < NEAR_DUPLICATE


def test_abstract_similarity_counts_too() -> None:
    a = keys("First Title Entirely", ABSTRACT)
    b = keys("Second Title Again", ABSTRACT.replace("bursty", "busty"))
    assert similarity(a, b) >= NEAR_DUPLICATE
    assert not is_exact(a, b)
    assert block_keys(a) & block_keys(b)


def test_provisional_titles_do_not_count_for_similarity() -> None:
    a = keys("GigaLoom", "", provisional=True)
    assert similarity(a, a) == 0
    assert similarity(keys(), keys()) == 100


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (TITLE + ", Part I", TITLE + ", Part II"),
        (
            "Lecture Notes on Distributed Storage Systems, Volume 2",
            "Lecture Notes on Distributed Storage Systems, Volume 3",
        ),
    ],
)
def test_titles_numbered_differently_are_two_papers(first: str, second: str) -> None:
    a, b = keys(first, ""), keys(second, "")
    assert similarity(a, b) >= NEAR_DUPLICATE  # alike letter for letter…
    assert best_match(b, [(1, a)]) is None  # …and still two papers
    typo = keys(second.replace("Systems", "Sytems").replace("Scheduling", "Schedulinq"), "")
    found = best_match(typo, [(1, a), (2, b)])
    assert found is not None and found[1] == 2  # a typo'd second still finds the second


def test_authors_who_share_no_name_make_one_title_two_papers() -> None:
    introduction = keys("Introduction", "")
    index = MatchIndex()
    index.add(1, introduction, "Introduction", name_words(["anna alpha"]))
    assert index.exact_match(introduction, name_words(["boris beta"])) is None
    assert index.exact_match(introduction, name_words(["alpha a"])) == 1
    assert index.exact_match(introduction) == 1  # a record without authors: by title alone
    assert not may_be_one_paper(name_words(["zhuo jiang"]), name_words(["boris beta"]))
    assert may_be_one_paper(name_words(["zhuo jiang"]), name_words(["jiang zhuo"]))


# -- properties --------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(), st.booleans(), st.text())
def test_keys_never_raise(title: str, provisional: bool, abstract: str) -> None:
    k = match_keys(title, provisional, abstract)
    for kind, key in k.exact:
        assert kind in ("title", "abstract") and isinstance(key, int)
    assert all(isinstance(key, int) for key in k.blocks)
    assert 0 <= similarity(k, k) <= 100


PROSE = st.text(alphabet=string.ascii_letters + string.digits + " ,-'()", min_size=1)


@settings(max_examples=200, deadline=None)
@given(PROSE, PROSE)
def test_case_space_and_trailing_punctuation_never_matter(title: str, abstract: str) -> None:
    a = match_keys(title, False, abstract)
    b = match_keys(
        "  " + title.upper().replace(" ", "   ") + " . ", False, abstract.swapcase() + "!"
    )
    assert exact_keys(a) == exact_keys(b)


@settings(max_examples=200, deadline=None)
@given(PROSE, PROSE, PROSE, PROSE)
def test_similarity_is_symmetric(t1: str, a1: str, t2: str, a2: str) -> None:
    x, y = match_keys(t1, False, a1), match_keys(t2, False, a2)
    assert similarity(x, y) == similarity(y, x)


WORD = st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=12)


def _distinct_words(text: str, least: int) -> int:
    """The distinct words of ``least`` letters or more that are not among the words most
    titles use (``distinctive_title_words`` leaves those out of the keys too)."""
    return len(
        {w for w in distinctive_title_words(text) if len(w) >= least}
        if least == 4
        else {w for w in text.split() if len(w) >= least}
    )


@settings(max_examples=400, deadline=None)
@given(st.lists(WORD, min_size=1, max_size=14), st.data())
def test_near_duplicates_always_share_a_blocking_key(words: list[str], data: st.DataObject) -> None:
    """Only papers sharing a blocking key are compared: a one-letter typo must share one.

    Titles with two or more distinct words of 4+ letters that are not common title words
    ("paper", "study", ...), abstracts with three or more of 7+ letters, and typos that do
    not turn one word into another word of the same text (rare corners where no key
    survives; a title of one uncommon word is one of them).
    """
    text = " ".join(words)
    letters = [i for i, c in enumerate(text) if c != " "]
    at = data.draw(st.sampled_from(letters))
    other = text[:at] + data.draw(st.sampled_from(string.ascii_lowercase)) + text[at + 1 :]
    pairs = []
    if _distinct_words(text, 4) == _distinct_words(other, 4) >= 2:
        pairs.append((keys(text, ""), keys(other, "")))
    if _distinct_words(text, 7) == _distinct_words(other, 7) >= 3:
        pairs.append((keys("", text, True), keys("", other, True)))
    for a, b in pairs:
        if similarity(a, b) >= NEAR_DUPLICATE and not is_exact(a, b):
            assert block_keys(a) & block_keys(b), (text, other)


def test_a_typo_in_a_short_famous_title_shares_a_blocking_key() -> None:
    a = keys("Attention Is All You Need", "")
    b = keys("Attention Is All You Neeb", "")
    assert similarity(a, b) >= NEAR_DUPLICATE
    assert block_keys(a) & block_keys(b)
