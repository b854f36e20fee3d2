"""A publication list written as references, as home pages and CVs give it: each common
citation style read into the paper's authors, title, year, venue and identifiers."""

from __future__ import annotations

from pathlib import Path

import pytest

from refman.importers import NotAnAuthorPageError, PageFormat, parse
from refman.importers.references import read_reference
from refman.importers.sources import load_source
from tests.helpers.fixtures import PAGES

#: Nineteen authors (family, initial), as APA 7 lists them before its ellipsis.
NINETEEN = [
    (family, family[0])
    for family in (
        "Okafor Lindqvist Baptiste Smith Jones Lee Berg Chen Tanaka Moreau Silva Novak Kim "
        "Rossi Evans Brown Davis Wilson Taylor"
    ).split()
]


def _fields(line: str) -> tuple[object, ...]:
    record = read_reference(line)
    assert record is not None, line
    return (record.authors, record.authors_complete, record.title, record.year, record.venue)


@pytest.mark.parametrize(
    ("style", "line", "expected"),
    [
        (
            "APA",
            "Okafor, N., Lindqvist, E., & Baptiste, R. (2022). Tidal models of estuary "
            "sediment. Marine Geology, 441(3), 106–121. https://doi.org/10.1016/j.margeo.2022.106",
            (
                ("N. Okafor", "E. Lindqvist", "R. Baptiste"),
                True,
                "Tidal models of estuary sediment",
                2022,
                "Marine Geology",
            ),
        ),
        (
            "Vancouver",
            "Okafor N, Lindqvist E, Baptiste R, et al. Tidal models of estuary sediment. "
            "Mar Geol. 2022;441(3):106-21.",
            (
                ("N. Okafor", "E. Lindqvist", "R. Baptiste"),
                False,
                "Tidal models of estuary sediment",
                2022,
                "Mar Geol",
            ),
        ),
        (
            "IEEE",
            '[7] N. Okafor, E. Lindqvist, and R. Baptiste, "Tidal models of estuary '
            'sediment," Mar. Geol., vol. 441, no. 3, pp. 106–121, 2022.',
            (
                ("N. Okafor", "E. Lindqvist", "R. Baptiste"),
                True,
                "Tidal models of estuary sediment",
                2022,
                "Mar. Geol.",
            ),
        ),
        (
            "MLA",
            "Okafor, Nadia, et al. “Tidal Models of Estuary Sediment.” Marine Geology, "
            "vol. 441, 2022, pp. 106-121.",
            (("Nadia Okafor",), False, "Tidal Models of Estuary Sediment", 2022, "Marine Geology"),
        ),
        (
            "Chicago",
            "Okafor, Nadia, Elsa Lindqvist, and René Baptiste. 2022. “Tidal Models of Estuary "
            "Sediment.” Marine Geology 441 (3): 106–21.",
            (
                ("Nadia Okafor", "Elsa Lindqvist", "René Baptiste"),
                True,
                "Tidal Models of Estuary Sediment",
                2022,
                "Marine Geology",
            ),
        ),
        (
            "ACM",
            "Nadia Okafor and Elsa Lindqvist. 2021. Sediment Transport Revisited. In "
            "Proceedings of the 12th Coastal Dynamics Conference (CD '21). ACM, 40–48.",
            (
                ("Nadia Okafor", "Elsa Lindqvist"),
                True,
                "Sediment Transport Revisited",
                2021,
                "Proceedings of the 12th Coastal Dynamics Conference",
            ),
        ),
        (
            "LaTeX plain",
            "N. Okafor and E. Lindqvist. Sediment transport revisited. In Coastal Dynamics, "
            "pages 40--48, 2021.",
            (
                ("N. Okafor", "E. Lindqvist"),
                True,
                "Sediment transport revisited",
                2021,
                "Coastal Dynamics",
            ),
        ),
        (
            "Harvard",
            "Okafor, N. and Lindqvist, E. (2020) 'Why do estuaries silt up?', Journal of "
            "Coasts, 8(1), pp. 22-41.",
            (
                ("N. Okafor", "E. Lindqvist"),
                True,
                "Why do estuaries silt up?",
                2020,
                "Journal of Coasts",
            ),
        ),
        (
            "Springer",
            "Okafor N, Lindqvist E (2019) Salt wedges in tidal rivers. Estuar Coast 42:1013–1040",
            (
                ("N. Okafor", "E. Lindqvist"),
                True,
                "Salt wedges in tidal rivers",
                2019,
                "Estuar Coast",
            ),
        ),
        (
            "DBLP",
            "Nadia Okafor, Wei Chen 0002: Sediment Transport Revisited. Coast. Eng. 170: "
            "1-12 (2021)",
            (
                ("Nadia Okafor", "Wei Chen"),
                True,
                "Sediment Transport Revisited",
                2021,
                "Coast. Eng.",
            ),
        ),
    ],
)
def test_each_common_citation_style_reads_as_the_paper(
    style: str, line: str, expected: tuple[object, ...]
) -> None:
    assert _fields(line) == expected, style


@pytest.mark.parametrize(
    ("line", "authors", "complete", "title"),
    [
        # APA writes a suffix as a name of its own
        (
            "Okafor, N., Smith, J., Jr., & Baptiste, R. (2021). Tides: A review? Ocean "
            "Science, 17, 1–20.",
            ("N. Okafor", "J. Smith", "R. Baptiste"),
            True,
            "Tides: A review?",
        ),
        # APA 7: nineteen names, ". . .", the last
        (
            ", ".join(f"{family}, {given}." for family, given in NINETEEN)
            + ", . . . Clark, E. (2023). Big team science. Nature, 600, 1–5.",
            (*(f"{given}. {family}" for family, given in NINETEEN), "E. Clark"),
            False,
            "Big team science",
        ),
        # a title that asks, then goes on
        (
            "Okafor N, Lindqvist E. Do estuaries silt up? A field study. Estuar Coast. "
            "2019;42(4):1013-40.",
            ("N. Okafor", "E. Lindqvist"),
            True,
            "Do estuaries silt up? A field study",
        ),
        # LaTeX in a title copied from a LaTeX-made CV: the text it prints
        (
            'Okafor, N. (2021). {\\"U}ber $\\alpha$-Sedimente. Marine Geology, 17, 1–20.',
            ("N. Okafor",),
            True,
            "Über α-Sedimente",
        ),
        (
            "Okafor N. Tidal models of estuaries [dissertation]. Bergen: University of "
            "Bergen; 2018.",
            ("N. Okafor",),
            True,
            "Tidal models of estuaries",
        ),
    ],
)
def test_suffixes_long_lists_questions_and_media_read_as_a_reader_means_them(
    line: str, authors: tuple[str, ...], complete: bool, title: str
) -> None:
    record = read_reference(line)
    assert record is not None
    assert (record.authors, record.authors_complete, record.title) == (authors, complete, title)


def test_identifiers_volume_pages_and_type_are_read() -> None:
    apa = read_reference(
        "Okafor, N. (2022). Tidal models of estuary sediment. Marine Geology, 441(3), 106–121. "
        "https://doi.org/10.1016/j.margeo.2022.106"
    )
    assert apa is not None
    assert (apa.doi, apa.volume, apa.issue, apa.pages, apa.type) == (
        "10.1016/j.margeo.2022.106",
        "441",
        "3",
        "106–121",
        "article-journal",
    )
    preprint = read_reference(
        "Okafor, N. (2024). Estuaries at scale. arXiv preprint arXiv:2403.01234v2."
    )
    assert preprint is not None
    assert (preprint.venue, preprint.arxiv_id, preprint.type) == (
        "arXiv",
        "2403.01234v2",
        "article",
    )
    corr = read_reference("Nadia Okafor: Estuaries at Scale. CoRR abs/2403.01234 (2024)")
    assert corr is not None
    assert (corr.venue, corr.arxiv_id, corr.type) == ("arXiv", "2403.01234", "article")
    meeting = read_reference("Nadia Okafor, Elsa Lindqvist: Why Not Silt? ICML 2021: 10-20")
    assert meeting is not None
    assert (meeting.title, meeting.venue, meeting.type, meeting.pages, meeting.volume) == (
        "Why Not Silt?",
        "ICML",
        "paper-conference",
        "10–20",
        None,
    )
    talk = read_reference(
        "N. Okafor. Sediment transport revisited. In Proc. Coastal Dynamics, pages 40--48, 2021."
    )
    assert talk is not None and (talk.type, talk.pages) == ("paper-conference", "40–48")


def test_a_page_of_references_under_headings_is_read_whole() -> None:
    """The owner's name on top, headings, numbering, a reference wrapped over two lines,
    and a line that is no reference (a talk) named in a warning."""
    page = parse((PAGES / "references_styles.txt").read_text(encoding="utf-8"))
    assert (page.format, page.owner) == (PageFormat.REFERENCE_LIST, "Tobias Ferreira")
    titles = [record.title for record in page.records]
    assert len(titles) == 11
    assert titles[0] == "Gradient sparsity in federated learning"
    assert titles[-1] == (
        "A very long title about federated optimisation that wraps onto a second line when "
        "copied from a PDF"
    )
    wrapped = page.records[-1]
    assert (wrapped.line, wrapped.last_line, wrapped.arxiv_id) == (19, 20, "2501.01234")
    assert page.warnings == [
        "Line 23 was not read: it looks like a paper, but not its authors, title and year."
    ]


@pytest.mark.parametrize(
    "text",
    [
        # prose with years and names in it is no list of references
        "\n".join(
            f"In {1990 + i} the team of Smith J et al. (2020) showed that the method of "
            f"sampling number {i} works in most of the cases we tried."
            for i in range(40)
        ),
        "Meeting notes 2023\nWe talked about the budget for 2024 and the new hires.",
    ],
)
def test_text_that_is_no_list_of_references_is_refused(text: str) -> None:
    with pytest.raises(NotAnAuthorPageError):
        parse(text)


#: A Google Scholar profile as the browser copies it: the header, then per paper its title,
#: its authors as Scholar writes them (cut short with "…"), and the venue with the columns
#: Cited by and Year.
SCHOLAR = """Nadia Okafor
Professor of Coastal Engineering, Example University
Verified email at example.edu - Homepage
Coastal engineering  Sediment transport
TITLE
CITED BY
YEAR
Tidal models of estuary sediment
N Okafor, E Lindqvist, R Baptiste
Marine Geology 441 (3), 106-121\t152\t2022
Mudflats of the Wadden Sea
N Okafor, R Baptiste
Salt wedges in tidal rivers
N Okafor, E Lindqvist, AN Gomez, Ł Kaiser, M Solvik, ...
Estuaries and Coasts 42, 1013-1040\t87 *\t2019
Sediment transport revisited
N Okafor
arXiv preprint arXiv:2103.01234\t12\t2021
Sediment budgets of dammed rivers
N Okafor, E Lindqvist
Journal of Sea Research\t3
A note on tidal flats
N Okafor, E Lindqvist
Show more
Help\tPrivacy\tTerms
"""


@pytest.mark.parametrize("cells", ["\t", "\n"], ids=["columns", "cells-on-lines"])
def test_a_google_scholar_profile_copied_is_read_row_by_row(cells: str) -> None:
    """Its author and venue lines were read as an author-abstracts page (titles suggested
    from "Marine Geology 441 (3)…"). A row without a year (its venue with no Year cell) or
    without a venue line (the next row's title after its names; the page's links) is read
    without them: such rows were named in warnings and left out."""
    page = parse(SCHOLAR.replace("\t", cells))
    assert (page.format, page.owner) == (PageFormat.REFERENCE_LIST, "Nadia Okafor")
    got = [(r.title, r.authors, r.authors_complete, r.year, r.venue) for r in page.records]
    assert got == [
        (
            "Tidal models of estuary sediment",
            ("N. Okafor", "E. Lindqvist", "R. Baptiste"),
            True,
            2022,
            "Marine Geology",
        ),
        ("Mudflats of the Wadden Sea", ("N. Okafor", "R. Baptiste"), True, None, None),
        (
            "Salt wedges in tidal rivers",
            ("N. Okafor", "E. Lindqvist", "A. N. Gomez", "Ł. Kaiser", "M. Solvik"),
            False,
            2019,
            "Estuaries and Coasts",
        ),
        ("Sediment transport revisited", ("N. Okafor",), True, 2021, "arXiv"),
        (
            "Sediment budgets of dammed rivers",
            ("N. Okafor", "E. Lindqvist"),
            True,
            None,
            "Journal of Sea Research",
        ),
        ("A note on tidal flats", ("N. Okafor", "E. Lindqvist"), True, None, None),
    ]
    assert page.records[3].arxiv_id == "2103.01234"
    assert page.warnings == []


def test_a_lab_page_saved_as_html_gives_each_reference_its_links(tmp_path: Path) -> None:
    """The DOI, arXiv and title links of a reference are its paper's, none of the next's."""
    page = tmp_path / "okafor.html"
    page.write_text(
        "<html><body><h1>Nadia Okafor</h1><h2>Publications</h2><ol>"
        '<li>Okafor, N., &amp; Lindqvist, E. (2022). <a href="https://example.org/tidal">Tidal '
        "models of estuary sediment</a>. <i>Marine Geology</i>, 441(3), 106–121. "
        '<a href="https://doi.org/10.1016/j.margeo.2022.106">[DOI]</a></li>'
        "<li>Okafor, N. (2024). Estuaries at scale. <i>arXiv preprint</i>. "
        '<a href="https://arxiv.org/abs/2403.01234">[arXiv]</a></li></ol></body></html>',
        encoding="utf-8",
    )
    read = load_source(page).parse()
    assert (read.format, read.owner) == (PageFormat.REFERENCE_LIST, "Nadia Okafor")
    assert [(r.title, r.doi, r.arxiv_id, r.url) for r in read.records] == [
        (
            "Tidal models of estuary sediment",
            "10.1016/j.margeo.2022.106",
            None,
            "https://example.org/tidal",
        ),
        ("Estuaries at scale", None, "2403.01234", "https://arxiv.org/abs/2403.01234"),
    ]


@pytest.mark.parametrize(
    ("line", "title", "venue", "extra", "kind"),
    [
        (
            "Okafor, N., & Lindqvist, E. (in press). Salt wedges in tidal rivers revisited. "
            "Estuaries and Coasts.",
            "Salt wedges in tidal rivers revisited",
            "Estuaries and Coasts",
            {"status": "in press"},
            "article-journal",
        ),
        (
            "Okafor, N., Baptiste, R., & Chen, W. (forthcoming). Sediment budgets in the age "
            "of dams. Journal of Coasts.",
            "Sediment budgets in the age of dams",
            "Journal of Coasts",
            {"status": "forthcoming"},
            "article-journal",
        ),
        (
            "Okafor, N. (n.d.). A field guide to mudflats of the North Sea. Manuscript "
            "submitted for publication.",
            "A field guide to mudflats of the North Sea",
            None,
            {},
            "manuscript",
        ),
        (
            "Okafor N, Lindqvist E. Ocean floor maps from sonar. Mar Geol. In press.",
            "Ocean floor maps from sonar",
            "Mar Geol",
            {"status": "in press"},
            "article-journal",
        ),
        (
            "N. Okafor and E. Lindqvist, “Wave energy at the shoreline,” Coastal Eng., to appear.",
            "Wave energy at the shoreline",
            "Coastal Eng",
            {"status": "to appear"},
            "article-journal",
        ),
    ],
)
def test_a_reference_not_out_yet_is_read_without_a_year(
    line: str, title: str, venue: str | None, extra: dict[str, str], kind: str
) -> None:
    """ "(in press)", "(n.d.)", "(forthcoming)" stand for the year: the paper is read, with no
    year and its status kept for citations (APA's "(in press)"); it was named as unread."""
    record = read_reference(line)
    assert record is not None, line
    assert (record.title, record.year, record.venue, dict(record.extra), record.type) == (
        title,
        None,
        venue,
        extra,
        kind,
    )


def test_a_cv_lists_its_papers_in_press_among_the_others() -> None:
    page = parse(
        "Nadia Okafor\nPublications\n"
        "Okafor, N., & Lindqvist, E. (2022). Tidal models of estuary sediment. Marine "
        "Geology, 441(3), 106–121.\n"
        "Okafor, N., & Lindqvist, E. (in press). Salt wedges in tidal rivers revisited. "
        "Estuaries and Coasts.\n"
    )
    assert [(r.title, r.year) for r in page.records] == [
        ("Tidal models of estuary sediment", 2022),
        ("Salt wedges in tidal rivers revisited", None),
    ]
    assert page.warnings == []


#: A CV as its PDF or web page copies: a heading that reads as a name, the papers under
#: labels of their kinds ("[J2]" a journal article, "[C1]" a conference paper).
CV = "\n".join(
    [
        "Prof. Elsa Lindqvist, PhD",
        "Curriculum Vitae",
        "",
        "PUBLICATIONS",
        "Peer-reviewed journal articles (* student author)",
        "",
        "[J2] Lindqvist, E., Okafor, N.*, & Baptiste, R. (2023). Tidal models of estuary "
        "sediment. Marine Geology, 441(3), 106–121.",
        "[J1] Lindqvist, E. (2021). Salt wedges in tidal rivers. Estuaries and Coasts, 44, 12–30.",
        "",
        "Conference papers",
        '[C1] E. Lindqvist and N. Okafor, "Sediment transport revisited," in Proc. Coastal '
        "Dynamics, 2022, pp. 40–48.",
        "(1) Lindqvist, E. (2020). Wave energy at the shoreline. Coastal Engineering, 160, 1–9.",
    ]
)


def test_a_cv_labelling_its_papers_by_kind_is_read_as_references() -> None:
    """Its heading "Curriculum Vitae" read as an author line made the rest of the CV one
    paper's abstract; the labels "[J2]", "[C1]" kept every line from reading as a reference."""
    page = parse(CV)
    assert page.format == PageFormat.REFERENCE_LIST
    assert [(r.title, r.year) for r in page.records] == [
        ("Tidal models of estuary sediment", 2023),
        ("Salt wedges in tidal rivers", 2021),
        ("Sediment transport revisited", 2022),
        ("Wave energy at the shoreline", 2020),
    ]


@pytest.mark.parametrize(
    ("written", "owner"),
    [
        ("Prof. Elsa Lindqvist, PhD", "Elsa Lindqvist"),
        ("Dr. Elsa Lindqvist", "Elsa Lindqvist"),
        ("Professor Elsa Lindqvist", "Elsa Lindqvist"),
        ("Elsa Lindqvist", "Elsa Lindqvist"),
    ],
)
def test_a_pages_owner_is_named_without_a_title_or_degree(written: str, owner: str) -> None:
    """ "Dr. Elsa Lindqvist" was a person of her own, apart from her papers' author; "Prof.
    …, PhD" was no owner at all (the CV's heading "Curriculum Vitae" was taken)."""
    assert parse(CV.replace("Prof. Elsa Lindqvist, PhD", written)).owner == owner


@pytest.mark.parametrize(
    ("style", "line", "venue"),
    [
        (
            "Nature",
            "Okafor, N., Lindqvist, E. & Baptiste, R. Tidal models of estuary sediment. Mar. "
            "Geol. 441, 106–121 (2022).",
            "Mar. Geol.",
        ),
        (
            "Science",
            "N. Okafor, E. Lindqvist, R. Baptiste, Tidal models of estuary sediment. Science "
            "375, 106–121 (2022).",
            "Science",
        ),
        (
            "AGU",
            "Okafor, N., Lindqvist, E., & Baptiste, R. 2022. Tidal models of estuary sediment. "
            "Marine Geology 441(3): 106–121.",
            "Marine Geology",
        ),
        (
            "Quaternary Science Reviews",
            "Okafor N., Lindqvist E., Baptiste R. (2022): Tidal models of estuary sediment. – "
            "Marine Geology 441: 106–121.",
            "Marine Geology",
        ),
        (
            "eLife",
            "Okafor N, Lindqvist E, Baptiste R. 2022. Tidal models of estuary sediment. Marine "
            "Geology 441:106–121.",
            "Marine Geology",
        ),
    ],
)
def test_the_styles_of_nature_science_and_geoscience_journals(
    style: str, line: str, venue: str
) -> None:
    """The names run into the title at their last initial's full stop or a comma (no year
    between them, or a year alone), or the venue follows a dash: such references were not
    read, or read with "– Marine Geology" for their venue."""
    assert _fields(line) == (
        ("N. Okafor", "E. Lindqvist", "R. Baptiste"),
        True,
        "Tidal models of estuary sediment",
        2022,
        venue,
    ), style


#: A lab's page: APA references under year headings, a journal whose name holds commas, a
#: list cut short by "et al.", a preprint named by its arXiv id alone.
LAB = """Coastal Dynamics Lab — Publications

2024
Okafor, N., Lindqvist, E., & Baptiste, R. (2024). Tidal asymmetry in mangrove creeks. Estuarine, Coastal and Shelf Science, 301, 108712.
Okafor, N., & Chen, W. (2024). Learning bed friction from tide gauges. arXiv:2402.01234.

2023
Okafor, N. et al. (2023). Morphodynamics of tidal flats. Geomorphology, 420, 108521.
Baptiste, R. (2023). Salt in soils. Water, Air, and Soil Pollution, 234, 1–12.
"""  # noqa: E501


def test_a_lab_pages_references_keep_their_venues_and_lists() -> None:
    """ "Okafor, N. et al." read as no names (the line was named as unread); a journal's
    name was cut at its first comma ("Estuarine", then taken for a conference's acronym, as
    was "Geomorphology"); a preprint given by its arXiv id had no venue."""
    page = parse(LAB)
    got = [(r.venue, r.type, r.authors, r.authors_complete) for r in page.records]
    assert got == [
        (
            "Estuarine, Coastal and Shelf Science",
            "article-journal",
            ("N. Okafor", "E. Lindqvist", "R. Baptiste"),
            True,
        ),
        ("arXiv", "article", ("N. Okafor", "W. Chen"), True),
        ("Geomorphology", "article-journal", ("N. Okafor",), False),
        ("Water, Air, and Soil Pollution", "article-journal", ("R. Baptiste",), True),
    ]
    assert page.warnings == []


def test_a_list_written_in_markdown_is_read_without_its_emphasis() -> None:
    """A README or a Jekyll site's page marks the owner's name and the journal: "**Okafor,
    N.**" read as no names (the line unread), "*Marine Geology*" was the venue, stars and
    all; a student's mark ("Ferreira, T.*") stays no emphasis."""
    page = parse(
        "Nadia Okafor\n"
        "- **Okafor, N.**, Ferreira, T.*, & Lindqvist, E. (2022). Tidal models of estuary "
        "sediment. *Marine Geology*, *441*(3), 106–121.\n"
        "- **N. Okafor** and E. Lindqvist. *Sediment transport revisited*. In *Coastal "
        "Dynamics*, pages 40–48, 2021.\n"
    )
    got = [(r.title, r.authors, r.venue, r.volume) for r in page.records]
    assert got == [
        (
            "Tidal models of estuary sediment",
            ("N. Okafor", "T. Ferreira", "E. Lindqvist"),
            "Marine Geology",
            "441",
        ),
        ("Sediment transport revisited", ("N. Okafor", "E. Lindqvist"), "Coastal Dynamics", None),
    ]


def test_an_ieee_proceedings_name_keeps_its_commas_up_to_its_acronym() -> None:
    record = read_reference(
        '[2] K. Mensah and L. Rossi, "Edge inference on buoys," in Proc. IEEE Int. Conf. '
        "Acoust., Speech Signal Process. (ICASSP), Seoul, Korea, Apr. 2024, pp. 8801–8805."
    )
    assert record is not None
    assert (record.venue, record.type, record.pages) == (
        "Proc. IEEE Int. Conf. Acoust., Speech Signal Process. (ICASSP)",
        "paper-conference",
        "8801–8805",
    )


def test_a_reference_wrapped_at_a_words_hyphen_joins_the_word() -> None:
    page = parse(
        "Nadia Okafor\nPublications\n"
        "Okafor, N. (2021). Salt wedges in tidal rivers: A long-\n"
        "term record. Estuaries and Coasts, 44, 12–30.\n"
    )
    assert [r.title for r in page.records] == ["Salt wedges in tidal rivers: A long-term record"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "Solvik, M. (2018). Mixing in Arctic fjords (Doctoral dissertation). University of "
            "Bergen.",
            ("Mixing in Arctic fjords", "thesis", None, "University of Bergen"),
        ),
        (
            "Solvik, M. (2018). Mixing in Arctic fjords [Doctoral dissertation, University of "
            "Bergen]. BORA.",
            ("Mixing in Arctic fjords", "thesis", None, "University of Bergen"),
        ),
        (
            "Solvik, M. (2022). Fjord systems. In K. Mensah & L. Rossi (Eds.), Encyclopedia of "
            "Coastal Science (2nd ed., pp. 301–310). Springer.",
            ("Fjord systems", "chapter", "Encyclopedia of Coastal Science", "Springer"),
        ),
    ],
)
def test_a_thesis_and_a_books_chapter_read_as_what_they_are(
    line: str, expected: tuple[object, ...]
) -> None:
    """A thesis was a journal article whose title held "(Doctoral dissertation)" and whose
    journal was the school; a chapter's journal was its editors ("K. Mensah & L. Rossi")."""
    record = read_reference(line)
    assert record is not None
    assert (record.title, record.type, record.venue, record.publisher) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "Solvik, M., & Okafor, N. (2019). Coastal sediment dynamics (3rd ed.). Springer.",
            ("Coastal sediment dynamics", "book", None, "Springer", {"edition": "3"}),
        ),
        (
            "Solvik, M. (2021). Estuaries of the north. Cambridge University Press.",
            ("Estuaries of the north", "book", None, "Cambridge University Press", {}),
        ),
        (
            "Solvik, M. (2021) Estuaries of the north. 2nd edn. Cambridge: Cambridge University "
            "Press.",
            (
                "Estuaries of the north",
                "book",
                None,
                "Cambridge University Press",
                {"edition": "2", "publisher-place": "Cambridge"},
            ),
        ),
        (  # a journal a publisher's name begins, with its volume: an article still
            "Solvik, M. (2016). A note on tides. Wiley Interdisciplinary Reviews: Water, 3(1), "
            "12–20.",
            (
                "A note on tides",
                "article-journal",
                "Wiley Interdisciplinary Reviews: Water",
                None,
                {},
            ),
        ),
    ],
)
def test_a_book_reads_as_a_book_with_its_publisher_and_edition(
    line: str, expected: tuple[object, ...]
) -> None:
    """A book was a journal article whose journal was its publisher, its edition kept in its
    title ("Coastal sediment dynamics (3rd ed.)")."""
    record = read_reference(line)
    assert record is not None
    got = (record.title, record.type, record.venue, record.publisher, dict(record.extra))
    assert got == expected


@pytest.mark.parametrize(
    ("line", "volume", "pages"),
    [
        ("Okafor, N. (2020). Tidal flats. Marine Geology, 421, 106–121.", "421", "106–121"),
        ("Okafor, N. Tidal flats. Nature 441, 106–121 (2006).", "441", "106–121"),
        ("Okafor, N. (2020). Tidal flats. In Proc. Coastal Days, 2020, 1–5.", None, "1–5"),
    ],
)
def test_a_volume_without_an_issue_is_read_and_a_year_is_no_volume(
    line: str, volume: str | None, pages: str
) -> None:
    record = read_reference(line)
    assert record is not None
    assert (record.volume, record.pages) == (volume, pages)
