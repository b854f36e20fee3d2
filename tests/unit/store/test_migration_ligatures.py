"""Revision 0022: SQLite's search indexes read ligatures and full-width letters as the
letters they stand for. An older library's rows holding them are indexed again on upgrade
(and only those): the words typed find them, and every index stays in step with its rows."""

from __future__ import annotations

from pathlib import Path

from alembic import command

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from refman.importers import parse_text
from refman.store import schema
from refman.store.search_schema import damaged_indexes

BIB = """@article{ng2001,
  author = {Ng, Ada},
  title = {Eﬃcient Conﬁguration of Workﬂows},
  journal = {Ｔｏｋｙｏ Ｊｏｕｒｎａｌ},
  year = {2001},
}
@article{ng2002,
  author = {Ng, Ada},
  title = {Plain Words Only},
  year = {2002},
}
"""


def _found(library: LibraryService, text: str) -> list[int]:
    return library.paper_ids(PaperQuery(text=text))


def test_an_older_librarys_ligatures_are_found_after_the_upgrade(
    library: LibraryService, library_path: Path
) -> None:
    library.import_pages([SourcedPage(parse_text(BIB), "ng.bib")])
    by_year = {library.paper(i).year: i for i in library.paper_ids()}
    library.tag([by_year[2001]], ["ﬁeld work"])
    library.add_note(by_year[2002], "Ｄｒａｆｔ of the ﬁrst chapter")
    cfg = schema._alembic_config()
    with library.db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0021")  # the words as refman of revision 0021 indexed them
    assert _found(library, "efficient") == []  # (as that refman found them: not at all)
    library.close()

    upgraded = LibraryService.open(library_path)
    try:
        assert _found(upgraded, "efficient workflows") == [by_year[2001]]
        assert _found(upgraded, "tokyo journal") == [by_year[2001]]
        assert _found(upgraded, "field work") == [by_year[2001]]  # the tag
        assert _found(upgraded, "draft first") == [by_year[2002]]  # the note
        assert _found(upgraded, "plain words") == [by_year[2002]]
        with upgraded.db.engine.begin() as conn:
            assert damaged_indexes(conn) == []
        upgraded.edit_fields(by_year[2001], title="Workﬂows Again")
        assert _found(upgraded, "efficient") == [] and _found(upgraded, "workflows") == [
            by_year[2001]
        ]
        with upgraded.db.engine.begin() as conn:
            assert damaged_indexes(conn) == []
    finally:
        upgraded.close()
