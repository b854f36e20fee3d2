"""``refman import`` through :func:`refman.__main__.main`: reports, options and bad input."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from refman.cli.import_cmd import IMPORT_KEYS
from refman.importers.sources import MAX_FILE_BYTES
from tests.helpers.cli import Cli, runner
from tests.helpers.fixtures import dump

OWNER = "Marisol Quintana"
RECORDS = [
    (
        "arXiv2025",
        "Tidewater: Streaming Joins over Unbounded Sensor Logs",
        "Sensor networks emit logs faster than batch systems can join them. We present "
        "Tidewater, a streaming join engine that keeps per-key watermarks in compressed form.",
        "cs.DB↗",
    ),
    (
        "ICLR2024",
        "Quiet Progress in Tensor Sketching",
        "Tensor sketches compress multiway data while preserving inner products. This survey "
        "shows that most results follow from two lemmas on random projections.",
        "cs.DS↗",
    ),
    (
        "arXiv2023",
        "Orca-4 Technical Report",
        "We introduce Orca-4, a family of open marine-acoustics models trained on 40,000 hours "
        "of hydrophone audio. Orca-4 detects whale calls with an F1 of 0.91.",
        "eess.AS↗",
    ),
]


def page_text(records: Sequence[tuple[str, str, str, str]] = RECORDS, owner: str = OWNER) -> str:
    """A publication-list author page."""
    lines = [
        "arXiv subjects",
        owner,
        f"Publications and source records attributed to {owner}.",
        f"{len(records)} recordsLinked to original sources",
    ]
    for venue_year, title, abstract, subjects in records:
        lines += [venue_year, title, abstract, subjects]
    return "\n\n".join(lines) + "\n"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], library_location: str) -> Cli:
    """Run refman on the test library; return exit code, stdout and stderr."""

    return runner(capsys, library_location)


@pytest.fixture
def page(tmp_path: Path) -> Path:
    path = tmp_path / "quintana.txt"
    path.write_text(page_text(), encoding="utf-8")
    return path


def papers(cli: Cli) -> list[dict[str, Any]]:
    result = cli("list", "--json")
    assert result.code == 0, result.err
    return list(json.loads(result.out))


def test_import_reports_counts_and_stores_the_papers(cli: Cli, page: Path) -> None:
    result = cli("import", str(page))
    assert result.code == 0
    assert result.err == ""
    assert result.out.splitlines() == [
        f"{page}: {OWNER} (publication-list) — 3 new, 0 merged, 0 possible duplicates"
    ]
    listed = papers(cli)
    assert sorted(p["title"] for p in listed) == sorted(r[1] for r in RECORDS)
    assert {p["year"] for p in listed} == {2023, 2024, 2025}
    assert all(p["attributed_to"] == [OWNER] for p in listed)
    assert all(p["sources"][0]["file"] == "quintana.txt" for p in listed)


def test_reimport_says_already_in_library_and_changes_nothing(
    cli: Cli, page: Path, library_path: Path
) -> None:
    cli("import", str(page))
    before = dump(library_path)
    result = cli("import", str(page))
    assert result.code == 0
    assert "0 new" in result.out
    assert "3 already in library" in result.out
    assert dump(library_path) == before


def test_reimport_after_a_merge_says_how_many_records_list_the_merged_paper(
    cli: Cli, page: Path, library_path: Path
) -> None:
    cli("import", str(page))
    ids = [p["id"] for p in papers(cli)]
    assert cli("merge", str(ids[0]), str(ids[1])).code == 0
    result = cli("import", str(page))
    assert result.code == 0
    assert "0 new, 2 already in library (listed by 3 records)" in result.out
    assert len(papers(cli)) == 2


def test_the_report_names_the_people_an_import_spelled_better(cli: Cli, tmp_path: Path) -> None:
    entry = "@article{{g2021,\n  author = {{{}}},\n  title = {{Tidal Chains}},\n  year = 2021\n}}\n"
    files = {
        "plain": "Garcia, Jose and Muller, Zoe",
        "accents": "García, José and Muller, Zoe",
        "both": "García, José and Müller, Zoë",
    }
    for name, authors in files.items():
        (tmp_path / f"{name}.bib").write_text(entry.format(authors), encoding="utf-8")
    assert cli("import", str(tmp_path / "plain.bib")).code == 0
    result = cli("import", str(tmp_path / "accents.bib"))
    assert result.code == 0
    assert "  1 person now spelled as imported: Jose Garcia → José García" in result.out
    result = cli("import", "--json", str(tmp_path / "both.bib"))
    assert result.code == 0
    assert json.loads(result.out)["renamed"] == [{"before": "Zoe Muller", "after": "Zoë Müller"}]
    again = cli("import", str(tmp_path / "plain.bib"))  # (a plainer spelling renames nobody)
    assert again.code == 0 and "now spelled" not in again.out


def test_json_prints_one_object_per_file_with_exact_keys(cli: Cli, tmp_path: Path) -> None:
    first = tmp_path / "first.txt"
    first.write_text(page_text(RECORDS[:2]), encoding="utf-8")
    second = tmp_path / "second.txt"
    second.write_text(page_text(RECORDS, owner="Ada Okafor"), encoding="utf-8")
    result = cli("import", "--json", str(first), str(second))
    assert result.code == 0
    objects = [json.loads(line) for line in result.out.splitlines()]
    assert [tuple(o) for o in objects] == [IMPORT_KEYS, IMPORT_KEYS]
    assert [r["title"] for r in objects[0].pop("records")] == [r[1] for r in RECORDS[:2]]
    assert objects[0] == {
        "file": str(first),
        "owner": OWNER,
        "format": "publication-list",
        "claimed": 2,
        "parsed": 2,
        "new": 2,
        "merged": 0,
        "possible_duplicates": 0,
        "warnings": [],
        "unchanged": 0,
        "since_last": None,  # Marisol Quintana's page was never imported before
        "repeated": 0,
        "renamed": [],
    }
    assert (objects[1]["new"], objects[1]["merged"], objects[1]["unchanged"]) == (1, 2, 0)


def test_warnings_are_listed_in_text_and_json(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "short.txt"
    path.write_text(page_text(RECORDS).replace("3 records", "5 records"), encoding="utf-8")
    result = cli("import", "--dry-run", str(path))
    assert "\n  The page says 5 records but only 3 were found.\n" in result.out
    result = cli("import", "--json", str(path))
    assert json.loads(result.out)["warnings"] == ["The page says 5 records but only 3 were found."]


def test_dry_run_reports_counts_but_changes_nothing(
    cli: Cli, page: Path, library_path: Path
) -> None:
    before = dump(library_path)
    result = cli("import", "--dry-run", str(page))
    assert result.code == 0
    assert "3 new" in result.out
    assert "dry run" in result.out
    assert json.loads(cli("import", "--dry-run", "--json", str(page)).out)["new"] == 3
    assert dump(library_path) == before


def test_a_dry_run_of_several_files_finds_what_the_files_before_would_add(
    capsys: pytest.CaptureFixture[str], page: Path, tmp_path: Path
) -> None:
    again = tmp_path / "coauthor.txt"
    again.write_text(page_text(RECORDS[:2], owner="Bo An"), encoding="utf-8")
    never = tmp_path / "never.sqlite"
    cli = runner(capsys, never)
    result = cli("import", "--dry-run", "--json", str(page), str(again))
    assert result.code == 0
    first, second = map(json.loads, result.out.splitlines())
    assert (first["new"], second["new"], second["repeated"]) == (3, 0, 2)
    assert not never.exists()  # a dry run leaves no library behind
    similar = tmp_path / "similar.txt"
    venue, title, abstract, subjects = RECORDS[0]
    retitled = [
        (venue, title.replace("Logs", "Log"), abstract.replace("form.", "forms."), subjects)
    ]
    similar.write_text(page_text(retitled, owner="Bo An"), encoding="utf-8")
    lines = cli("import", "--dry-run", str(page), str(similar)).out.splitlines()
    assert any("in an earlier file" in line for line in lines), lines
    assert cli("import", str(page), str(again)).code == 0
    assert len(papers(cli)) == 3


def test_tag_option_tags_every_imported_paper(cli: Cli, page: Path) -> None:
    assert cli("import", "--tag", "to read", "--tag", "Systems", str(page)).code == 0
    assert all(set(p["tags"]) == {"to read", "Systems"} for p in papers(cli))


def test_tag_option_on_a_known_page_counts_as_a_merge(cli: Cli, page: Path) -> None:
    cli("import", str(page))
    result = cli("import", "--tag", "later", str(page))
    assert "0 new, 3 merged" in result.out
    assert all(p["tags"] == ["later"] for p in papers(cli))


def test_an_empty_tag_is_refused_before_anything_is_imported(
    cli: Cli, page: Path, library_path: Path
) -> None:
    before = dump(library_path)
    result = cli("import", "--tag", "  ", str(page))
    assert result.code == 2
    assert result.err.count("\n") == 1 and "tag" in result.err
    assert dump(library_path) == before


def _near_duplicate(tmp_path: Path) -> Path:
    title = RECORDS[0][1][:-1]  # one character less
    near = [("arXiv2025", title, "A different abstract about watermarks and joins.", "cs.DB↗")]
    path = tmp_path / "near.txt"
    path.write_text(page_text(near, owner="Ada Okafor"), encoding="utf-8")
    return path


def test_a_near_duplicate_is_merged_by_default(cli: Cli, page: Path, tmp_path: Path) -> None:
    cli("import", str(page))
    result = cli("import", str(_near_duplicate(tmp_path)))
    assert result.code == 0
    assert "1 possible duplicate" in result.out
    line = next(x for x in result.out.splitlines() if "possible duplicate:" in x)
    assert "resembles #" in line and RECORDS[0][1] in line and line.endswith("— merged")
    listed = papers(cli)
    assert len(listed) == 3
    tidewater = next(p for p in listed if p["title"] == RECORDS[0][1])
    assert sorted(tidewater["attributed_to"]) == ["Ada Okafor", OWNER]


def test_keep_separate_keeps_a_near_duplicate_apart(cli: Cli, page: Path, tmp_path: Path) -> None:
    cli("import", str(page))
    result = cli("import", "--keep-separate", str(_near_duplicate(tmp_path)))
    assert result.code == 0
    assert result.out.rstrip().endswith("— kept separate")
    assert len(papers(cli)) == 4


def test_a_near_duplicate_worded_apart_is_kept_separate_and_says_why(
    cli: Cli, tmp_path: Path
) -> None:
    with_ = tmp_path / "with.bib"
    with_.write_text(
        "@article{a, title={Deep residual learning for image recognition with convolutional"
        " networks}, author={He, Kaiming}, year={2016}}\n",
        encoding="utf-8",
    )
    without = tmp_path / "without.bib"
    without.write_text(with_.read_text("utf-8").replace(" with ", " without "), "utf-8")
    cli("import", str(with_))
    result = cli("import", str(without))
    assert result.code == 0
    line = next(x for x in result.out.splitlines() if "possible duplicate:" in x)
    assert line.endswith(
        "— kept separate (the titles differ by a word: marked as a possible duplicate to check)"
    )
    titles = sorted(p["title"] for p in papers(cli))
    assert [t.split()[-3] for t in titles] == ["with", "without"]


def test_dash_reads_standard_input(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    data = page_text().encode("utf-8")
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(data)))
    result = cli("import", "-")
    assert result.code == 0, result.err
    assert result.out.startswith(f"standard input: {OWNER} (publication-list) — 3 new")
    assert {p["sources"][0]["file"] for p in papers(cli)} == {"standard input"}


def test_empty_standard_input_is_refused(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(b"")))
    result = cli("import", "-")
    assert result.code == 2
    assert result.err.startswith("refman: standard input: No publication records found")


def test_utf16_page_imports(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "utf16.txt"
    path.write_bytes(page_text().encode("utf-16"))
    result = cli("import", str(path))
    assert result.code == 0, result.err
    assert "3 new" in result.out
    assert len(papers(cli)) == 3


def test_cp1252_page_imports_with_an_encoding_warning(cli: Cli, tmp_path: Path) -> None:
    records = [("arXiv2022", "Café Scheduling for Édge Clusters", RECORDS[0][2], "cs.DC")]
    path = tmp_path / "cp1252.txt"
    path.write_bytes(page_text(records, owner="José Núñez").encode("cp1252"))
    result = cli("import", str(path))
    assert result.code == 0, result.err
    assert "José Núñez" in result.out
    assert "\n  The file is not UTF-8; it was read as Windows-1252" in result.out
    assert [p["title"] for p in papers(cli)] == ["Café Scheduling for Édge Clusters"]


def _empty(path: Path) -> Path:
    path.write_bytes(b"")
    return path


def _binary(path: Path) -> Path:
    path.write_bytes(bytes(range(256)) * 64)
    return path


def _prose(path: Path) -> Path:
    path.write_text(
        "Dear Ada,\n\nthanks for the meeting yesterday. I will send the slides tomorrow.\n"
        "Best wishes, and see you next week.\n",
        encoding="utf-8",
    )
    return path


def _huge(path: Path) -> Path:
    with path.open("wb") as handle:  # sparse: nothing written
        handle.truncate(MAX_FILE_BYTES + 1)
    return path


def _missing(path: Path) -> Path:
    return path


def _folder(path: Path) -> Path:
    path.mkdir()
    return path


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (_empty, "No publication records found: the text is empty"),
        (_binary, "contains binary data, not text"),
        (_prose, "No publication records found"),
        (_huge, "larger than 512 MB"),
        (_missing, "does not exist"),
        (_folder, "is a folder, not a file"),
    ],
    ids=["empty", "binary", "prose", "50MB", "missing", "folder"],
)
def test_bad_input_is_one_line_on_stderr_and_changes_nothing(
    cli: Cli,
    page: Path,
    tmp_path: Path,
    library_path: Path,
    make: Callable[[Path], Path],
    reason: str,
) -> None:
    cli("import", str(page))
    before = dump(library_path)
    bad = make(tmp_path / "notes.txt")
    result = cli("import", str(bad))
    assert result.code == 2
    assert result.out == ""
    assert result.err.count("\n") == 1
    assert result.err.startswith(f"refman: {bad}: ")
    assert reason in result.err
    assert "Traceback" not in result.err
    assert dump(library_path) == before


def test_a_bad_file_does_not_stop_the_others(cli: Cli, page: Path, tmp_path: Path) -> None:
    missing = tmp_path / "gone.txt"
    result = cli("import", str(missing), str(page))
    assert result.code == 2
    assert result.err == f"refman: {missing}: does not exist.\n"
    assert "3 new" in result.out
    assert len(papers(cli)) == 3


def test_a_web_address_given_as_a_file_is_said_to_be_one(
    cli: Cli, library_path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``refman import https://…`` said the address "does not exist"."""
    monkeypatch.chdir(tmp_path)
    before = dump(library_path)
    address = "https://dblp.org/pid/12/345.html"
    result = cli("import", address)
    assert result.code == 2
    assert result.err == (
        f"refman: {address}: is a web address; refman cannot download pages. Open it in your "
        "browser, save the page (as text or HTML) and import that file.\n"
    )
    assert dump(library_path) == before


def test_an_html_page_imports_from_a_file_and_from_standard_input(
    cli: Cli, page: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paragraphs = "".join(f"<p>{line}</p>" for line in page.read_text().split("\n\n"))
    html = f"<html><head><title>x</title></head><body>{paragraphs}</body></html>"
    saved = page.with_suffix(".html")
    saved.write_text(html, encoding="utf-8")
    result = cli("import", str(saved))
    assert result.code == 0, result.err
    assert "3 new" in result.out

    class Stdin:
        buffer = io.BytesIO(html.encode("utf-8"))

    monkeypatch.setattr(sys, "stdin", Stdin())
    again = cli("import", "-")
    assert again.code == 0, again.err
    assert "0 new" in again.out and "already in library" in again.out
