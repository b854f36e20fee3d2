"""Revision 0032: a title an author page, a RIS or a CSL-JSON file gives with LaTeX markup is
kept as the text it prints. The titles an older refman kept with their markup are read as
text, once, when the library is upgraded — shown, searched and sorted so; a title the person
edited, or one a BibTeX entry gave (read as text already), stays."""

from __future__ import annotations

from alembic import command
from sqlalchemy import Engine, text

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import EditPaper
from refman.core.rules import FieldEdits
from refman.core.values import PaperQuery
from refman.importers.bibtex import parse_bibtex
from refman.store import schema
from tests.helpers.fixtures import sourced
from tests.helpers.pages import publication_page

RAW = '{\\"U}ber die Qualit{\\"a}t von $\\alpha$-Divergenzen'
EDITED = "My own $\\beta$ title"
BIB = "@article{b, title = {Costs of \\$\\textbackslash alpha\\$ in text}, year = {2020}}\n"


def _as_of(engine: Engine, revision: str, titles: dict[int, str]) -> None:
    """Take the library down to a revision with the titles as its importers kept them."""
    cfg = schema._alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)
        for paper_id, title in titles.items():
            conn.execute(
                text("UPDATE papers SET title = :title WHERE id = :id"),
                {"title": title, "id": paper_id},
            )


def test_an_older_librarys_titles_with_latex_are_read_as_text(
    library: LibraryService, library_location: str
) -> None:
    records = [("Qualität", 2025, "arXiv"), ("Mine", 2024, "arXiv")]
    page, edited = library.import_pages(
        [sourced(publication_page("Hanna Müller", records))]
    ).new_ids
    library.apply(EditPaper(edited, FieldEdits(title=EDITED)))
    (bib,) = library.import_pages([SourcedPage(parse_bibtex(BIB), "refs.bib")]).new_ids
    kept = library.paper(bib).title
    assert "$" in kept  # (the entry wrote the dollars as text)
    _as_of(library.db.engine, "0031", {page: RAW})
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        assert upgraded.paper(page).title == "Über die Qualität von α-Divergenzen"
        assert upgraded.paper(edited).title == EDITED  # (the person's)
        assert upgraded.paper(bib).title == kept
        assert upgraded.paper_ids(PaperQuery(text="title:über")) == [page]
        assert upgraded.paper_ids(PaperQuery(text="qualitat divergenzen")) == [page]
        with upgraded.db.engine.connect() as conn:
            tasks = conn.execute(text("SELECT task FROM library_tasks")).scalars().all()
        assert tasks == []
    finally:
        upgraded.close()


def test_tex_dashes_of_an_older_librarys_titles_read_as_tex_prints_them(
    library: LibraryService, library_location: str
) -> None:
    """Revision 0033: the "--" an author page's title gave (as arXiv writes an en dash) is
    the dash TeX prints, now and in a library an older refman filled; a title of code
    ("--help") stays, and so does one the person typed."""
    records = [("Tides", 2025, "arXiv"), ("Flags", 2024, "arXiv"), ("Mine", 2024, "arXiv")]
    page = library.import_pages([sourced(publication_page("Hanna Müller", records))]).new_ids
    dashed, code, edited = page
    library.apply(EditPaper(edited, FieldEdits(title="Typed by me, 1990--2000")))
    _as_of(library.db.engine, "0032", {dashed: "Tidal flats, 1990--2020", code: "The --help flag"})
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        titles = [upgraded.paper(pid).title for pid in page]
        assert titles == ["Tidal flats, 1990–2020", "The --help flag", "Typed by me, 1990--2000"]
    finally:
        upgraded.close()


def test_tex_dashes_and_quotes_of_a_page_show_as_tex_prints_them(library: LibraryService) -> None:
    """A title and an abstract an author page wrote for TeX: its dashes and quotes shown as
    TeX prints them (the abstract kept as written); code as written."""
    records = [("``Deep'' tides, 1990--2020", 2025, "arXiv"), ("The --help flag", 2024, "arXiv")]
    ids = library.import_pages([sourced(publication_page("Hanna Müller", records))]).new_ids
    tides, flags = (library.paper(pid) for pid in ids)
    assert (tides.title, flags.title) == ("“Deep” tides, 1990–2020", "The --help flag")
    assert "1990--2020" in tides.abstract
    assert "“deep” tides, 1990–2020" in tides.abstract_text
    assert "the --help flag" in flags.abstract_text
