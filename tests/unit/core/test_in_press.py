"""A paper not out yet ("Okafor, N. (in press). Title.") that comes out: once a page gives its
year, its citations no longer say "in press" — whichever page was imported first."""

from __future__ import annotations

import pytest

from refman.core.library import LibraryService
from refman.core.publication_status import publication_status
from tests.helpers.fixtures import sourced

#: The same paper on an older CV (in press) and on a newer one (out, with its year).
IN_PRESS = "Nadia Okafor\n\nOkafor, N. (in press). Tidal mixing in deltas. Marine Geology.\n"
OUT = "Nadia Okafor\n\nOkafor, N. (2023). Tidal mixing in deltas. Marine Geology, 455, 1–12.\n"


@pytest.mark.parametrize("pages", [(IN_PRESS, OUT), (OUT, IN_PRESS)], ids=["later", "older"])
def test_a_paper_that_came_out_is_no_longer_cited_in_press(
    library: LibraryService, pages: tuple[str, str]
) -> None:
    for number, page in enumerate(pages):
        library.import_pages([sourced(page, f"cv{number}.txt")])
    (paper_id,) = library.paper_ids()
    detail = library.paper(paper_id)
    assert (detail.year, publication_status(detail.extra)) == (2023, None)
    cited = library.cite([paper_id], "apa").strip()
    assert cited == "Okafor, N. (2023). Tidal mixing in deltas. Marine Geology, 455, 1–12."


def test_a_paper_in_press_is_cited_in_press_until_then(library: LibraryService) -> None:
    library.import_pages([sourced(IN_PRESS, "cv.txt")])
    (paper_id,) = library.paper_ids()
    assert publication_status(library.paper(paper_id).extra) == "in press"
    assert library.cite([paper_id], "apa").strip() == (
        "Okafor, N. (in press). Tidal mixing in deltas. Marine Geology."
    )
