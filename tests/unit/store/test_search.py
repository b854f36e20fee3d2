"""Full-text search: the MATCH expression, what is searchable, ranking, and staying in sync."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from refman.core.importing import apply as apply_module
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import DeleteNote
from refman.core.values import PaperQuery, Section, SortKey
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from refman.store import search as search_module
from refman.store import search_rank
from refman.store.search_schema import PREFIXES, TOKENIZE
from refman.store.search_terms import match_expression, register_functions

T0 = datetime(2024, 5, 1, 12, 0, 0)

HOSTILE = [
    '"',
    '""',
    '"""',
    "*",
    "**",
    "a*b",
    "AND",
    "OR",
    "NOT",
    "a AND",
    "AND b",
    "NOT NOT",
    "NEAR(",
    "NEAR(a b, 3)",
    "NEAR/2",
    "-",
    "-graph",
    "--",
    ":",
    "title:",
    "title:graph",
    "{title abstract}: graph",
    "^",
    "^graph",
    "(",
    ")",
    "()",
    "((graph)",
    "graph)",
    '"unterminated phrase',
    'a "b" "c',
    "+",
    "'",
    "\\",
    "\x00",
    "\u200b",
    "🙂 emoji 🙂",
    "日本語のテキスト",
    "Ωμέγα",
    "ﬁ ligature",
    "a" * 5000,
    "% _ [ ] ;",
    "' OR 1=1 --",
    "rowid = 1",
]


# -- the MATCH expression ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("graph", '"graph"*'),
        ("graph neural", '"graph" AND "neural"*'),
        ("graph neural ", '"graph" AND "neural"'),
        # A phrase is all of its words here; its order is checked in the papers' text.
        ('"neural graph"', '("neural" AND "graph")'),
        ('"neural graph" learn', '("neural" AND "graph") AND "learn"*'),
        ('learn "neural graph"', '"learn" AND ("neural" AND "graph")'),
        ("AND OR NOT", '"AND" AND "OR" AND "NOT"*'),
        ("NEAR(a b)", '"NEAR" AND "a" AND "b"*'),
        ("title:graph", '"title" AND "graph"*'),
        ("-graph ^net", '"graph" AND "net"*'),
        ("Müller", '"Müller"*'),
    ],
)
def test_match_expression(typed: str, expected: str) -> None:
    assert match_expression(typed) == expected


@pytest.mark.parametrize("typed", ["", "   ", '"', '""', "*", "-", ":", "^", "()", "“”", "\u200b"])
def test_nothing_searchable_gives_none(typed: str) -> None:
    assert match_expression(typed) is None


@pytest.fixture(scope="module")
def fts_table() -> Iterator[sqlite3.Connection]:
    """An FTS5 table set up like the library's, with one row."""
    conn = sqlite3.connect(":memory:")
    conn.execute(
        f"CREATE VIRTUAL TABLE t USING fts5(title, abstract, "
        f"tokenize = '{TOKENIZE}', prefix = '{PREFIXES}', detail = column)"
    )
    conn.execute("INSERT INTO t VALUES ('graph neural networks', 'Zoë Müller and friends')")
    yield conn
    conn.close()


@settings(max_examples=400, deadline=None)
@given(st.text())
@example("".join(HOSTILE))
@example(" ".join(HOSTILE))
def test_any_text_gives_a_valid_fts5_expression(fts_table: sqlite3.Connection, typed: str) -> None:
    expression = match_expression(typed)
    if expression is None:
        return
    fts_table.execute("SELECT rowid FROM t WHERE t MATCH ?", (expression,)).fetchall()


@pytest.mark.parametrize("typed", HOSTILE)
def test_hostile_text_gives_a_valid_fts5_expression(
    fts_table: sqlite3.Connection, typed: str
) -> None:
    expression = match_expression(typed)
    if expression is not None:
        fts_table.execute("SELECT rowid FROM t WHERE t MATCH ?", (expression,)).fetchall()


# -- searching a library -----------------------------------------------------------------------


def _record(
    title: str,
    abstract: str,
    *,
    venue: str | None = None,
    subjects: tuple[str, ...] = (),
    authors: tuple[str, ...] = (),
) -> ParsedRecord:
    return ParsedRecord(
        title=title,
        title_provisional=False,
        abstract=abstract,
        year=2024,
        venue=venue,
        subjects=subjects,
        authors=authors,
        authors_complete=True,
    )


RECORDS = {
    "loom": _record(
        "GigaLoom: Training Language Models on Many Accelerators",
        "We describe a production system for pretraining at very large scale with deep "
        "observability of stragglers and hardware faults across the cluster.",
        venue="arXiv",
        subjects=("cs.LG",),
        authors=("Pavel Dunmore", "Akiko Seppala"),
    ),
    "quarry": _record(
        "Quarry: Placement for Collective Communication",
        "Bursty traffic between accelerators suffers from contention; models of language "
        "training jobs are mapped onto switches to reduce the spread of communication groups.",
        venue="Proc. VLDB",
        subjects=("cs.NI",),
        authors=("Zoë Müller",),
    ),
    "zephyr_title": _record(
        "Zephyr Caching",
        "A cache for query engines that keeps hot pages close to the executor and evicts "
        "the rest lazily under a fixed memory budget and a mixed read write workload.",
        venue="SIGMOD",
        subjects=("cs.DB",),
        authors=("Omar Haddadi",),
    ),
    "zephyr_abstract": _record(
        "Lazy Eviction for Analytical Databases",
        "We compare against zephyr style caches and show that lazy eviction of cold pages "
        "matches their hit rate while using less memory than a zephyr layout would need.",
        venue="ICDE",
        subjects=("cs.DB",),
        authors=("Kofi Mensah",),
    ),
    "uber": _record(
        "Über Sampling in Sensor Arrays",
        "Sensor arrays sample far more than they need; this note shows how to sample less "
        "without losing the signal content of interest to downstream estimators.",
        venue="Muller Workshop",
        subjects=("eess.SP",),
        authors=("Sora Ikeda",),
    ),
}


@pytest.fixture
def searchable(library: LibraryService) -> dict[str, int]:
    """The records above imported into the library, ids by key."""
    page = ParsedPage("Maren Solvik", PageFormat.PUBLICATION_LIST, None, list(RECORDS.values()))
    result = library.import_pages([SourcedPage(page, "maren.txt")], at=T0)
    return dict(zip(RECORDS, result.new_ids, strict=True))


def found(library: LibraryService, text: str, ids: dict[str, int]) -> list[str]:
    """Keys of the papers a search shows, sorted."""
    back = {v: k for k, v in ids.items()}
    return sorted(back[i] for i in library.paper_ids(PaperQuery(text=text)))


def fts_rows(path: Path) -> int:
    """How many papers the index holds words of, after checking that all three indexes
    agree with the tables they index (FTS5's own integrity check)."""
    conn = sqlite3.connect(path)
    register_functions(conn)
    try:
        for table in ("papers_fts", "tags_fts", "notes_fts"):
            conn.execute(f"INSERT INTO {table}({table}, rank) VALUES ('integrity-check', 1)")
        return int(conn.execute("SELECT count(*) FROM papers_fts_docsize").fetchone()[0])
    finally:
        conn.close()


def test_every_word_must_match(library: LibraryService, searchable: dict[str, int]) -> None:
    assert found(library, "accelerators", searchable) == ["loom", "quarry"]
    assert found(library, "accelerators stragglers", searchable) == ["loom"]
    assert found(library, "accelerators stragglers sigmod", searchable) == []


def test_last_word_matches_as_prefix(library: LibraryService, searchable: dict[str, int]) -> None:
    assert found(library, "gigal", searchable) == ["loom"]
    assert found(library, "gigal ", searchable) == []  # a finished word is a whole word
    assert found(library, "gigal training", searchable) == []  # only the last word is a prefix
    assert found(library, "training gigal", searchable) == ["loom"]


def test_quoted_phrase(library: LibraryService, searchable: dict[str, int]) -> None:
    assert found(library, "language models", searchable) == ["loom", "quarry"]
    assert found(library, '"language models"', searchable) == ["loom"]
    assert found(library, '"models language"', searchable) == []


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("Seppala", ["loom"]),  # authors
        ("dunmore akiko", ["loom"]),
        ("VLDB", ["quarry"]),  # venue
        ("sigmod", ["zephyr_title"]),
        ("cs.NI", ["quarry"]),  # subjects
        ("eess", ["uber"]),
    ],
)
def test_authors_venue_and_subjects_are_searchable(
    library: LibraryService, searchable: dict[str, int], text: str, keys: list[str]
) -> None:
    assert found(library, text, searchable) == keys


def test_title_ranks_above_abstract(library: LibraryService, searchable: dict[str, int]) -> None:
    ids = library.paper_ids(PaperQuery(text="zephyr"))
    assert ids == [searchable["zephyr_title"], searchable["zephyr_abstract"]]
    rows = library.papers(PaperQuery(text="zephyr"), 0, 10)
    assert [r.id for r in rows] == ids
    # Worst match first when the relevance order is reversed.
    reverse = library.paper_ids(PaperQuery(text="zephyr", descending=True))
    assert reverse == list(reversed(ids))
    # Another sort key still only shows the matches.
    by_title = library.paper_ids(PaperQuery(text="zephyr", sort=SortKey.TITLE))
    assert by_title == [searchable["zephyr_abstract"], searchable["zephyr_title"]]


@pytest.mark.sqlite_only
def test_a_broad_search_ranks_by_the_fields_holding_its_words_from_the_index(
    library: LibraryService, searchable: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = library.paper_ids(PaperQuery(text="zephyr"))
    monkeypatch.setattr(search_rank, "BROAD", 1)  # "zephyr" is broad now: two papers
    ids = library.paper_ids(PaperQuery(text="zephyr"))
    assert ids == before == [searchable["zephyr_title"], searchable["zephyr_abstract"]]
    assert library.paper_ids(PaperQuery(text="zephyr", descending=True)) == ids[::-1]
    rows = library.papers(PaperQuery(text="zephyr"), 0, 10)
    assert [r.id for r in rows] == ids


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("muller", ["quarry", "uber"]),  # author Zoë Müller; venue "Muller Workshop"
        ("Müller", ["quarry", "uber"]),
        ("MÜLLER", ["quarry", "uber"]),
        ("zoe", ["quarry"]),
        ("uber", ["uber"]),
        ("über", ["uber"]),
    ],
)
def test_search_ignores_diacritics_and_case(
    library: LibraryService, searchable: dict[str, int], text: str, keys: list[str]
) -> None:
    assert found(library, text, searchable) == keys


def test_tags_and_notes_are_searchable_and_stay_in_sync(
    library: LibraryService, library_path: Path, searchable: dict[str, int]
) -> None:
    loom, quarry = searchable["loom"], searchable["quarry"]

    library.tag([loom, quarry], ["must-read"])
    assert found(library, "must read", searchable) == ["loom", "quarry"]
    library.untag([quarry], ["must-read"])
    assert found(library, "must read", searchable) == ["loom"]
    library.rename_tag("must-read", "Favourites")
    assert found(library, "must", searchable) == []
    assert found(library, "favourites", searchable) == ["loom"]
    library.tag([quarry], ["Pile"])
    library.rename_tag("Favourites", "pile")  # a merge into the existing tag
    assert found(library, "pile", searchable) == ["loom", "quarry"]
    assert found(library, "favourites", searchable) == []
    deleted_tag = library.delete_tag("Pile")
    assert found(library, "pile", searchable) == []
    assert deleted_tag.inverse is not None
    library.apply(deleted_tag.inverse)
    assert found(library, "pile", searchable) == ["loom", "quarry"]

    note = library.add_note(quarry, "Compare with the **heliotrope** scheduler.")
    assert found(library, "heliotrope", searchable) == ["quarry"]
    library.edit_note(note.id, "Compare with the marigold scheduler.")
    assert found(library, "heliotrope", searchable) == []
    assert found(library, "marigold", searchable) == ["quarry"]
    deleted = library.apply(DeleteNote(note.id))
    assert found(library, "marigold", searchable) == []
    assert deleted.inverse is not None
    library.apply(deleted.inverse)
    assert found(library, "marigold", searchable) == ["quarry"]
    assert fts_rows(library_path) == len(searchable)


def test_field_edits_and_trash_stay_in_sync(
    library: LibraryService, library_path: Path, searchable: dict[str, int]
) -> None:
    loom = searchable["loom"]
    edit = library.edit_fields(loom, title="Threadbare: Language Models", venue="Hypothetical Conf")
    assert found(library, "gigaloom", searchable) == []
    assert found(library, "threadbare", searchable) == ["loom"]
    assert found(library, "hypothetical", searchable) == ["loom"]
    assert edit.inverse is not None
    library.apply(edit.inverse)
    assert found(library, "threadbare", searchable) == []
    assert found(library, "gigaloom", searchable) == ["loom"]

    library.trash([loom])
    assert found(library, "gigaloom", searchable) == []
    in_trash = PaperQuery(text="gigaloom", section=Section.TRASH)
    assert library.paper_ids(in_trash) == [loom]
    assert library.empty_trash() == 1
    assert library.paper_ids(in_trash) == []
    assert fts_rows(library_path) == len(searchable) - 1


def test_undoing_an_import_removes_its_papers_from_the_index(
    library: LibraryService, library_path: Path
) -> None:
    page = ParsedPage("Maren Solvik", PageFormat.PUBLICATION_LIST, None, list(RECORDS.values()))
    result = library.import_pages([SourcedPage(page)], at=T0)
    library.undo_import(result.batch_ids)
    assert library.count(PaperQuery(text="gigaloom")) == 0
    assert fts_rows(library_path) == 0


# -- hostile input never raises ----------------------------------------------------------------


@pytest.mark.parametrize("typed", HOSTILE)
def test_hostile_search_text_never_raises(
    library: LibraryService, searchable: dict[str, int], typed: str
) -> None:
    query = PaperQuery(text=typed)
    ids = library.paper_ids(query)
    assert library.count(query) == len(ids)
    assert [r.id for r in library.papers(query, 0, 100)] == ids


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    st.text(
        alphabet=st.one_of(
            st.sampled_from(list('"*()-:^+{}ANDORNOTNEAR ')),
            st.characters(codec="utf-8"),
        ),
        max_size=60,
    )
)
def test_any_search_text_never_raises(
    library: LibraryService, searchable: dict[str, int], typed: str
) -> None:
    query = PaperQuery(text=typed, sort=SortKey.RELEVANCE)
    rows = library.papers(query, 0, 10)
    assert len(rows) == min(10, library.count(query))


@pytest.mark.parametrize("typed", ["0ᦰ0", "ᦰ", "a\u0300b", "x\u200dy"])
def test_a_word_the_index_splits_is_searched_as_its_tokens(
    fts_table: sqlite3.Connection, typed: str
) -> None:
    expression = match_expression(typed)
    if expression is not None:  # a valid expression: no phrase on an index without positions
        fts_table.execute("SELECT rowid FROM t WHERE t MATCH ?", (expression,)).fetchall()


def _fts_settings(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    try:
        return dict(conn.execute("SELECT k, v FROM papers_fts_config WHERE k != 'version'"))
    finally:
        conn.close()


def test_a_bulk_import_is_searchable_and_leaves_the_index_merging_as_usual(
    library: LibraryService, library_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import of many papers writes their words with FTS5's bulk settings (no merging of
    segments while it writes): every paper is found, the index agrees with its rows, and
    the writes after it merge segments as FTS5 does by default again."""
    monkeypatch.setattr(search_module, "BULK_WORDS", 3)
    page = ParsedPage("Maren Solvik", PageFormat.PUBLICATION_LIST, None, list(RECORDS.values()))
    ids = dict(zip(RECORDS, library.import_pages([SourcedPage(page)], at=T0).new_ids, strict=True))
    assert found(library, "zephyr", ids) == ["zephyr_abstract", "zephyr_title"]
    assert found(library, "accelerators", ids) == ["loom", "quarry"]
    assert fts_rows(library_path) == len(RECORDS)
    assert _fts_settings(library_path) == {"automerge": 4, "hashsize": 1 << 20}


def test_a_bulk_import_that_fails_leaves_the_index_and_its_settings_as_they_were(
    library: LibraryService, library_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_module, "BULK_WORDS", 3)
    page = ParsedPage("Maren Solvik", PageFormat.PUBLICATION_LIST, None, list(RECORDS.values()))

    def full_disk(*_: object, **__: object) -> list[int]:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(apply_module, "write_batches", full_disk)
    with pytest.raises(OSError, match="No space"):
        library.import_pages([SourcedPage(page)], at=T0)
    assert fts_rows(library_path) == 0
    assert _fts_settings(library_path) == {}
    monkeypatch.undo()
    monkeypatch.setattr(search_module, "BULK_WORDS", 3)
    ids = dict(zip(RECORDS, library.import_pages([SourcedPage(page)], at=T0).new_ids, strict=True))
    assert found(library, "accelerators", ids) == ["loom", "quarry"]
    assert fts_rows(library_path) == len(RECORDS)
