"""The keys of a ``.bib`` export and the keys the papers show: a ``\\cite`` of the key a paper
shows (Copy Citation Key, ``refman cite --keys``) finds its entry; a key the file must hold
otherwise — in a library from before keys were read and compared as BibTeX does — is told."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sqlalchemy import update

from refman.core.export import ExportFormat, ExportText, KeyChange, export_text, key_changes_text
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.importers.bibtex import parse_bibtex
from refman.importers.detect import parse_text
from refman.store.models import Paper
from tests.helpers.bibtex_program import typeset

BIB = """\
@article{key(with)parens,
  author = {Paren, Pat},
  title = {Key with parentheses},
  journal = {J. Keys},
  year = {2010},
}

@article{Smith 2020,
  author = {Smith, John},
  title = {A key with a space},
  journal = {J. Keys},
  year = {2020},
}

@article{Smith2021,
  author = {Smith, Jane},
  title = {A key with capitals},
  journal = {J. Keys},
  year = {2021},
}
"""


def _import(library: LibraryService) -> list[int]:
    page = SourcedPage(parse_bibtex(BIB), "refs.bib")
    return sorted(library.import_pages([page]).new_ids)


def test_a_cite_of_the_keys_the_papers_show_finds_their_entries(
    library: LibraryService, tmp_path: Path
) -> None:
    ids = _import(library)
    cite = library.cite_keys(ids)
    assert cite == "\\cite{key-with-parens,Smith-2020,Smith2021}"
    export = library.export_text(ids, "bibtex")
    assert export.key_changes == ()
    bbl = typeset(export.text, tmp_path, cited=cite[len("\\cite{") : -1].split(","))
    assert bbl.count("\\bibitem{") == 3


def _as_before_keys_were_checked(library: LibraryService, keys: dict[int, str]) -> None:
    """Give papers keys as a library made before keys were read and compared as BibTeX does
    could hold them."""
    with library.db.transaction() as session:
        for paper_id, key in keys.items():
            session.execute(update(Paper).where(Paper.id == paper_id).values(citekey=key))


def test_keys_an_older_library_holds_that_the_file_writes_otherwise_are_told(
    library: LibraryService,
) -> None:
    parens, other, capitals = _import(library)
    _as_before_keys_were_checked(library, {parens: "key(with)parens", other: "smith2021"})

    export = library.export_text([capitals, other, parens], "bibtex")
    assert export.key_changes == (
        KeyChange(other, "smith2021", "smith2021-2", capitals),
        KeyChange(parens, "key(with)parens", "key-with-parens", None),
    )
    assert "@article{Smith2021," in export.text and "@article{smith2021-2," in export.text
    assert key_changes_text(export.key_changes) == (
        "2 papers' keys are written otherwise in the file, and a \\cite of those keys would "
        f"not find them: #{other} ‘smith2021’ as ‘smith2021-2’ (BibTeX takes it for paper "
        f"#{capitals}'s key, ignoring case), #{parens} ‘key(with)parens’ as ‘key-with-parens’ "
        "(a character BibTeX or biber does not take in a key)."
    )
    assert key_changes_text(export.key_changes[1:]) == (
        f"Paper #{parens}'s key ‘key(with)parens’ is ‘key-with-parens’ in the file (a "
        "character BibTeX or biber does not take in a key): a \\cite of that key would not "
        "find it."
    )
    assert library.export_text([parens], "biblatex").key_changes == export.key_changes[1:]
    for fmt in ("ris", "csl-json", "csv"):  # (their keys are written as they are)
        assert library.export_text([capitals, other, parens], fmt).key_changes == ()
    assert library.export([parens], "bibtex") == library.export_text([parens], "bibtex").text


def test_an_export_with_no_key_to_tell_says_nothing() -> None:
    assert key_changes_text(ExportText("").key_changes) == ""


def test_an_older_keys_export_imported_again_changes_nothing(library: LibraryService) -> None:
    """Its entry's key is the key made readable: the paper has it already (no other key)."""
    parens, _, _ = _import(library)
    _as_before_keys_were_checked(library, {parens: "key(with)parens"})
    before = library.paper(parens)
    for fmt in ("bibtex", "biblatex", "ris", "csl-json"):
        again = parse_text(library.export([parens], fmt))
        library.import_pages([SourcedPage(again, f"again.{fmt}")])
        assert library.paper(parens) == before, fmt


def test_a_paper_whose_other_key_is_its_key_made_readable_is_written_under_it(
    library: LibraryService,
) -> None:
    parens, _, _ = _import(library)
    paper = replace(library.paper(parens), citekey="key(with)parens", aliases=("key-with-parens",))
    export = export_text([paper], ExportFormat.BIBLATEX)
    assert export.key_changes == (KeyChange(parens, "key(with)parens", "key-with-parens", None),)
    assert export.text.startswith("@article{key-with-parens,") and "ids =" not in export.text
