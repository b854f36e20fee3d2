"""A paper added from its PDF: its metadata and first page read (DOI, arXiv id, the title as
the largest text near the top), found in the library when it is there (the usual merge
rules) or added as new, the PDF attached either way; one import, undone exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from refman.common.errors import RefmanError
from refman.core.importing.values import ImportChoices, SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import ImportPages
from refman.core.values import PaperQuery, Section
from refman.importers.sources import load_source
from tests.helpers.fixtures import sourced
from tests.helpers.pages import JIANG_PAPERS, abstracts_page


def arxiv_pdf(path: Path, title: str, arxiv: str, doi: str | None = None) -> Path:
    """A first page as arXiv typesets one: the title large at the top, no title in the
    document information, the identifiers in small print."""
    canvas = Canvas(str(path), pagesize=A4)
    canvas.setTitle("")
    _, height = A4
    canvas.setFont("Helvetica-Bold", 18)
    canvas.drawString(72, height - 100, title)
    canvas.setFont("Helvetica", 10)
    canvas.drawString(72, height - 130, "Zhuo Jiang, Mira Okafor")
    canvas.drawString(72, height - 150, f"arXiv:{arxiv} [cs.DC] 3 Jan 2024")
    if doi:
        canvas.drawString(72, height - 165, f"https://doi.org/{doi}")
    canvas.drawString(72, height - 200, "Abstract. We study stragglers in pipeline training.")
    canvas.showPage()
    canvas.save()
    return path


def _pdf_page(path: Path) -> SourcedPage:
    return SourcedPage(load_source(path).parse(), path.name)


def test_a_new_paper_from_its_pdf_has_the_file_and_asks_for_attention(
    library: LibraryService, tmp_path: Path
) -> None:
    pdf = arxiv_pdf(tmp_path / "2401.01234v2.pdf", "Resilient Pipeline Training", "2401.01234v2")
    page = _pdf_page(pdf)
    (record,) = page.page.records
    assert (record.title, record.title_provisional) == ("Resilient Pipeline Training", True)
    assert (record.arxiv_id, record.year, record.venue) == ("2401.01234v2", 2024, "arXiv")
    result = library.import_pages([page])
    (pid,) = result.new_ids
    paper = library.paper(pid)
    assert paper.title == "Resilient Pipeline Training" and paper.title_provisional
    assert pid in library.paper_ids(PaperQuery(section=Section.ATTENTION))
    (file,) = paper.files
    assert file.name == "2401.01234v2.pdf" and Path(file.path).read_bytes() == pdf.read_bytes()
    again = library.import_pages([_pdf_page(pdf)])  # the same PDF again: nothing twice
    assert again.new_ids == () and len(library.paper(pid).files) == 1


def test_undo_sets_the_copy_aside_and_redo_without_the_source_imports_the_paper_alone(
    library_path: Path, tmp_path: Path
) -> None:
    library = LibraryService.open(library_path)
    pdf = arxiv_pdf(tmp_path / "gone-later.pdf", "Ephemeral Results", "2403.00001")
    done = library.apply(ImportPages((_pdf_page(pdf),), ImportChoices()))
    (pid,) = done.value.new_ids
    copy = Path(library.paper(pid).files[0].path)
    assert done.inverse is not None
    redo = library.apply(done.inverse).inverse  # Undo: the paper goes, its copy set aside
    assert not copy.exists() and library.count() == 0
    pdf.unlink()  # the PDF dropped in is gone meanwhile
    assert redo is not None
    library.apply(redo)  # Redo: the paper comes back, without the file it can no longer find
    (paper,) = library.details(library.paper_ids())
    assert paper.title == "Ephemeral Results" and paper.files == ()
    library.close()


def test_a_pdf_of_a_paper_in_the_library_joins_it_and_undo_takes_the_file_off(
    library: LibraryService, tmp_path: Path
) -> None:
    library.import_pages([sourced(abstracts_page("Zhuo Jiang", JIANG_PAPERS))])
    known = library.paper_ids()[-1]
    library.edit_fields(known, arxiv_id="2402.05678")
    pdf = arxiv_pdf(tmp_path / "paper.pdf", "Some Other Words Entirely", "2402.05678")
    outcome = library.apply(ImportPages((_pdf_page(pdf),), ImportChoices()))
    assert outcome.value.new_ids == () and known in outcome.value.paper_ids
    assert [f.name for f in library.paper(known).files] == ["paper.pdf"]
    assert outcome.inverse is not None
    library.apply(outcome.inverse)  # Undo the import
    assert library.paper(known).files == ()
    assert library.count() == 2


def test_a_doi_in_the_documents_information_finds_its_paper(
    library: LibraryService, tmp_path: Path
) -> None:
    # A publisher's PDF names its DOI in its document information, not always on its page.
    library.import_pages([sourced(abstracts_page("Zhuo Jiang", JIANG_PAPERS))])
    known = library.paper_ids()[0]
    library.edit_fields(known, doi="10.1016/j.physletb.2020.135")
    pdf = tmp_path / "publisher.pdf"
    canvas = Canvas(str(pdf), pagesize=A4)
    canvas.setTitle("")
    canvas.setSubject("Physics Letters B 805 (2020) 135, doi:10.1016/j.physletb.2020.135")
    canvas.drawString(72, 700, "Results on the first page, without any identifier.")
    canvas.showPage()
    canvas.save()
    (record,) = _pdf_page(pdf).page.records
    assert record.doi == "10.1016/j.physletb.2020.135"
    outcome = library.import_pages([_pdf_page(pdf)])
    assert outcome.new_ids == () and [f.name for f in library.paper(known).files] == [
        "publisher.pdf"
    ]


def test_a_bibliography_with_file_fields_brings_its_files(tmp_path: Path) -> None:
    source = LibraryService.open(tmp_path / "first.sqlite")
    source.import_pages([sourced(abstracts_page("Zhuo Jiang", JIANG_PAPERS))])
    pid = source.paper_ids()[0]
    (attached,) = source.attach(pid, [arxiv_pdf(tmp_path / "paper.pdf", "A Title", "2401.00001")])
    bib = tmp_path / "export.bib"
    bib.write_text(source.export([pid], "bibtex"), encoding="utf-8")
    source.close()
    second = LibraryService.open(tmp_path / "second.sqlite")
    second.import_pages([SourcedPage(load_source(bib).parse(), bib.name)])
    (paper,) = second.details(second.paper_ids())
    (file,) = paper.files
    assert file.name == "paper.pdf" and not file.linked
    assert Path(file.path) != Path(attached.path)  # copied into the second library's folder
    assert Path(file.path).read_bytes() == Path(attached.path).read_bytes()
    second.close()


def test_reverting_a_pdf_import_leaves_no_stray_copy(
    library: LibraryService, tmp_path: Path
) -> None:
    pdf = arxiv_pdf(tmp_path / "revert-me.pdf", "Results Worth Reverting", "2405.00007")
    (pid,) = library.import_pages([_pdf_page(pdf)]).new_ids
    (file,) = library.paper(pid).files
    copy = Path(file.path)
    assert copy.is_file()
    (latest,) = library.history()
    assert [t for _, t in library.revert(latest.import_id).value.removed] == [
        "Results Worth Reverting"
    ]
    assert library.count() == 0
    # a copy in the library's folder is set aside, as Undo does; a linked file is the user's
    assert copy.exists() == file.linked and pdf.exists()


def test_reverting_a_pdf_import_and_its_undo_take_and_bring_back_its_files(
    library: LibraryService, tmp_path: Path
) -> None:
    library.import_pages([sourced(abstracts_page("Zhuo Jiang", JIANG_PAPERS))])
    known = library.paper_ids()[-1]
    library.edit_fields(known, arxiv_id="2402.05678")
    found = arxiv_pdf(tmp_path / "found.pdf", "Some Other Words Entirely", "2402.05678")
    new = arxiv_pdf(tmp_path / "new.pdf", "A Paper Nobody Had", "2405.00009")
    library.import_pages([_pdf_page(found), _pdf_page(new)])
    (made,) = [p for p in library.paper_ids() if p != known and library.paper(p).files]
    copies = [Path(f.path) for p in (known, made) for f in library.paper(p).files]
    (latest, *_) = library.history()
    outcome = library.revert(latest.import_id)
    assert library.paper(known).files == ()  # the PDF that found its paper is taken off
    assert made not in library.paper_ids()
    assert all(not c.exists() for c in copies if tmp_path not in c.parents)
    assert outcome.inverse is not None
    library.apply(outcome.inverse)  # undo the revert: papers and files come back
    assert [f.name for f in library.paper(known).files] == ["found.pdf"]
    assert [f.name for f in library.paper(made).files] == ["new.pdf"]
    assert all(Path(f.path).is_file() for p in (known, made) for f in library.paper(p).files)


def test_the_same_pdf_under_another_name_is_not_attached_again(
    library: LibraryService, tmp_path: Path
) -> None:
    pdf = arxiv_pdf(tmp_path / "paper.pdf", "Stragglers in Pipeline Training", "2402.05678")
    library.apply(ImportPages((_pdf_page(pdf),), ImportChoices()))
    (pid,) = library.paper_ids()
    again = tmp_path / "2402.05678v1.pdf"
    again.write_bytes(pdf.read_bytes())
    outcome = library.apply(ImportPages((_pdf_page(again),), ImportChoices()))
    assert outcome.value.new_ids == () and library.paper_ids() == [pid]
    assert [f.name for f in library.paper(pid).files] == ["paper.pdf"]


def test_a_damaged_pdf_is_refused_in_plain_words(tmp_path: Path) -> None:
    # (the reader's own error, "PdfReadError", is for the log file)
    path = tmp_path / "draft.pdf"
    path.write_bytes(b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<<>>\n%%EOF\n")
    with pytest.raises(RefmanError) as caught:
        load_source(path).parse()
    assert caught.value.message == "“draft.pdf” is a damaged PDF: refman cannot read it."
    assert "Attach it to a paper instead" in caught.value.hint
