"""Greek letters searched spelled out (revision 0035): a title kept as the text its LaTeX
prints ("α-synuclein") is found by "alpha", as a title written in ASCII is, on SQLite and
PostgreSQL alike; an older library's rows holding Greek letters are indexed again on upgrade
(and as before by the downgrade), every index in step with its rows."""

from __future__ import annotations

from alembic import command

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from refman.importers.bibtex import parse_bibtex
from refman.store import schema
from refman.store.search_schema import damaged_indexes

BIB = r"""@article{lin2020,
  author = {Lin, Mei},
  title = {Seeding of $\alpha$-synuclein aggregates},
  journal = {Journal of $\beta$ Studies},
  year = {2020},
}
@article{ode2019,
  author = {Ode, Ken},
  title = {Alpha-synuclein in mice, and NF-$\kappa$B signalling},
  year = {2019},
}
@article{pap2018,
  author = {Papadopoulos, Nikos},
  title = {{Ο λόγος} of the alphabet},
  year = {2018},
}
"""


def found(library: LibraryService, typed: str) -> list[int]:
    return sorted(library.paper_ids(PaperQuery(text=typed)))


def _import(library: LibraryService) -> dict[int | None, int]:
    library.import_pages([SourcedPage(parse_bibtex(BIB), "greek.bib")])
    by_year = {library.paper(i).year: i for i in library.paper_ids()}
    library.tag([by_year[2019]], ["β-cells"])
    library.add_note(by_year[2018], "Compare the γ values")
    return by_year


def test_greek_letters_are_found_by_their_names_and_as_typed(library: LibraryService) -> None:
    """ "alpha" finds α as it finds the word alpha, and α the word; in the words, a phrase,
    ``title:``, ``venue:``, ``tag:`` and ``note:``; a Greek word stays a word."""
    year = _import(library)
    seeded, mice, logos = year[2020], year[2019], year[2018]
    assert library.paper(seeded).title == "Seeding of α-synuclein aggregates"
    for typed in (
        "alpha synuclein",
        "α-synuclein",
        "Α-SYNUCLEIN",
        '"alpha synuclein"',
        '"α synuclein"',
    ):
        assert found(library, typed) == sorted([seeded, mice]), typed
    assert found(library, "title:alpha-synuclein") == sorted([seeded, mice])
    assert found(library, "title:α") == sorted([seeded, mice, logos])  # (alphabet holds alpha)
    assert found(library, "venue:beta") == [seeded]
    assert found(library, "kappaB") == [mice]
    assert found(library, "NF-κB") == [mice]
    assert found(library, "tag:beta-cells") == [mice]
    assert found(library, "beta cells") == [mice]  # (the tag's words)
    assert found(library, "note:gamma") == [logos]
    assert found(library, "λόγος") == [logos]
    assert found(library, "λογος") == [logos]  # (accents never count)
    assert found(library, "alphabet") == [logos]  # not the α papers
    assert found(library, "seeding alp") == [seeded]  # (search as you type)


def test_an_older_librarys_greek_letters_are_found_after_the_upgrade(
    library: LibraryService, library_location: str
) -> None:
    year = _import(library)
    cfg = schema._alembic_config()
    with library.db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0034")  # the words as refman of revision 0034 indexed them
    if library.db.path is not None:  # (a shared library's typed words follow the code)
        with library.db.engine.begin() as conn:
            assert damaged_indexes(conn) == []
        assert found(library, "alpha synuclein") == [year[2019]]  # (as that refman found)
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        assert found(upgraded, "alpha synuclein") == sorted([year[2020], year[2019]])
        assert found(upgraded, "beta cells") == [year[2019]]
        assert found(upgraded, "gamma values") == [year[2018]]
        assert found(upgraded, "λόγος") == [year[2018]]
        upgraded.edit_fields(year[2020], title="Seeding of β-amyloid")
        assert found(upgraded, "alpha synuclein") == [year[2019]]
        assert found(upgraded, "beta amyloid") == [year[2020]]
        if upgraded.db.path is not None:
            with upgraded.db.engine.begin() as conn:
                assert damaged_indexes(conn) == []
    finally:
        upgraded.close()
