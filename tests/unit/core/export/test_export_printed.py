"""What the real BibTeX prints from refman's export (``plain`` style): Hungarian and other
Latin letters as written, math in a title as the LaTeX it was, identifiers as the paper
holds them. (BibTeX is run as :mod:`tests.helpers.bibtex_program` runs it; without it the tests
skip.)"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from refman.core.export import ExportFormat, export_papers
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperDetail
from refman.importers.bibtex import parse_bibtex
from tests.helpers.bibtex_program import typeset
from tests.unit.core.export.bibcheck import decode

HUNGARIAN = r"""
@article{szucs2020futes,
  author = {Sz{\H{u}}cs, G{\'a}bor and {\H{O}}ry, {\'A}d{\'a}m and Ħorvat, Ŧomislav},
  title = {{\"U}ber F{\H{u}}t{\'e}s in Gy{\H{o}}r},
  journal = {Magyar Fizikai Foly{\'o}irat},
  year = {2020},
}
"""
MATH_TITLE = r"$\sqrt{s}=7$ TeV and $\mathcal{L} = 4.6\,\text{fb}^{-1}$"


def _import(library: LibraryService, bib: str) -> PaperDetail:
    result = library.import_pages([SourcedPage(parse_bibtex(bib), "refs.bib")])
    [paper] = library.details(result.new_ids)
    return paper


def test_bibtex_prints_hungarian_double_acutes_and_letters_latex_has_no_command_for(
    library: LibraryService, tmp_path: Path
) -> None:
    paper = _import(library, HUNGARIAN)
    assert paper.title == "Über Fűtés in Győr"
    export = export_papers([paper], ExportFormat.BIBTEX)
    printed = " ".join(decode(typeset(export, tmp_path)).split())
    assert "Gábor Szűcs, Ádám Őry, and Ŧomislav Ħorvat" in printed
    assert "Über Fűtés in Győr" in printed
    assert r"Sz{\H{u}}cs" in export and r"F{\H{u}}t{\'e}s" in export  # not \'{u}: "ú"
    assert "Ħorvat, Ŧomislav" in export  # no plain-LaTeX command: as it is, not \={H}


def test_math_in_a_title_goes_out_as_the_latex_it_is(
    library: LibraryService, tmp_path: Path
) -> None:
    bib = "@article{atlas2012, author = {Doe, Jane}, title = {T}, journal = {PRL}, year = 2012}"
    paper = _import(library, bib)
    library.edit_fields(paper.id, title=MATH_TITLE)
    [paper] = library.details([paper.id])
    export = export_papers([paper], ExportFormat.BIBTEX)
    written = r"{$\sqrt{s}=7$} {TeV} and {$\mathcal{L} = 4.6\,\text{fb}^{-1}$}"
    # BibTeX prints the math as it was: not escaped, and not lower-cased ("\mathcal{l}")
    assert written + "." in " ".join(typeset(export, tmp_path).split())
    assert f"title = {{{written}}}" in export
    assert written in export_papers([paper], ExportFormat.BIBLATEX)
    [read] = parse_bibtex(export).records
    assert read.title == MATH_TITLE  # and refman reads its own export back the same


def test_a_doi_goes_out_as_the_paper_holds_it(library: LibraryService) -> None:
    """(The library itself keeps a DOI in lower case: ``identifiers.normalize_doi``.)"""
    paper = _import(library, "@article{a, author = {Doe, Jane}, title = {T}, year = 2012}")
    paper = dataclasses.replace(paper, doi="10.1103/PhysRevLett.108.111803")
    for fmt in ExportFormat:
        assert "10.1103/PhysRevLett.108.111803" in export_papers([paper], fmt), fmt
