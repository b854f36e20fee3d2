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


def _as_of_0031(engine: Engine, titles: dict[int, str]) -> None:
    """Take the library down to revision 0031 with the titles as its importers kept them."""
    cfg = schema._alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0031")
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
    _as_of_0031(library.db.engine, {page: RAW})
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
