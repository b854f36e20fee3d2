"""Revision 0029: a merge remembers the notes and files it moved (``merged_children``). A
library merged under an older revision upgrades with nothing lost: what those merges moved
stays with the papers kept (they cannot be known), and merges made since are taken back."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.paper_merge import MergePapers
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from refman.store import schema


def _paper(library: LibraryService, title: str) -> int:
    page = ParsedPage("Ada Ng", PageFormat.PUBLICATION_LIST, 1, [ParsedRecord(title, False, "")])
    (paper_id,) = library.import_pages([SourcedPage(page)]).new_ids
    return paper_id


def test_a_library_merged_before_the_upgrade_keeps_its_notes_where_they_are(
    library: LibraryService, library_location: str
) -> None:
    kept, merged = _paper(library, "Coral reef acoustics"), _paper(library, "Coral reef sounds")
    library.add_note(merged, "Hydrophone settings.")
    library.apply(MergePapers(kept, merged))
    cfg = schema._alembic_config()
    with library.db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0028")
        assert "merged_children" not in inspect(conn).get_table_names()
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        upgraded.restore([merged])
        assert [n.text for n in upgraded.paper(kept).notes] == ["Hydrophone settings."]
        assert upgraded.paper(merged).notes == ()
        upgraded.trash([merged])
        again = _paper(upgraded, "Coral reef noise")
        upgraded.add_note(again, "Night recordings.")
        upgraded.apply(MergePapers(kept, again))
        upgraded.restore([again])
        assert [n.text for n in upgraded.paper(again).notes] == ["Night recordings."]
    finally:
        upgraded.close()
