"""An import into a shared library records who made it: ``refman history`` and ``refman
show`` say it (they said only when), as they say who added and changed a paper; ``--json``
gives ``imported_by``. A library file names nobody in the text."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest

from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from tests.helpers.cli import runner
from tests.helpers.fixtures import sourced
from tests.helpers.pages import generated_page, publication_page
from tests.helpers.postgres import editing_role

RECORDS = [("Stragglers and the pipelines that wait for them", 2024, "arXiv")]


def test_an_import_on_a_shared_library_names_who_made_it(
    shared_library_url: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with closing(LibraryService.open(shared_library_url)) as owner:
        owner.import_pages([sourced(generated_page(1))])
    page = tmp_path / "zhuo.txt"
    page.write_text(publication_page("Zhuo Jiang", RECORDS), encoding="utf-8")
    importer = runner(capsys, editing_role(shared_library_url, "refman_importer"))
    assert importer("import", page).code == 0
    cli = runner(capsys, shared_library_url)
    history = json.loads(cli("history", "--json").out)
    assert [h["imported_by"] for h in history] == ["refman_importer", "postgres"]
    text = cli("history").out
    assert "zhuo.txt (Zhuo Jiang) by refman_importer — 1 record: 1 new, 0 merged" in text
    with closing(LibraryService.open(shared_library_url)) as library:
        (paper,) = library.paper_ids(PaperQuery(text="stragglers"))
    shown = json.loads(cli("show", paper, "--json").out)
    assert [s["imported_by"] for s in shown["sources"]] == ["refman_importer"]
    source = next(line for line in cli("show", paper).out.splitlines() if "zhuo.txt" in line)
    assert source.endswith(" by refman_importer)")


def test_an_import_into_a_library_file_keeps_the_login_name_and_says_no_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    location = tmp_path / "mine.sqlite"
    page = tmp_path / "zhuo.txt"
    page.write_text(publication_page("Zhuo Jiang", RECORDS), encoding="utf-8")
    cli = runner(capsys, location)
    assert cli("import", page).code == 0
    (entry,) = json.loads(cli("history", "--json").out)
    assert entry["imported_by"]  # (the login name)
    assert " by " not in cli("history").out
