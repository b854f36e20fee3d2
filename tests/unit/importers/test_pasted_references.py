"""References as researchers paste them from papers' reference lists: the styles' variants a
first reading got wrong (Harvard without quotes, a Vancouver thesis, a title of one word)."""

from __future__ import annotations

import pytest

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
