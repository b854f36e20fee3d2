"""Revision 0021: a DOI that ends in a bracket of its own keeps it. A library whose DOIs an
older refman stored without it gets them back whole when it is first opened, keyed again:
the same .bib imported again finds its paper."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.matching import key_hash
from refman.importers import parse_text
from refman.store import schema

BIB = """@article{ng2001,
  author = {Ng, Ada and Okafor, Bayo},
  title = {Brackets at the End of Identifiers},
  journal = {Journal of Identifier Studies},
  year = {2001},
  doi = {10.1000/jis.2001.(7)},
}
@article{ng2002,
  author = {Ng, Ada},
  title = {Identifiers Without Brackets},
  journal = {Journal of Identifier Studies},
  year = {2002},
  doi = {10.1000/jis.2002.7},
}
"""


def test_a_doi_cut_before_its_closing_bracket_is_mended_on_upgrade(
    library: LibraryService, library_location: str
) -> None:
    library.import_pages([SourcedPage(parse_text(BIB), "ng.bib")])
    by_year = {library.paper(i).year: i for i in library.paper_ids()}
    assert library.paper(by_year[2001]).doi == "10.1000/jis.2001.(7)"
    cfg = schema._alembic_config()
    with library.db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0020")
        # what refman of revision 0020 stored: the DOI without its ")", keyed so
        cut = "10.1000/jis.2001.(7"
        conn.execute(
            text("UPDATE papers SET doi = :doi, doi_key = :key WHERE id = :id"),
            {"doi": cut, "key": key_hash("doi", cut), "id": by_year[2001]},
        )
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        assert upgraded.paper(by_year[2001]).doi == "10.1000/jis.2001.(7)"
        assert upgraded.paper(by_year[2002]).doi == "10.1000/jis.2002.7"  # left as it was
        result = upgraded.import_pages([SourcedPage(parse_text(BIB), "ng.bib")])
        assert not result.new_ids and sorted(upgraded.paper_ids()) == sorted(by_year.values())
        with upgraded.db.engine.connect() as conn:
            left = conn.execute(text("SELECT count(*) FROM library_tasks")).scalar_one()
        assert left == 0
    finally:
        upgraded.close()
