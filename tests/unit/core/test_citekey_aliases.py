"""A paper keeps the citation keys of the entries an import found to be it: a ``\\cite`` of any
of them still finds it (``key:``, BibLaTeX ``ids``), no other paper takes them, and an undo
of the import takes them away again."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from refman.common.errors import RefmanError
from refman.core import citekey_aliases, state_io
from refman.core.importing.values import ImportChoices, SourcedPage
from refman.core.library import LibraryService
from refman.core.operations import ImportPages
from refman.core.paper_merge import MergePapers
from refman.core.values import PaperQuery
from refman.importers import parse_text
from refman.importers.bibtex import parse_bibtex
from tests.unit.core.export.bibcheck import parse_bibtexparser


def sourced(text: str, name: str) -> SourcedPage:
    return SourcedPage(parse_bibtex(text), name)


PREPRINT = """@misc{brown_language_2020,
  title = {Language {Models} are {Few}-{Shot} {Learners}},
  author = {Brown, Tom B. and Mann, Benjamin},
  year = {2020},
  doi = {10.48550/arXiv.2005.14165},
  eprint = {2005.14165},
  archiveprefix = {arXiv},
}
"""
PUBLISHED = """@inproceedings{brown_language_2020-1,
  title = {Language {Models} are {Few}-{Shot} {Learners}},
  booktitle = {Advances in {Neural} {Information} {Processing} {Systems}},
  author = {Brown, Tom and Mann, Benjamin},
  year = {2020},
  pages = {1877--1901},
}
"""
OTHER = """@article{brown_language_2020-1,
  title = {Quiet Tokens in Long Documents},
  author = {Okafor, Nadia},
  year = {2021},
  journal = {Journal of Things},
}
"""


def keyed(library: LibraryService, key: str) -> list[int]:
    return library.paper_ids(PaperQuery(text=f"key:{key}"))


def test_the_key_of_an_entry_merged_into_a_paper_still_cites_it(library: LibraryService) -> None:
    result = library.import_pages([sourced(PREPRINT + "\n" + PUBLISHED, "zotero.bib")])
    (paper,) = result.new_ids
    detail = library.paper(paper)
    assert (detail.citekey, detail.aliases) == ("brown_language_2020", ("brown_language_2020-1",))
    assert keyed(library, "brown_language_2020-1") == [paper]
    assert keyed(library, "Brown_Language_2020-1") == [paper]  # as BibTeX compares keys
    assert library.paper_ids(PaperQuery(text="brown_language_2020-1")) == [paper]

    read = parse_bibtexparser(library.export([paper], "biblatex"))  # an independent reader
    assert read["brown_language_2020"][1]["ids"] == "brown_language_2020-1"
    again = library.import_pages([sourced(PREPRINT + "\n" + PUBLISHED, "zotero.bib")])
    assert (again.new_ids, again.merged_ids) == ((), ())

    # Another paper never takes the key: the entry that asks for it gets one of its own.
    (other,) = library.import_pages([sourced(OTHER, "other.bib")]).new_ids
    assert library.paper(other).citekey not in (None, "brown_language_2020-1")
    assert keyed(library, "brown_language_2020-1") == [paper]
    with pytest.raises(RefmanError, match="also cites paper"):
        library.edit_fields(other, citekey="Brown_language_2020-1")


def test_a_merge_in_a_later_import_is_undone_with_it(library: LibraryService) -> None:
    (paper,) = library.import_pages([sourced(PREPRINT, "arxiv.bib")]).new_ids
    merged = library.import_pages([sourced(PUBLISHED, "neurips.bib")])
    assert merged.merged_ids == (paper,)
    assert library.paper(paper).aliases == ("brown_language_2020-1",)
    latest = library.history()[0]
    library.revert(latest.import_id)
    assert library.paper(paper).aliases == ()
    assert keyed(library, "brown_language_2020-1") == []


def test_biblatex_ids_come_in_and_go_out_again(library: LibraryService) -> None:
    text = PUBLISHED.replace("pages =", "ids = {Brown2020, gpt3paper},\n  pages =")
    (paper,) = library.import_pages([sourced(text, "ids.bib")]).new_ids
    assert library.paper(paper).aliases == ("Brown2020", "gpt3paper")
    exported = library.export([paper], "bibtex")
    assert "ids = {Brown2020, gpt3paper}" in exported
    assert keyed(library, "gpt3paper") == [paper]


def test_a_key_changed_to_one_of_its_other_keys_swaps_them_and_undo_swaps_back(
    library: LibraryService,
) -> None:
    (paper,) = library.import_pages([sourced(PREPRINT + "\n" + PUBLISHED, "zotero.bib")]).new_ids
    outcome = library.edit_fields(paper, citekey="brown_language_2020-1")
    detail = library.paper(paper)
    assert (detail.citekey, detail.aliases) == ("brown_language_2020-1", ("brown_language_2020",))
    assert keyed(library, "brown_language_2020") == [paper]
    assert outcome.inverse is not None
    library.apply(outcome.inverse)
    detail = library.paper(paper)
    assert (detail.citekey, detail.aliases) == ("brown_language_2020", ("brown_language_2020-1",))


def test_a_record_whose_key_cites_another_paper_brings_nothing_by_it(
    library: LibraryService,
) -> None:
    (other,) = library.import_pages([sourced(OTHER, "other.bib")]).new_ids  # -1 is its key
    (paper,) = library.import_pages([sourced(PREPRINT, "arxiv.bib")]).new_ids
    same_paper = PREPRINT.replace("brown_language_2020,", "brown_language_2020-1,")
    for _ in range(2):
        again = library.import_pages([sourced(same_paper, "again.bib")])
        assert (again.new_ids, again.merged_ids, again.unchanged_ids) == ((), (), (paper,))
    assert library.paper(paper).aliases == ()
    assert keyed(library, "brown_language_2020-1") == [other]


def test_a_key_edited_while_an_import_gives_it_to_another_paper_waits_and_is_refused(
    library: LibraryService, library_location: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two people on one shared library (or one library file): the key the import gives as
    another key of one paper is never made the key of another at the same time."""
    (other,) = library.import_pages([sourced(OTHER.replace("-1,", "-9,"), "other.bib")]).new_ids
    (paper,) = library.import_pages([sourced(PREPRINT, "arxiv.bib")]).new_ids
    written, go_on = threading.Event(), threading.Event()
    write = citekey_aliases.write_aliases

    def held_open(*args: Any) -> None:  # the import keeps its transaction open a moment
        write(*args)
        written.set()
        go_on.wait(3)

    monkeypatch.setattr(state_io, "write_aliases", held_open)
    importing = threading.Thread(
        target=lambda: library.import_pages([sourced(PUBLISHED, "neurips.bib")])
    )
    importing.start()
    assert written.wait(30)
    monkeypatch.setattr(state_io, "write_aliases", write)
    editor = LibraryService.open(library_location)
    try:
        threading.Timer(0.5, go_on.set).start()
        with pytest.raises(RefmanError, match="also cites paper"):
            editor.edit_fields(other, citekey="brown_language_2020-1")
    finally:
        importing.join(30)
        editor.close()
    assert keyed(library, "brown_language_2020-1") == [paper]
    assert library.paper(other).citekey != "brown_language_2020-1"


def test_an_import_undone_and_made_again_keeps_the_files_keys(library: LibraryService) -> None:
    text = PREPRINT + "\n" + PUBLISHED
    outcome = library.apply(ImportPages((sourced(text, "zotero.bib"),), ImportChoices()))
    assert outcome.inverse is not None
    library.apply(outcome.inverse)  # undone: the paper waits to be deleted for good
    (paper,) = library.import_pages([sourced(text, "zotero.bib")]).new_ids
    detail = library.paper(paper)
    assert (detail.citekey, detail.aliases) == ("brown_language_2020", ("brown_language_2020-1",))
    assert keyed(library, "brown_language_2020-1") == [paper]
    library.purge()
    assert library.paper(paper).citekey == "brown_language_2020"


def test_a_key_with_a_capital_is_found_typed_in_lower_case(library: LibraryService) -> None:
    (paper,) = library.import_pages(
        [sourced(OTHER.replace("brown_language_2020-1", "Okafor2021"), "k.bib")]
    ).new_ids
    assert library.paper(paper).citekey == "Okafor2021"
    assert keyed(library, "okafor2021") == keyed(library, "OKAFOR2021") == [paper]
    assert library.paper_ids(PaperQuery(text="okafor2021")) == [paper]


def test_an_entry_whose_key_another_paper_holds_is_told_in_the_report(
    library: LibraryService,
) -> None:
    (paper,) = library.import_pages([sourced(PREPRINT + "\n" + PUBLISHED, "zotero.bib")]).new_ids
    result = library.import_pages([sourced(OTHER, "other.bib")])  # asks for brown_..._2020-1
    (other,) = result.new_ids
    assert result.pages[0].warnings == (
        f"Line 1: “brown_language_2020-1” cites paper #{paper} already (its key or other key); the "
        "entry's paper was not given it.",
    )
    assert library.paper(other).citekey != "brown_language_2020-1"
    again = library.import_pages([sourced(PREPRINT + "\n" + PUBLISHED, "zotero.bib")])
    assert again.pages[0].warnings == ()  # its own keys, found again


def test_a_key_edited_to_one_an_undone_import_withdrew_is_free(library: LibraryService) -> None:
    (other,) = library.import_pages([sourced(OTHER, "other.bib")]).new_ids
    outcome = library.apply(
        ImportPages((sourced(PREPRINT + "\n" + PUBLISHED, "z.bib"),), ImportChoices())
    )
    assert outcome.inverse is not None
    library.apply(outcome.inverse)  # undone: its paper waits to be deleted for good
    for key in ("brown_language_2020", "Brown_Language_2020-1"):  # its key, its other key
        library.edit_fields(other, citekey=key)
        assert keyed(library, key) == [other]
    library.purge()
    assert library.paper(other).citekey == "Brown_Language_2020-1"
    assert keyed(library, "brown_language_2020") == []


GPT3 = """@article{gpt3,
  title = {Scaling Few-Shot Prompting},
  author = {Okafor, Nadia and Brown, Tom B. and Mann, Benjamin},
  year = {2020},
  journal = {Journal of Things},
}
"""


def _two(library: LibraryService) -> tuple[int, int]:
    """The Zotero pair (one paper with another key) and another paper, ``gpt3``."""
    (paper,) = library.import_pages([sourced(PREPRINT + "\n" + PUBLISHED, "zotero.bib")]).new_ids
    (other,) = library.import_pages([sourced(GPT3, "gpt3.bib")]).new_ids
    return paper, other


def test_a_paper_with_other_keys_merged_into_another_brings_them(
    library: LibraryService,
) -> None:
    paper, kept = _two(library)
    done = library.apply(MergePapers(kept, paper))
    assert set(library.paper(kept).aliases) == {"brown_language_2020", "brown_language_2020-1"}
    for key in ("brown_language_2020", "brown_language_2020-1", "gpt3"):
        assert keyed(library, key) == [kept], key
    assert done.inverse is not None
    library.apply(done.inverse)  # undone: each paper its own keys again
    assert library.paper(kept).aliases == ()
    assert library.paper(paper).aliases == ("brown_language_2020-1",)
    assert keyed(library, "brown_language_2020-1") == [paper]


def test_papers_restored_together_with_the_one_they_went_into_have_their_keys(
    library: LibraryService,
) -> None:
    paper, kept = _two(library)
    library.apply(MergePapers(kept, paper))
    library.trash([kept])
    library.restore([kept, paper])
    assert keyed(library, "brown_language_2020") == [paper]  # one paper for one key
    assert "brown_language_2020" not in library.paper(kept).aliases
    text = library.export([kept, paper], "biblatex")
    assert [key for key, _ in parse_bibtexparser(text).items()] == ["gpt3", "brown_language_2020"]


@pytest.mark.parametrize("chosen", ["myKey", "brown2020language"])  # (or the key refman makes)
def test_a_merged_paper_whose_key_the_kept_one_took_gets_a_key_back_from_the_trash(
    library: LibraryService, chosen: str
) -> None:
    paper, kept = _two(library)
    library.edit_fields(paper, citekey=chosen)  # chosen by hand: the kept paper takes it
    library.apply(MergePapers(kept, paper))
    assert library.paper(kept).citekey == chosen
    library.restore([paper])
    key = library.paper(paper).citekey
    assert key not in (None, "", chosen)
    assert keyed(library, key) == [paper]


def test_a_file_listed_again_after_a_merge_of_its_papers_says_nothing_of_their_keys(
    library: LibraryService,
) -> None:
    """Its entries find the paper kept, whose key and other key they are: no clash to tell."""
    paper, kept = _two(library)
    library.apply(MergePapers(kept, paper))
    again = library.import_pages([sourced(PREPRINT + "\n" + PUBLISHED + "\n" + GPT3, "all.bib")])
    assert again.pages[0].warnings == ()
    assert (again.new_ids, again.merged_ids) == ((), ())


@pytest.mark.parametrize(("fmt", "suffix"), [("ris", "ris"), ("csl-json", "json")])
def test_other_keys_come_back_from_every_export(
    library: LibraryService, tmp_path: Path, fmt: str, suffix: str
) -> None:
    """RIS and CSL-JSON have no field for them: refman's extension carries them."""
    (paper,) = library.import_pages([sourced(PREPRINT + "\n" + PUBLISHED, "zotero.bib")]).new_ids
    text = library.export([paper], fmt)
    other = LibraryService.open(tmp_path / "other.sqlite")
    try:
        (back,) = other.import_pages([SourcedPage(parse_text(text, f"x.{suffix}"))]).new_ids
        detail = other.paper(back)
        assert (detail.citekey, detail.aliases) == (
            "brown_language_2020",
            ("brown_language_2020-1",),
        )
    finally:
        other.close()


def test_a_merged_paper_whose_key_holds_a_capital_beyond_ascii_takes_it_back(
    library: LibraryService,
) -> None:
    """Keys compare as BibTeX compares them on both backends (PostgreSQL's lower() folds Ł)."""
    lukasz = "@misc{Łukasz2020,\n  title = {Models Everywhere},\n  author = {Kaiser, Ł.},\n}\n"
    (paper,) = library.import_pages([sourced(lukasz, "l.bib")]).new_ids
    (kept,) = library.import_pages([sourced(GPT3, "g.bib")]).new_ids
    library.apply(MergePapers(kept, paper))
    assert library.paper(kept).aliases == ("Łukasz2020",)
    library.restore([paper])
    assert library.paper(kept).aliases == ()
    assert keyed(library, "Łukasz2020") == [paper]
