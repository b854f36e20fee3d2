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


#: A reference list copied from a paper's PDF: references broken where the column ends (in
#: a DOI, after a comma, after APA's year, before a chapter's book), a page's running head
#: between two of them, an APA list of twenty names with its ellipsis.
PDF_LIST = """References

Bąk, P., Søreide, J., & Yılmaz, Ğ. (2021). Long-term sediment transport in Arctic fjords.
Journal of Geophysical Research, 126(4), e2020JF005912. https://doi.org/10.1029/
2020JF005912
Chen, W., Li, X., & Zhang, Y. (2019). Salt intrusion in the Yangtze estuary under extreme
drought. Estuarine, Coastal and Shelf Science, 225,
106–118. https://doi.org/10.1016/j.ecss.2019.05.012
Marine Geology 455 (2023) 107012
Doe, J., Roe, R., Smith, A., Jones, B., Lee, C., Kim, D., Park, E., Wu, F., Xu, G., Yu, H.,
Zhao, I., Sun, J., Ma, K., Hu, L., Lu, M., Gao, N., Lin, O., Tan, P., . . . Wang, Q. (2020).
A global dataset of tidal flats. Nature Data, 7, 1–12.
Mensah, K. (2018). Coastal lagoons. In L. Rossi & M. Ødegaard (Eds.), Handbook of
coastal science (2nd ed., pp. 301–330). Springer.
"""


def test_a_reference_list_copied_from_a_pdf_keeps_each_reference_whole() -> None:
    """A reference whose first lines read as one lost what followed: its DOI ("126(4),"
    ended a line), its chapter's book ("Handbook of"); twenty names over two lines were read
    as a paper titled "Tan, P"."""
    page = parse_text(PDF_LIST)
    got = [
        (r.title, r.venue, r.doi, r.pages, len(r.authors), r.line, r.last_line)
        for r in page.records
    ]
    assert got == [
        (
            "Long-term sediment transport in Arctic fjords",
            "Journal of Geophysical Research",
            "10.1029/2020jf005912",
            None,
            3,
            3,
            5,
        ),
        (
            "Salt intrusion in the Yangtze estuary under extreme drought",
            "Estuarine, Coastal and Shelf Science",
            "10.1016/j.ecss.2019.05.012",
            "106–118",
            3,
            6,
            8,
        ),
        ("A global dataset of tidal flats", "Nature Data", None, "1–12", 19, 10, 12),
        ("Coastal lagoons", "Handbook of coastal science", None, "301–330", 1, 13, 14),
    ]
    assert page.records[3].type == "chapter"
    assert page.records[3].publisher == "Springer"
    assert page.warnings == []


def test_an_ieee_list_keeps_a_doi_broken_at_the_lines_end_and_numbers_part_references() -> None:
    page = parse_text(
        "REFERENCES\n"
        "[1] N. Okafor, E. Lindqvist, and R. Baptiste, “Tidal models of estuary sediment,” "
        "Mar. Geol., vol. 441, no. 3, pp. 106–121, 2022, doi: 10.1016/j.margeo.\n"
        "2022.106.\n"
        "[2] W. Chen and X. Li, “Salt intrusion in the Yangtze estuary,” in Proc. IEEE\n"
        "Int. Geosci. Remote Sens. Symp. (IGARSS), 2019, pp. 1–4.\n"
        "1. Okafor, N., Lindqvist, E. & Baptiste, R. Tidal models of estuary sediment. Mar. "
        "Geol.\n"
        "441, 106–121 (2022).\n"
        "2. Wang, L. & Zhang, Y. Salt intrusion in the Yangtze estuary. Nat. Geosci. 12, 1–8\n"
        "(2019).\n"
    )
    got = [(r.title, r.doi, r.line, r.last_line) for r in page.records]
    assert got == [
        ("Tidal models of estuary sediment", "10.1016/j.margeo.2022.106", 2, 3),
        ("Salt intrusion in the Yangtze estuary", None, 4, 5),
        ("Tidal models of estuary sediment", None, 6, 7),
        ("Salt intrusion in the Yangtze estuary", None, 8, 9),
    ]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "Bąk, P. (2021). Sediment transport in Arctic fjords. Journal of Geophysical "
            "Research: Earth Surface, 126(4), e2020JF005912.",
            ("article-journal", "Journal of Geophysical Research: Earth Surface", None, "126"),
        ),
        (
            "Okafor, N. (2020) Estuaries of the north. Cambridge: Cambridge University Press.",
            ("book", None, "Cambridge University Press", None),
        ),
        (  # (Vancouver's colon before its pages stays where the venue ends)
            "Okafor N. Tidal models. J Mach Learn Res. 2023;24(2):1-34.",
            ("article-journal", "J Mach Learn Res", None, "24"),
        ),
    ],
)
def test_a_journal_named_with_a_colon_keeps_its_whole_name(
    line: str, expected: tuple[object, ...]
) -> None:
    """The venue ended at the colon: "Journal of Geophysical Research", and Harvard's book
    "Cambridge: Cambridge University Press" was an article of the journal "Cambridge"."""
    record = read_reference(line)
    assert record is not None, line
    assert (record.type, record.venue, record.publisher, record.volume) == expected


@pytest.mark.parametrize(
    ("line", "given"),
    [
        ("Okafor, N., & Lindqvist, E. (Eds.). (2020). Estuaries of the world. Elsevier.", "N."),
        ("Okafor, N. and Lindqvist, E. (eds) (2020) Estuaries of the world. Elsevier.", "N."),
        (
            "Okafor, Nadia, and Elsa Lindqvist, eds. 2020. Estuaries of the world. Elsevier.",
            "Nadia",
        ),
    ],
)
def test_an_edited_book_names_its_editors_not_its_authors(line: str, given: str) -> None:
    """An edited book was not read at all: "(Eds.)" made its names no list of people."""
    record = read_reference(line)
    assert record is not None, line
    got = (record.title, record.type, record.publisher, record.year, record.authors)
    assert got == ("Estuaries of the world", "book", "Elsevier", 2020, ())
    assert record.extra["editor"] == [
        {"family": "Okafor", "given": given},
        {"family": "Lindqvist", "given": "E." if given == "N." else "Elsa"},
    ]


def test_a_vancouver_chapter_names_its_book_not_its_editors() -> None:
    """Vancouver's chapter was a conference paper of the venue "Rossi L" (its first editor)."""
    record = read_reference(
        "Wang L, Zhang Y. Salt intrusion in the Yangtze estuary. In: Rossi L, Mensah K, "
        "editors. Handbook of coastal science. 2nd ed. Berlin: Springer; 2018. p. 301-30."
    )
    assert record is not None
    got = (record.title, record.type, record.venue, record.publisher, record.year)
    assert got == (
        "Salt intrusion in the Yangtze estuary",
        "chapter",
        "Handbook of coastal science",
        "Springer",
        2018,
    )
    assert record.extra["publisher-place"] == "Berlin"


def test_a_heading_over_a_wrapped_first_reference_and_pages_after_pp_stay_apart() -> None:
    """The heading "Works Cited" was read with the first reference (by "Works Cited Okafor",
    titled "Nadia, et al") and as the page's owner; a reference wrapped after its "pp." lost
    its pages."""
    page = parse_text(
        "Works Cited\n"
        "Okafor, Nadia, et al. “Tidal Models of Estuary Sediment.” Marine Geology, vol. 441,\n"
        "no. 3, 2022, pp. 106–21, https://doi.org/10.1016/j.margeo.2022.106.\n"
        "Okafor, N. et al. (2022) ‘Tidal models of estuary sediment’, Marine Geology, 441(3), "
        "pp.\n"
        "106–121. Available at: https://doi.org/10.1016/j.margeo.2022.106 (Accessed: 3 May "
        "2023).\n"
    )
    assert page.owner == ""
    got = [(r.authors, r.title, r.venue, r.pages, r.doi) for r in page.records]
    assert got == [
        (
            ("Nadia Okafor",),
            "Tidal Models of Estuary Sediment",
            "Marine Geology",
            "106–21",
            "10.1016/j.margeo.2022.106",
        ),
        (
            ("N. Okafor",),
            "Tidal models of estuary sediment",
            "Marine Geology",
            "106–121",
            "10.1016/j.margeo.2022.106",
        ),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "Zhang W, Li XM, Wang Y. Salt intrusion in the Yangtze estuary. J Hydrol. 2019;570:1-12.",
        "Wei Zhang, Xiaoming Li 0002: Salt intrusion in the Yangtze estuary. J. Hydrol. 570: "
        "1-12 (2019)",
    ],
)
def test_a_volume_before_a_colon_and_its_pages_is_read(line: str) -> None:
    """Vancouver's "2019;570:1-12" and DBLP's "570: 1-12" gave their pages but no volume."""
    record = read_reference(line)
    assert record is not None, line
    assert (record.volume, record.issue, record.pages) == ("570", None, "1–12")


@pytest.mark.parametrize("kind", ["Unpublished manuscript", "Manuscript submitted for publication"])
def test_an_unpublished_manuscript_names_its_department_not_a_journal(kind: str) -> None:
    """APA 7's "[Unpublished manuscript]" was an article of the journal "Department of
    Geology"."""
    record = read_reference(
        f"Ünal, Ş. (2022). Sediment budgets of the Bosphorus [{kind}]. Department of Geology, "
        "Middle East Technical University."
    )
    assert record is not None
    got = (record.title, record.type, record.venue, record.publisher, record.authors)
    assert got == (
        "Sediment budgets of the Bosphorus",
        "manuscript",
        None,
        "Department of Geology, Middle East Technical University",
        ("Ş. Ünal",),
    )


@pytest.mark.parametrize(
    ("line", "place"),
    [
        (
            "Okafor, Nadia, and Elsa Lindqvist. “Salt Wedges.” In Handbook of Coastal Science, "
            "edited by Luca Rossi, 301–30. Berlin: Springer, 2018.",
            "Berlin",
        ),
        (
            "Okafor, Nadia. “Salt Wedges.” Handbook of Coastal Science, edited by Luca Rossi and "
            "Kofi Mensah, Springer, 2018, pp. 301–30.",
            None,
        ),
    ],
)
def test_a_chicago_or_mla_chapter_edited_by_names_its_book(line: str, place: str | None) -> None:
    """Chicago's and MLA's chapter ("In Book, edited by …") was a conference paper or an
    article of a journal of the book's name, without its publisher."""
    record = read_reference(line)
    assert record is not None, line
    got = (record.title, record.type, record.venue, record.publisher, record.pages)
    assert got == ("Salt Wedges", "chapter", "Handbook of Coastal Science", "Springer", "301–30")
    assert record.extra.get("publisher-place") == place


def test_a_vancouver_journal_read_online_is_named_without_its_medium() -> None:
    record = read_reference(
        "Okafor N, Lindqvist E. Tidal models of estuary sediment. Mar Geol [Internet]. 2022 "
        "[cited 2023 May 3];441(3):106–21. Available from: https://doi.org/10.1016/j.margeo.2022.106"
    )
    assert record is not None
    assert (record.venue, record.volume, record.doi) == (
        "Mar Geol",
        "441",
        "10.1016/j.margeo.2022.106",
    )


def test_a_google_scholar_row_titled_by_one_word_is_read() -> None:
    """Scholar's row "Cryosphere" was left out without a word."""
    page = parse_text(
        "Nadia Okafor\nProfessor of Coastal Engineering, Example University\n"
        "TITLE\nCITED BY\nYEAR\n"
        "Tidal models of estuary sediment\nN Okafor, E Lindqvist\n"
        "Marine Geology 441 (3), 106-121\t152\t2022\n"
        "Cryosphere\nN Okafor, J Smith\nNature Geoscience 3, 1-2\t40\t2020\n"
    )
    got = [(r.title, r.authors, r.venue, r.year) for r in page.records]
    assert got == [
        ("Tidal models of estuary sediment", ("N. Okafor", "E. Lindqvist"), "Marine Geology", 2022),
        ("Cryosphere", ("N. Okafor", "J. Smith"), "Nature Geoscience", 2020),
    ]


def test_a_word_a_pdf_broke_at_its_syllables_is_one_word_again() -> None:
    """ "sedi-" and "ment" were "sedi-ment" (and its title no duplicate of the paper's own);
    a compound's hyphen stays ("long-term", "state-of-the-art")."""
    page = parse_text(
        "References\n"
        "[1] N. Okafor, “Long-\n"
        "term models of estuary sedi-\n"
        "ment,” Mar. Geol., vol. 441, pp. 106–121, 2022.\n"
        "[2] E. Lindqvist, “State-\n"
        "of-the-art salt intru-\n"
        "sion models,” J. Hydrol., vol. 570, pp. 1–12, 2019.\n"
    )
    assert [r.title for r in page.records] == [
        "Long-term models of estuary sediment",
        "State-of-the-art salt intrusion models",
    ]
