"""The paper list: sections, tag and person filters, sorting, windows, and big libraries."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import event

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.merge import sort_author
from refman.core.values import PaperDetail, PaperQuery, Section, SortKey
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord

T0 = datetime(2024, 1, 10, 8, 0, 0)
T1 = datetime(2024, 2, 10, 8, 0, 0)
T2 = datetime(2024, 3, 10, 8, 0, 0)


def _abstract(seed: int) -> str:
    rng = random.Random(seed)
    words = "orbit prism rivet saddle timber umbra velvet willow zenith anchor bramble dune"
    return f"Finding {seed}. " + " ".join(rng.choice(words.split()) for _ in range(50)) + "."


def _record(
    title: str,
    seed: int,
    year: int | None = None,
    venue: str | None = None,
    authors: tuple[str, ...] = (),
    complete: bool = True,
    provisional: bool = False,
) -> ParsedRecord:
    return ParsedRecord(
        title=title,
        title_provisional=provisional,
        abstract=_abstract(seed),
        year=year,
        venue=venue,
        authors=authors,
        authors_complete=complete,
    )


def _page(owner: str, *records: ParsedRecord) -> SourcedPage:
    fmt = PageFormat.PUBLICATION_LIST
    return SourcedPage(ParsedPage(owner, fmt, len(records), list(records)), f"{owner}.txt")


@dataclass
class Shelf:
    """A small library with known papers, by letter."""

    library: LibraryService
    ids: dict[str, int]

    def details(self) -> list[PaperDetail]:
        return self.library.details(sorted(self.ids.values()))

    def letters(self, ids: list[int]) -> list[str]:
        back = {v: k for k, v in self.ids.items()}
        return [back[i] for i in ids]


@pytest.fixture
def shelf(library: LibraryService) -> Shelf:
    """Six papers over three imports with varied years, venues, authors and added times."""
    first = library.import_pages(
        [
            _page(
                "Maren Solvik",
                _record("Zephyr Routing for Sparse Experts", 1, 2022, "ICML", ("Ada Quinlan",)),
                _record("alpha Caching in Query Engines", 2, 2024, "arXiv", ("Carl Young",)),
                _record("Beacon: Robust Sampling", 3),
            )
        ],
        at=T0,
    )
    second = library.import_pages(
        [
            _page(
                "Tobias Ferreira",
                _record(
                    "Mirror Effects in Photonic Circuits",
                    4,
                    2023,
                    "NeurIPS",
                    ("Zoë Müller", "Ada Quinlan"),
                    complete=False,
                ),
            )
        ],
        at=T1,
    )
    third = library.import_pages(
        [
            _page(
                "Ines Carvalho",
                _record("KITE", 5, authors=("Dara Okafor",), complete=False, provisional=True),
                _record("Delta Compression of Checkpoints", 6, 2021, "arXiv", ("Eli Brandt",)),
            )
        ],
        at=T2,
    )
    ids = [*first.new_ids, *second.new_ids, *third.new_ids]
    return Shelf(library, dict(zip("ABCDEF", ids, strict=True)))


# -- sections ----------------------------------------------------------------------------------


def test_section_counts(shelf: Shelf) -> None:
    lib, ids = shelf.library, shelf.ids
    counts = lib.section_counts()
    assert (counts.all, counts.attention, counts.untagged, counts.recent, counts.trash) == (
        6,
        2,  # D: incomplete authors, E: provisional title
        6,
        2,  # the last import: E and F
        0,
    )
    lib.tag([ids["A"], ids["E"]], ["ml"])
    lib.trash([ids["E"], ids["B"]])
    counts = lib.section_counts()
    assert (counts.all, counts.attention, counts.untagged, counts.recent, counts.trash) == (
        4,
        1,
        3,
        1,
        2,
    )
    for section in Section:
        query = PaperQuery(section=section)
        assert counts.of(section) == lib.count(query) == len(lib.paper_ids(query))
    assert shelf.letters(lib.paper_ids(PaperQuery(section=Section.TRASH))) == ["E", "B"]
    assert shelf.letters(lib.paper_ids(PaperQuery(section=Section.UNTAGGED))) == ["F", "D", "C"]
    assert shelf.letters(lib.paper_ids(PaperQuery(section=Section.ATTENTION))) == ["D"]


def test_rows_flag_papers_needing_attention(shelf: Shelf) -> None:
    rows = {r.id: r for r in shelf.library.papers(limit=100)}
    flagged = sorted(k for k, v in shelf.ids.items() if rows[v].needs_attention)
    assert flagged == ["D", "E"]
    assert rows[shelf.ids["D"]].first_author == "Zoë Müller et al."
    assert rows[shelf.ids["A"]].first_author == "Ada Quinlan"
    assert rows[shelf.ids["C"]].first_author == ""
    # where no page gave authors, the row knows whose page it came from (the list shows it)
    owners = {r.owner for r in rows.values() if not r.first_author}
    assert owners and "" not in owners
    assert rows[shelf.ids["E"]].title_provisional


# -- filters -----------------------------------------------------------------------------------


def test_tag_filter_needs_every_tag(shelf: Shelf) -> None:
    lib, ids = shelf.library, shelf.ids
    lib.tag([ids["A"], ids["B"], ids["C"]], ["ml"])
    lib.tag([ids["B"], ids["C"], ids["D"]], ["Databases"])
    lib.tag([ids["C"]], ["later"])

    def letters(*tags: str) -> list[str]:
        return sorted(shelf.letters(lib.paper_ids(PaperQuery(tags=tags))))

    assert letters("ml") == ["A", "B", "C"]
    assert letters("ml", "Databases") == ["B", "C"]
    assert letters("ml", "Databases", "later") == ["C"]
    assert letters("ML", "databases") == ["B", "C"]  # names compare without regard to case
    assert letters("ml", "no such tag") == []
    assert lib.count(PaperQuery(tags=("ml", "Databases"))) == 2


def test_tag_filter_with_non_ascii_tag_names(shelf: Shelf) -> None:
    lib, ids = shelf.library, shelf.ids
    lib.tag([ids["A"], ids["B"]], ["Ökonomie"])
    lib.tag([ids["B"]], ["Straße"])
    assert lib.count(PaperQuery(tags=("Ökonomie",))) == 2
    assert lib.count(PaperQuery(tags=("Straße",))) == 1


def test_person_filter_covers_page_owners_and_authors(shelf: Shelf) -> None:
    lib = shelf.library
    people = {p.name: p for p in lib.people()}
    assert {n: p.count for n, p in people.items()} == {
        "Ines Carvalho": 2,
        "Maren Solvik": 3,
        "Tobias Ferreira": 1,
    }
    maren = PaperQuery(person_id=people["Maren Solvik"].id)
    assert sorted(shelf.letters(lib.paper_ids(maren))) == ["A", "B", "C"]
    ada = lib.paper(shelf.ids["A"]).author_ids[0]
    assert sorted(shelf.letters(lib.paper_ids(PaperQuery(person_id=ada)))) == ["A", "D"]
    both = PaperQuery(person_id=ada, section=Section.ATTENTION)
    assert shelf.letters(lib.paper_ids(both)) == ["D"]
    assert lib.paper_ids(PaperQuery(person_id=999_999)) == []


# -- sorting -----------------------------------------------------------------------------------


SortRule = Callable[[PaperDetail], Any]
RULES: dict[SortKey, SortRule] = {
    SortKey.TITLE: lambda d: d.title.casefold(),
    # A paper whose page named no authors has no first author: it goes last, as blank years do.
    SortKey.AUTHOR: lambda d: sort_author(list(d.authors)) or None,
    SortKey.YEAR: lambda d: d.year,
    SortKey.VENUE: lambda d: d.venue.lower() if d.venue else None,  # case ignored, as titles
    SortKey.ADDED: lambda d: d.added,
}


#: Sorts whose ties (and whose papers with no value, last) run the sort's way: the list walks
#: the column's index in either direction.
TIES_FOLLOW = {SortKey.ADDED, SortKey.AUTHOR, SortKey.YEAR, SortKey.VENUE}


def _expected(details: list[PaperDetail], key: SortKey, descending: bool) -> list[int]:
    rule = RULES[key]
    present = [d for d in details if rule(d) is not None]
    missing = sorted((d for d in details if rule(d) is None), key=lambda d: d.id)
    if key in TIES_FOLLOW and descending:
        ordered = sorted(present, key=lambda d: (rule(d), d.id), reverse=True)
        missing.reverse()
    else:
        ordered = sorted(present, key=lambda d: d.id)
        ordered = sorted(ordered, key=rule, reverse=descending)
    return [d.id for d in ordered] + [d.id for d in missing]


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("key", list(RULES), ids=[k.value for k in RULES])
def test_each_sort_key_in_both_directions(shelf: Shelf, key: SortKey, descending: bool) -> None:
    query = PaperQuery(sort=key, descending=descending)
    got = shelf.library.paper_ids(query)
    assert got == _expected(shelf.details(), key, descending)
    window = [r.id for r in shelf.library.papers(query, 0, 100)]
    assert window == got


def test_sort_results_read_naturally(shelf: Shelf) -> None:
    lib = shelf.library

    def order(key: SortKey, descending: bool = False) -> str:
        return "".join(shelf.letters(lib.paper_ids(PaperQuery(sort=key, descending=descending))))

    assert order(SortKey.TITLE) == "BCFEDA"  # "alpha" sorts among capitals
    assert order(SortKey.YEAR) == "FADBCE"  # papers without a year come last...
    assert order(SortKey.YEAR, True) == "BDAFEC"  # ...in both directions (ties run its way)
    assert order(SortKey.AUTHOR) == "FDEABC"  # Brandt, Müller, Okafor, Quinlan, Young, (none)
    assert order(SortKey.AUTHOR, True) == "BAEDFC"  # and papers without authors still last
    assert order(SortKey.VENUE) == "BFADCE"  # arXiv, arXiv, ICML, NeurIPS: case ignored
    assert order(SortKey.RELEVANCE) == "FEDCBA"  # without a search: newest first
    assert order(SortKey.RELEVANCE, True) == "ABCDEF"


# -- windows -----------------------------------------------------------------------------------

QUERIES = [
    PaperQuery(),
    PaperQuery(sort=SortKey.TITLE),
    PaperQuery(sort=SortKey.YEAR, descending=True),
    PaperQuery(section=Section.ATTENTION),
    PaperQuery(text="finding"),
    PaperQuery(text="finding", sort=SortKey.AUTHOR),
]


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: f"{q.section}-{q.sort}-{q.text}")
def test_windows_tile_the_id_list(shelf: Shelf, query: PaperQuery) -> None:
    lib = shelf.library
    ids = lib.paper_ids(query)
    assert lib.count(query) == len(ids)
    for size in (1, 2, 4):
        offsets = range(0, len(ids) + size, size)
        tiled = [r.id for off in offsets for r in lib.papers(query, off, size)]
        assert tiled == ids
    assert lib.papers(query, offset=len(ids), limit=10) == []
    assert lib.papers(query, offset=0, limit=0) == []
    assert [r.id for r in lib.rows(list(reversed(ids)))] == list(reversed(ids))


def test_rows_skip_missing_ids(shelf: Shelf) -> None:
    a, b = shelf.ids["A"], shelf.ids["B"]
    assert [r.id for r in shelf.library.rows([b, 999_999, a])] == [b, a]


# -- a large library ---------------------------------------------------------------------------


def _big_records(n: int) -> Iterator[ParsedRecord]:
    """Records with unique titles and abstracts whose heads and tails all differ."""
    rng = random.Random(7)
    text = (
        "lattice quorum kernel beacon vector cipher glacier harbor meadow orbit prism rivet "
        "saddle timber umbra velvet willow yonder zenith anchor bramble cobalt dune ember"
    )
    words = text.split()
    for i in range(n):
        tag = f"{rng.getrandbits(40):010x}"
        body = " ".join(rng.choice(words) for _ in range(30))
        yield ParsedRecord(
            title=f"{tag.upper()} {rng.choice(words).title()} of {rng.choice(words)} {i}",
            title_provisional=False,
            abstract=f"{tag} {body} (case {i}, {rng.getrandbits(32):08x}).",
            year=2000 + i % 26,
            venue=rng.choice(("arXiv", "ICML", "NeurIPS", None)),
            subjects=("cs.LG",),
            authors=(f"Author {tag[:4]}",) if i % 3 else (),
            authors_complete=bool(i % 2),
        )


@pytest.fixture(scope="module")
def big_library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LibraryService]:
    path = tmp_path_factory.mktemp("big") / "library.sqlite"
    library = LibraryService.open(path)
    records = list(_big_records(20_000))
    page = SourcedPage(ParsedPage("Maren Solvik", PageFormat.PUBLICATION_LIST, None, records))
    result = library.import_pages([page], at=T0)
    assert len(result.new_ids) == 20_000
    yield library
    library.close()


@contextmanager
def _recorded(library: LibraryService) -> Iterator[list[str]]:
    """The SQL statements the library runs inside the block."""
    statements: list[str] = []

    def remember(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    event.listen(library.db.engine, "before_cursor_execute", remember)
    try:
        yield statements
    finally:
        event.remove(library.db.engine, "before_cursor_execute", remember)


_LIMIT = re.compile(r"\bLIMIT\b", re.IGNORECASE)


@pytest.mark.slow
@pytest.mark.parametrize(
    "query",
    [
        PaperQuery(),
        PaperQuery(sort=SortKey.TITLE, descending=True),
        PaperQuery(sort=SortKey.YEAR),
        PaperQuery(text="lattice"),
        PaperQuery(section=Section.ATTENTION, sort=SortKey.AUTHOR),
    ],
    ids=["newest", "title-desc", "year", "search", "attention-author"],
)
def test_a_window_of_a_large_library_loads_only_that_window(
    big_library: LibraryService, query: PaperQuery
) -> None:
    with _recorded(big_library) as statements:
        rows = big_library.papers(query, offset=1000, limit=50)

    assert len(rows) == 50
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert selects, "the window was not read with SQL"
    for statement in selects:
        assert _LIMIT.search(statement), f"a SELECT without LIMIT ran: {statement[:200]}"
        assert "OFFSET" in statement.upper()
    assert [r.id for r in rows] == big_library.paper_ids(query)[1000:1050]


@pytest.mark.slow
def test_large_library_counts(big_library: LibraryService) -> None:
    counts = big_library.section_counts()
    assert counts.all == 20_000
    assert counts.recent == 20_000
    assert big_library.count(PaperQuery(text="lattice")) == len(
        big_library.paper_ids(PaperQuery(text="lattice"))
    )


@pytest.mark.slow
def test_trashing_and_restoring_every_paper_takes_a_few_statements_and_undoes_exactly(
    big_library: LibraryService,
) -> None:
    ids = big_library.paper_ids()
    with _recorded(big_library) as statements:
        trashed = big_library.trash(ids)
    trash_statements = len(statements)
    counts = big_library.section_counts()
    assert (counts.all, counts.trash) == (0, 20_000)
    with _recorded(big_library) as statements:
        restored = big_library.restore(ids[:5_000])
    restore_statements = len(statements)

    # One statement reads the papers' trash times, one changes them: never one per chunk (a
    # restore asks twice more whether any paper has other citation keys, or any merge moved
    # notes or files, that its papers take back).
    assert trash_statements <= 4, statements
    assert restore_statements <= 6, statements
    assert set(trashed.value) == set(ids) and set(restored.value) == set(ids[:5_000])
    assert big_library.section_counts().all == 5_000
    assert restored.inverse is not None and trashed.inverse is not None
    big_library.apply(restored.inverse)  # undo the restore: back in the Trash, same time
    assert big_library.section_counts().trash == 20_000
    big_library.apply(trashed.inverse)  # undo the trash: the library as it was
    counts = big_library.section_counts()
    assert (counts.all, counts.trash) == (20_000, 0)
    assert big_library.paper_ids() == ids
