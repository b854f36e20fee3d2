"""Fixtures: a real migrated library per test, pages, and the seeds folder."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from refman import paths
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.importers import parse
from refman.importers.records import ParsedPage
from refman.importers.sources import load_bytes, load_source

if TYPE_CHECKING:
    from refman.ui.controller import LibraryController

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
PAGES = FIXTURES / "pages"
SEEDS = REPO.parent / "shared" / "seeds"


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """Point data, config and log dirs at a temporary folder: tests never touch real files."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("REFMAN_HOME", str(home))
    monkeypatch.delenv("REFMAN_DB", raising=False)
    paths.set_base_dir(None)
    yield home


@pytest.fixture(scope="session")
def _template_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One empty library migrated to head, copied for each test."""
    path = tmp_path_factory.mktemp("template") / "library.sqlite"
    LibraryService.open(path).close()
    return path


@pytest.fixture
def library_path(tmp_path: Path, _template_library: Path) -> Path:
    """The file of a fresh, empty library."""
    path = tmp_path / "library.sqlite"
    shutil.copy(_template_library, path)
    return path


@pytest.fixture
def library(library_path: Path) -> Iterator[LibraryService]:
    """A fresh, empty library on a real SQLite file."""
    service = LibraryService.open(library_path)
    yield service
    service.close()


def sourced(text: str, source: str = "pasted text") -> SourcedPage:
    """A parsed page ready for import."""
    return SourcedPage(parse(text), source)


def read_page(path: str | Path) -> ParsedPage:
    """A page file read the way the app reads it (``load_source``) and parsed."""
    return load_source(path).parse()


def page_from_bytes(data: bytes, name: str = "page.txt") -> ParsedPage:
    """A page's bytes read the way the app reads dropped or piped bytes, and parsed."""
    return load_bytes(data, name).parse()


def sourced_file(path: Path) -> SourcedPage:
    """A page file parsed and ready for import."""
    return SourcedPage(read_page(path), path.name)


def seed_files() -> list[Path]:
    """The three seed pages, or the project's own stand-ins when the seeds are absent."""
    if SEEDS.is_dir():
        files = sorted(SEEDS.glob("*.txt"))
        if files:
            return files
    return sorted((FIXTURES / "seedlike").glob("*.txt"))


def dump(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, for before/after comparisons (the search indexes hold
    no text of their own: their words come from these tables)."""
    conn = sqlite3.connect(path)
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%' ORDER BY name"
            )
        ]
        return {
            t: sorted(conn.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables
        }
    finally:
        conn.close()


# -- the window's controller -----------------------------------------------------------------


@pytest.fixture
def controller(library: LibraryService, qapp: Any) -> Iterator[LibraryController]:
    """The window's controller over the test's library (its changes run off the GUI thread:
    :func:`settle` waits for them)."""
    from refman.ui.controller import LibraryController

    made = LibraryController(library)
    yield made
    settle(made)
    made.shutdown()


def settle(controller: LibraryController) -> None:
    """Wait until every change the controller queued has landed and the panes were told."""
    assert controller.wait(timeout_ms=20_000), "a change or a list read did not finish in 20 s"


@pytest.fixture
def shown_errors(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the window would show the user as errors ("message hint"), captured."""
    from refman.ui import messages

    seen: list[str] = []
    monkeypatch.setattr(
        messages,
        "presenter",
        lambda _parent, _title, text, hint: seen.append(f"{text} {hint}".strip()),
    )
    return seen


def fill_library(service: LibraryService) -> None:
    """The seed pages imported, two tags on a third and a half of the papers, a quarter of
    them in the Trash: a small library with something in every section."""
    for path in seed_files():
        service.import_pages([sourced_file(path)])
    ids = service.paper_ids()
    service.tag(ids[::3], ["picked"])
    service.tag(ids[::2], ["second"])
    service.trash(ids[1::4])
