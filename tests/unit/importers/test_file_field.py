"""The ``file`` field as JabRef, Better BibTeX and Mendeley write it, and RIS ``L1`` lines:
read into the paths of a record's files, found beside the bibliography when relative."""

from __future__ import annotations

from pathlib import Path

import pytest

from refman.importers.file_field import read_file_field, ris_file_path, write_file_field
from refman.importers.sources import load_source
from tests.helpers.pdfs import make_pdf


@pytest.mark.parametrize(
    ("value", "paths"),
    [
        (
            r"Full Text PDF:/home/me/Zotero/storage/AB12/paper.pdf:application/pdf",
            ["/home/me/Zotero/storage/AB12/paper.pdf"],
        ),
        (r":papers/a.pdf:PDF;:papers/b.pdf:PDF", ["papers/a.pdf", "papers/b.pdf"]),
        (r":C\:\\Users\\me\\a.pdf:PDF", [r"C:\Users\me\a.pdf"]),
        (r":C$\backslash$:/Users/me/a.pdf:pdf", ["C:/Users/me/a.pdf"]),  # Mendeley, Windows
        (r"paper.pdf:PDF", ["paper.pdf"]),
        ("paper.pdf", ["paper.pdf"]),
        ("", []),
    ],
)
def test_the_file_field_is_read_as_jabref_reads_it(value: str, paths: list[str]) -> None:
    assert read_file_field(value) == paths


def test_what_refman_writes_it_reads_back() -> None:
    files = [("a: b; c.pdf", "/x/a: b; c.pdf"), ("notes.txt", "rel/notes.txt")]
    assert read_file_field(write_file_field(files)) == [path for _, path in files]


def test_ris_l1_is_a_path_or_a_file_address() -> None:
    assert ris_file_path("file:///home/me/My%20Paper.pdf") == "/home/me/My Paper.pdf"
    assert ris_file_path("/home/me/paper.pdf") == "/home/me/paper.pdf"
    assert ris_file_path("internal-pdf://1234/paper.pdf") == "internal-pdf://1234/paper.pdf"
    assert ris_file_path("https://example.org/paper.pdf") is None


def test_a_bibliography_finds_its_files_beside_it_and_says_which_are_missing(
    tmp_path: Path,
) -> None:
    (tmp_path / "pdfs").mkdir()
    beside = make_pdf(tmp_path / "pdfs" / "beside.pdf")
    elsewhere = make_pdf(tmp_path / "elsewhere.pdf")
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{a,\n  title = {First Paper Title},\n  file = {:pdfs/beside.pdf:PDF},\n}\n"
        f"@article{{b,\n  title = {{Second Paper Title}},\n  file = {{:{elsewhere}:PDF;"
        ":pdfs/gone.pdf:PDF},\n}\n",
        encoding="utf-8",
    )
    page = load_source(bib).parse()
    assert [r.files for r in page.records] == [(str(beside),), (str(elsewhere),)]
    assert any("1 file the bibliography names was not found (gone.pdf)" in w for w in page.warnings)


def test_mendeley_paths_without_their_first_slash_and_snapshot_links(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "Smith et al. - 2018 - A paper.pdf")
    written = str(pdf).lstrip("/")  # as Mendeley Desktop writes an absolute path
    bib = tmp_path / "library.bib"
    bib.write_text(
        "@article{a,\n  title = {First Paper Title},\n"
        f"  file = {{:{written}:pdf;Snapshot:https\\://example.org/a.html:text/html}},\n}}\n",
        encoding="utf-8",
    )
    page = load_source(bib).parse()
    assert [r.files for r in page.records] == [(str(pdf),)]
    assert not any("were not found" in w for w in page.warnings)


def test_jabref_reads_relative_paths_from_the_librarys_file_folders(tmp_path: Path) -> None:
    # JabRef's Library properties: a file folder for everyone (relative to the .bib) and one
    # of a user's own; the `file` fields name the files inside them.
    (tmp_path / "papers").mkdir()
    (tmp_path / "mine").mkdir()
    shared = make_pdf(tmp_path / "papers" / "Lee2021 - Contrastive.pdf")
    own = make_pdf(tmp_path / "mine" / "Knuth1997.pdf")
    beside = make_pdf(tmp_path / "Smith2020.pdf")
    bib = tmp_path / "library.bib"
    bib.write_text(
        "@InProceedings{Lee2021,\n  title = {Contrastive Pretraining},\n"
        "  file = {:Lee2021 - Contrastive.pdf:PDF},\n}\n\n"
        "@Book{Knuth1997,\n  title = {The Art of Computer Programming},\n"
        "  file = {:Knuth1997.pdf:PDF},\n}\n\n"
        "@Article{Smith2020,\n  title = {Deep Learning for Protein Folding},\n"
        "  file = {:Smith2020.pdf:PDF;:Gone2020.pdf:PDF},\n}\n\n"
        "@Comment{jabref-meta: databaseType:bibtex;}\n\n"
        "@Comment{jabref-meta: fileDirectory:papers;}\n\n"
        f"@Comment{{jabref-meta: fileDirectory-alice-laptop:{tmp_path / 'mine'};}}\n",
        encoding="utf-8",
    )
    page = load_source(bib).parse()
    assert [r.files for r in page.records] == [(str(shared),), (str(own),), (str(beside),)]
    assert any(
        "1 file the bibliography names was not found (Gone2020.pdf)" in w for w in page.warnings
    )


def test_endnotes_pdfs_are_found_in_its_library_folder_or_named_as_missing(
    tmp_path: Path,
) -> None:
    # EndNote keeps its PDFs in "<library>.Data/PDF/<number>/", beside the library it exports.
    folder = tmp_path / "My EndNote Library.Data" / "PDF" / "0123456789"
    folder.mkdir(parents=True)
    kept = make_pdf(folder / "Hinton [1].pdf")
    ris = tmp_path / "My EndNote Library.ris"
    ris.write_bytes(
        (
            "TY  - JOUR\r\nTI  - Reducing the dimensionality of data\r\nPY  - 2006\r\n"
            "L1  - internal-pdf://0123456789/Hinton [1].pdf\r\nER  - \r\n\r\n"
            "TY  - JOUR\r\nTI  - A paper whose PDF EndNote lost\r\nPY  - 2010\r\n"
            "L1  - internal-pdf://9876543210/Lost-2010.pdf\r\nER  - \r\n"
        ).encode("utf-8-sig")
    )
    page = load_source(ris).parse()
    assert [r.files for r in page.records] == [(str(kept),), ()]
    assert any(
        "1 file the bibliography names was not found (Lost-2010.pdf)" in w for w in page.warnings
    )


def test_a_relative_path_written_on_windows_is_found_here(tmp_path: Path) -> None:
    # A JabRef library kept on Windows, copied here with its folder of PDFs.
    (tmp_path / "papers" / "2019").mkdir(parents=True)
    pdf = make_pdf(tmp_path / "papers" / "2019" / "Mueller2019.pdf")
    bib = tmp_path / "library.bib"
    bib.write_text(
        "@Article{Mueller2019,\n  title = {Stability of Networks},\n"
        "  file = {:papers\\\\2019\\\\Mueller2019.pdf:PDF},\n}\n",
        encoding="utf-8",
    )
    page = load_source(bib).parse()
    assert [r.files for r in page.records] == [(str(pdf),)]
    assert not any("were not found" in w for w in page.warnings)
