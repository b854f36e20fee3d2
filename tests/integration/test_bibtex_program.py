"""The real BibTeX (and biber, when installed) over an export of a library that holds every
kind of paper and every awkward character: not one error or warning, and the bibliography
it typesets says what the papers say.

BibTeX is run as :mod:`tests.helpers.bibtex_program` runs it (CI installs it; elsewhere the
test skips and says what is missing).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from refman.core.export import ExportFormat, export_papers
from refman.core.library import LibraryService
from tests.helpers.bibtex_program import run_tool, typeset
from tests.unit.core.export.bibcheck import decode
from tests.unit.core.export.kinds import import_kinds


def test_bibtex_takes_the_export_without_an_error_or_a_warning(
    library: LibraryService, tmp_path: Path
) -> None:
    papers = import_kinds(library)
    bbl = typeset(export_papers(papers, ExportFormat.BIBTEX, with_notes=True), tmp_path)
    assert bbl.count("\\bibitem{") == len(papers)
    printed = " ".join(decode(bbl).split())
    for paper in papers:  # titles keep their capitals and every special character
        assert " ".join(paper.title.split()) in printed, paper.title
    for name in ("Jürgen Müller", "Łukasz Żółć", "Jan van der Berg", "Sammy Davis, Jr."):
        assert name in printed
    assert "World Health Organization" in printed and "et al." in printed


def test_biber_takes_the_biblatex_export_without_an_error_or_a_warning(
    library: LibraryService, tmp_path: Path
) -> None:
    biber = shutil.which("biber")
    if biber is None:
        pytest.skip("biber is not installed (Debian: apt-get install biber); CI does not need it")
    papers = import_kinds(library)
    export = export_papers(papers, ExportFormat.BIBLATEX, with_notes=True)
    (tmp_path / "refs.bib").write_text(export, encoding="utf-8")
    code, output = run_tool(biber, "--tool", "--output-file=checked.bib", "refs.bib", cwd=tmp_path)
    assert code == 0, output
    assert not [line for line in output.splitlines() if re.match(r"(WARN|ERROR)", line)], output
    checked = (tmp_path / "checked.bib").read_text(encoding="utf-8")
    assert checked.count("\n@") + checked.startswith("@") == len(papers)
    assert "Müller, Jürgen" in checked and "EPRINTTYPE = {arxiv}" in checked
