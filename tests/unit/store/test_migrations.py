"""Real migrations on real files: a library of an older schema is brought to the newest one
with nothing lost, and what the new schema adds is filled in by the rules new papers follow."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine

from refman.core.library import LibraryService
from refman.store import database
from tests.helpers.fixtures import seed_files, sourced_file


def _at_revision(path: Path, revision: str) -> None:
    """Take a library down to an older schema revision with Alembic itself."""
    engine = create_engine(f"sqlite:///{path}")
    cfg = database._alembic_config()
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
