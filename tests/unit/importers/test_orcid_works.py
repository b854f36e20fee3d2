"""An ORCID record's works, copied from the browser: each work read with its title, journal,
year, type, DOI and contributors (the page was read as an author-abstracts page: one record
whose author was "Marine Geology")."""

from __future__ import annotations

from refman.importers import PageFormat, parse

ORCID = """Nadia Okafor
https://orcid.org/0000-0002-1825-0097
Works (3)
Sort
Tidal models of estuary sediment
Marine Geology
2022-03 | Journal article
DOI: 10.1016/j.margeo.2022.106
CONTRIBUTORS: Nadia Okafor; Elsa Lindqvist; René Baptiste
Source: Crossref
Salt wedges in tidal rivers
2019 | Conference paper
DOI: 10.1007/s12237-019-00001-1
Source: Nadia Okafor
Sediment transport revisited
arXiv
2021-01-15 | Preprint
URL: https://arxiv.org/abs/2101.01234
Source: DataCite
"""


def test_an_orcid_records_works_are_read_one_by_one() -> None:
    page = parse(ORCID)
    assert (page.format, page.owner, page.warnings) == (
        PageFormat.REFERENCE_LIST,
        "Nadia Okafor",
        [],
    )
    got = [(r.title, r.venue, r.year, r.type, r.doi, r.authors) for r in page.records]
    assert got == [
        (
            "Tidal models of estuary sediment",
            "Marine Geology",
            2022,
            "article-journal",
            "10.1016/j.margeo.2022.106",
            ("Nadia Okafor", "Elsa Lindqvist", "René Baptiste"),
        ),
        (
            "Salt wedges in tidal rivers",
            None,
            2019,
            "paper-conference",
            "10.1007/s12237-019-00001-1",
            (),
        ),
        ("Sediment transport revisited", "arXiv", 2021, "article", None, ()),
    ]
    assert (page.records[2].url, page.records[2].arxiv_id) == (
        "https://arxiv.org/abs/2101.01234",
        "2101.01234",
    )
    assert [r.authors_complete for r in page.records] == [True, False, False]
