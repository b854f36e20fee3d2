"""DOIs and arXiv ids as pages, links and people write them."""

from __future__ import annotations

import pytest

from refman.common.identifiers import (
    MAX_ROW_ID,
    doi_url,
    find_arxiv_ids,
    find_dois,
    identifiers_in_link,
    normalize_arxiv,
    normalize_doi,
    online_address,
    row_id,
)


@pytest.mark.parametrize(
    ("text", "doi"),
    [
        ("10.1145/3620665.3640411", "10.1145/3620665.3640411"),
        ("https://doi.org/10.1038/S41586-021-03819-2", "10.1038/s41586-021-03819-2"),
        ("doi:10.48550/arXiv.2402.15627.", "10.48550/arxiv.2402.15627"),
        ("https://dx.doi.org/10.1000%2F182", "10.1000/182"),
        ("not a doi", None),
        ("10.12/too-short-prefix", None),
        # The SICI form of older journals' DOIs holds <…>: all of it is the DOI.
        (
            "10.1175/1520-0469(1963)020<0130:DNF>2.0.CO;2",
            "10.1175/1520-0469(1963)020<0130:dnf>2.0.co;2",
        ),
        (
            "https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-0",
            "10.1002/(sici)1097-4571(199806)49:8<693::aid-asi4>3.0.co;2-0",
        ),
        ("<https://doi.org/10.1000/182>", "10.1000/182"),
        # a closing bracket of its own is the DOI's; one after it is the text's
        ("10.1000/xyz.(abc)", "10.1000/xyz.(abc)"),
        ("(see doi:10.1000/xyz.(abc)).", "10.1000/xyz.(abc)"),
        ("(doi:10.1000/182)", "10.1000/182"),
        ("[10.1000/a[1]]", "10.1000/a[1]"),
    ],
)
def test_dois_are_stored_lower_case_without_prefix(text: str, doi: str | None) -> None:
    assert normalize_doi(text) == doi


@pytest.mark.parametrize(
    ("text", "arxiv"),
    [
        ("2402.15627", "2402.15627"),
        ("2402.15627v3", "2402.15627"),
        ("arXiv:2402.15627v2", "2402.15627"),
        ("https://arxiv.org/abs/2402.15627", "2402.15627"),
        ("https://arxiv.org/pdf/2402.15627v1.pdf", "2402.15627"),
        ("cs/0112017", "cs/0112017"),
        ("arXiv:math.GT/0309136v1", "math.GT/0309136"),
        ("1234.5", None),
        ("word", None),
    ],
)
def test_arxiv_ids_new_and_old_style_without_version(text: str, arxiv: str | None) -> None:
    assert normalize_arxiv(text) == arxiv


def test_the_version_is_kept_when_asked() -> None:
    assert normalize_arxiv("arXiv:2402.15627v2", keep_version=True) == "2402.15627v2"


def test_identifiers_found_in_a_record_text() -> None:
    text = (
        "Code at https://github.com/x/y. See arXiv:2402.15627 and "
        "https://arxiv.org/abs/cs/0112017v2; published as https://doi.org/10.1145/3620665.3640411."
    )
    assert find_arxiv_ids(text) == ["2402.15627", "cs/0112017v2"]
    assert find_dois(text) == ["10.1145/3620665.3640411"]


@pytest.mark.parametrize(
    ("link", "found"),
    [
        ("https://arxiv.org/abs/2402.15627v2", (None, "2402.15627v2")),
        ("http://arxiv.org/pdf/2402.15627", (None, "2402.15627")),
        ("https://doi.org/10.1145/3620665.3640411", ("10.1145/3620665.3640411", None)),
        ("https://github.com/bytedance/megascale", (None, None)),
        ("https://arxiv.org/list/cs.LG/recent", (None, None)),
    ],
)
def test_links_give_their_identifiers(link: str, found: tuple[str | None, str | None]) -> None:
    assert identifiers_in_link(link) == found


def test_a_malformed_link_gives_nothing_and_does_not_fail() -> None:
    assert identifiers_in_link("http://[x") == (None, None)


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("12", 12),
        ("#12", 12),
        (" 7 ", 7),
        (str(MAX_ROW_ID), MAX_ROW_ID),
        (str(MAX_ROW_ID + 1), None),  # the driver cannot pass it: no row has it
        ("9" * 30, None),
        ("0", None),
        ("-3", None),
        ("1.5", None),
        ("١٢", None),  # digits, not an id's
        ("", None),
        ("twelve", None),
    ],
)
def test_a_row_id_is_a_whole_number_a_library_can_hold(typed: str, found: int | None) -> None:
    assert row_id(typed) == found


def test_two_sici_dois_in_one_text_are_two_dois_and_their_links_work() -> None:
    text = (
        "Lorenz, doi:10.1175/1520-0469(1963)020<0130:DNF>2.0.CO;2; Smagorinsky, "
        "https://doi.org/10.1175/1520-0469(1963)020<0099:GCEWTP>2.0.CO;2."
    )
    found = find_dois(text)
    assert found == [
        "10.1175/1520-0469(1963)020<0130:dnf>2.0.co;2",
        "10.1175/1520-0469(1963)020<0099:gcewtp>2.0.co;2",
    ]
    assert doi_url(found[0]) == "https://doi.org/10.1175/1520-0469(1963)020%3C0130:dnf%3E2.0.co;2"
    assert doi_url("10.1000/a#b?c d") == "https://doi.org/10.1000/a%23b%3Fc%20d"


def test_a_paper_without_a_file_is_read_online_at_its_doi_its_arxiv_page_or_its_link() -> None:
    link = "https://example.org/p"
    assert online_address("10.1/x y", "2402.15627", link) == ("DOI", "https://doi.org/10.1/x%20y")
    assert online_address(None, "2402.15627", link) == (
        "arXiv page",
        "https://arxiv.org/abs/2402.15627",
    )
    assert online_address(None, None, f" {link} ") == ("link", link)
    assert online_address(None, None, "file:///etc/passwd") is None  # (a web address only)
    assert online_address(None, None, None) is None
