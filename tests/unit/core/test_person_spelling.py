"""A person's name as best written: a spelling with the accents, or with letters such as ł
and ß, names the person (one key) rather than a plainer one, whichever came first — in the
People list, the list's author line, the detail pane, exports and citations — and undoing
or reverting the import that brought it gives the old spelling back."""

from __future__ import annotations

import pytest

from refman.core.importing.values import ImportChoices, SourcedPage
from refman.core.importing.wording import renamed_text
from refman.core.library import LibraryService
from refman.core.operations import ImportPages
from refman.core.spellings import better_spelling
from refman.core.values import PaperQuery
from refman.importers import parse_text
from refman.importers.records import PersonName
from tests.helpers.fixtures import sourced
from tests.helpers.pages import abstracts_page

SCHEDULING = (
    "We schedule pipeline parallel training across straggling accelerators and recover most "
    "of the lost throughput with a simple rebalancing rule."
)
CHECKPOINTS = (
    "Checkpointing large models to remote storage stalls training; we overlap the writes "
    "with computation and cut the stall to a few seconds."
)
COMPRESSION = (
    "A survey of gradient compression for data parallel training on slow networks, with "
    "measurements on three clusters."
)


def _bib(key: str, authors: str, title: str, year: int = 2021) -> str:
    return (
        f"@article{{{key},\n  author = {{{authors}}},\n  title = {{{title}}},\n"
        f"  journal = {{Journal of Systems}},\n  year = {{{year}}},\n}}\n"
    )


def _bib_page(text: str, source: str = "refs.bib") -> SourcedPage:
    return SourcedPage(parse_text(text), source)


def _import(page: SourcedPage, *, dry_run: bool = False) -> ImportPages:
    return ImportPages((page,), ImportChoices(dry_run=dry_run))


def _names(library: LibraryService) -> dict[str, int]:
    return {p.name: p.id for p in library.everyone()}


def _first_authors(library: LibraryService) -> list[str]:
    return sorted(r.first_author for r in library.papers(PaperQuery()))


@pytest.mark.parametrize(
    ("kept", "offered", "shown"),
    [
        ("Jose Garcia", "José García", "José García"),
        ("José García", "Jose Garcia", "José García"),  # never the plainer one
        ("Lukasz Nowak", "Łukasz Nowak", "Łukasz Nowak"),  # a letter of its own
        ("Hans Strasse", "Hans Straße", "Hans Straße"),
        ("Jorn Osterberg", "Jørn Østerberg", "Jørn Østerberg"),
        ("Zoe Muller", "Zoë Müller", "Zoë Müller"),
        ("Zoe Mueller", "Zoë Müller", "Zoe Mueller"),  # another key: another person
        ("José Garcia", "Jose García", "José Garcia"),  # as well written: the first
        ("J. Garcia", "J Garcia", "J. Garcia"),
        ("Jose Garcia", "JOSÉ GARCÍA", "Jose Garcia"),  # not in capitals for an accent
        ("JOSE GARCIA", "José García", "José García"),
        ("jose garcia", "José García", "José García"),
        ("Jose Garcia", "Ｊｏｓｅ Garcia", "Jose Garcia"),  # full-width letters are no better
        ("山田 太郎", "山田太郎", "山田 太郎"),
        ("やまだ", "やまた", "やまだ"),  # another key (voicing marks make other letters)
    ],
)
def test_which_spelling_names_a_person(kept: str, offered: str, shown: str) -> None:
    assert better_spelling(kept, offered) == shown


def test_one_page_with_both_spellings_names_the_person_with_the_accents(
    library: LibraryService,
) -> None:
    page = abstracts_page(
        "José García",  # the owner, after their own papers' plainer author lines
        [
            ("Jose Garcia, Mira Okafor", SCHEDULING),
            ("Lukasz Nowak, Mira Okafor", CHECKPOINTS),
            ("Łukasz Nowak, José García", COMPRESSION),
        ],
    )
    library.import_pages([sourced(page)])
    assert set(_names(library)) == {"José García", "Mira Okafor", "Łukasz Nowak"}
    assert _first_authors(library) == [
        "José García et al.",
        "Łukasz Nowak et al.",
        "Łukasz Nowak et al.",
    ]
    assert [p.name for p in library.people()] == ["José García"]
    details = library.details(library.paper_ids())
    assert {d.authors[0] for d in details} == {"José García", "Łukasz Nowak"}
    jose = next(d for d in details if d.authors[0] == "José García")
    assert jose.author_names[0] == PersonName("García", "José")


PLAIN_PAGE = abstracts_page("Mira Okafor", [("Jose Garcia, Mira Okafor", SCHEDULING)])
#: José García's own page lists the paper again, with its plain author line.
OWNERS_PAGE = abstracts_page("José García", [("Jose Garcia, Mira Okafor", SCHEDULING)])


def test_the_page_owners_better_spelling_renames_the_person_everywhere_and_undo_gives_it_back(
    library: LibraryService,
) -> None:
    library.import_pages([sourced(PLAIN_PAGE)])
    plain = _names(library)["Jose Garcia"]
    (paper,) = library.paper_ids()
    outcome = library.apply(_import(sourced(OWNERS_PAGE)))
    assert outcome.value.renamed == (("Jose Garcia", "José García"),)  # and the report says so
    assert renamed_text(outcome.value) == (
        "1 person now spelled as imported: Jose Garcia → José García"
    )
    assert _names(library)["José García"] == plain  # the same person, better written
    assert "Jose Garcia" not in _names(library)
    assert [p.name for p in library.people()] == ["José García", "Mira Okafor"]
    assert _first_authors(library) == ["José García et al."]
    detail = library.paper(paper)
    assert detail.authors == ("José García", "Mira Okafor")
    assert detail.author_names[0] == PersonName("García", "José")
    assert "AU  - García, José" in library.export([paper], "ris")
    assert "García" in library.cite([paper])
    for words in ("garcía", "garcia", "jose garcia", '"josé garcía"'):
        assert library.paper_ids(PaperQuery(text=words)) == [paper]

    assert outcome.inverse is not None
    redo = library.apply(outcome.inverse)
    assert _names(library)["Jose Garcia"] == plain
    assert "José García" not in _names(library)
    assert _first_authors(library) == ["Jose Garcia et al."]
    assert library.paper(paper).author_names[0] == PersonName("Garcia", "Jose")
    assert "AU  - Garcia, Jose" in library.export([paper], "ris")
    for words in ("garcía", '"jose garcia"'):
        assert library.paper_ids(PaperQuery(text=words)) == [paper]

    assert redo.inverse is not None
    library.apply(redo.inverse)
    assert _names(library)["José García"] == plain
    assert _first_authors(library) == ["José García et al."]


def test_a_plainer_spelling_never_renames_the_person(library: LibraryService) -> None:
    library.import_pages([sourced(OWNERS_PAGE)])
    outcome = library.apply(_import(sourced(PLAIN_PAGE)))
    assert outcome.value.renamed == () and renamed_text(outcome.value) == ""
    assert "José García" in _names(library) and "Jose Garcia" not in _names(library)
    assert _first_authors(library) == ["José García et al."]
    assert outcome.inverse is not None
    library.apply(outcome.inverse)
    assert "José García" in _names(library)


def test_a_dry_run_renames_nobody(library: LibraryService) -> None:
    library.import_pages([sourced(PLAIN_PAGE)])
    library.apply(_import(sourced(OWNERS_PAGE), dry_run=True))
    assert "Jose Garcia" in _names(library)
    assert _first_authors(library) == ["Jose Garcia et al."]


def test_a_later_bibliography_renames_the_person_and_a_revert_gives_the_old_name_back(
    library: LibraryService,
) -> None:
    first = _bib("nowak2020", "Nowak, Lukasz and Okafor, Mira", "Straggler-aware pipelines", 2020)
    library.import_pages([_bib_page(first, "old.bib")])
    (older,) = library.paper_ids()
    later = _bib("nowak2022", "Nowak, Łukasz", "Gradient compression on slow networks", 2022)
    library.import_pages([_bib_page(later, "new.bib")])
    assert "Łukasz Nowak" in _names(library) and "Lukasz Nowak" not in _names(library)
    # the paper of the first import is written so too, though the later one never named it
    assert library.rows([older])[0].first_author == "Łukasz Nowak et al."
    assert "AU  - Nowak, Łukasz" in library.export([older], "ris")

    newest = library.history()[0].import_id
    outcome = library.revert(newest)
    assert "Lukasz Nowak" in _names(library) and "Łukasz Nowak" not in _names(library)
    assert library.rows([older])[0].first_author == "Lukasz Nowak et al."
    assert outcome.inverse is not None
    library.apply(outcome.inverse)  # the revert undone: the import and its spelling are back
    assert "Łukasz Nowak" in _names(library)
    assert library.rows([older])[0].first_author == "Łukasz Nowak et al."


def test_an_import_that_brings_only_a_better_spelling_is_an_import_to_undo(
    library: LibraryService,
) -> None:
    record = _bib("nowak2020", "Nowak, Lukasz and Okafor, Mira", "Straggler-aware pipelines")
    library.import_pages([_bib_page(record)])
    outcome = library.apply(_import(_bib_page(record.replace("Lukasz", "Łukasz"))))
    assert outcome.value.batch_ids  # recorded in the history, as any change
    assert "Łukasz Nowak" in _names(library)
    assert _first_authors(library) == ["Łukasz Nowak et al."]
    assert outcome.inverse is not None
    library.apply(outcome.inverse)
    assert "Lukasz Nowak" in _names(library)
    assert _first_authors(library) == ["Lukasz Nowak et al."]
