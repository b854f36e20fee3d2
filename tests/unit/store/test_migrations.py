"""Real migrations on real files: a library of an older schema is brought to the newest one
with nothing lost, and what the new schema adds is filled in by the rules new papers follow."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Engine, create_engine, inspect, text

from refman.common.text import fold_letters, normalize_for_match
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.matching import key_hash
from refman.core.values import PaperDetail, PaperQuery, Section, SortKey
from refman.importers import parse_text
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from refman.store import schema
from refman.store.search_schema import damaged_indexes
from refman.store.search_terms import register_functions
from tests.helpers.fixtures import seed_files, sourced, sourced_file
from tests.helpers.pages import publication_page


def _at_revision(path: Path, revision: str) -> None:
    """Take a library down to an older schema revision with Alembic itself."""
    engine = create_engine(f"sqlite:///{path}")
    cfg = schema._alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)
    engine.dispose()


def test_a_library_of_revision_0001_gets_citation_keys_and_loses_nothing(
    library: LibraryService, library_path: Path
) -> None:
    for path in seed_files():
        library.import_pages([sourced_file(path)])
    library.tag(library.paper_ids()[:2], ["kept"])
    before = {
        d.id: (d.title, d.authors, d.year, d.venue, d.tags)
        for d in library.details(library.paper_ids())
    }
    library.close()
    _at_revision(library_path, "0001")
    with sqlite3.connect(library_path) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(papers)")}
    assert "citekey" not in columns

    upgraded = LibraryService.open(library_path)
    try:
        details = upgraded.details(upgraded.paper_ids())
        assert {d.id: (d.title, d.authors, d.year, d.venue, d.tags) for d in details} == before
        keys = [d.citekey for d in details]
        assert all(keys) and len(set(keys)) == len(keys)
        assert all(k == k.lower() and k.isascii() for k in keys if k)
        types = {d.type for d in details}
        assert types <= {"article", "paper-conference"}
    finally:
        upgraded.close()


QUERIES = ["model", "language mod", "graph", "quokka", "zeppelin", "training data", "zz"]


def _old_layout_search(path: Path, typed: str) -> set[int]:
    """What the search index of revision 0002 (one FTS row per paper, tags and notes in it)
    finds: every word, the last as a prefix."""
    words = typed.split()
    expression = " ".join(f'"{w}"' for w in words) + "*"
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT rowid FROM papers_fts WHERE papers_fts MATCH ?", (expression,))
        return {int(r[0]) for r in rows}


def _without_who(detail: PaperDetail) -> PaperDetail:
    """A paper's details without its version and who added and changed it and its notes
    (not known at revisions before 0005), and who imported it (before 0036)."""
    notes = tuple(replace(n, created_by=None, modified_by=None) for n in detail.notes)
    sources = tuple(replace(s, imported_by=None) for s in detail.sources)
    return replace(
        detail, version=1, created_by=None, modified_by=None, notes=notes, sources=sources
    )


def test_a_library_of_revision_0002_moves_to_the_compact_layout_with_nothing_lost(
    library: LibraryService, library_path: Path
) -> None:
    for path in seed_files():
        library.import_pages([sourced_file(path)])
    ids = library.paper_ids()
    library.tag(ids[:3], ["quokka"])
    library.add_note(ids[4], "Read this before the zeppelin meeting.")
    # who added a paper is not known at revision 0002: the upgrade cannot bring it back
    before = {d.id: _without_who(d) for d in library.details(ids)}
    library.close()

    _at_revision(library_path, "0002")
    with sqlite3.connect(library_path) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(papers)")}
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert "abstract_text" in columns and "title_key" not in columns
    assert "match_keys" in tables and "notes_fts" not in tables
    old = {q: _old_layout_search(library_path, q) for q in QUERIES}
    assert old["quokka"] == set(ids[:3]) and old["zeppelin"] == {ids[4]}

    upgraded = LibraryService.open(library_path)
    try:
        after = {q: set(upgraded.paper_ids(PaperQuery(text=q))) for q in QUERIES}
        assert after == old  # the same papers found, tags and notes included
        details = {d.id: d for d in upgraded.details(ids)}
        assert details == before
        # The match keys were made at the first open: the seed pages are all found again.
        for path in seed_files():
            assert upgraded.import_pages([sourced_file(path)]).new_ids == ()
    finally:
        upgraded.close()
    with sqlite3.connect(library_path) as conn:
        register_functions(conn)
        for table in ("papers_fts", "tags_fts", "notes_fts"):
            conn.execute(f"INSERT INTO {table}({table}, rank) VALUES ('integrity-check', 1)")
        kinds = {row[0] for row in conn.execute("SELECT typeof(abstract) FROM papers")}
        assert "blob" in kinds  # long abstracts are stored compressed
        assert not list(conn.execute("SELECT * FROM library_tasks"))


def test_a_library_from_before_people_upgrades_with_no_new_badges_and_nothing_lost(
    library: LibraryService, library_path: Path
) -> None:
    for path in seed_files():
        library.import_pages([sourced_file(path)])
    people = [(p.id, p.name, p.count) for p in library.people()]
    everyone = [(p.id, p.name, p.count) for p in library.everyone()]
    assert all(p.new for p in library.people())  # new until looked at
    library.close()

    _at_revision(library_path, "0006")
    with sqlite3.connect(library_path) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert "person_aliases" not in tables and "distinct_people" not in tables

    upgraded = LibraryService.open(library_path)
    try:
        assert [(p.id, p.name, p.count) for p in upgraded.people()] == people
        assert [(p.id, p.name, p.count) for p in upgraded.everyone()] == everyone
        # the people of an upgraded library were all seen: no badge lights up
        assert not any(p.new for p in upgraded.people())
    finally:
        upgraded.close()


def _trash_rows(library: LibraryService) -> set[int]:
    with library.db.engine.connect() as conn:
        return {int(r[0]) for r in conn.exec_driver_sql("SELECT paper_id FROM trash")}


def _engine_at_revision(engine: Engine, revision: str) -> None:
    """Take a library (a file or a shared library) down to an older schema revision."""
    cfg = schema._alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)


def test_a_library_of_revision_0011_gets_the_trash_table_and_lists_the_same(
    library: LibraryService, library_location: str
) -> None:
    for path in seed_files():
        library.import_pages([sourced_file(path)])
    ids = library.paper_ids()
    library.trash(ids[:3])
    library.tag(ids[2:6], ["kept"])
    queries = [
        PaperQuery(),
        PaperQuery(section=Section.TRASH),
        PaperQuery(tags=("kept",)),
        PaperQuery(section=Section.TRASH, tags=("kept",)),
        PaperQuery(text="model"),
        PaperQuery(sort=SortKey.TITLE, descending=True),
        PaperQuery(sort=SortKey.AUTHOR),
        PaperQuery(section=Section.UNREAD, sort=SortKey.YEAR),
    ]
    lists = [library.paper_ids(q) for q in queries]
    counts = (library.section_counts(), [(t.name, t.count) for t in library.tags()])
    people = [(p.id, p.count) for p in library.everyone()]
    _engine_at_revision(library.db.engine, "0011")
    assert "trash" not in inspect(library.db.engine).get_table_names()
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        assert [upgraded.paper_ids(q) for q in queries] == lists
        assert lists[1] and set(lists[1]) == set(ids[:3])
        assert (upgraded.section_counts(), [(t.name, t.count) for t in upgraded.tags()]) == counts
        assert [(p.id, p.count) for p in upgraded.everyone()] == people
        assert _trash_rows(upgraded) == set(ids[:3])
        upgraded.restore([ids[0]])
        assert set(upgraded.paper_ids(PaperQuery(section=Section.TRASH))) == set(ids[1:3])
        assert upgraded.empty_trash() == 2
        assert _trash_rows(upgraded) == set()
        assert upgraded.count() == len(ids) - 2
    finally:
        upgraded.close()


@pytest.mark.logs_warnings("refman.store")
def test_a_library_file_that_lost_the_trash_triggers_gets_them_back_in_step(
    library: LibraryService, library_path: Path
) -> None:
    library.import_pages([sourced_file(seed_files()[0])])
    ids = library.paper_ids()
    library.trash(ids[:2])
    library.close()
    with sqlite3.connect(library_path) as conn:  # another program's doing
        conn.execute("DROP TRIGGER trash_in")
        conn.execute("UPDATE papers SET trashed_at = added_at WHERE id = ?", (ids[2],))
        assert {r[0] for r in conn.execute("SELECT paper_id FROM trash")} == set(ids[:2])

    reopened = LibraryService.open(library_path)
    try:
        assert set(reopened.paper_ids(PaperQuery(section=Section.TRASH))) == set(ids[:3])
        reopened.trash([ids[3]])
        assert _trash_rows(reopened) == set(ids[:4])
    finally:
        reopened.close()


def test_a_library_of_revision_0014_sorts_by_title_the_same_without_the_copy_of_titles(
    library: LibraryService, library_location: str
) -> None:
    titles = ["beta waves in sleep", "Alpha rhythm", "alpha Spindles", "Gamma bursts", "delta"]
    library.import_pages(
        [sourced(publication_page("Ines Varga", [(t, 2024, "arXiv") for t in titles]))]
    )
    queries = [PaperQuery(sort=SortKey.TITLE), PaperQuery(sort=SortKey.TITLE, descending=True)]
    _engine_at_revision(library.db.engine, "0014")
    assert "sort_title" in {c["name"] for c in inspect(library.db.engine).get_columns("papers")}
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        ascending, descending = (
            [upgraded.paper(i).title for i in upgraded.paper_ids(q)] for q in queries
        )
        expected = sorted(titles, key=str.lower)
        assert ascending == expected and descending == expected[::-1]
        columns = {c["name"] for c in inspect(upgraded.db.engine).get_columns("papers")}
        assert "sort_title" not in columns
    finally:
        upgraded.close()


def test_a_library_of_revision_0016_finds_its_papers_again_from_a_bib_with_tex_dashes(
    library: LibraryService, library_location: str
) -> None:
    """refman now reads a .bib title's "--" as the dash TeX prints, and its match keys fold
    both: a paper whose title was kept with "--" (and keyed so) is found again by the .bib."""
    title = "Scaling laws, 2019--2024 --- a survey of ``emergent'' skills"
    library.import_pages([sourced(publication_page("Ines Varga", [(title, 2024, "arXiv")]))])
    (paper_id,) = library.paper_ids()
    _engine_at_revision(library.db.engine, "0016")
    old_key = key_hash("title", title.lower())  # the key refman of revision 0016 stored
    with library.db.engine.begin() as conn:
        conn.execute(text("UPDATE papers SET title_key = :key"), {"key": old_key})
        conn.execute(text("DELETE FROM library_tasks"))  # (the downgrade's: a library of 0016)
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        with upgraded.db.engine.connect() as conn:
            stored = conn.execute(text("SELECT title_key FROM papers")).scalar_one()
        assert stored == key_hash("title", normalize_for_match(title)) != old_key
        bib = (
            "@misc{varga2024,\n  author = {Varga, Ines},\n"
            f"  title = {{{title}}},\n  year = {{2024}},\n}}\n"
        )
        result = upgraded.import_pages([SourcedPage(parse_text(bib), "lab.bib")])
        assert not result.new_ids and upgraded.paper_ids() == [paper_id]
        # the title as TeX prints it (a page's and the .bib's alike)
        assert upgraded.paper(paper_id).title == (
            "Scaling laws, 2019–2024 — a survey of “emergent” skills"
        )
    finally:
        upgraded.close()


TITLES_OF_FIVE = [
    "Tidal mixing in fjords",
    "Sparse attention kernels",
    "Graph partitioning at scale",
    "Protein folding with diffusion",
    "Coral reef acoustics",
]


def test_a_library_of_revision_0017_sorts_by_venue_with_the_case_of_letters_ignored(
    library: LibraryService, library_location: str
) -> None:
    venues = ["Proceedings of MLSys", "arXiv", "ICML", "bioRxiv", "Nature"]
    library.import_pages(
        [
            sourced(
                publication_page(
                    "Ines Varga",
                    [(t, 2024, v) for t, v in zip(TITLES_OF_FIVE, venues, strict=True)],
                )
            )
        ]
    )
    _engine_at_revision(library.db.engine, "0017")
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        query = PaperQuery(sort=SortKey.VENUE)
        shown = [upgraded.paper(i).venue for i in upgraded.paper_ids(query)]
        assert shown == sorted(venues, key=str.lower)
    finally:
        upgraded.close()


def _found(library: LibraryService, typed: str) -> set[int]:
    return set(library.paper_ids(PaperQuery(text=typed)))


def test_a_library_of_revision_0018_finds_letters_of_their_own_as_plain_letters(
    library: LibraryService, library_location: str, backend: str
) -> None:
    """Before 0019 "lukasz" did not find Łukasz; the upgrade folds the words of the papers,
    tags and notes that hold such letters (in LaTeX too: ``J{\\o}rgensen``), and the keys of
    the people, and leaves every other search as it was."""
    fjord = ParsedRecord(
        "Tidal Mixing in the Straße of Ærø",
        False,
        r"Following J{\o}rgensen, we measure how brackish water mixes in narrow straits.",
        authors=("Jørn Østerberg", "Łukasz Dębski"),
        authors_complete=True,
    )
    reef = ParsedRecord("Coral Reef Acoustics", False, "Hydrophones record snapping shrimp.")
    page = ParsedPage("Ines Varga", PageFormat.PUBLICATION_LIST, 2, [fjord, reef])
    a, b = library.import_pages([SourcedPage(page, "page.txt")]).new_ids
    library.tag([b], ["Ødegaard lab"])
    library.add_note(b, "Ask Þórunn about the calibration.")
    plain = ["coral", "mixing brackish", "snapping", "straits"]
    before = {typed: _found(library, typed) for typed in plain}
    _engine_at_revision(library.db.engine, "0018")
    with library.db.sessions.begin() as session:  # the keys refman of revision 0018 made
        for old in ("jørn østerberg", "łukasz debski"):
            session.execute(
                text("UPDATE persons SET key = :old WHERE key = :new"),
                {"old": old, "new": fold_letters(old)},
            )
        # and "Jorn Osterberg" was someone else to it (a later page spelled him so)
        with library.db.search.changing(session, [b]):
            session.execute(
                text(
                    "INSERT INTO persons (id, name, key, family, given) "
                    "VALUES (900, 'Jorn Osterberg', 'jorn osterberg', 'Osterberg', 'Jorn')"
                )
            )
            session.execute(
                text("INSERT INTO authorships (paper_id, person_id, position) VALUES (:b, 900, 0)"),
                {"b": b},
            )
        # and a "Lukasz Debski" wrote the fjord paper too: two people of one paper
        with library.db.search.changing(session, [a]):
            session.execute(
                text(
                    "INSERT INTO persons (id, name, key, family, given) "
                    "VALUES (901, 'Lukasz Debski', 'lukasz debski', 'Debski', 'Lukasz')"
                )
            )
            session.execute(
                text("INSERT INTO authorships (paper_id, person_id, position) VALUES (:a, 901, 9)"),
                {"a": a},
            )
    if backend == "sqlite":
        with library.db.engine.begin() as conn:
            assert damaged_indexes(conn) == []  # (the downgrade put the old words back)
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        assert {t: _found(upgraded, t) for t in plain} == before
        for typed, wanted in [
            ("lukasz", {a}),
            ("jorgensen", {a}),
            ("aero strasse", {a}),
            ("author:lukasz", {a}),
            ("author:osterberg", {a, b}),  # one person now, as the library first spelled him
            ("thorunn", {b}),
            ("odegaard", {b}),
        ]:
            assert _found(upgraded, typed) == wanted, typed
        with upgraded.db.engine.begin() as conn:
            keys = set(conn.execute(text("SELECT key FROM persons")).scalars())
            assert {"jorn osterberg", "lukasz debski"} <= keys
            if backend == "sqlite":
                assert damaged_indexes(conn) == []
        assert [p.name for p in upgraded.everyone("osterberg")] == ["Jørn Østerberg"]
        # two people of one paper stay two, both found
        assert sorted(p.name for p in upgraded.everyone("lukasz")) == [
            "Lukasz Debski",
            "Łukasz Dębski",
        ]
        assert upgraded.paper(b).authors == ("Jørn Østerberg",)
    finally:
        upgraded.close()
