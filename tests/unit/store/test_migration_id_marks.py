"""Revision 0027: every table's id mark starts at the highest id the library knows, those of
rows deleted since included, so an older library never gives them again."""

from __future__ import annotations

from alembic import command

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.paper_merge import MergePapers
from refman.importers.bibtex import parse_bibtex
from refman.store import schema
from tests.helpers.fixtures import sourced
from tests.helpers.pages import publication_page

BIB = """@article{okafor2024,
  author = {Okafor, Mira},
  title = {Overlapped checkpoint writes},
  journal = {Systems Letters},
  year = {2024},
  annote = {Read for the survey.},
}
"""


def _as_before_0027(library: LibraryService) -> None:
    """The library at revision 0026, with the ids an older refman would hand out next: a
    shared library's papers never took theirs from the sequence, and a copy made by an older
    refman set the others' next to the highest row's plus one."""
    cfg = schema._alembic_config()
    with library.db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0026")
        if library.db.path is None:
            conn.exec_driver_sql("SELECT setval('papers_id_seq', 1, false)")
            conn.exec_driver_sql("SELECT setval('notes_id_seq', 1, false)")
        else:
            tables = conn.exec_driver_sql("SELECT name FROM sqlite_master").scalars().all()
            assert "id_marks" not in tables


def test_an_older_library_never_gives_again_the_ids_of_rows_deleted_since(
    library: LibraryService, library_location: str
) -> None:
    library.import_pages([SourcedPage(parse_bibtex(BIB), "lab.bib")])
    (paper,) = library.paper_ids()
    (note,) = library.paper(paper).notes  # made by the import, deleted by the person
    library.delete_note(note.id)
    page = publication_page("Ada Lund", [("Fjords", 2020, "arXiv"), ("Moraines", 2021, "arXiv")])
    kept, merged = library.import_pages([sourced(page, "ada.txt")]).new_ids
    library.apply(MergePapers(kept, merged))  # remembered as merged, then deleted for good
    library.empty_trash()
    assert sorted(library.paper_ids()) == [paper, kept] and merged > kept
    _as_before_0027(library)
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        later = publication_page("Bo Kerr", [("Drumlins", 2021, "arXiv")])
        (new,) = upgraded.import_pages([sourced(later, "bo.txt")]).new_ids
        assert new > merged
        assert upgraded.add_note(new, "A note of the new paper.").id > note.id
    finally:
        upgraded.close()
