"""Revision 0023: a paper whose page gave no authors is found by its page owner's name. An
older library's such papers are indexed again on upgrade, and only those."""

from __future__ import annotations

from alembic import command

from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from refman.store import schema
from refman.store.search_schema import damaged_indexes
from tests.helpers.fixtures import sourced
from tests.helpers.pages import publication_page


def test_an_older_librarys_author_less_papers_are_found_by_their_owner_after_the_upgrade(
    library: LibraryService, library_location: str
) -> None:
    page = publication_page("Kadri Tamm", [("Lichens of Coastal Alvars", 2021, "arXiv")])
    (paper,) = library.import_pages([sourced(page, "kadri.txt")]).new_ids
    cfg = schema._alembic_config()
    with library.db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0022")
    if library.db.path is not None:  # (a shared library's words follow the code that runs)
        assert library.paper_ids(PaperQuery(text="tamm")) == []
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        assert upgraded.paper_ids(PaperQuery(text="kadri tamm")) == [paper]
        assert upgraded.paper_ids(PaperQuery(text="lichens")) == [paper]
        if upgraded.db.path is not None:
            with upgraded.db.engine.begin() as conn:
                assert damaged_indexes(conn) == []
    finally:
        upgraded.close()
