"""``refman export`` through :func:`refman.__main__.main`: formats, selection, files."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import rispy
from bibtexparser.entrypoint import parse_string
from sqlalchemy import update

from refman.__main__ import main
from refman.cli.export_cmd import run_export
from refman.cli.parser import build_parser
from refman.core.library import LibraryService
from refman.core.values import PaperDetail
from refman.store.models import Paper
from tests.helpers.cli import Cli, runner
from tests.unit.core.export.kinds import import_kinds


@pytest.fixture
def papers(library: LibraryService) -> list[PaperDetail]:
    return import_kinds(library)


@pytest.fixture
def cli(
    capsys: pytest.CaptureFixture[str], library_location: str, papers: list[PaperDetail]
) -> Cli:
    return runner(capsys, library_location, "export")


def _keys(bib: str) -> list[str]:
    return [e.key for e in parse_string(bib).entries]


def test_default_is_every_paper_as_bibtex_on_standard_output(
    cli: Cli, papers: list[PaperDetail]
) -> None:
    result = cli()
    assert (result.code, result.err) == (0, "")
    assert sorted(_keys(result.out)) == sorted(str(p.citekey) for p in papers)
    assert "annote" not in result.out and r"M{\"u}ller" in result.out


def test_every_format_reads_back(cli: Cli, papers: list[PaperDetail]) -> None:
    count = len(papers)
    assert len(_keys(cli("--format", "biblatex").out)) == count
    assert len(rispy.loads(cli("--format", "ris").out)) == count
    assert len(json.loads(cli("--format", "csl-json").out)) == count
    rows = list(csv.DictReader(io.StringIO(cli("--format", "csv").out, newline="")))
    assert len(rows) == count


def test_ids_export_those_papers_in_the_order_given(cli: Cli, papers: list[PaperDetail]) -> None:
    result = cli(str(papers[3].id), f"#{papers[0].id}")
    assert _keys(result.out) == [papers[3].citekey, papers[0].citekey]


def test_search_tag_and_section_select_papers(
    cli: Cli, papers: list[PaperDetail], library: LibraryService
) -> None:
    assert _keys(cli("--tag", "systems").out) == ["berg2024megascale"]
    assert _keys(cli("--search", "Tidewater").out) == ["jiang2025tidewater"]
    library.trash([papers[1].id])
    assert _keys(cli("--section", "trash").out) == ["berg2024megascale"]
    assert "berg2024megascale" not in _keys(cli().out)


def test_with_notes(cli: Cli) -> None:
    assert "annote = {Read again.}" in cli("--with-notes").out
    items = json.loads(cli("--format", "csl-json", "--with-notes").out)
    assert {i["id"]: i.get("annote") for i in items}["muller2020deja"] == "Read again."


def test_output_file(cli: Cli, tmp_path: Path, papers: list[PaperDetail]) -> None:
    target = tmp_path / "refs.ris"
    result = cli("--format", "ris", "-o", str(target))
    assert (result.code, result.out) == (0, "")
    assert result.err == f"Exported {len(papers)} papers to {target} (RIS).\n"
    assert len(rispy.loads(target.read_text(encoding="utf-8"))) == len(papers)


def test_a_file_that_cannot_be_written_is_a_plain_error_and_the_old_one_stays(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = cli("-o", str(tmp_path / "missing" / "refs.bib"))
    assert result.code == 2
    assert result.err.startswith("refman: Could not write ‘")
    assert "No such file or directory" in result.err
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "refs.bib"
    target.write_text("% my old file\n", encoding="utf-8")

    def refuse(*_args: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    result = cli("-o", str(target))
    assert result.code == 2 and "Permission denied" in result.err
    assert target.read_text(encoding="utf-8") == "% my old file\n"
    assert [p.name for p in folder.iterdir()] == ["refs.bib"]


def test_ids_and_filters_together_are_refused(cli: Cli, papers: list[PaperDetail]) -> None:
    result = cli(str(papers[0].id), "--tag", "systems")
    assert result.code == 2
    assert "either paper ids or --search/--tag/--section" in result.err


def test_an_unknown_id_is_refused(cli: Cli) -> None:
    result = cli("9999")
    assert (result.code, result.out) == (2, "")
    assert "There is no paper #9999" in result.err


def test_nothing_to_export(cli: Cli) -> None:
    result = cli("--search", "nothing-matches-this")
    assert (result.code, result.out) == (0, "")
    assert result.err == "refman: no papers to export.\n"


def test_nothing_to_export_leaves_the_file_as_it_was(cli: Cli, tmp_path: Path) -> None:
    """A search that finds nothing (a typo) emptied the thesis's .bib; the window, too,
    writes no file when there is no paper to export."""
    target = tmp_path / "thesis.bib"
    target.write_text("@misc{mine, title = {Kept}}\n", encoding="utf-8")
    result = cli("--search", "nothing-matches-this", "-o", str(target))
    assert (result.code, result.out) == (0, "")
    assert result.err == f"refman: No papers to export; {target} was not written.\n"
    assert target.read_text(encoding="utf-8") == "@misc{mine, title = {Kept}}\n"
    cli("--section", "trash", "-o", str(tmp_path / "new.bib"))
    assert not (tmp_path / "new.bib").exists()


def test_a_paper_named_from_the_trash_is_exported_and_stderr_says_so(
    cli: Cli, papers: list[PaperDetail], library: LibraryService
) -> None:
    """``refman export 12`` of a paper in the Trash writes it (it was named) and says on
    stderr that it is in the Trash; papers outside it say nothing."""
    trashed, kept = papers[0], papers[1]
    library.trash([trashed.id])
    result = cli(str(trashed.id), str(kept.id))
    assert result.code == 0
    assert _keys(result.out) == [trashed.citekey, kept.citekey]
    assert result.err == (
        f"refman: #{trashed.id} is in the Trash (exported all the same; "
        f"“refman restore {trashed.id}” brings it back).\n"
    )
    assert cli(str(kept.id)).err == ""


def test_a_tag_the_library_does_not_hold_is_refused(cli: Cli) -> None:
    """Not an export of no papers: a mistyped tag is named, with the tags like it."""
    result = cli("--tag", "sytems", "-o", "nothing.bib")
    assert (result.code, result.out) == (2, "")
    assert result.err == "refman: There is no tag “sytems”. Tags like it: systems.\n"
    assert not Path("nothing.bib").exists()
    searched = cli("--search", "tag:sytems", "-o", "nothing.bib")  # (as a search's term)
    assert (searched.code, searched.err) == (2, result.err)
    assert not Path("nothing.bib").exists()


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--format {bibtex,biblatex,ris,csl-json,csv}" in out
    assert "examples:" in out and "refman export --tag thesis -o thesis.bib" in out


def test_standard_output_gets_utf8_whatever_its_encoding(
    library: LibraryService, papers: list[PaperDetail]
) -> None:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii", errors="replace")
    args = build_parser().parse_args(["export", "--format", "biblatex", str(papers[2].id)])
    assert run_export(args, library, out, io.StringIO()) == 0
    assert "Müller, Jürgen" in raw.getvalue().decode("utf-8")


def test_an_export_piped_to_a_file_is_the_export_byte_for_byte(
    library_location: str, papers: list[PaperDetail], tmp_path: Path
) -> None:
    # A real process, its standard output behind refman's terminal filter, redirected to a
    # file in an ASCII locale: CSV keeps its CR LF line ends, names their letters.
    out = tmp_path / "papers.csv"
    env = {**os.environ, "REFMAN_HOME": str(tmp_path / "home"), "PYTHONIOENCODING": "ascii"}
    command = [sys.executable, "-m", "refman", "--db", library_location, "export"]
    command += ["--format", "csv"]
    with out.open("wb") as target:
        done = subprocess.run(command, env=env, stdout=target, stderr=subprocess.PIPE, check=False)
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert b"\\u000d" not in data and data.count(b"\r\n") == len(papers) + 1
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))
    assert any("Müller" in row["authors"] for row in rows)


def test_a_key_the_file_writes_otherwise_is_told_on_stderr(
    cli: Cli, papers: list[PaperDetail], library: LibraryService, tmp_path: Path
) -> None:
    """A library from before keys were compared as BibTeX does may hold two keys that differ
    only in case: the file tells them apart, and stderr says which paper a \\cite misses."""
    first, second = papers[0], papers[1]
    with library.db.transaction() as session:
        session.execute(
            update(Paper).where(Paper.id == second.id).values(citekey=str(first.citekey).upper())
        )
    upper = str(first.citekey).upper()
    told = (
        f"refman: Paper #{second.id}'s key ‘{upper}’ is ‘{upper}-2’ in the file (BibTeX takes "
        f"it for paper #{first.id}'s key, ignoring case): a \\cite of that key would not find "
        "it. Give it a key of its own: refman edit ID --citekey KEY.\n"
    )
    result = cli(first.id, second.id)
    assert (result.code, result.err) == (0, told)
    assert _keys(result.out) == [first.citekey, f"{upper}-2"]
    target = tmp_path / "refs.bib"
    result = cli(first.id, second.id, "-o", target)
    assert (result.code, result.out) == (0, "")
    assert result.err == f"Exported 2 papers to {target} (BibTeX).\n{told}"
    assert cli(first.id, second.id, "--format", "ris").err == ""


def test_a_file_is_written_in_the_format_its_name_ends_in(
    cli: Cli, tmp_path: Path, papers: list[PaperDetail]
) -> None:
    """``-o refs.ris`` without --format is RIS (it was BibTeX under a .ris name, which
    EndNote or Zotero then could not read); --format still decides, and another ending
    gets BibTeX."""
    count = len(papers)
    result = cli("-o", str(tmp_path / "refs.RIS"))
    assert result.err == f"Exported {count} papers to {tmp_path / 'refs.RIS'} (RIS).\n"
    assert len(rispy.loads((tmp_path / "refs.RIS").read_text(encoding="utf-8"))) == count
    cli("-o", str(tmp_path / "refs.json"))
    assert len(json.loads((tmp_path / "refs.json").read_text(encoding="utf-8"))) == count
    cli("-o", str(tmp_path / "refs.csv"))
    table = (tmp_path / "refs.csv").read_text(encoding="utf-8-sig")
    assert len(list(csv.DictReader(io.StringIO(table, newline="")))) == count
    for name in ("refs.bib", "refs.txt"):
        cli("-o", str(tmp_path / name))
        assert len(_keys((tmp_path / name).read_text(encoding="utf-8"))) == count
    result = cli("--format", "biblatex", "-o", str(tmp_path / "refs.ris"))
    assert result.err.endswith("(BibLaTeX).\n")
    assert "journaltitle" in (tmp_path / "refs.ris").read_text(encoding="utf-8")
