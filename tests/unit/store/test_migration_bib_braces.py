"""Revision 0030: refman keeps a BibTeX abstract without its grouping braces. The papers an
older refman read with them (``from {AlphaFold} to``) are read again from the entries their
imports kept, once, when the library is upgraded — only those that still hold exactly what
the older reader made; a title the person edited, or an abstract another source gave,
stays."""

from __future__ import annotations

from alembic import command
from sqlalchemy import Engine, text

from refman.core.export import ExportFormat
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import EditPaper
from refman.core.rules import FieldEdits
from refman.core.values import PaperQuery
from refman.importers.bibtex import parse_bibtex
from refman.store import schema
from refman.store.packed import pack

BIB = """\
@article{fold2021,
  title = {Protein Structure at Scale},
  author = {Ng, Ada},
  year = {2021},
  abstract = {We go from {AlphaFold} to {RoseTTAFold}, keeping $x^{2}$ and \\emph{loops}~intact.},
}

@article{untitled2022,
  author = {Ng, Ada},
  year = {2022},
  abstract = {{Mamba} layers for tidal forecasts.},
}

@article{retitled2020,
  author = {Ng, Ada},
  year = {2020},
  abstract = {Kernels for {GPUs}.},
}
"""
#: What refman before revision 0030 made of the entries' abstracts and suggested title.
OLD_FOLD = "We go from {AlphaFold} to {RoseTTAFold}, keeping $x^{2}$ and \\emph{loops}~intact."
OLD_UNTITLED = "{Mamba} layers for tidal forecasts."
OLD_UNTITLED_TITLE = "{Mamba} layers for tidal forecasts"
OLD_RETITLED = "Kernels for {GPUs}."
MINE = "Sparse {GPU} Kernels"


def _as_of_0029(engine: Engine, rows: dict[int, tuple[str, str | None]]) -> None:
    """Take the library down to revision 0029 and give the papers what its reader made:
    ``rows`` by paper id, (abstract, provisional title or None)."""
    cfg = schema._alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0029")
        for paper_id, (abstract, title) in rows.items():
            conn.execute(
                text("UPDATE papers SET abstract = :abstract WHERE id = :id"),
                {"abstract": pack(abstract), "id": paper_id},
            )
            if title is not None:
                conn.execute(
                    text("UPDATE papers SET title = :title WHERE id = :id"),
                    {"title": title, "id": paper_id},
                )


def test_an_older_librarys_braced_bibtex_abstracts_are_read_again(
    library: LibraryService, library_location: str
) -> None:
    page = SourcedPage(parse_bibtex(BIB), "refs.bib")
    fold, untitled, retitled = library.import_pages([page]).new_ids
    assert library.paper(fold).abstract.startswith("We go from AlphaFold to RoseTTAFold")
    library.apply(EditPaper(retitled, FieldEdits(title=MINE)))
    _as_of_0029(
        library.db.engine,
        {
            fold: (OLD_FOLD, None),
            untitled: (OLD_UNTITLED, OLD_UNTITLED_TITLE),
            retitled: (OLD_RETITLED, None),
        },
    )
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        assert upgraded.paper(fold).abstract == (
            "We go from AlphaFold to RoseTTAFold, keeping $x^{2}$ and \\emph{loops}\xa0intact."
        )
        assert upgraded.paper(fold).title == "Protein Structure at Scale"
        mamba = upgraded.paper(untitled)
        assert (mamba.abstract, mamba.title) == (
            "Mamba layers for tidal forecasts.",
            "Mamba layers for tidal forecasts",
        )
        kernels = upgraded.paper(retitled)
        assert (kernels.abstract, kernels.title) == ("Kernels for GPUs.", MINE)  # (the person's)
        exported = upgraded.export([fold, untitled], ExportFormat.BIBTEX)
        assert "\\{" not in exported and "AlphaFold to RoseTTAFold" in exported
        found = upgraded.paper_ids(PaperQuery(text="RoseTTAFold"))
        assert list(found) == [fold]
        with upgraded.db.engine.connect() as conn:
            tasks = conn.execute(text("SELECT task FROM library_tasks")).scalars().all()
        assert tasks == []
    finally:
        upgraded.close()


def test_an_abstract_the_person_wrote_with_braces_stays(
    library: LibraryService, library_location: str
) -> None:
    """The stored abstract is not the older reader's of the entry: it is left as it is,
    braces and all."""
    page = SourcedPage(parse_bibtex(BIB), "refs.bib")
    fold, _, _ = library.import_pages([page]).new_ids
    other = "We go from {AlphaFold} onwards."  # (not what the older reader made)
    _as_of_0029(library.db.engine, {fold: (other, None)})
    library.close()

    upgraded = LibraryService.open(library_location)
    try:
        assert upgraded.paper(fold).abstract == other
    finally:
        upgraded.close()
