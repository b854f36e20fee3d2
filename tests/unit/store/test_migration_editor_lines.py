"""Revision 0038: the edited books of an older library (editors imported, no authors) get
their editors in the list's author column and sort among the authors by their first editor;
they need no attention for it, and the downgrade leaves them as an older refman had them."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from sqlalchemy import Engine, text

from refman.core.library import LibraryService
from refman.core.values import PaperQuery, Section, SortKey
from refman.store import schema
from tests.helpers.fixtures import sourced_file

BIB = """@book{rossi2018,
  editor = {Rossi, Luca and van der Berg, Jan},
  title = {Coastal Processes in a Changing Climate}, year = {2018}
}
@book{zhang2020,
  editor = {张, 伟}, title = {Delta morphodynamics}, year = {2020}
}
@article{lund2019,
  author = {Lund, Kari and others}, title = {Fjord sills}, journal = {Marine Geology},
  year = {2019}
}
@article{abel2017, author = {Abel, Carl}, title = {Sand ripples}, year = {2017}}
"""


def _downgrade(engine: Engine, revision: str) -> None:
    cfg = schema._alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)
        conn.execute(text("DELETE FROM library_tasks"))  # (the downgrade's: an older library)


def _lines(engine: Engine) -> dict[str, tuple[str, str]]:
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT citekey, author_line, sort_author FROM papers"))
        return {key: (line, sort) for key, line, sort in rows}


def test_an_older_librarys_edited_books_get_their_editors_in_the_author_column(
    library: LibraryService, library_location: str, tmp_path: Path
) -> None:
    bib = tmp_path / "edited.bib"
    bib.write_text(BIB, encoding="utf-8")
    library.import_pages([sourced_file(bib)])
    made = _lines(library.db.engine)
    _downgrade(library.db.engine, "0037")
    older = _lines(library.db.engine)
    assert older["rossi2018"] == older["zhang2020"] == ("", "")  # as refman 0037 had them
    assert older["lund2019"] == made["lund2019"]
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        assert _lines(upgraded.db.engine) == made
        assert made["rossi2018"] == ("Luca Rossi et al. (eds.)", "rossi luca")
        assert made["zhang2020"][0] == "张伟 (ed.)"
        keys = {d.id: d.citekey for d in upgraded.details(upgraded.paper_ids())}
        order = [keys[p] for p in upgraded.paper_ids(PaperQuery(sort=SortKey.AUTHOR))]
        assert order[:3] == ["abel2017", "lund2019", "rossi2018"]
        attention = upgraded.paper_ids(PaperQuery(section=Section.ATTENTION))
        assert [keys[p] for p in attention] == ["lund2019"]
        _downgrade(upgraded.db.engine, "0037")
        assert _lines(upgraded.db.engine) == older
    finally:
        upgraded.close()
