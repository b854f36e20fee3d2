"""An identifier an author page's record quotes in its abstract is most often another work's:
it is the paper's own only on a line of identifiers, or, for an arXiv id, when its sentence
reads so and its year fits. A paper merged by another paper's id would be a paper lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.importers import parse
from refman.importers.identify import identifiers_in
from refman.importers.sources import load_source


@pytest.mark.parametrize(
    ("text", "year", "expected"),
    [
        # citations, code and data in the abstract's sentences
        ("We adapt transformers (Vaswani et al., arXiv:1706.03762) to tide gauges.", 2024, None),
        ("We adapt transformers (Vaswani et al., arXiv:2301.00001) to tide gauges.", 2023, None),
        ("We study bar migration in braided estuaries. Code is at arXiv:2503.01234.", 2025, None),
        (
            "We revisit records from the dataset of Müller (doi:10.1234/zfh.2021.0042).",
            2023,
            None,
        ),
        (
            "We present a reader of notebooks. See https://doi.org/10.18653/v1/x.999 for the data.",
            2023,
            None,
        ),
        # a preprint of the paper named in its own words, in its year or the two before
        (
            "We introduce Orca-4, a family of open acoustics models (arXiv:2310.04567) for audio.",
            2023,
            (None, "2310.04567"),
        ),
        (
            "We introduce Orca-4, a family of open acoustics models (arXiv:2310.04567) for audio.",
            2025,
            (None, "2310.04567"),
        ),
        (
            "We introduce Orca-4, a family of open acoustics models (arXiv:1910.04567) for audio.",
            2025,
            None,
        ),
        # lines of identifiers
        ("DOI: 10.1145/3580305.3599876", 2023, ("10.1145/3580305.3599876", None)),
        ("Preprint: arXiv:2402.15627 [cs.LG]", 2021, (None, "2402.15627")),
        ("arXiv:2402.15627v2 [cs.LG] 12 Mar 2024", 2024, (None, "2402.15627v2")),
        ("Data: doi:10.5281/zenodo.1234567", 2024, None),
        ("https://arxiv.org/abs/2402.15627v2", None, (None, "2402.15627v2")),
    ],
)
def test_an_identifier_is_the_papers_own_only_where_it_reads_so(
    text: str, year: int | None, expected: tuple[str | None, str | None] | None
) -> None:
    assert identifiers_in(f"A Title of a Paper\n{text}", year) == (expected or (None, None))


def page_text(abstract: str) -> str:
    return (
        "arXiv subjects\n\nChidi Okafor\n\nPublications and source records attributed to "
        "Chidi Okafor.\n\n1 recordsLinked to original sources\n\narXiv2024\n\n"
        f"Tide Transformers: Sequence Models for Coastal Water Levels\n\n{abstract}\n\n"
        "physics.ao-ph↗\n"
    )


def test_a_page_citing_a_library_paper_by_its_id_adds_a_paper_of_its_own(
    library: LibraryService, tmp_path: Path
) -> None:
    bib = tmp_path / "attention.bib"
    bib.write_text(
        "@article{vaswani2017attention, title={Attention Is All You Need}, "
        "author={Vaswani, Ashish and Shazeer, Noam}, year={2017}, eprint={1706.03762}, "
        "archivePrefix={arXiv}}\n",
        encoding="utf-8",
    )
    [attention] = library.import_pages([SourcedPage(load_source(bib).parse(), "a.bib")]).new_ids
    before = library.paper(attention)
    cited = "We adapt the transformer (Vaswani et al., arXiv:1706.03762) to predict water levels."
    result = library.import_pages([SourcedPage(parse(page_text(cited)), "okafor.txt")])
    [tide] = result.new_ids
    assert library.count() == 2
    assert library.paper(tide).arxiv_id is None
    after = library.paper(attention)
    assert (after.title, after.abstract, after.arxiv_id) == (
        before.title,
        before.abstract,
        before.arxiv_id,
    )
