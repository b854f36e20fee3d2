"""References as researchers paste them from papers' reference lists: the styles' variants a
first reading got wrong (Harvard without quotes, a Vancouver thesis, a title of one word)."""

from __future__ import annotations

import pytest

from refman.importers import parse_text
from refman.importers.references import read_reference


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "Okafor, N. et al. (2022) Title of the paper, Journal of Things, 12(3), pp. 4–9.",
            ("Title of the paper", "Journal of Things", "12", "3", "4–9", False),
        ),
        (
            "Lindqvist, E. and Okafor, N. (2021) Sediment budgets of small estuaries, Marine "
            "Geology, 421, pp. 106–121.",
            ("Sediment budgets of small estuaries", "Marine Geology", "421", None, "106–121", True),
        ),
        (
            "Okafor, N. and Chen, W. (2019) Salt wedges in the Yangtze, estuary and delta, "
            "Journal of Hydrology, vol. 570, pp. 1–12.",
            (
                "Salt wedges in the Yangtze, estuary and delta",
                "Journal of Hydrology",
                "570",
                None,
                "1–12",
                True,
            ),
        ),
        (
            "Baptiste, R. (2020) Tides and salt, Estuarine, Coastal and Shelf Science, 4(1), "
            "pp. 1–9.",
            ("Tides and salt", "Estuarine, Coastal and Shelf Science", "4", "1", "1–9", True),
        ),
        (  # APA: a title with numbers of its own stays whole
            "Okafor, N. (2022). Sea level, 1900–2000, revisited. Marine Geology, 4(2), 1–9.",
            ("Sea level, 1900–2000, revisited", "Marine Geology", "4", "2", "1–9", True),
        ),
    ],
)
def test_harvard_without_quotes_ends_the_title_at_the_journals_comma(
    line: str, expected: tuple[object, ...]
) -> None:
    """The title ran on into the journal and its volume ("Title of the paper, Journal of
    Things, 12(3), pp"), the pages taken for the venue."""
    record = read_reference(line)
    assert record is not None, line
    got = (
        record.title,
        record.venue,
        record.volume,
        record.issue,
        record.pages,
        record.authors_complete,
    )
    assert got == expected


@pytest.mark.parametrize(
    ("line", "extra"),
    [
        (
            "Lund K. Sediment transport in fjords [dissertation]. Bergen: University of Bergen; "
            "2019.",
            {"genre": "PhD thesis", "publisher-place": "Bergen"},
        ),
        (
            "Lund K. Sediment transport in fjords [master's thesis]. Bergen (Norway): "
            "University of Bergen; 2019.",
            {"genre": "Master's thesis", "publisher-place": "Bergen (Norway)"},
        ),
        (
            "Lund, K. (2019) Sediment transport in fjords. PhD thesis. University of Bergen. "
            "Available at: https://bora.uib.no/handle/1956/1 (Accessed: 3 May 2023).",
            {"genre": "PhD thesis"},
        ),
        (
            "Lund, Kari. 2019. “Sediment transport in fjords.” PhD diss., University of Bergen.",
            {"genre": "PhD thesis"},
        ),
    ],
)
def test_a_thesis_in_vancouver_harvard_and_chicago_names_its_school_not_a_journal(
    line: str, extra: dict[str, str]
) -> None:
    """Vancouver's thesis was an article of the journal "Bergen" (its place); Harvard's and
    Chicago's, of "PhD thesis. University of Bergen." and "PhD diss"."""
    record = read_reference(line)
    assert record is not None, line
    got = (record.title, record.type, record.venue, record.publisher, record.year)
    assert got == ("Sediment transport in fjords", "thesis", None, "University of Bergen", 2019)
    assert dict(record.extra) == extra


@pytest.mark.parametrize(
    ("line", "venue"),
    [
        ("Smith J. (2020). Cryosphere. Nature Geoscience, 3, 1–2.", "Nature Geoscience"),
        ("Smith, J. (2020). Cryosphere. Nature Geoscience, 3, 1–2.", "Nature Geoscience"),
        ('J. Smith, "Cryosphere," Nat. Geosci., vol. 3, pp. 1–2, 2020.', "Nat. Geosci."),
        ("Smith J. Cryosphere. Nat Geosci. 2020;3:1-2.", "Nat Geosci"),
        ("Smith, J. Cryosphere. Nat. Geosci. 3, 1–2 (2020).", "Nat. Geosci."),
        ("John Smith. 2020. Cryosphere. Nature Geoscience 3 (2020), 1–2.", "Nature Geoscience"),
        ("Smith, J. (2020) Cryosphere, Nature Geoscience, 3, pp. 1–2.", "Nature Geoscience"),
        (
            "Smith, John. “Cryosphere.” Nature Geoscience, vol. 3, 2020, pp. 1–2.",
            "Nature Geoscience",
        ),
    ],
)
def test_a_title_of_one_word_is_read_in_every_style(line: str, venue: str) -> None:
    """A title of one word was no title: the reference was lost, or Vancouver's read as by
    "Smith J. Cryosphere" with the title "Nat Geosci"."""
    record = read_reference(line)
    assert record is not None, line
    assert (record.title, record.venue, record.year) == ("Cryosphere", venue, 2020)
    assert record.authors[0] in {"J. Smith", "John Smith"}
    assert record.pages == "1–2"


def test_a_list_keeps_its_one_word_titles_among_the_others() -> None:
    page = parse_text(
        "Publications\n\n"
        "Smith, J. (2020). Cryosphere. Nature Geoscience, 3, 1–2.\n"
        "Smith, J., & Okafor, N. (2021). Meltwater pathways under ice shelves. The "
        "Cryosphere, 15(2), 1–19.\n"
        "Smith, J. (2019). Permafrost? Earth-Science Reviews, 190, 4–7.\n"
    )
    assert [(r.title, r.venue) for r in page.records] == [
        ("Cryosphere", "Nature Geoscience"),
        ("Meltwater pathways under ice shelves", "The Cryosphere"),
        ("Permafrost?", "Earth-Science Reviews"),
    ]
    assert page.warnings == []
