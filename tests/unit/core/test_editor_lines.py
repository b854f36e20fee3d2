"""A book that names no authors shows its editors in the list's author column, as Zotero's
creator column does ("Luca Rossi (ed.)", "Luca Rossi et al. (eds.)"), sorts by its first
editor's family name among the authors, and needs no attention for it."""

from __future__ import annotations

from pathlib import Path

from refman.core.library import LibraryService
from refman.core.values import PaperQuery, Section, SortKey
from tests.helpers.fixtures import sourced_file

BIB = """@book{rossi2018,
  editor = {Rossi, Luca and Mensah, Kofi},
  title = {Coastal Processes in a Changing Climate}, publisher = {Springer}, year = {2018}
}
@book{okafor2017,
  editor = {Okafor, Ngozi}, title = {Tides and Estuaries}, year = {2017}
}
@incollection{baker2018,
  author = {Baker, Tom}, editor = {Rossi, Luca and Mensah, Kofi},
  title = {Sediment budgets}, booktitle = {Coastal Processes in a Changing Climate},
  year = {2018}
}
@article{lund2019,
  author = {Lund, Kari and others}, title = {Fjord sills}, journal = {Marine Geology},
  year = {2019}
}
@misc{dunes2016, title = {A report on dunes}, year = {2016}}
"""


def _import(library: LibraryService, tmp_path: Path, text: str = BIB) -> dict[str, int]:
    bib = tmp_path / "edited.bib"
    bib.write_text(text, encoding="utf-8")
    library.import_pages([sourced_file(bib)])
    return {str(d.citekey): d.id for d in library.details(library.paper_ids())}


def test_an_edited_books_author_column_names_its_editors(
    library: LibraryService, tmp_path: Path
) -> None:
    ids = _import(library, tmp_path)
    lines = {
        key: row.first_author
        for key, row in zip(ids, library.rows(list(ids.values())), strict=True)
    }
    assert lines == {
        "rossi2018": "Luca Rossi et al. (eds.)",
        "okafor2017": "Ngozi Okafor (ed.)",
        "baker2018": "Tom Baker",  # a chapter: its authors, not its book's editors
        "lund2019": "Kari Lund et al.",
        "dunes2016": "",
    }


def test_an_edited_book_sorts_by_its_first_editor_among_the_authors(
    library: LibraryService, tmp_path: Path
) -> None:
    ids = _import(library, tmp_path)
    order = library.paper_ids(PaperQuery(sort=SortKey.AUTHOR))
    by_id = {pid: key for key, pid in ids.items()}
    # Baker, Lund, Okafor, Rossi; the paper of nobody last
    assert [by_id[pid] for pid in order] == [
        "baker2018",
        "lund2019",
        "okafor2017",
        "rossi2018",
        "dunes2016",
    ]


def test_an_edited_book_needs_no_attention_but_an_author_list_cut_short_does(
    library: LibraryService, tmp_path: Path
) -> None:
    ids = _import(library, tmp_path)
    attention = library.paper_ids(PaperQuery(section=Section.ATTENTION))
    assert attention == [ids["lund2019"]]
    assert library.paper_ids(PaperQuery(text="is:incomplete")) == [ids["lund2019"]]
