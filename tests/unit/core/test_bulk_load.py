"""A large import into a library file that holds fewer papers: the papers' indexes are built
after the rows (see :func:`refman.store.bulk._indexes_built_after`). The library must end
with every index it had, the rules they carry (one citation key per paper) still kept, and
a failed import must leave it as it was."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from refman.core import state_io
from refman.core.importing import apply
from refman.core.library import LibraryService
from refman.core.values import PaperQuery, SortKey
from refman.store.bulk import BULK_LOAD
from refman.store.search_terms import register_functions
from tests.helpers.fixtures import dump, sourced
from tests.helpers.pages import generated_page


def _indexes(path: Path) -> list[tuple[str, str]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            " ORDER BY name"
        ).fetchall()
    finally:
        conn.close()


def _plan_uses(path: Path, sql: str) -> str:
    conn = sqlite3.connect(path)
    try:
        return " ".join(row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
    finally:
        conn.close()


@pytest.fixture
def sqlite_library(library_path: Path) -> LibraryService:
    return LibraryService.open(str(library_path))


def test_a_large_first_import_leaves_every_index_of_the_library(
    sqlite_library: LibraryService, library_path: Path
) -> None:
    before = _indexes(library_path)
    assert any(name == "ix_papers_sort_title" for name, _ in before)

    result = sqlite_library.import_pages([sourced(generated_page(BULK_LOAD + 500, long=True))])

    assert len(result.new_ids) == BULK_LOAD + 500
    assert _indexes(library_path) == before
    conn = sqlite3.connect(library_path)
    register_functions(conn)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        # The search index holds every abstract's readable words (FTS5 reads each row's
        # text again and compares; the abstracts are stored compressed, their formula as
        # LaTeX).
        packed = conn.execute("SELECT count(*) FROM papers WHERE typeof(abstract) = 'blob'")
        assert packed.fetchone() == (BULK_LOAD + 500,)
        conn.execute("INSERT INTO papers_fts(papers_fts, rank) VALUES ('integrity-check', 1)")
        citekeys = conn.execute("SELECT count(DISTINCT citekey), count(*) FROM papers").fetchone()
    finally:
        conn.close()
    assert citekeys == (BULK_LOAD + 500, BULK_LOAD + 500)
    # The list sorts through its index, as it did before the import.
    assert "ix_papers_sort_title" in _plan_uses(
        library_path, "SELECT id FROM papers ORDER BY coalesce(title_order, lower(title)) LIMIT 100"
    )
    first = sqlite_library.papers(PaperQuery(sort=SortKey.TITLE), limit=3)
    titles = [p.title for p in first]
    assert titles == sorted(titles, key=str.casefold)
    found = sqlite_library.papers(PaperQuery(text="case 5123 confirm"))
    assert [p.id for p in found] == [result.new_ids[5123]]
    # A citation key already taken is still refused by the library itself.
    conn = sqlite3.connect(library_path)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("UPDATE papers SET citekey = (SELECT min(citekey) FROM papers)")
    finally:
        conn.close()


def _fail_after(real: Callable[..., Any]) -> Callable[..., Any]:
    def failing(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        raise RuntimeError("disk on fire")

    return failing


def test_a_large_first_import_that_fails_leaves_the_library_as_it_was(
    sqlite_library: LibraryService, library_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sqlite_library.import_pages([sourced(generated_page(3, owner="Someone Else"))])
    before, indexes = dump(library_path), _indexes(library_path)

    with monkeypatch.context() as m:
        m.setattr(apply, "write_states", _fail_after(state_io.write_states))
        with pytest.raises(RuntimeError, match="disk on fire"):
            sqlite_library.import_pages([sourced(generated_page(BULK_LOAD + 10))])

    assert dump(library_path) == before
    assert _indexes(library_path) == indexes
    # (the first three papers of the page are the three already there)
    result = sqlite_library.import_pages([sourced(generated_page(BULK_LOAD + 10))])
    assert (len(result.new_ids), len(result.merged_ids)) == (BULK_LOAD + 7, 3)
    assert _indexes(library_path) == indexes
