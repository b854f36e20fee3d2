"""Names, titles and venues sort in plain letters, as the search reads them: Østergaard,
Étude and Über among the O's, E's and U's, not after Z — in the list sorted by author, title
or venue (also in a library an older refman sorted otherwise, mended by revision 0026) and
in the sidebar's People."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from refman.core.library import LibraryService
from refman.core.values import PaperQuery, SortKey
from refman.store import schema
from tests.helpers.fixtures import sourced
from tests.helpers.pages import abstracts_page, publication_page

#: First authors, and the order the list sorted by author shows them in.
AUTHORS = ("Zoe Zhang", "Søren Østergaard", "Ashish Vaswani", "Émile Étienne", "Łukasz Łaski")
BY_AUTHOR = ["Émile Étienne", "Łukasz Łaski", "Søren Østergaard", "Ashish Vaswani", "Zoe Zhang"]


#: (title, venue) of papers, and the orders the list sorted by title and by venue shows.
PAPERS = [
    ("Zonal Flows in Shallow Estuaries", "Zeitschrift für Geomorphologie"),
    ("Über Sedimente im Wattenmeer", "Études rurales"),
    ("Étude des marées de vives-eaux", "Annals of Glaciology"),
    ("Abyssal Plains and Their Sediments", "Ørsted Letters"),
]
BY_TITLE = ["Abyssal", "Étude", "Über", "Zonal"]
BY_VENUE = ["Annals", "Études", "Ørsted", "Zeitschrift"]


def _import(library: LibraryService) -> None:
    for n, author in enumerate(AUTHORS):
        abstract = f"Study {n} of tidal sediment budgets in estuary number {n}, with field data."
        library.import_pages([sourced(abstracts_page(author, [(author, abstract)]), f"{n}.txt")])
    records = [(title, 2020 + n, venue) for n, (title, venue) in enumerate(PAPERS)]
    library.import_pages([sourced(publication_page("Ines Amar", records), "amar.txt")])


def first_words(library: LibraryService, sort: SortKey, *, descending: bool = False) -> list[str]:
    ids = library.paper_ids(PaperQuery(sort=sort, descending=descending))
    rows = library.rows(ids)
    texts = [row.title if sort is SortKey.TITLE else row.venue for row in rows]
    return [t.split()[0] for t in texts if t and t.split()[0] in {*BY_TITLE, *BY_VENUE}]


def by_author(library: LibraryService, *, descending: bool = False) -> list[str]:
    ids = library.paper_ids(PaperQuery(sort=SortKey.AUTHOR, descending=descending))
    return [row.first_author for row in library.rows(ids) if row.first_author in BY_AUTHOR]


def test_the_list_sorted_by_author_reads_names_in_plain_letters(library: LibraryService) -> None:
    _import(library)
    assert by_author(library) == BY_AUTHOR
    assert by_author(library, descending=True) == BY_AUTHOR[::-1]
    assert first_words(library, SortKey.TITLE) == BY_TITLE
    assert first_words(library, SortKey.TITLE, descending=True) == BY_TITLE[::-1]
    assert first_words(library, SortKey.VENUE) == BY_VENUE
    assert first_words(library, SortKey.VENUE, descending=True) == BY_VENUE[::-1]
    # the sidebar's People (page owners), by name
    assert [p.name for p in library.people()] == sorted(
        [*AUTHORS, "Ines Amar"],
        key=lambda name: name.replace("É", "E").replace("Ł", "L").replace("Ø", "O"),
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
        assert first_words(upgraded, SortKey.TITLE) == BY_TITLE
        assert first_words(upgraded, SortKey.VENUE) == BY_VENUE
    finally:
        upgraded.close()
