"""The rules a value must follow, each written once and used by the window and the command
line alike."""

from __future__ import annotations

import pytest

from refman.common.errors import InvalidValueError
from refman.core.rules import (
    KEEP,
    FieldEdits,
    clean_tag_name,
    clean_tag_names,
    clean_title,
    clean_venue,
    parse_year,
    split_tags,
    tag_key,
)


def test_tag_names_are_tidied_and_compared_without_case() -> None:
    assert clean_tag_name("  machine   learning ") == "machine learning"
    assert tag_key("Ökonomie") == tag_key("ökonomie ")
    assert clean_tag_names(["ML", "ml", " To  Read"]) == ("ML", "To Read")


@pytest.mark.parametrize("name", ["", "   ", "x" * 101])
def test_a_tag_name_must_have_one_to_a_hundred_characters(name: str) -> None:
    with pytest.raises(InvalidValueError):
        clean_tag_name(name)


def test_split_tags() -> None:
    assert split_tags("systems, to skim") == ["systems", "to skim"]
    assert split_tags(" a ,, b  c , A,") == ["a", "b c"]
    assert split_tags(" , ") == []


@pytest.mark.parametrize(
    ("text", "year"), [("2024", 2024), (" 1000 ", 1000), ("2100", 2100), ("", None), (" ", None)]
)
def test_years_typed(text: str, year: int | None) -> None:
    assert parse_year(text) == year


@pytest.mark.parametrize("text", ["999", "2101", "20000", "twenty", "2024.5", "-5", "²⁰²⁴"])
def test_what_is_not_a_year_is_refused_in_plain_words(text: str) -> None:
    with pytest.raises(InvalidValueError) as caught:
        parse_year(text)
    assert caught.value.message == f"“{text}” is not a year."
    assert caught.value.hint == "Type a year from 1000 to 2100, or leave it empty."


def test_titles_and_venues() -> None:
    assert clean_title("  Halcyon:   Molten  Salt ") == "Halcyon: Molten Salt"
    with pytest.raises(InvalidValueError, match="A title cannot be empty"):
        clean_title(" \n ")
    assert clean_venue("  NeurIPS  2024 ") == "NeurIPS 2024"
    assert clean_venue("   ") is None and clean_venue(None) is None


def test_field_edits_check_their_values_and_list_what_they_change() -> None:
    edits = FieldEdits(title=" A  Title ", venue="")
    assert list(edits.items()) == [("title", "A Title"), ("venue", None)]
    assert edits.year is KEEP and edits.names() == ("title", "venue")
    with pytest.raises(InvalidValueError):
        FieldEdits(year=20000)
