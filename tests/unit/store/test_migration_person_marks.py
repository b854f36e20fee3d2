"""One person however their name's apostrophe or hyphen is written ("O’Brien", "O'Brien";
"Jean-Pierre", "Jean Pierre"): as new imports name them, and as revision 0034 makes one the
two people an older refman kept, but for two people of one paper."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from refman.common.errors import NotFoundError
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.importers.bibtex import parse_bibtex
from refman.store import schema

BIB = """@article{a, author = {O'Brien, Nadia and Roux, Jean-Pierre}, title = {Tidal flats},
  year = {2020}}
@article{b, author = {O’Brien, Nadia}, title = {Salt marshes}, year = {2021}}
@article{c, author = {O'Neil, Ann and Smith, Bob}, title = {Mudflats}, year = {2022}}
"""
AGAIN = """@article{d, author = {Jean Pierre Roux and Nadia O’Brien and Ann O’Neil},
  title = {Sea walls}, year = {2023}}
"""


def _import(library: LibraryService, bib: str, name: str) -> list[int]:
    return list(library.import_pages([SourcedPage(parse_bibtex(bib), name)]).new_ids)


def _person(library: LibraryService, name: str) -> int:
    (found,) = [p.id for p in library.everyone() if p.name == name]
    return found


def test_an_apostrophe_or_a_hyphen_written_either_way_names_one_person(
    library: LibraryService,
) -> None:
    _, marshes, _ = _import(library, BIB, "lab.bib")
    people = library.count_people()
    assert library.paper(marshes).authors == ("Nadia O'Brien",)  # (the first spelling)
    _import(library, AGAIN, "more.bib")
    assert library.count_people() == people


def _as_of_0033(library: LibraryService, papers: tuple[int, int, int]) -> tuple[int, int]:
    """The library as an older refman left it: Jean-Pierre's key with its hyphen, and two
    people for Nadia O’Brien (of the second paper) and Ann O’Neil (second author of the
    third paper, where Bob Smith was): their new ids."""
    _, marshes, mudflats = papers
    nadia, ann = _person(library, "Nadia O'Brien"), _person(library, "Ann O'Neil")
    cfg = schema._alembic_config()
    with library.db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0033")
        top = int(conn.execute(text("SELECT max(id) FROM persons")).scalar_one())
        conn.execute(
            text("UPDATE persons SET key = 'jean-pierre roux' WHERE key = 'jean pierre roux'")
        )
        for new, (name, family, given, paper, position) in enumerate(
            [
                ("Nadia O’Brien", "O’Brien", "Nadia", marshes, 0),
                ("Ann O’Neil", "O’Neil", "Ann", mudflats, 1),
            ],
            start=top + 1,
        ):
            conn.execute(
                text(
                    "INSERT INTO persons (id, name, key, family, given) "
                    "VALUES (:id, :name, :key, :family, :given)"
                ),
                {"id": new, "name": name, "key": name.lower(), "family": family, "given": given},
            )
            conn.execute(
                text(
                    "UPDATE authorships SET person_id = :new WHERE paper_id = :paper "
                    "AND position = :position"
                ),
                {"new": new, "paper": paper, "position": position},
            )
        conn.execute(
            text("UPDATE papers SET author_line = 'Nadia O’Brien' WHERE id = :id"), {"id": marshes}
        )
    assert nadia < top + 1 and ann < top + 1
    return top + 1, top + 2


def test_an_older_librarys_two_people_of_one_name_become_one(
    library: LibraryService, library_location: str
) -> None:
    papers = tuple(_import(library, BIB, "lab.bib"))
    tidal, marshes, mudflats = papers
    nadia = _person(library, "Nadia O'Brien")
    merged, ann_again = _as_of_0033(library, (tidal, marshes, mudflats))
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        assert upgraded.paper(marshes).authors == ("Nadia O'Brien",)
        assert upgraded.rows([marshes])[0].first_author == "Nadia O'Brien"
        assert upgraded.person(merged) is None
        gone = upgraded.no_person(merged)
        assert isinstance(gone, NotFoundError) and f"#{nadia}" in str(gone)
        kept = upgraded.person(nadia)
        assert kept is not None and kept.count == 2
        # two people of one paper stay two
        assert upgraded.paper(mudflats).authors == ("Ann O'Neil", "Ann O’Neil")
        assert upgraded.person(ann_again) is not None
        people = upgraded.count_people()
        _import(upgraded, AGAIN.replace("Ann O’Neil", "Ann O'Neil"), "more.bib")
        assert upgraded.count_people() == people  # (Jean-Pierre's key folded too)
    finally:
        upgraded.close()
