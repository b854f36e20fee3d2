"""The real BibTeX (and biber, when installed) over an export of a library that holds every
kind of paper and every awkward character: not one error or warning, and the bibliography
it typesets says what the papers say.

CI installs Debian's texlive-binaries (``bibtex``) and texlive-base (``plain.bst``), see
``.ci/run``; elsewhere the test skips and says what is missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from refman.core.export import ExportFormat, export_papers
from refman.core.library import LibraryService
from tests.unit.core.export.bibcheck import decode
from tests.unit.core.export.kinds import import_kinds

#: What BibTeX prints when something is wrong with a .bib file or an entry.
COMPLAINT = re.compile(
    r"warning|error|illegal|skipping|expecting|repeated entry|too many commas|"
    r"comma at the end|unbalanced|isn't a brace-balanced",
    re.IGNORECASE,
)
#: The .blg's count of built-in function calls ("warning$ -- 0") is no complaint.
STATISTIC = re.compile(r"^\s*[\w.]+\$ -- \d+\s*$")


def _run(tool: str, *args: str, cwd: Path) -> tuple[int, str]:
    done = subprocess.run(
        [tool, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )
    return done.returncode, done.stdout + done.stderr


def _bibtex_with_plain_style() -> str:
    bibtex = shutil.which("bibtex")
    if bibtex is None:
        pytest.skip("bibtex is not installed (Debian: apt-get install texlive-binaries)")
    kpsewhich = shutil.which("kpsewhich")
    found = (
        kpsewhich
        and subprocess.run(
            [kpsewhich, "plain.bst"], capture_output=True, text=True, check=False
        ).stdout.strip()
    )
    if not found:
        pytest.skip("BibTeX's plain.bst is not installed (Debian: apt-get install texlive-base)")
    return bibtex


def test_bibtex_takes_the_export_without_an_error_or_a_warning(
    library: LibraryService, tmp_path: Path
) -> None:
    bibtex = _bibtex_with_plain_style()
    papers = import_kinds(library)
    export = export_papers(papers, ExportFormat.BIBTEX, with_notes=True)
    (tmp_path / "refs.bib").write_text(export, encoding="utf-8")
    (tmp_path / "refs.aux").write_text(
        "\\relax\n\\citation{*}\n\\bibstyle{plain}\n\\bibdata{refs}\n", encoding="utf-8"
    )
    code, output = _run(bibtex, "refs", cwd=tmp_path)
    log = output + (tmp_path / "refs.blg").read_text(encoding="utf-8", errors="replace")
    assert code == 0, log
    complaints = [
        line for line in log.splitlines() if COMPLAINT.search(line) and not STATISTIC.match(line)
    ]
    assert not complaints, log
    bbl = (tmp_path / "refs.bbl").read_text(encoding="utf-8")
    assert bbl.count("\\bibitem{") == len(papers)
    typeset = " ".join(decode(bbl).split())
    for paper in papers:  # titles keep their capitals and every special character
        assert " ".join(paper.title.split()) in typeset, paper.title
    for name in ("Jürgen Müller", "Łukasz Żółć", "Jan van der Berg", "Sammy Davis, Jr."):
        assert name in typeset
    assert "World Health Organization" in typeset and "et al." in typeset


def test_biber_takes_the_biblatex_export_without_an_error_or_a_warning(
    library: LibraryService, tmp_path: Path
) -> None:
    biber = shutil.which("biber")
    if biber is None:
        pytest.skip("biber is not installed (Debian: apt-get install biber); CI does not need it")
    papers = import_kinds(library)
    export = export_papers(papers, ExportFormat.BIBLATEX, with_notes=True)
    (tmp_path / "refs.bib").write_text(export, encoding="utf-8")
    code, output = _run(biber, "--tool", "--output-file=checked.bib", "refs.bib", cwd=tmp_path)
    assert code == 0, output
    assert not [line for line in output.splitlines() if re.match(r"(WARN|ERROR)", line)], output
    checked = (tmp_path / "checked.bib").read_text(encoding="utf-8")
    assert checked.count("\n@") + checked.startswith("@") == len(papers)
    assert "Müller, Jürgen" in checked and "EPRINTTYPE = {arxiv}" in checked
