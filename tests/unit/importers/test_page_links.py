"""Author pages saved or copied as HTML keep their links: an arXiv link gives the arXiv id
and address, a doi.org link the DOI, any other link of a record its address."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from refman.__main__ import main
from refman.importers.records import PageLink
from refman.importers.sources import html_page, load_bytes, load_source

FIXTURE = Path(__file__).parents[2] / "fixtures" / "pages" / "list_links.html"


def identities(path_or_html: Path | str) -> list[tuple[str, str | None, str | None, str | None]]:
    if isinstance(path_or_html, Path):
        page = load_source(path_or_html).parse()
    else:
        page = load_bytes(path_or_html.encode(), "page.html").parse()
    return [(r.title, r.doi, r.arxiv_id, r.url) for r in page.records]


def test_a_saved_page_gives_each_record_its_own_links() -> None:
    assert identities(FIXTURE) == [
        (
            "Tidewater: Streaming Joins over Unbounded Sensor Logs",
            None,
            "2502.01234v2",
            "https://arxiv.org/abs/2502.01234v2",
        ),
        (
            "2019: A Year of Quiet Progress in Tensor Sketching",
            "10.5555/iclr.2024.0042",
            None,
            "https://openreview.net/forum?id=Qx7sketch",
        ),
        # No link: the arXiv id written in the abstract is recognised; the subject's link
        # (a listing of cs.SD) and the footer's links are nobody's address.
        ("Orca-4 Technical Report", None, "2310.04567", None),
    ]


def test_the_html_gives_the_links_by_their_visible_text() -> None:
    text, links = html_page(
        '<p>See <a href="https://a.example/x">the  paper</a> and '
        '<a href="https://b.example/y"><img src="i.png"></a></p><a>no address</a>'
    )
    assert text == "See the paper and\n\nno address\n"
    assert links == (
        PageLink("the paper", "https://a.example/x"),
        PageLink("See the paper and", "https://b.example/y"),  # an icon: placed by its line
    )


def record_html(title: str, href: str, link_text: str = "PDF") -> str:
    return (
        f"<p>arXiv2024</p><p>{title}</p><p>We study {title.lower()} and report what we "
        f'found on four benchmarks. <a href="{href}">{link_text}</a></p><p>cs.LG</p>'
    )


def test_repeated_link_texts_go_to_the_record_they_sit_in() -> None:
    html = (
        "<p>Ada Example</p><p>Publications and source records attributed to Ada Example.</p>"
        + record_html("Sparse Mixtures at Scale", "https://arxiv.org/pdf/2401.00001")
        + record_html("Dense Retrieval Revisited", "https://example.org/dense.pdf")
        + record_html("Quiet Gradients", "https://doi.org/10.1000/QG.7")
    )
    assert identities(html) == [
        ("Sparse Mixtures at Scale", None, "2401.00001", "https://arxiv.org/abs/2401.00001"),
        ("Dense Retrieval Revisited", None, None, "https://example.org/dense.pdf"),
        ("Quiet Gradients", "10.1000/qg.7", None, None),
    ]


@pytest.mark.parametrize(
    "href", ["dense.pdf", "javascript:void(0)", "mailto:a@b.org", "http://[broken", "#top"]
)
def test_links_that_are_not_web_addresses_are_left_out(href: str) -> None:
    html = "<p>Ada Example</p><p>Publications and source records attributed to Ada Example.</p>"
    html += record_html("Dense Retrieval Revisited", href)
    assert identities(html) == [("Dense Retrieval Revisited", None, None, None)]


def test_an_author_abstracts_page_keeps_its_links_too() -> None:
    html = (
        "<p>José Ortega</p>"
        "<p>Priya Natarajan and José Ortega</p>"
        "<p>Stochastic gradient estimators for discrete latent variables have high variance. "
        "We propose a variance-reduced estimator that reuses past samples as control variates. "
        '<a href="https://arxiv.org/abs/cs/0112017">arXiv</a></p>'
    )
    [(_, doi, arxiv_id, url)] = identities(html)
    assert (doi, arxiv_id, url) == (None, "cs/0112017", "https://arxiv.org/abs/cs/0112017")


def test_importing_the_saved_page_stores_the_links(
    library_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--db", str(library_path), "import", str(FIXTURE)]) == 0
    capsys.readouterr()
    assert main(["--db", str(library_path), "list", "--json"]) == 0
    papers = {p["title"]: p for p in json.loads(capsys.readouterr().out)}
    tidewater = papers["Tidewater: Streaming Joins over Unbounded Sensor Logs"]
    assert (tidewater["arxiv_id"], tidewater["url"]) == (
        "2502.01234v2",
        "https://arxiv.org/abs/2502.01234v2",
    )
    sketching = papers["2019: A Year of Quiet Progress in Tensor Sketching"]
    assert sketching["doi"] == "10.5555/iclr.2024.0042"


def test_link_spans_place_each_link_on_its_text_once() -> None:
    """Where a pasted page's links sit in its text (the paste box keeps them on their
    characters): in page order, a repeated name taken at its next place, an icon named by
    the text before it (over another link's characters) left out."""
    from refman.importers.identify import link_spans
    from refman.importers.records import PageLink

    text = "Paper One\nDOI PDF\nPaper Two\nDOI\n"
    links = [
        PageLink("Paper One", "https://example.org/one"),
        PageLink("Paper One", "https://example.org/one.pdf"),  # an icon after the title
        PageLink("DOI", "https://doi.org/10.1000/one"),
        PageLink("DOI", "https://doi.org/10.1000/two"),
        PageLink("Nowhere", "https://example.org/gone"),
    ]
    spans = link_spans(text, links)
    assert [(text[a:b], href) for a, b, href in spans] == [
        ("Paper One", "https://example.org/one"),
        ("DOI", "https://doi.org/10.1000/one"),
        ("DOI", "https://doi.org/10.1000/two"),
    ]
    assert spans[2][0] > text.index("Paper Two")
