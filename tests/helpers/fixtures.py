"""Fixtures: a real migrated library per test, pages, and the seeds folder."""

from __future__ import annotations

import inspect
import os
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


@pytest.fixture(scope="session", autouse=True)
def _isolated_session_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The same for fixtures wider than a test (a module's library, made before any test's
    own home): a backup made when such a library closes never lands in the real data dir."""
    patch = pytest.MonkeyPatch()
    patch.setenv("REFMAN_HOME", str(tmp_path_factory.mktemp("session-home")))
    patch.delenv("REFMAN_DB", raising=False)
    yield
    patch.undo()


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


#: The kinds of library a service test runs on (see :func:`pytest_generate_tests`).
BACKENDS = ("sqlite", "postgres")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run every test that works on a library through the service (``library``) or the
    command line (``cli``) on both kinds of library: a file and a shared library on
    PostgreSQL. Not a test that asks for the library's file itself, one marked
    ``sqlite_only``, nor the window's tests (``tests/ui``: they run on a file)."""
    asked = inspect.signature(metafunc.function).parameters
    if "backend" not in metafunc.fixturenames or "library_path" in asked:
        return
    if metafunc.definition.get_closest_marker("sqlite_only") is not None:
        return
    if "tests/ui/" in Path(str(metafunc.definition.fspath)).as_posix():
        return
    metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """Which kind of library the test's ``library`` is."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def library_location(backend: str, library_path: Path, request: pytest.FixtureRequest) -> str:
    """Where the test's library is: its file, or a shared library's address."""
    if backend == "postgres":
        return str(request.getfixturevalue("shared_library_url"))
    return str(library_path)


@pytest.fixture
def library(library_location: str) -> Iterator[LibraryService]:
    """A fresh, empty library: on a real SQLite file, or on the test PostgreSQL server."""
    service = LibraryService.open(library_location)
    yield service
    service.close()


@pytest.fixture(scope="session")
def _postgres() -> Iterator[str]:
    """The address of the test PostgreSQL server's ``postgres`` database (see
    :mod:`tests.helpers.postgres`), with an empty library migrated to head as a template."""
    from tests.helpers import postgres

    address = os.environ.get(postgres.ADDRESS_VARIABLE)
    server = None
    if not address:
        if not postgres.available():
            if os.environ.get(postgres.REQUIRE_VARIABLE):
                pytest.fail("PostgreSQL is required (REFMAN_REQUIRE_POSTGRES) but not installed")
            pytest.skip(f"PostgreSQL's server programs are not installed ({postgres.BIN})")
        server = postgres.start()
        address = server.address()
    _admin(address, "DROP DATABASE IF EXISTS refman_template")
    _admin(address, "CREATE DATABASE refman_template")
    LibraryService.open(_database(address, "refman_template")).close()
    yield address
    if server is not None:
        postgres.stop(server.folder)


def _database(address: str, name: str) -> str:
    return address.rsplit("/", 1)[0] + "/" + name


def _admin(address: str, statement: str) -> None:
    import psycopg

    dsn = address.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(statement)


@pytest.fixture(scope="session")
def _shared_test_database(_postgres: str) -> Iterator[str]:
    """One shared library for the session's tests, emptied before each (much faster than a
    new database per test)."""
    name = f"refman_test_{os.getpid()}"
    _admin(_postgres, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    _admin(_postgres, f"CREATE DATABASE {name} TEMPLATE refman_template STRATEGY FILE_COPY")
    yield _database(_postgres, name)
    _admin(_postgres, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _emptied(address: str) -> None:
    """Empty a shared library as a new one is: no rows, ids and revision from the start."""
    import psycopg

    dsn = address.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                "AND tablename NOT IN ('alembic_version', 'library_counters')"
            )
        ]
        conn.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE")
        conn.execute("UPDATE library_counters SET n = 0")


@pytest.fixture
def shared_library_url(_shared_test_database: str) -> str:
    """The address of an empty shared library on the test server."""
    _emptied(_shared_test_database)
    return _shared_test_database


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
    no text of their own: their words come from these tables), versions and the ids given
    (an undo gives none back: refman.store.id_marks) left out."""
    conn = sqlite3.connect(path)
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%' AND name != 'id_marks' "
                "ORDER BY name"
            )
        ]
        return {t: sorted(conn.execute(_content(conn, t)).fetchall(), key=repr) for t in tables}
    finally:
        conn.close()


def _content(conn: sqlite3.Connection, table: str) -> str:
    """A select of a table's columns but its rows' versions (how often a row changed: an
    undo is a change too, and moves them on)."""
    columns = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")') if r[1] != "version"]
    return f'SELECT {", ".join(f"{c!r}" for c in columns)} FROM "{table}"'.replace("'", '"')


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
