"""``refman import`` tells what it read, record by record: a dry run lists each record with
what importing would do with it (the wizard's review, on the command line), and ``--json``
gives each record's paper, so a script knows what became of every line of its file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from refman.cli.import_cmd import RECORD_KEYS
from tests.helpers.cli import Cli, runner
from tests.helpers.fixtures import dump

REFERENCES = """References

1. Okafor N, Lindqvist E. Sediment transport in fjords. Mar Geol. 2019;421:106-21.
2. Smith J, Rossi L. Glacial erosion rates in the Alps. Nat Geosci. 2020;13(4):301-5.
"""
#: The same two papers again, the second now with its DOI.
AGAIN = REFERENCES.replace("301-5.", "301-5. doi:10.1038/s41561-020-0001-1")


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], library_location: str) -> Cli:
    return runner(capsys, library_location)


def _file(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _records(cli: Cli, *args: object) -> list[dict[str, Any]]:
    result = cli("import", "--json", *args)
    assert result.code == 0, result.err
    records: list[dict[str, Any]] = json.loads(result.out)["records"]
    assert all(tuple(r) == RECORD_KEYS for r in records)
    return records


def test_a_dry_run_lists_each_record_as_read_and_what_importing_would_do(
    cli: Cli, tmp_path: Path, library_path: Path
) -> None:
    refs = _file(tmp_path, "refs.txt", REFERENCES)
    before = dump(library_path)
    lines = cli("import", "--dry-run", refs).out.splitlines()
    assert lines[1:] == [
        "    new: “Sediment transport in fjords” — N. Okafor et al., 2019, Mar Geol",
        "    new: “Glacial erosion rates in the Alps” — J. Smith et al., 2020, Nat Geosci",
    ]
    assert dump(library_path) == before  # (listed, not imported)
    imported = _records(cli, refs)
    cli("trash", imported[0]["paper"])
    lines = cli("import", "--dry-run", _file(tmp_path, "again.txt", AGAIN)).out.splitlines()
    first, second = imported[0]["paper"], imported[1]["paper"]
    assert lines[1:] == [
        f"    already in the library as #{first} (in the Trash), nothing new: “Sediment "
        "transport in fjords” — N. Okafor et al., 2019, Mar Geol",
        f"    adds to #{second}: “Glacial erosion rates in the Alps” — J. Smith et al., 2020, "
        "Nat Geosci",
    ]


def test_an_import_without_dry_run_lists_no_records_in_text(cli: Cli, tmp_path: Path) -> None:
    out = cli("import", _file(tmp_path, "refs.txt", REFERENCES)).out
    assert out.splitlines() == [
        f"{tmp_path / 'refs.txt'}: unknown owner (reference-list) — 2 new, 0 merged, "
        "0 possible duplicates"
    ]


def test_json_names_the_paper_each_record_became_or_joined(cli: Cli, tmp_path: Path) -> None:
    refs = _file(tmp_path, "refs.txt", REFERENCES)
    planned = _records(cli, "--dry-run", refs)
    assert [(r["action"], r["paper"]) for r in planned] == [("new", None), ("new", None)]
    imported = _records(cli, refs)
    listed = json.loads(cli("list", "--json").out)
    assert {p["title"]: p["id"] for p in listed} == {r["title"]: r["paper"] for r in imported}
    assert imported[1] == {
        "title": "Glacial erosion rates in the Alps",
        "authors": ["J. Smith", "L. Rossi"],
        "year": 2020,
        "publication_status": None,
        "venue": "Nat Geosci",
        "action": "new",
        "paper": imported[1]["paper"],
        "updated": False,
        "in_trash": False,
    }
    again = _records(cli, _file(tmp_path, "again.txt", AGAIN))
    assert [(r["action"], r["paper"], r["updated"]) for r in again] == [
        ("merged", imported[0]["paper"], False),
        ("merged", imported[1]["paper"], True),  # (it brought the DOI)
    ]
