"""The phrase check of a quoted search: the same answer on plain ASCII text (a regular
expression over the lower-cased text) as word by word (any other text)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from refman.store.search_terms import has_phrase, plain_words


def _by_words(value: str, phrase: str) -> bool:
    words, wanted = plain_words(value), plain_words(phrase)
    n = len(wanted)
    return any(words[i : i + n] == wanted for i in range(len(words) - n + 1))


_PIECES = st.sampled_from(["protein", "Folds", "fold", "PROTEINS", "_", "-", " ", ", ", "9", "x"])


@given(st.lists(_PIECES, max_size=12).map("".join), st.lists(_PIECES, max_size=4).map(" ".join))
def test_ascii_phrases_are_found_as_word_by_word(value: str, phrase: str) -> None:
    if plain_words(phrase):
        assert has_phrase(value, phrase) is _by_words(value, phrase)


def test_a_phrase_is_whole_words_in_order_whatever_their_case_and_punctuation() -> None:
    assert has_phrase("We study Protein-folds, at scale.", "protein folds")
    assert has_phrase("PROTEIN FOLDS", "Protein Folds")
    assert has_phrase("the protein_folds", "protein folds")  # "_" separates words, as in the index
    assert not has_phrase("proteins folds", "protein folds")  # a longer word is another word
    assert not has_phrase("xprotein folds", "protein folds")
    assert not has_phrase("protein foldsx", "protein folds")
    assert not has_phrase("folds protein", "protein folds")
    assert has_phrase("La protéine plie", "proteine plie")  # not ASCII: compared word by word
