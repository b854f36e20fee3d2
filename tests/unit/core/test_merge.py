"""The merge rules as pure functions over a paper's in-memory state."""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from refman.common.text import person_key
from refman.core.merge import (
    add_tags,
    author_line,
    merge_into,
    new_state,
    sort_author,
)
from refman.core.paper_state import PaperState
from refman.importers.identify import author_page_type
from refman.importers.records import ParsedRecord

ABSTRACT = r"We describe GigaLoom, which reaches 0.02 g/cm$^3$ error on \textbf{many} tasks."
THREE = ("Pavel Dunmore", "Akiko Seppala", "Ravi Castellane")


def record(
    title: str = "",
    *,
    year: int | None = None,
    venue: str | None = None,
    subjects: tuple[str, ...] = (),
    authors: tuple[str, ...] = (),
    complete: bool = False,
    abstract: str = ABSTRACT,
    type: str | None = None,
) -> ParsedRecord:
    return ParsedRecord(
        title=title or "GigaLoom",
        title_provisional=not title,
        abstract=abstract,
        year=year,
        venue=venue,
        subjects=subjects,
        authors=authors,
        authors_complete=complete,
        type=type or author_page_type(venue),
    )


def keys(names: tuple[str, ...]) -> list[str]:
    return [person_key(n) for n in names]


def state_of(r: ParsedRecord, owner: str | None = "Maren Solvik") -> PaperState:
    return new_state(1, r, person_key(owner) if owner else None, keys(r.authors))


def merge(state: PaperState, r: ParsedRecord, owner: str | None = "Tobias Ferreira") -> list[str]:
    key = person_key(owner) if owner else None
    return merge_into(state, r, key, owner, keys(r.authors))


# -- new_state ---------------------------------------------------------------------------------


def test_new_state_takes_the_records_fields() -> None:
    r = record("GigaLoom: Training at Scale", year=2024, venue="arXiv", subjects=("cs.LG", "cs.LG"))
    s = state_of(r)
    assert (s.title, s.title_provisional, s.year, s.venue) == (r.title, False, 2024, "arXiv")
    assert s.subjects == ["cs.LG"]
    assert s.attributions == ["maren solvik"]
    assert s.abstract == ABSTRACT
    assert s.user_edited == set()
    assert s.tags == []


def test_new_state_with_a_typed_title() -> None:
    s = new_state(5, record(), None, [], title="  GigaLoom Paper ")
    assert (s.id, s.title, s.title_provisional, s.user_edited) == (
        5,
        "GigaLoom Paper",
        False,
        {"title"},
    )
    assert s.attributions == []
    blank = new_state(5, record(), None, [], title="  ")
    assert (blank.title, blank.title_provisional, blank.user_edited) == ("GigaLoom", True, set())


# -- merge_into --------------------------------------------------------------------------------


def test_real_title_replaces_provisional() -> None:
    s = state_of(record())
    assert merge(s, record("GigaLoom: Training at Scale"), None) == ["a title"]
    assert (s.title, s.title_provisional) == ("GigaLoom: Training at Scale", False)


@pytest.mark.parametrize("incoming", ["", "Another Real Title"])
def test_real_title_is_kept(incoming: str) -> None:
    s = state_of(record("GigaLoom: Training at Scale"))
    assert merge(s, record(incoming), None) == []
    assert (s.title, s.title_provisional) == ("GigaLoom: Training at Scale", False)


def test_user_title_is_kept_even_when_provisional() -> None:
    s = state_of(record())
    s.user_edited.add("title")
    assert merge(s, record("GigaLoom: Training at Scale"), None) == []
    assert s.title == "GigaLoom"


def test_attribution_is_added_once() -> None:
    s = state_of(record())
    assert merge(s, record(), "Tobias Ferreira") == ["attribution to Tobias Ferreira"]
    assert merge(s, record(), "tobias  ferreira") == []
    assert merge(s, record(), "Maren Solvik") == []
    assert s.attributions == ["maren solvik", "tobias ferreira"]


@pytest.mark.parametrize(
    ("have", "have_complete", "incoming", "incoming_complete", "result", "adds"),
    [
        ((), False, THREE, False, THREE, ["3 authors"]),
        (THREE[:1], False, THREE, False, THREE, ["2 authors"]),
        (THREE[:2], False, THREE, False, THREE, ["1 author"]),
        (THREE, False, THREE[:2], False, THREE, []),
        (THREE, False, THREE, False, THREE, []),
        (THREE, False, THREE, True, THREE, ["the complete author list"]),
        (THREE[:1], False, THREE, True, THREE, ["2 authors"]),
        (THREE, True, THREE, False, THREE, []),
        (THREE, True, THREE[:2], True, THREE, []),
        # a list never loses a name another source gave: the longer list stays
        (THREE, False, THREE[:2], True, THREE, []),
        (THREE, False, THREE[:1], True, THREE, []),
        (THREE[:2], True, THREE, False, THREE, ["1 author"]),
        (THREE[:2], True, THREE, True, THREE, ["1 author"]),
    ],
)
def test_author_rules(
    have: tuple[str, ...],
    have_complete: bool,
    incoming: tuple[str, ...],
    incoming_complete: bool,
    result: tuple[str, ...],
    adds: list[str],
) -> None:
    s = state_of(record(authors=have, complete=have_complete), owner=None)
    got = merge(s, record(authors=incoming, complete=incoming_complete), None)
    assert got == adds
    assert s.authors == keys(result)
    assert s.authors_complete == (incoming_complete if adds else have_complete)


def test_user_edited_authors_are_kept() -> None:
    s = state_of(record(authors=THREE[:1]), owner=None)
    s.user_edited.add("authors")
    assert merge(s, record(authors=THREE, complete=True), None) == []
    assert s.authors == keys(THREE[:1])


def test_missing_year_venue_abstract_and_subjects_are_filled() -> None:
    s = state_of(record(abstract=""), owner=None)
    got = merge(
        s, record(year=2024, venue="arXiv", subjects=("cs.LG", "cs.DC"), abstract=ABSTRACT), None
    )
    # The record naming the venue says what the paper is: an arXiv preprint, not the
    # conference paper an author page's record without a venue is by default.
    assert got == [
        "the year",
        "the venue",
        "the type (article)",
        "the abstract",
        "subjects cs.LG, cs.DC",
    ]
    assert (s.year, s.venue, s.type, s.subjects) == (2024, "arXiv", "article", ["cs.LG", "cs.DC"])
    assert s.abstract == ABSTRACT
    # its published version: its type, venue and year (a citation of it gives its year, also
    # when the preprint was put on arXiv years after)
    assert merge(s, record(year=2020, venue="ICML", subjects=("cs.DC", "stat.ML")), None) == [
        "the type (paper-conference)",
        "the venue",
        "the year of publication",
        "subject stat.ML",
    ]
    assert (s.year, s.venue, s.subjects) == (2020, "ICML", ["cs.LG", "cs.DC", "stat.ML"])
    assert merge(s, record(year=2021, venue="NeurIPS", abstract=ABSTRACT), None) == []
    assert (s.year, s.venue, s.type) == (2020, "ICML", "paper-conference")


def test_an_abstract_cut_short_is_completed_and_never_cut() -> None:
    whole = (
        "We shard the optimizer state of a large model across the workers of a data parallel "
        "job. The memory each worker needs falls with the number of workers.\n\nWe train a "
        "model of forty billion parameters on sixty-four accelerators."
    )
    cut = whole[: whole.index("falls") + 3] + "…"
    s = state_of(record(abstract=cut), owner=None)
    assert merge(s, record(abstract=whole), None) == ["the rest of the abstract"]
    assert s.abstract == whole
    assert merge(s, record(abstract=cut), None) == []  # the part never replaces the whole
    assert s.abstract == whole
    other = whole.replace("sixty-four", "thirty-two")  # not a continuation: kept
    assert merge(s, record(abstract=other + " More."), None) == []
    assert s.abstract == whole


@pytest.mark.parametrize("field", ["year", "venue"])
def test_user_edited_year_and_venue_are_kept_even_when_empty(field: str) -> None:
    s = state_of(record(), owner=None)
    s.user_edited.add(field)
    merge(s, record(year=2024, venue="arXiv"), None)
    assert getattr(s, field) is None


def test_merging_the_same_record_again_adds_nothing() -> None:
    r = record(year=2024, venue="arXiv", subjects=("cs.LG",), authors=THREE)
    s = state_of(record())
    merge(s, r)
    snapshot = s.to_json()
    assert merge(s, r) == []
    assert s.to_json() == snapshot


# -- order does not matter ---------------------------------------------------------------------

FULL_AUTHORS = ("Pavel Dunmore", "Akiko Seppala", "Ravi Castellane", "Kofi Mensah")
OWNERS = ("Maren Solvik", "Tobias Ferreira", "Ines Carvalho", None)


@st.composite
def views_of_one_paper(draw: st.DrawFn) -> ParsedRecord:
    """A record showing part of what is known about one paper: its first authors, said to be
    all of them or not (a source may say a list is complete that another shows is not)."""
    complete = draw(st.booleans())
    count = draw(st.integers(0, len(FULL_AUTHORS)))  # (a "complete" list may name too few)
    return record(
        draw(st.sampled_from(["", "GigaLoom: Training at Scale"])),
        year=draw(st.sampled_from([None, 2024])),
        venue=draw(st.sampled_from([None, "arXiv", "NeurIPS 2024"])),
        subjects=tuple(draw(st.lists(st.sampled_from(["cs.LG", "cs.DC", "stat.ML"]), max_size=3))),
        authors=FULL_AUTHORS[:count],
        complete=complete and count > 0,
    )


def _summary(s: PaperState) -> tuple[object, ...]:
    return (
        s.title,
        s.title_provisional,
        s.year,
        s.venue,
        s.type,
        sorted(s.subjects),
        s.authors,
        s.authors_complete,
        sorted(s.attributions),
    )


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(views_of_one_paper(), st.sampled_from(OWNERS)), min_size=1, max_size=4))
def test_merge_result_does_not_depend_on_order(
    views: list[tuple[ParsedRecord, str | None]],
) -> None:
    results = set()
    for order in itertools.permutations(views):
        (first, owner), *rest = order
        s = state_of(first, owner)
        for r, who in rest:
            merge(s, r, who)
        results.add(repr(_summary(s)))
    assert len(results) == 1


# -- tags, list columns, snapshots -------------------------------------------------------------


def test_add_tags_ignores_case_and_keeps_order() -> None:
    s = state_of(record())
    add_tags(s, ["Systems", "ml", "SYSTEMS"])
    add_tags(s, ["ML", "to-read"])
    assert s.tags == ["Systems", "ml", "to-read"]


@pytest.mark.parametrize(
    ("names", "complete", "line"),
    [
        ([], True, ""),
        ([], False, ""),
        (["Zoë Müller"], True, "Zoë Müller"),
        (["Zoë Müller"], False, "Zoë Müller et al."),
        (["Zoë Müller", "Kofi Mensah"], True, "Zoë Müller et al."),
    ],
)
def test_author_line(names: list[str], complete: bool, line: str) -> None:
    assert author_line(names, complete) == line


@pytest.mark.parametrize(
    ("names", "key"),
    [
        ([], ""),
        (["Zoë Müller", "Kofi Mensah"], "muller zoe"),
        (["Pavel van Dunmore"], "dunmore pavel van"),
        (["Plato"], "plato"),
    ],
)
def test_sort_author(names: list[str], key: str) -> None:
    assert sort_author(names) == key


def test_snapshot_round_trip_and_copy() -> None:
    s = state_of(record(year=2024, authors=THREE))
    s.tags = ["ml"]
    s.user_edited = {"venue", "title"}
    s.added_at = datetime(2024, 1, 2, 3, 4, 5)
    s.modified_at = datetime(2024, 1, 3)
    s.names = {person_key(n): n for n in THREE}
    s.possible_duplicate_of = 7
    again = PaperState.from_json(s.to_json())
    assert again == s
    clone = s.copy()
    clone.authors.append("someone")
    clone.user_edited.add("year")
    clone.names["x"] = "X"
    assert s.authors == keys(THREE)
    assert s.user_edited == {"venue", "title"}
    assert "x" not in s.names


def _preprint() -> ParsedRecord:
    r = record("GigaLoom at Scale", year=2020, venue="arXiv", type="article")
    extra = {
        "note": "arXiv:2005.14165 [cs]",
        "issued": {"date-parts": [[2020, 7]]},
        "accessed": {"date-parts": [[2023, 1, 1]]},
    }
    return replace(
        r, doi="10.48550/arXiv.2005.14165", arxiv_id="2005.14165", publisher="arXiv", extra=extra
    )


def _published(doi: str | None) -> ParsedRecord:
    r = record("GigaLoom at Scale", year=2020, venue="NeurIPS", type="paper-conference")
    return replace(r, doi=doi, publisher="Curran Associates, Inc.")


@pytest.mark.parametrize("doi", [None, "10.5555/gigaloom"])
@pytest.mark.parametrize("preprint_first", [True, False])
def test_a_published_version_takes_nothing_that_is_only_the_preprints(
    doi: str | None, preprint_first: bool
) -> None:
    first, second = (_preprint(), _published(doi))[:: 1 if preprint_first else -1]
    state = state_of(first)
    merge(state, second)
    assert (state.type, state.venue) == ("paper-conference", "NeurIPS")
    assert state.arxiv_id == "2005.14165"
    assert (state.doi, state.publisher) == (doi, "Curran Associates, Inc.")
    assert "note" not in state.extra and "issued" not in state.extra  # no "Jul. 2020"
    assert state.extra["accessed"] == {"date-parts": [[2023, 1, 1]]}


@pytest.mark.parametrize("preprint_first", [True, False])
def test_the_published_version_keeps_its_own_link_not_arxivs(preprint_first: bool) -> None:
    arxiv = replace(_preprint(), url="http://arxiv.org/abs/2005.14165")
    published = replace(_published(None), url="https://proceedings.example.org/gigaloom")
    first, second = (arxiv, published)[:: 1 if preprint_first else -1]
    state = state_of(first)
    merge(state, second)
    assert state.url == "https://proceedings.example.org/gigaloom"
    assert "accessed" not in state.extra  # (when arXiv's page was read)
