"""Chinese, Japanese and Korean names, family name first with no space (张伟, 山田太郎, 김민수):
as new imports name them, and as revision 0025 names again the people an older refman named
given name first ("伟 张")."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from refman.importers.bibtex import parse_bibtex
from refman.store import schema
from refman.store.search_schema import damaged_indexes
from tests.helpers.fixtures import sourced
from tests.helpers.pages import publication_page

BIB = """@article{zhang2021,
  author = {张, 伟 and 山田 太郎 and 王, 芳 and Okafor, Nadia},
  title = {Tidal Mixing in Narrow Straits},
  journal = {Journal of Coastal Things},
  year = {2021},
}
"""
PAGE = publication_page("김 민수", [("Lichen Growth on Basalt Coasts", 2022, "arXiv")])
PAGE_OF_WANG = publication_page("王芳", [("Salt Marsh Sediment Budgets", 2020, "arXiv")])

#: Each person: as a new import names them, as an older refman named them, and as revision
#: 0025 names them again (name, family name, given name).
PEOPLE = (
    (("张伟", "张", "伟"), ("伟 张", "张", "伟"), ("张伟", "张", "伟")),  # BibTeX gave the family
    (("山田太郎", "山田", "太郎"), ("山田 太郎", "太郎", "山田"), ("山田 太郎", "山田", "太郎")),
    (("김 민수", "김", "민수"), ("김 민수", "민수", "김"), ("김 민수", "김", "민수")),  # as written
    (("王芳", "王", "芳"), ("芳 王", "王", "芳"), ("王芳", "王", "芳")),  # another 王芳's key
)


def _import(library: LibraryService) -> tuple[int, int]:
    (bib,) = library.import_pages([SourcedPage(parse_bibtex(BIB), "lab.bib")]).new_ids
    (page,) = library.import_pages([sourced(PAGE, "kim.txt")]).new_ids
    library.import_pages([sourced(PAGE_OF_WANG, "wang.txt")])
    return bib, page


def test_new_imports_write_such_names_family_name_first(library: LibraryService) -> None:
    bib, page = _import(library)
    detail = library.paper(bib)
    assert detail.authors[:3] == ("张伟", "山田太郎", "王芳")
    assert [(n.family, n.given) for n in detail.author_names[:3]] == [
        (family, given) for (_, family, given), *_ in PEOPLE[:2] + PEOPLE[3:]
    ]
    assert library.rows([bib])[0].first_author == "张伟 et al."
    assert library.paper_ids(PaperQuery(text="张伟")) == [bib]
    assert library.paper_ids(PaperQuery(text="author:山田")) == [bib]
    assert library.paper(page).attributed_to == ("김 민수",)  # as the page writes it
    assert "张伟" in library.cite([bib], "apa")
    people = library.count_people()
    # Written with or without a space, given by its parts or whole: one person.
    again = BIB.replace("山田 太郎", "山田太郎").replace("张, 伟", "{张伟}")
    library.import_pages(
        [
            SourcedPage(
                parse_bibtex(again + "\n" + BIB.replace("2021", "2019").replace("Tidal", "Ebb")),
                "more.bib",
            )
        ]
    )
    assert library.count_people() == people


def _name_as_before(library: LibraryService) -> None:
    """Put the library back to revision 0024 with its people named as an older refman did."""
    cfg = schema._alembic_config()
    with library.db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0024")
        for (new, *_), (name, family, given), _ in PEOPLE:
            conn.execute(
                text(
                    "UPDATE persons SET name = :name, key = :key, family = :family, "
                    "given = :given WHERE name = :new AND given <> ''"
                ),
                {"name": name, "key": name.lower(), "family": family, "given": given, "new": new},
            )
            conn.execute(
                text(
                    "UPDATE papers SET author_line = :old || ' et al.' "
                    "WHERE author_line = :new || ' et al.'"
                ),
                {"old": name, "new": new},
            )
        if library.db.path is not None:
            conn.execute(text("INSERT INTO papers_fts(papers_fts) VALUES ('rebuild')"))


def test_an_older_librarys_such_names_are_named_again_on_upgrade(
    library: LibraryService, library_location: str
) -> None:
    bib, page = _import(library)
    people = library.count_people()
    _name_as_before(library)
    if library.db.path is not None:  # (a shared library's words follow the code that runs)
        assert library.paper_ids(PaperQuery(text="张伟")) == []
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        detail = upgraded.paper(bib)
        assert detail.authors[:3] == ("张伟", "山田 太郎", "王芳")
        assert [(n.family, n.given) for n in detail.author_names[:3]] == [
            (family, given) for *_, (_, family, given) in PEOPLE[:2] + PEOPLE[3:]
        ]
        assert upgraded.rows([bib])[0].first_author == "张伟 et al."
        assert upgraded.paper(page).attributed_to == ("김 민수",)
        assert upgraded.paper_ids(PaperQuery(text="张伟")) == [bib]
        assert upgraded.paper_ids(PaperQuery(text="author:山田")) == [bib]
        # The same files again bring nobody new: the names' keys (or the old ones) find them.
        upgraded.import_pages([SourcedPage(parse_bibtex(BIB), "lab.bib")])
        upgraded.import_pages([sourced(PAGE, "kim.txt")])
        assert upgraded.count_people() == people
        if upgraded.db.path is not None:
            with upgraded.db.engine.begin() as conn:
                assert damaged_indexes(conn) == []
    finally:
        upgraded.close()
