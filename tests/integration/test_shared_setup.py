"""The README's way to set up a shared library: the SQL script in packaging/, run as given,
then the owner creates the library, an editor changes it and a reader only reads it."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from refman.common.errors import RefmanError
from refman.core.library import LibraryService
from tests.helpers.fixtures import _admin, sourced
from tests.helpers.pages import generated_page

SCRIPT = Path(__file__).resolve().parents[2] / "packaging" / "shared-library.sql"
ROLES = ("alice", "bruno", "carla", "lab_papers_owner", "refman_editors", "refman_readers")


def _clean(server: str) -> None:
    _admin(server, "DROP DATABASE IF EXISTS lab_papers WITH (FORCE)")
    for role in ROLES:
        _admin(server, f"DROP ROLE IF EXISTS {role}")


@pytest.fixture
def lab(_postgres: str) -> Iterator[str]:
    """The script run on the test server with psql; the address of its database as
    ``{user}`` would write it."""
    psql = shutil.which("psql")
    if psql is None:
        pytest.skip("psql is not installed")
    url = make_url(_postgres)
    _clean(_postgres)
    where = ["-h", str(url.host), "-p", str(url.port), "-U", str(url.username), "-d", "postgres"]
    done = subprocess.run(
        [psql, "-v", "ON_ERROR_STOP=1", *where, "-f", str(SCRIPT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    yield f"postgresql+psycopg://{{user}}@{url.host}:{url.port}/lab_papers"
    _clean(_postgres)


def test_the_owner_creates_an_editor_changes_a_reader_reads(lab: str) -> None:
    with closing(LibraryService.open(lab.format(user="lab_papers_owner"))) as owner:
        owner.import_pages([sourced(generated_page(4))])
    with closing(LibraryService.open(lab.format(user="alice"))) as alice:
        assert alice.db.read_only is None
        first = alice.paper_ids()[0]
        alice.tag([first], ["to read"])
        note = alice.add_note(first, "alice was here")
        alice.import_pages([sourced(generated_page(6))])
        assert note.created_by == "alice"
        assert alice.paper(first).created_by == "lab_papers_owner"
    with closing(LibraryService.open(lab.format(user="carla"))) as carla:
        assert "“carla” may only read" in (carla.db.read_only or "")
        assert carla.count() == 6
        assert [t.name for t in carla.tags()] == ["to read"]
        with pytest.raises(RefmanError, match="cannot be changed"):
            carla.add_note(first, "carla may not")
