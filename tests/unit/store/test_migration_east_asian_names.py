"""Chinese, Japanese and Korean names, family name first (张伟, 山田太郎, 김민수), and their
letters searched one by one: as new imports name and index them, and as revision 0025 mends
a library an older refman made (people named "伟 张", two people for one name, words indexed
whole)."""

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
  author = {张, 伟 and 山田 太郎 and 王, 芳 and Okafor, Nadia and 佐々木, 健},
  title = {黄河三角洲湿地的泥沙输移},
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
    (("王芳", "王", "芳"), ("芳 王", "王", "芳"), ("王芳", "王", "芳")),
)


def _import(library: LibraryService) -> tuple[int, int, int]:
    (bib,) = library.import_pages([SourcedPage(parse_bibtex(BIB), "lab.bib")]).new_ids
    (page,) = library.import_pages([sourced(PAGE, "kim.txt")]).new_ids
    (wang,) = library.import_pages([sourced(PAGE_OF_WANG, "wang.txt")]).new_ids
    library.tag([bib], ["泥沙研究"])
    library.tag([wang], ["기음", "ﾃﾞｰﾀ"])  # (half-width katakana: データ as NFKC reads it)
    library.add_note(bib, "与长江口的泥沙对比")
    library.add_note(page, "やまたの研究")
    return bib, page, wang


def found(library: LibraryService, typed: str) -> list[int]:
    return library.paper_ids(PaperQuery(text=typed))


def test_new_imports_write_such_names_family_name_first(library: LibraryService) -> None:
    bib, page, wang = _import(library)
    detail = library.paper(bib)
    assert detail.authors[:3] == ("张伟", "山田太郎", "王芳")
    assert detail.authors[4] == "佐々木健"
    assert [(n.family, n.given) for n in detail.author_names[:3]] == [
        (family, given) for (_, family, given), *_ in PEOPLE[:2] + PEOPLE[3:]
    ]
    assert library.rows([bib])[0].first_author == "张伟 et al."
    assert library.paper(page).attributed_to == ("김 민수",)  # as the page writes it
    assert library.paper(wang).attributed_to == ("王芳",)  # BibTeX's 王, 芳: one person
    assert "张伟, 山田太郎, 王芳, Okafor, N., & 佐々木健" in library.cite([bib], "apa")
    people = library.count_people()
    # Written with or without a space, given by its parts or whole: one person.
    again = BIB.replace("山田 太郎", "山田太郎").replace("张, 伟", "{张伟}")
    more = again + "\n" + BIB.replace("2021", "2019").replace("泥沙输移", "盐度")
    library.import_pages([SourcedPage(parse_bibtex(more), "more.bib")])
    assert library.count_people() == people


def test_their_letters_are_searched_one_by_one(library: LibraryService) -> None:
    """Those scripts write no space between words: a word typed is found inside a longer
    one, names with or without their space, in titles, names, tags and notes."""
    bib, page, wang = _import(library)
    for typed in (
        "泥沙",
        "三角洲",
        "张伟",
        "伟",
        "山田 太郎",
        "山田太郎",
        "佐々木",
        "author:张",
        "author:伟",
    ):
        assert found(library, typed) == [bib], typed
    for typed in ("김민수", "김 민수", "민수", "owner:민수", "owner:김"):
        assert found(library, typed) == [page], typed
    assert found(library, "泥沙研究") == [bib]  # its tag
    assert found(library, "长江口") == [bib]  # its note
    assert found(library, "沙泥") == []  # the letters side by side, in this order
    assert found(library, "黄河 盐度") == []
    assert found(library, "やまだ") == []  # だ is not た
    assert found(library, "김") == [page]  # a syllable is one letter (기음 holds no 김)
    assert found(library, "データ") == [wang]


def _name_as_before(library: LibraryService, wang: int) -> None:
    """Put the library back to revision 0024 with its people named as an older refman did,
    and 王芳's page a person of its own."""
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
        conn.execute(
            text(
                "INSERT INTO persons (id, name, key, family) "
                "SELECT max(id) + 1, '王芳', '王芳', '王芳' FROM persons"
            )
        )
        conn.execute(
            text(
                "UPDATE attributions SET person_id = (SELECT id FROM persons WHERE key = '王芳') "
                "WHERE paper_id = :p"
            ),
            {"p": wang},
        )
        if library.db.path is not None:  # (the words as an older refman indexed them)
            conn.execute(text("INSERT INTO papers_fts(papers_fts) VALUES ('rebuild')"))


def test_an_older_library_is_mended_on_upgrade(
    library: LibraryService, library_location: str
) -> None:
    bib, page, wang = _import(library)
    people = library.count_people()
    _name_as_before(library, wang)
    if library.db.path is not None:  # (a shared library's words follow the code that runs)
        assert found(library, "张伟") == []
    assert library.count_people() == people + 1
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
        assert upgraded.count_people() == people  # 王芳's page and 王, 芳: one person again
        assert upgraded.paper(wang).attributed_to == ("王芳",)
        for typed in ("张伟", "泥沙", "山田太郎", "author:山田", "泥沙研究", "长江口"):
            assert found(upgraded, typed) == [bib], typed
        assert found(upgraded, "データ") == [wang]
        assert found(upgraded, "김민수") == [page]
        # The same files again bring nobody new: the names' keys (or the old ones) find them.
        upgraded.import_pages([SourcedPage(parse_bibtex(BIB), "lab.bib")])
        upgraded.import_pages([sourced(PAGE, "kim.txt"), sourced(PAGE_OF_WANG, "wang.txt")])
        assert upgraded.count_people() == people
        if upgraded.db.path is not None:
            with upgraded.db.engine.begin() as conn:
                assert damaged_indexes(conn) == []
    finally:
        upgraded.close()


def test_the_downgrade_indexes_their_letters_as_before(
    library: LibraryService, library_location: str
) -> None:
    bib, *_ = _import(library)
    cfg = schema._alembic_config()
    with library.db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0024")
    if library.db.path is not None:
        with library.db.engine.begin() as conn:
            assert damaged_indexes(conn) == []
    library.close()
    upgraded = LibraryService.open(library_location)
    try:
        assert found(upgraded, "泥沙") == [bib]
    finally:
        upgraded.close()
