"""``refman import`` of bibliographies: the report, --json's format, damaged entries (exit
status 2), files that are no bibliography, and detection by content."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.helpers.cli import Cli, runner
from tests.helpers.fixtures import dump

BIB = Path(__file__).parents[2] / "fixtures" / "bib"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], library_location: str) -> Cli:
    return runner(capsys, library_location)


def papers(cli: Cli) -> list[dict[str, Any]]:
    result = cli("list", "--json")
    assert result.code == 0, result.err
    return list(json.loads(result.out))


@pytest.mark.parametrize(
    ("name", "fmt", "count"),
    [("zotero.bib", "bibtex", 8), ("zotero.ris", "ris", 4), ("zotero.json", "csl-json", 4)],
)
def test_each_format_imports_with_its_name_in_the_report(
    cli: Cli, name: str, fmt: str, count: int
) -> None:
    result = cli("import", str(BIB / name))
    assert result.code == 0, result.err
    first = result.out.splitlines()[0]
    assert first.startswith(f"{BIB / name}: ") and f"({fmt}) — {count} new, 0 merged" in first
    assert len(papers(cli)) == count
    again = cli("import", "--json", str(BIB / name))
    report = json.loads(again.out)
    assert (again.code, report["format"], report["new"], report["unchanged"]) == (0, fmt, 0, count)
    assert len(papers(cli)) == count


def test_keys_types_and_identifiers_reach_list_json(cli: Cli) -> None:
    cli("import", str(BIB / "zotero.bib"))
    by_key = {p["citekey"]: p for p in papers(cli)}
    smith = by_key["smith_deep_2019"]
    assert smith["type"] == "article-journal"
    assert smith["doi"] and smith["volume"] and smith["pages"]


def test_a_damaged_entry_is_named_the_whole_ones_go_in_and_the_status_is_2(cli: Cli) -> None:
    result = cli("import", str(BIB / "damaged.bib"))
    assert result.code == 2
    assert "  Skipped the entry ‘unclosed’ on line 7: a ‘{’ is never closed." in result.out
    assert "Traceback" not in result.out + result.err
    titles = {p["title"] for p in papers(cli)}
    assert "A whole first entry" in titles and len(titles) == 5
    assert not any("{" in t or "year" in t for t in titles)


def test_a_json_that_is_no_bibliography_changes_nothing_and_the_others_go_in(
    cli: Cli, library_path: Path
) -> None:
    before = dump(library_path)
    result = cli("import", str(BIB / "not-csl.json"))
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(f"refman: {BIB / 'not-csl.json'}: No publication records found")
    assert result.err.count("\n") == 1
    assert dump(library_path) == before
    result = cli("import", str(BIB / "not-csl.json"), str(BIB / "zotero.ris"))
    assert result.code == 2 and "4 new" in result.out
    assert len(papers(cli)) == 4


def test_the_content_decides_not_the_name(cli: Cli, tmp_path: Path) -> None:
    disguised = tmp_path / "references.txt"
    shutil.copy(BIB / "zotero.ris", disguised)
    result = cli("import", "--json", str(disguised))
    assert json.loads(result.out)["format"] == "ris"


def test_bibtex_on_standard_input(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    data = (BIB / "jabref.bib").read_bytes()
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(data)))
    result = cli("import", "--json", "-")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["format"] == "bibtex" and report["new"] == len(papers(cli)) > 0


def test_two_papers_whose_dois_hold_angle_brackets_stay_two_papers(
    cli: Cli, tmp_path: Path
) -> None:
    # Older journals' DOIs in the SICI form differ only after a "<": cut there, they were
    # one DOI and the second paper was merged into the first.
    bib = tmp_path / "ams.bib"
    bib.write_text(
        "@article{lorenz63, author = {Lorenz, Edward N.}, title = {Deterministic Nonperiodic"
        " Flow}, journal = {J. Atmos. Sci.}, year = {1963},"
        " doi = {10.1175/1520-0469(1963)020<0130:DNF>2.0.CO;2}}\n"
        "@article{smag63, author = {Smagorinsky, J.}, title = {General Circulation Experiments"
        " with the Primitive Equations}, journal = {Mon. Weather Rev.}, year = {1963},"
        " doi = {10.1175/1520-0469(1963)020<0099:GCEWTP>2.0.CO;2}}\n",
        encoding="utf-8",
    )
    result = cli("import", str(bib))
    assert result.code == 0 and "2 new" in result.out, result.out
    dois = sorted(str(p["doi"]) for p in papers(cli))
    assert dois == [
        "10.1175/1520-0469(1963)020<0099:gcewtp>2.0.co;2",
        "10.1175/1520-0469(1963)020<0130:dnf>2.0.co;2",
    ]
    exported = cli("export", "--format", "ris").out
    assert "DO  - 10.1175/1520-0469(1963)020<0130:dnf>2.0.co;2" in exported


def test_papers_by_different_people_with_one_generic_title_stay_apart(
    cli: Cli, tmp_path: Path
) -> None:
    # "Introduction", "Editorial": the same title by different authors is another paper
    # (it was merged, and the second paper silently lost); by the same people, written
    # another way, it is the same paper.
    first = tmp_path / "first.bib"
    first.write_text(
        "@incollection{intro1, author = {Alpha, Anna}, title = {Introduction},"
        " booktitle = {Handbook of Chemistry}, year = {2001}}\n"
        "@incollection{intro2, author = {Beta, Boris}, title = {Introduction},"
        " booktitle = {Handbook of Physics}, year = {2015}}\n"
        "@article{ed1, author = {Delta, David and Epsilon, Eve}, title = {Editorial},"
        " journal = {Science}, year = {2020}}\n"
        "@article{ed2, author = {D. Delta}, title = {Editorial.}, journal = {Science},"
        " year = {2020}, volume = {367}}\n",
        encoding="utf-8",
    )
    result = cli("import", str(first), "--json")
    report = json.loads(result.out)
    assert (report["new"], report["repeated"]) == (3, 1), report
    text = cli("import", str(first)).out
    assert "0 new, 3 already in library" in text
    second = tmp_path / "second.bib"
    second.write_text(
        "@article{ed3, author = {Gamma, Gil}, title = {Editorial}, journal = {Nature},"
        " year = {2010}}\n"
        "@article{intro3, title = {Introduction}, year = {2001}}\n",  # no authors: the same
        encoding="utf-8",
    )
    report = json.loads(cli("import", str(second), "--json").out)
    assert (report["new"], report["unchanged"] + report["merged"]) == (1, 1), report
    found = sorted((p["title"], p["authors"][0] if p["authors"] else "") for p in papers(cli))
    assert found == [
        ("Editorial", "David Delta"),
        ("Editorial", "Gil Gamma"),
        ("Introduction", "Anna Alpha"),
        ("Introduction", "Boris Beta"),
    ]
    shown = json.loads(cli("show", str(_id_of(cli, "Editorial", "David Delta")), "--json").out)
    assert shown["volume"] == "367"  # the second listing's volume went into its paper
    # An "et al." list may name other authors of the same paper: it keeps nobody apart.
    third = tmp_path / "third.bib"
    third.write_text(
        "@article{ed4, author = {Zeta, Zoe and others}, title = {Editorial}, year = 2020}\n",
        encoding="utf-8",
    )
    report = json.loads(cli("import", str(third), "--json").out)
    assert report["new"] == 0, report


def _id_of(cli: Cli, title: str, author: str) -> int:
    return next(
        int(p["id"])
        for p in papers(cli)
        if p["title"] == title and p["authors"] and p["authors"][0] == author
    )
