"""A paper deleted for good while someone wrote in it comes back as it was last shown, with
the notes as written (refman.core.kept_papers; the window's side: tests/ui/test_kept_deleted.py).
"""

from __future__ import annotations

from refman.core.importing.values import SourcedPage
from refman.core.kept_papers import KEPT_SOURCE, kept_page
from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from refman.importers import parse_text

BIB = r"""@article{garcia2021tidal,
  title = {Tidal Locking of {Exomoons} in Resonant Chains},
  author = {Garc{\'\i}a, Jos{\'e} and van der Berg, Anna and Okafor, Chidi},
  journal = {Astrophysical Letters},
  year = {2021},
  volume = {12},
  pages = {101--117},
  doi = {10.5555/tidal.2021.12},
  keywords = {exomoons, dynamics},
  abstract = {We follow exomoons in resonant chains and find that tidal locking sets in early.}
}
"""


def _bib(name: str) -> SourcedPage:
    return SourcedPage(parse_text(BIB, name), name)


def test_a_kept_paper_comes_back_whole_with_the_notes_as_written(
    library: LibraryService,
) -> None:
    library.import_pages([_bib("moons.bib")])
    [paper] = library.paper_ids()
    library.tag([paper], ["to read"])
    library.mark([paper], "reading", 4)
    before = library.paper(paper)
    library.trash([paper])
    library.empty_trash()
    assert library.paper_ids() == []
    result = library.import_pages([kept_page(before, ["my half thought", "  "])])
    [back] = library.paper_ids()
    assert result.records[0].paper_id == back and back != paper
    after = library.paper(back)
    for name in ("title", "year", "venue", "doi", "volume", "pages", "citekey", "abstract"):
        assert getattr(after, name) == getattr(before, name), name
    assert after.authors == before.authors
    assert {t.name for t in after.tags} == {t.name for t in before.tags} >= {"to read"}
    assert [n.text for n in after.notes] == ["my half thought"]  # (an empty one left out)
    assert (after.status, after.rating) == ("reading", 4)
    assert library.paper_ids(PaperQuery(text="resonant exomoons")) == [back]
    [latest, *_] = library.history()
    assert [p.source for p in latest.pages] == [
        f"{KEPT_SOURCE}: “Tidal Locking of Exomoons in Resonant Chains”"
    ]


def test_a_kept_paper_merges_into_the_paper_the_library_holds_by_then(
    library: LibraryService,
) -> None:
    library.import_pages([_bib("moons.bib")])
    [paper] = library.paper_ids()
    before = library.paper(paper)
    library.trash([paper])
    library.empty_trash()
    library.import_pages([_bib("again.bib")])  # (someone imported it again)
    [again] = library.paper_ids()
    library.import_pages([kept_page(before, ["my half thought"])])
    assert library.paper_ids() == [again]
    assert [n.text for n in library.paper(again).notes] == ["my half thought"]


def test_fields_typed_come_back_by_their_rules(library: LibraryService) -> None:
    library.import_pages([_bib("moons.bib")])
    [paper] = library.paper_ids()
    before = library.paper(paper)
    typed = {
        "title": "Tidal Locking, Revisited",
        "year": "MMXXI",
        "doi": "https://doi.org/10.5555/NEW",
    }
    record = kept_page(before, [], typed).page.records[0]
    assert (record.title, record.title_provisional) == ("Tidal Locking, Revisited", False)
    assert record.year == 2021  # ("MMXXI" is no year: the paper's own stays)
    assert record.doi == "10.5555/new"
