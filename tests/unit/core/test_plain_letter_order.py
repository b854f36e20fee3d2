"""Names sort in plain letters, as the search reads them: Østergaard and Émile among the O's
and E's, not after Z — in the list sorted by author (also in a library an older refman
sorted by case-folded names, mended by revision 0026) and in the sidebar's People."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from refman.core.library import LibraryService
from refman.core.values import PaperQuery, SortKey
from refman.store import schema
from tests.helpers.fixtures import sourced
from tests.helpers.pages import abstracts_page

#: First authors, and the order the list sorted by author shows them in.
AUTHORS = ("Zoe Zhang", "Søren Østergaard", "Ashish Vaswani", "Émile Étienne", "Łukasz Łaski")
BY_AUTHOR = ["Émile Étienne", "Łukasz Łaski", "Søren Østergaard", "Ashish Vaswani", "Zoe Zhang"]


def _import(library: LibraryService) -> None:
    for n, author in enumerate(AUTHORS):
        abstract = f"Study {n} of tidal sediment budgets in estuary number {n}, with field data."
        library.import_pages([sourced(abstracts_page(author, [(author, abstract)]), f"{n}.txt")])


def by_author(library: LibraryService, *, descending: bool = False) -> list[str]:
    ids = library.paper_ids(PaperQuery(sort=SortKey.AUTHOR, descending=descending))
    return [row.first_author for row in library.rows(ids)]


def test_the_list_sorted_by_author_reads_names_in_plain_letters(library: LibraryService) -> None:
    _import(library)
    assert by_author(library) == BY_AUTHOR
    assert by_author(library, descending=True) == BY_AUTHOR[::-1]
    # the sidebar's People (page owners), by name
    assert [p.name for p in library.people()] == sorted(
        AUTHORS, key=lambda name: name.replace("É", "E").replace("Ł", "L").replace("Ø", "O")
    )


def test_revision_0026_sorts_an_older_librarys_papers_so(
    library: LibraryService, library_location: str
) -> None:
    _import(library)
    cfg = schema._alembic_config()
    with library.db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0025")
        # the keys as an older refman wrote them: the name case folded only
        for author in AUTHORS:
            given, family = author.split()
            conn.execute(
                text("UPDATE papers SET sort_author = :key WHERE author_line = :line"),
                {"key": f"{family} {given}".casefold(), "line": author},
            )
    assert by_author(library)[-3:] == ["Émile Étienne", "Søren Østergaard", "Łukasz Łaski"]
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        assert by_author(upgraded) == BY_AUTHOR
    finally:
        upgraded.close()
