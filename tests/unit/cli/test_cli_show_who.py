"""``refman show`` on a shared library says who added a paper and who changed it last, and
who changed each note, as the window's detail pane does (it said only when)."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import pytest

from refman.core.library import LibraryService
from tests.helpers.cli import runner
from tests.helpers.fixtures import sourced
from tests.helpers.pages import generated_page
from tests.helpers.postgres import editing_role


def test_show_on_a_shared_library_names_who_added_and_who_changed_the_paper(
    shared_library_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with closing(LibraryService.open(shared_library_url)) as owner:
        owner.import_pages([sourced(generated_page(1))])
        (paper,) = owner.paper_ids()
    bob = runner(capsys, editing_role(shared_library_url, "refman_bob"))
    assert bob("edit", paper, "--year", "2021").code == 0
    assert bob("note", paper, "Check the proof of lemma 2.").code == 0
    out = runner(capsys, shared_library_url)("show", paper).out
    lines = out.splitlines()
    assert any(line.startswith("Added:") and line.endswith(" by postgres") for line in lines)
    assert "Changed by:    refman_bob" in lines
    note = next(line for line in lines if line.startswith("  Note #"))
    assert note.endswith(" by refman_bob)")


def test_show_on_a_library_file_names_nobody(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One person's file: the login name would say nothing."""
    location = tmp_path / "mine.sqlite"
    with closing(LibraryService.open(location)) as mine:
        mine.import_pages([sourced(generated_page(1))])
        (paper,) = mine.paper_ids()
    cli = runner(capsys, location)
    cli("note", paper, "a note")
    out = cli("show", paper).out
    assert " by " not in out and "Changed by" not in out
