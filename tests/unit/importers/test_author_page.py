"""Tests of reading author pages: both formats, browser-copy variations, errors and seeds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from refman.importers import (
    NotAnAuthorPageError,
    PageFormat,
    UnreadableFileError,
    parse,
    parse_text,
)
from refman.importers.sources import MAX_FILE_BYTES
from refman.importers.titles import suggest_title
from tests.helpers.fixtures import page_from_bytes, read_page

HERE = Path(__file__).resolve()
PAGES = HERE.parents[2] / "fixtures" / "pages"
SEEDS = HERE.parents[3] / ".." / "shared" / "seeds"

TIDEWATER_ABSTRACT = (
    "Sensor networks emit logs faster than batch systems can join them. We present Tidewater, "
    "a streaming join engine that keeps per-key watermarks in compressed form. On three "
    "industrial traces, Tidewater cuts join latency by $4.2$x and memory by 37% over the best "
    "prior engine."
)


def page_text(*lines: str, gap: str = "\n\n") -> str:
    """Join page lines the way the seed pages are laid out (a blank line between lines)."""
    return gap.join(lines) + "\n"


def record_lines(venue_line: str, title: str, abstract: str, subjects: str) -> list[str]:
    """The four lines of one publication-list record."""
    return [venue_line, title, abstract, subjects]


HEADER = [
    "arXiv subjects",
    "Ada Lindqvist",
    "Publications and source records attributed to Ada Lindqvist.",
    "2 recordsLinked to original sources",
]
REC_A = record_lines(
    "arXiv2024",
    "Sparse Probes for Dense Retrievers",
    "Dense retrievers hide what they match on. We train sparse probes that explain 80% of hits.",
    "cs.IR↗",
)
REC_B = record_lines(
    "NeurIPS2023",
    "Calibrated Abstention in Small Models",
    "Small models answer when they should abstain. A calibrated threshold halves wrong answers.",
    "cs.CL↗",
)


# ----------------------------------------------------------------------------- format 1


def test_publication_list_fixture_reads_every_field() -> None:
    page = read_page(PAGES / "list_basic.txt")
    assert page.owner == "Marisol Quintana"
    assert page.format is PageFormat.PUBLICATION_LIST
    assert page.claimed == 3
    assert page.warnings == []
    assert [r.title for r in page.records] == [
        "Tidewater: Streaming Joins over Unbounded Sensor Logs",
        "2019: A Year of Quiet Progress in Tensor Sketching",
        "Orca-4 Technical Report",
    ]
    assert [(r.year, r.venue) for r in page.records] == [
        (2025, "arXiv"),
        (2024, "ICLR"),
        (2023, "arXiv"),
    ]
    assert [r.subjects for r in page.records] == [("cs.DB",), ("cs.DS",), ("eess.AS",)]
    first = page.records[0]
    assert first.abstract == TIDEWATER_ABSTRACT
    assert first.title_provisional is False
    assert first.authors == ()
    assert first.line == 9


def test_abstract_keeps_latex_markup_as_on_the_page() -> None:
    page = read_page(PAGES / "list_basic.txt")
    assert page.records[2].abstract.startswith(r"We introduce \textbf{Orca-4}, a family")


def test_a_title_holding_latex_is_kept_as_the_text_it_prints() -> None:
    """As a BibTeX title is: shown, searched (``title:über``) and exported as text; the
    abstract keeps its LaTeX (its readable form is derived)."""
    rec = record_lines(
        "arXiv2025",
        r"{\"U}ber  $\alpha$-Divergenzen bei Erd\H{o}s, for $5 and $10",
        r"We bound $\alpha$-divergences of streaming data under drift.",
        "cs.LG↗",
    )
    page = parse_text(page_text(*HEADER[:3], "1 recordsLinked to original sources", *rec))
    (record,) = page.records
    assert record.title == "Über α-Divergenzen bei Erdős, for $5 and $10"
    assert record.abstract == r"We bound $\alpha$-divergences of streaming data under drift."


def test_crlf_page_without_blank_lines_or_breadcrumb() -> None:
    page = read_page(PAGES / "list_crlf_compact.txt")
    assert page.owner == "Dmitri Aleksandrov"
    assert page.claimed == 4
    assert page.warnings == []
    assert [(r.venue, r.year) for r in page.records] == [
        ("NeurIPS", 2023),
        ("Proc. VLDB", 2021),
        ("ICML", 2022),
        ("arXiv", 2020),
    ]
    assert page.records[0].title == "Helix2.5-Reasoner: Teaching Small Models to Plan"
    assert page.records[0].subjects == ("cs.LG", "stat.ML")
    assert page.records[2].title == "GPT-Lite 3 Technical Report"
    assert [r.line for r in page.records] == [4, 8, 12, 16]


def test_cr_only_single_record_page_with_chinese_owner() -> None:
    page = read_page(PAGES / "list_single_cr.txt")
    assert page.owner == "李明"
    assert page.claimed == 1
    assert len(page.records) == 1
    assert page.records[0].subjects == ("math.OC", "eess.SY")
    assert page.warnings == []


def test_irregular_page_multi_paragraph_abstract_and_missing_subject_line() -> None:
    page = read_page(PAGES / "list_irregular.txt")
    assert page.owner == "Zoë Müller"
    assert page.claimed == 5
    assert len(page.records) == 4
    songbird, holography, perovskite, futures = page.records
    assert songbird.abstract == (
        "Songbirds learn rhythm from tutors. We recorded 312 neurons in zebra finches during "
        "song learning.\n\nNeurons tuned to inter-onset intervals emerged two weeks before song "
        "stabilised.\n\nThese results suggest that rhythm is learned before pitch."
    )
    assert songbird.subjects == ("q-bio.NC", "astro-ph.CO")
    assert holography.venue == "Phys. Rev. D"
    assert holography.subjects == ("hep-th", "gr-qc", "math-ph")
    assert perovskite.subjects == ()
    assert perovskite.abstract.startswith("Layered perovskites change")
    assert futures.title == "Early-Warning Signals in Commodity Futures"
    assert futures.subjects == ("econ.EM", "q-fin.ST", "nlin.CD", "nucl-th")
    assert page.warnings == [
        "The page says 5 records but only 4 were found.",
        "Line 33: a record has no subject line; it was closed at the next venue line.",
    ]


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("gap", [0, 1, 3])
def test_line_endings_and_blank_line_runs_do_not_change_the_result(ending: str, gap: int) -> None:
    reference = parse(page_text(*HEADER, *REC_A, *REC_B))
    text = (ending * (gap + 1)).join(HEADER + REC_A + REC_B)
    page = parse(text)
    assert page.owner == reference.owner
    assert page.claimed == 2
    assert [(r.title, r.year, r.venue, r.subjects, r.abstract) for r in page.records] == [
        (r.title, r.year, r.venue, r.subjects, r.abstract) for r in reference.records
    ]
    assert page.warnings == []


def test_spaces_and_tabs_around_lines_are_ignored() -> None:
    lines = [f"  {line}\t " for line in HEADER + REC_A + REC_B]
    page = parse(page_text(*lines))
    assert page.owner == "Ada Lindqvist"
    assert page.records[0].title == "Sparse Probes for Dense Retrievers"
    assert page.records[1].subjects == ("cs.CL",)


def test_breadcrumb_ending_in_a_year_is_not_a_record() -> None:
    page = parse(page_text("Index › Authors › 2026", *HEADER[1:], *REC_A, *REC_B))
    assert page.owner == "Ada Lindqvist"
    assert [r.title for r in page.records] == [REC_A[1], REC_B[1]]
    assert page.warnings == []


def test_missing_breadcrumb_line() -> None:
    page = parse(page_text(*HEADER[1:], *REC_A, *REC_B))
    assert page.owner == "Ada Lindqvist"
    assert len(page.records) == 2


@pytest.mark.parametrize(
    ("venue_line", "venue", "year"),
    [
        ("arXiv 2024", "arXiv", 2024),
        ("arXiv2024", "arXiv", 2024),
        ("NeurIPS2023", "NeurIPS", 2023),
        ("ICML 2022", "ICML", 2022),
        ("Proc. VLDB 2021", "Proc. VLDB", 2021),
        ("Phys. Rev. Lett. 1998", "Phys. Rev. Lett.", 1998),
        ("2019", None, 2019),
    ],
)
def test_venue_and_year_with_or_without_a_space(
    venue_line: str, venue: str | None, year: int
) -> None:
    rec = [venue_line, *REC_A[1:]]
    page = parse(page_text(*HEADER[:3], "1 record", *rec))
    assert (page.records[0].venue, page.records[0].year) == (venue, year)
    assert page.claimed == 1
    assert page.warnings == []


@pytest.mark.parametrize(
    ("venue_line", "venue"),
    [
        (
            "Proceedings of the 2023 Conference on Empirical Methods in Natural Language "
            "Processing (EMNLP) 2023",
            "Proceedings of the 2023 Conference on Empirical Methods in Natural Language "
            "Processing (EMNLP)",
        ),
        (
            "Advances in Neural Information Processing Systems 36: Annual Conference on Neural "
            "Information Processing Systems, 2023",
            "Advances in Neural Information Processing Systems 36: Annual Conference on Neural "
            "Information Processing Systems",
        ),
    ],
)
@pytest.mark.parametrize("first", [True, False])
def test_a_proceedings_full_name_is_a_venue_line(venue_line: str, venue: str, first: bool) -> None:
    rec = [venue_line, *REC_A[1:]]
    records = [*rec, *REC_B] if first else [*REC_B, *rec]
    page = parse(page_text(*HEADER, *records))
    assert page.warnings == []
    long = page.records[0 if first else 1]
    assert (long.venue, long.year, long.title) == (venue, 2023, REC_A[1])
    assert long.abstract == REC_A[2]
    assert [r.title for r in page.records].count(REC_B[1]) == 1


def test_a_long_title_ending_in_a_year_before_its_abstract_stays_a_title() -> None:
    title = "Forecasting Electricity Demand Across Twenty European Grids from 1990 to 2020"
    rec = ["arXiv2021", title, "We forecast demand. Errors fall by a third.", "stat.AP"]
    page = parse(page_text(*HEADER, *rec, *REC_B))
    assert [r.title for r in page.records] == [title, REC_B[1]]
    assert page.warnings == []


@pytest.mark.parametrize(
    "title",
    [
        "2024: A Year in Review",
        "GPT-4 Technical Report",
        "Seed1.5-Thinking: Reasoning with Reinforcement",
        "Trends in Sparse Retrieval 2024",
        "arXiv 2021",
        "10,000 GPUs and Counting",
    ],
)
def test_titles_with_digits_or_years_are_not_taken_for_venue_lines(title: str) -> None:
    rec = record_lines("arXiv2025", title, "An abstract that says something useful.", "cs.LG")
    page = parse(page_text(*HEADER[:3], "2 records", *rec, *REC_B))
    assert [r.title for r in page.records] == [title, REC_B[1]]
    assert page.records[0].year == 2025
    assert page.warnings == []


@pytest.mark.parametrize(
    ("subject_line", "subjects"),
    [
        ("cs.LG↗", ("cs.LG",)),
        ("cs.LG", ("cs.LG",)),
        ("math.OC↗ stat.ML↗", ("math.OC", "stat.ML")),
        ("eess.AS, q-bio.NC", ("eess.AS", "q-bio.NC")),
        ("astro-ph.CO; hep-th; cond-mat.mtrl-sci", ("astro-ph.CO", "hep-th", "cond-mat.mtrl-sci")),
        ("physics.optics↗, quant-ph↗", ("physics.optics", "quant-ph")),
        ("econ.EM q-fin.ST nlin.CD", ("econ.EM", "q-fin.ST", "nlin.CD")),
        ("gr-qc math-ph nucl-th", ("gr-qc", "math-ph", "nucl-th")),
        ("cs.LG↗ cs.LG↗", ("cs.LG",)),
        ("Machine Learning (cs.LG); Optimization and Control (math.OC)", ("cs.LG", "math.OC")),
    ],
)
def test_subject_lines_of_any_arxiv_archive(subject_line: str, subjects: tuple[str, ...]) -> None:
    rec = [*REC_A[:3], subject_line]
    page = parse(page_text(*HEADER[:3], "1 record", *rec))
    assert page.records[0].subjects == subjects
    assert page.records[0].abstract == REC_A[2]


def test_subjects_on_separate_lines_belong_to_one_record() -> None:
    rec = [*REC_A[:3], "cs.IR↗", "cs.LG↗", "stat.ML"]
    page = parse(page_text(*HEADER, *rec, *REC_B))
    assert page.records[0].subjects == ("cs.IR", "cs.LG", "stat.ML")
    assert len(page.records) == 2
    assert page.warnings == []


def test_last_record_without_subject_line_is_kept_with_a_warning() -> None:
    page = parse(page_text(*HEADER, *REC_A, *REC_B[:3]))
    assert len(page.records) == 2
    assert page.records[1].abstract == REC_B[2]
    assert page.records[1].subjects == ()
    assert page.warnings == [
        "Line 17: a record has no subject line; it was closed at the end of the page."
    ]


def test_a_record_of_a_year_alone_after_one_without_subject_line_is_a_record_of_its_own() -> None:
    # (the year line used to go into the abstract before it, with the whole record after it)
    no_venue = ["2021", *REC_B[1:]]
    page = parse(page_text(*HEADER[:3], "3 records", *REC_A[:3], *no_venue, *REC_B))
    assert [(r.title, r.year, r.venue) for r in page.records] == [
        (REC_A[1], 2024, "arXiv"),
        (REC_B[1], 2021, None),
        (REC_B[1], 2023, "NeurIPS"),
    ]
    assert page.records[0].abstract == REC_A[2]
    assert page.records[1].abstract == REC_B[2] and page.records[1].subjects == ("cs.CL",)
    assert page.warnings == [
        "Line 9: a record has no subject line; it was closed at the next venue line."
    ]


def test_a_year_alone_in_an_abstract_before_more_of_it_stays_in_the_abstract() -> None:
    abstract = ["We count the papers of each year.", "2021", "That year doubled the count."]
    page = parse(page_text(*HEADER[:3], "2 records", *REC_A[:2], *abstract, REC_A[3], *REC_B))
    assert [r.title for r in page.records] == [REC_A[1], REC_B[1]]
    assert page.records[0].abstract == "\n\n".join(abstract)
    assert page.warnings == []


REC_C = record_lines(
    "ICML 2022",
    "Sketching Gradients for Federated Training",
    "Federated training sends whole gradients. We send sketches and cut traffic tenfold.",
    "cs.DC↗",
)


@pytest.mark.parametrize("bare", [[REC_B[0], REC_B[1], REC_B[3]], [REC_B[0], REC_B[3]]])
def test_a_record_without_abstract_after_a_record_without_subject_line_is_kept(
    bare: list[str],
) -> None:
    page = parse(page_text(*HEADER[:3], "3 records", *REC_A[:3], *bare, *REC_C))
    assert [(r.venue, r.abstract, r.subjects) for r in page.records] == [
        ("arXiv", REC_A[2], ()),
        ("NeurIPS", "", ("cs.CL",)),
        ("ICML", REC_C[2], ("cs.DC",)),
    ]
    assert page.records[0].title == REC_A[1]
    assert page.records[1].title_provisional is (len(bare) == 2)
    assert page.warnings == [
        "Line 9: a record has no subject line; it was closed at the next venue line."
    ]


def test_a_last_record_of_only_a_title_after_a_record_without_subject_line_is_kept() -> None:
    page = parse(page_text(*HEADER, *REC_A[:3], "ICML 2021", "A Short Note on Dropout"))
    assert [(r.title, r.abstract) for r in page.records] == [
        (REC_A[1], REC_A[2]),
        ("A Short Note on Dropout", ""),
    ]
    assert page.warnings == [
        "Line 9: a record has no subject line; it was closed at the next venue line.",
        "Line 15: a record has no subject line; it was closed at the end of the page.",
    ]


def test_without_a_count_a_venue_line_and_title_before_the_subjects_start_a_record() -> None:
    page = parse(page_text(*HEADER[:3], *REC_A[:3], REC_B[0], REC_B[1], REC_B[3], *REC_C))
    assert [r.title for r in page.records] == [REC_A[1], REC_B[1], REC_C[1]]
    assert page.warnings == [
        "Line 7: a record has no subject line; it was closed at the next venue line.",
        "Line 13: “NeurIPS2023” and the line after it were read as a record of their own; "
        "they may belong to the abstract of the record at line 7.",
    ]


def test_a_bare_venue_line_of_the_page_before_the_subjects_starts_a_record() -> None:
    rec = ["arXiv2023", "cs.CL↗"]
    page = parse(page_text(*HEADER[:3], *REC_A[:3], *rec, *REC_C))
    assert [(r.venue, r.year, r.subjects) for r in page.records] == [
        ("arXiv", 2024, ()),
        ("arXiv", 2023, ("cs.CL",)),
        ("ICML", 2022, ("cs.DC",)),
    ]


def test_the_count_tells_a_record_without_abstract_from_an_abstract_note() -> None:
    notes = ["Published in Nature 2023", "Supplementary material online"]
    rec = ["arXiv2023", "Dense Probes for Sparse Retrievers", "cs.IR↗"]
    page = parse(
        page_text(*HEADER[:3], "3 records", *REC_A[:3], *notes, REC_A[3], *REC_B[:3], *rec)
    )
    assert [(r.title, r.abstract) for r in page.records] == [
        (REC_A[1], "\n\n".join([REC_A[2], *notes])),
        (REC_B[1], REC_B[2]),
        (rec[1], ""),
    ]
    assert page.warnings == [
        "Line 21: a record has no subject line; it was closed at the next venue line."
    ]


def test_without_a_count_an_abstract_note_and_a_line_stay_with_a_warning() -> None:
    notes = ["Accepted at ICML 2024", "Oral presentation"]
    page = parse(page_text(*HEADER[:3], *REC_A[:3], *notes, REC_A[3], *REC_B))
    assert [r.title for r in page.records] == [REC_A[1], REC_B[1]]
    assert page.records[0].abstract == "\n\n".join([REC_A[2], *notes])
    assert page.warnings == [
        "Line 13: “Accepted at ICML 2024” and the line after it were read as part of the "
        "abstract of the record at line 7; they may be a record of their own."
    ]


@pytest.mark.parametrize("count", ["2 records", "1 record"])
def test_abstract_notes_before_the_subjects_stay_when_the_count_says_so(count: str) -> None:
    notes = ["Accepted at ICML 2024", "Oral presentation"]
    page = parse(page_text(*HEADER[:3], count, *REC_A[:3], *notes, REC_A[3], *REC_B))
    assert [r.title for r in page.records] == [REC_A[1], REC_B[1]]
    assert page.records[0].abstract == "\n\n".join([REC_A[2], *notes])
    assert page.records[0].subjects == ("cs.IR",)
    if count == "2 records":
        assert page.warnings == []
    else:
        assert page.warnings == [
            "The page says 1 record but 2 were found.",
            "Line 15: “Accepted at ICML 2024” and the line after it were read as part of the "
            "abstract of the record at line 9; they may be a record of their own.",
        ]


def test_more_records_than_claimed_is_reported() -> None:
    header = [*HEADER[:3], "1 recordLinked to original sources"]
    page = parse(page_text(*header, *REC_A, *REC_B))
    assert len(page.records) == 2
    assert page.warnings == ["The page says 1 record but 2 were found."]


def test_trailing_footer_lines_are_skipped_with_a_warning() -> None:
    page = parse(page_text(*HEADER, *REC_A, *REC_B, "Back to top", "© 2026 Example Index"))
    assert len(page.records) == 2
    assert page.warnings == ["Lines 25–27 do not look like a publication record and were skipped."]


def test_a_footer_line_ending_in_a_year_is_not_a_record() -> None:
    page = parse(page_text(*HEADER, *REC_A, *REC_B, "Last updated 12 March 2026", "About · Help"))
    assert [r.title for r in page.records] == [REC_A[1], REC_B[1]]
    assert page.warnings == ["Lines 25–27 do not look like a publication record and were skipped."]


@pytest.mark.parametrize(
    "footer",
    [
        ["Last updated 12 March 2026", "© 2026 Example Index", "Privacy · Terms"],
        ["Back to top", "Last updated 12 March 2026", "© 2026 Example Index", "Privacy · Terms"],
        ["Example Index 2026", "Privacy | Terms | Cookies", "Contact: help@example.org"],
        ["© 2025 Example Index", "Powered by Lantern", "About · Help", "Terms of use"],
        ["Last modified on March 3, 2026", "Example Index, Oslo", "All rights reserved."],
    ],
)
def test_a_footer_of_several_lines_is_skipped_with_one_warning(footer: list[str]) -> None:
    page = parse(page_text(*HEADER, *REC_A, *REC_B, *footer))
    assert [r.title for r in page.records] == [REC_A[1], REC_B[1]]
    last = 25 + 2 * (len(footer) - 1)
    assert page.warnings == [
        f"Lines 25–{last} do not look like a publication record and were skipped."
    ]


def test_a_footer_after_a_last_record_without_subject_line_is_not_its_abstract() -> None:
    footer = ["Last updated 12 March 2026", "© 2026 Example Index", "Privacy · Terms"]
    page = parse(page_text(*HEADER, *REC_A, *REC_B[:3], *footer))
    assert [r.title for r in page.records] == [REC_A[1], REC_B[1]]
    assert page.records[1].abstract == REC_B[2]
    assert page.warnings == [
        "Line 17: a record has no subject line; it was closed at the end of the page.",
        "Lines 23–27 do not look like a publication record and were skipped.",
    ]


@pytest.mark.parametrize(
    "last",
    [
        ["ICML 2021", "Privacy Amplification by Subsampling", "We bound privacy loss. Contact us."],
        ["ICML 2021", "Terms of Trade", "About a third of trade is priced in dollars."],
        ["IEEE Conference on Decision and Control 2019", "Safe Sets for Drones"],
        ["Proc. Updated Methods 2020", "Copyright and Machine Learning", "We map the law."],
    ],
)
def test_a_last_record_without_subject_line_that_mentions_footer_words_stays(
    last: list[str],
) -> None:
    page = parse(page_text(*HEADER, *REC_A, *last))
    assert [r.title for r in page.records] == [REC_A[1], last[1]]
    assert page.records[1].abstract == "\n\n".join(last[2:])
    assert page.warnings == [
        "Line 17: a record has no subject line; it was closed at the end of the page."
    ]


def test_a_last_updated_line_above_the_records_is_no_record() -> None:
    page = parse(page_text(*HEADER, "Last updated 12 March 2026", *REC_A, *REC_B))
    assert [(r.venue, r.title) for r in page.records] == [
        ("arXiv", REC_A[1]),
        ("NeurIPS", REC_B[1]),
    ]
    assert page.warnings == []


def test_a_record_whose_only_line_is_its_abstract_gets_a_suggested_title() -> None:
    page = parse(page_text(*HEADER, REC_A[0], REC_A[2], REC_A[3], *REC_B))
    first = page.records[0]
    assert (first.abstract, first.title_provisional) == (REC_A[2], True)
    assert first.title == suggest_title(REC_A[2])
    assert page.warnings == ["Line 9: a record has no title; one was suggested from its abstract."]


def test_record_without_venue_line_takes_its_first_line_as_title() -> None:
    page = parse(page_text(*HEADER, *REC_A, *REC_B[1:]))
    assert [r.title for r in page.records] == [REC_A[1], REC_B[1]]
    assert page.records[1].year is None
    assert page.warnings == [
        "Line 17: a record has no venue and year line; its first line was taken as the title."
    ]


def test_owner_falls_back_to_the_line_before_the_sentence() -> None:
    header = ["Ada Lindqvist", "Publications and source records attributed to.", "2 records"]
    page = parse(page_text(*header, *REC_A, *REC_B))
    assert page.owner == "Ada Lindqvist"


def test_a_heading_above_the_records_is_not_the_owner() -> None:
    page = parse(page_text("Jane Doe", "To Appear", *REC_A))
    assert page.owner == "Jane Doe"


def test_owner_found_without_the_attribution_sentence() -> None:
    page = parse(page_text("arXiv subjects", "Ada Lindqvist", "2 records", *REC_A, *REC_B))
    assert page.owner == "Ada Lindqvist"
    assert page.claimed == 2


def test_records_without_any_header_are_read_and_the_missing_owner_reported() -> None:
    page = parse(page_text(*REC_A, *REC_B))
    assert page.format is PageFormat.PUBLICATION_LIST
    assert page.owner == ""
    assert page.claimed is None
    assert len(page.records) == 2
    assert page.warnings == ["The page does not say whose publications these are."]


def test_count_and_link_caption_on_separate_lines() -> None:
    header = [*HEADER[:3], "2 records", "Linked to original sources"]
    page = parse(page_text(*header, *REC_A, *REC_B))
    assert page.claimed == 2
    assert [r.title for r in page.records] == [REC_A[1], REC_B[1]]
    assert page.warnings == []


def test_short_abstract_paragraph_ending_in_a_year_stays_in_the_abstract() -> None:
    rec = [*REC_A[:3], "Accepted at ICML 2024", REC_A[3]]
    page = parse(page_text(*HEADER, *rec, *REC_B))
    assert page.records[0].abstract == REC_A[2] + "\n\nAccepted at ICML 2024"
    assert page.records[0].subjects == ("cs.IR",)
    assert len(page.records) == 2
    assert page.warnings == []


@pytest.mark.parametrize(
    "paragraphs",
    [
        ["Accepted to ICML 2024", "Code: https://github.com/ada/probes"],
        ["Our traces cover every trading day between 1950 and 2020", "Supplementary material"],
    ],
)
def test_abstract_paragraphs_ending_in_a_year_before_the_subjects_stay_in_the_abstract(
    paragraphs: list[str],
) -> None:
    rec = [*REC_A[:3], *paragraphs, REC_A[3]]
    page = parse(page_text(*HEADER, *rec, *REC_B))
    assert [r.title for r in page.records] == [REC_A[1], REC_B[1]]
    assert page.records[0].abstract == "\n\n".join([REC_A[2], *paragraphs])
    assert page.warnings == []


@pytest.mark.parametrize("heading", [["2024", "2023"], ["Year: All 2024 2023", "2023"]])
def test_year_headings_between_records_are_not_records(heading: list[str]) -> None:
    page = parse(page_text(*HEADER, heading[0], *REC_A, heading[1], *REC_B))
    assert [(r.venue, r.year, r.title) for r in page.records] == [
        ("arXiv", 2024, REC_A[1]),
        ("NeurIPS", 2023, REC_B[1]),
    ]
    assert page.records[0].abstract == REC_A[2]
    assert page.warnings == []


def test_a_title_ending_in_a_year_is_no_heading() -> None:
    title = "Findings of the Shared Task 2023"
    rec = ["arXiv 2023", title, "We report the findings: code at github.com/shared/task", "cs.CL"]
    page = parse(page_text(*HEADER, *rec, *REC_B))
    assert [(r.venue, r.title) for r in page.records] == [("arXiv", title), ("NeurIPS", REC_B[1])]


def test_a_last_record_with_only_its_title_is_kept() -> None:
    page = parse(page_text(*HEADER, *REC_A, "ICML 2021", "A Short Note on Dropout"))
    assert [r.title for r in page.records] == [REC_A[1], "A Short Note on Dropout"]


def test_a_long_line_of_news_ending_in_a_year_is_no_record() -> None:
    news = (
        "News: our paper on sparse probes received the best paper award at the Workshop on "
        "Efficient Machine Learning 2024"
    )
    page = parse(page_text(*HEADER, news, "Invited talk at the Stanford seminar", *REC_A, *REC_B))
    assert [r.title for r in page.records] == [REC_A[1], REC_B[1]]


def test_a_title_of_two_short_sentences_stays_a_title() -> None:
    title = "Message passing revisited. Part II."
    page = parse(page_text(*HEADER, REC_A[0], title, REC_A[3], *REC_B))
    assert (page.records[0].title, page.records[0].title_provisional) == (title, False)


def test_a_filter_bar_and_a_year_heading_before_a_record() -> None:
    page = parse(page_text(*HEADER, "Year: All 2024 2023", "2024", *REC_A, *REC_B))
    assert [r.title for r in page.records] == [REC_A[1], REC_B[1]]
    assert page.warnings == []


def test_a_subject_line_may_say_subject() -> None:
    page = parse(page_text(*HEADER, *REC_A[:3], "Subject: cs.LG", *REC_B))
    assert page.records[0].subjects == ("cs.LG",)
    assert page.warnings == []


def test_record_with_only_venue_and_subjects_gets_a_placeholder_title() -> None:
    page = parse(page_text(*HEADER[:3], "2 records", "arXiv2024", "cs.CR↗", *REC_B))
    assert len(page.records) == 2
    assert page.records[0].title == "Untitled record"
    assert page.records[0].title_provisional is True
    assert page.records[0].subjects == ("cs.CR",)
    assert page.records[1].title == REC_B[1]


# ----------------------------------------------------------------------------- format 2


def test_author_abstracts_fixture() -> None:
    page = read_page(PAGES / "abstracts_basic.txt")
    assert page.format is PageFormat.AUTHOR_ABSTRACTS
    assert page.owner == "José Ángel Ortega"
    assert page.claimed is None
    assert page.warnings == []
    kestrel, ges, wetlands, driftnet = page.records
    assert kestrel.authors == ("Ingrid Solberg", "José Ángel Ortega", "Wei Zhang")
    assert kestrel.authors_complete is False
    assert kestrel.title == "KESTREL"
    assert kestrel.title_provisional is True
    assert kestrel.year is None and kestrel.venue is None and kestrel.subjects == ()
    assert ges.authors == ("Priya Natarajan", "José Ángel Ortega")
    assert ges.authors_complete is True
    assert ges.title == "Gradient Echo Sampling (GES)"
    assert ges.abstract.endswith(
        "as control variates.\n\nOn four benchmarks GES matches the accuracy of exact gradients "
        "at a tenth of the cost."
    )
    assert wetlands.authors == ("李明", "Zoë Müller", "José Ángel Ortega")
    assert wetlands.title == "Coastal wetlands store large amounts of carbon in their…"
    assert driftnet.authors == ("Tomás Herrera",)
    assert driftnet.authors_complete is False
    assert driftnet.title == "DriftNet-2"
    assert [r.line for r in page.records] == [3, 7, 13, 17]


def test_author_abstracts_with_crlf_and_no_blank_lines() -> None:
    text = (PAGES / "abstracts_basic.txt").read_text(encoding="utf-8")
    compact = "\r\n".join(line for line in text.splitlines() if line.strip())
    page = parse(compact)
    reference = read_page(PAGES / "abstracts_basic.txt")
    assert [(r.authors, r.abstract, r.title) for r in page.records] == [
        (r.authors, r.abstract, r.title) for r in reference.records
    ]


def test_author_list_wrapped_over_two_lines() -> None:
    text = page_text(
        "Nadia Okafor",
        "Lena Brandt, Nadia Okafor,",
        "Tom Sato et al.",
        "We study how cold chains fail and propose a sensor layout that catches most failures.",
    )
    page = parse(text)
    assert page.records[0].authors == ("Lena Brandt", "Nadia Okafor", "Tom Sato")
    assert page.records[0].authors_complete is False


ABSTRACT_1 = "We study how cold chains fail and propose a sensor layout that catches most failures."
ABSTRACT_2 = "Graph networks model molecules; we propose message passing along rings."
ABSTRACT_3 = "Diffusion models draw images slowly. We introduce a sampler that needs four steps."


@pytest.mark.parametrize(
    ("lines", "authors", "complete"),
    [
        (["Yang You, Jie Chen et al."], ("Yang You", "Jie Chen"), False),
        (["Can Xu, Or Litany"], ("Can Xu", "Or Litany"), True),
        (["Bo An and Minh Do"], ("Bo An", "Minh Do"), True),
        (["Do Kyung Kim, Nadia Okafor"], ("Do Kyung Kim", "Nadia Okafor"), True),
        (["Diego de las Casas, Ahmed al-Sayed"], ("Diego de las Casas", "Ahmed al-Sayed"), True),
        (["João do Rio, José Ortega y Gasset"], ("João do Rio", "José Ortega y Gasset"), True),
        (["Ziheng Jiang*, Haibin Lin*, Xin Liu†"], ("Ziheng Jiang", "Haibin Lin", "Xin Liu"), True),
        (
            ["Ziheng Jiang, Haibin Lin, …, Xin Liu"],
            ("Ziheng Jiang", "Haibin Lin", "Xin Liu"),
            False,
        ),
        (["Jiang, Z., Lin, H. J., Zhong, Y."], ("Z. Jiang", "H. J. Lin", "Y. Zhong"), True),
        (["Lena Brandt, Tom Sato and", "Yu Ma"], ("Lena Brandt", "Tom Sato", "Yu Ma"), True),
        (["Lena Brandt &", "Yu Ma et al."], ("Lena Brandt", "Yu Ma"), False),
        (["Jiang, Z., Lin, H., & Zhong, Y."], ("Z. Jiang", "H. Lin", "Y. Zhong"), True),
        (["Jiang, Z., Lin, H., and Zhong, Y."], ("Z. Jiang", "H. Lin", "Y. Zhong"), True),
        (["Jiang, Ziheng; Lin, Haibin"], ("Ziheng Jiang", "Haibin Lin"), True),
        (["Z Jiang, H Lin, Y Zhong…"], ("Z Jiang", "H Lin", "Y Zhong"), False),
        (["Smith, J. R."], ("J. R. Smith",), True),
        (
            ["Martin Luther King, Jr., Tom Sato, III and Yu Ma"],
            ("Martin Luther King Jr.", "Tom Sato III", "Yu Ma"),
            True,
        ),
        (["Yang You"], ("Yang You",), True),
        (["Minh Do"], ("Minh Do",), True),
    ],
)
def test_author_lines_as_people_write_them(
    lines: list[str], authors: tuple[str, ...], complete: bool
) -> None:
    text = page_text(
        "Nadia Okafor", "Lena Brandt, Nadia Okafor", ABSTRACT_1, *lines, ABSTRACT_2,
        "Tom Sato, Nadia Okafor", ABSTRACT_3,
    )  # fmt: skip
    page = parse(text)
    assert [r.abstract for r in page.records] == [ABSTRACT_1, ABSTRACT_2, ABSTRACT_3]
    assert (page.records[1].authors, page.records[1].authors_complete) == (authors, complete)
    assert page.warnings == []


@pytest.mark.parametrize("owner", ["Yang You", "Bo An", "Can Xu"])
def test_an_owner_whose_name_is_also_a_word_of_prose(owner: str) -> None:
    page = parse(page_text(owner, f"Lena Brandt, {owner}", ABSTRACT_1))
    assert page.owner == owner
    assert page.records[0].authors == ("Lena Brandt", owner)


@pytest.mark.parametrize(
    "heading",
    [
        "Significance Statement",
        "Broader Impact",
        "Key Points",
        "Study Design",
        "Index Terms",
        "To Appear",
        "Can Transformers Reason",
        "Do Androids Dream",
        "An Empirical Study",
        "You Only Look Once",
        "Materiales y Métodos",
        "Resultados e Discussão",
        "Hands On",
    ],
)
def test_a_heading_inside_an_abstract_is_not_an_author_list(heading: str) -> None:
    text = page_text("Nadia Okafor", "Lena Brandt, Nadia Okafor", ABSTRACT_1, heading, ABSTRACT_2)
    page = parse(text)
    assert len(page.records) == 1
    assert page.records[0].abstract == "\n\n".join([ABSTRACT_1, heading, ABSTRACT_2])


def test_breadcrumb_heading_authors_is_not_the_owner() -> None:
    page = parse(page_text("Authors", "Nadia Okafor", "Lena Brandt, Nadia Okafor", ABSTRACT_1))
    assert page.owner == "Nadia Okafor"
    assert page.warnings == []


def test_author_list_without_abstract_is_skipped_with_a_warning() -> None:
    text = page_text(
        "Nadia Okafor",
        "Lena Brandt, Nadia Okafor",
        "Tom Sato, Nadia Okafor et al.",
        "We study how cold chains fail and propose a sensor layout that catches most failures.",
    )
    page = parse(text)
    assert len(page.records) == 1
    assert page.records[0].authors == ("Tom Sato", "Nadia Okafor")
    assert page.warnings == ["Line 3: an author list has no abstract after it; it was skipped."]


def test_author_abstracts_page_after_a_breadcrumb_line() -> None:
    text = page_text(
        "arXiv subjects",
        "Nadia Okafor",
        "Lena Brandt, Nadia Okafor et al.",
        "We study how cold chains fail and propose a sensor layout that catches most failures.",
    )
    page = parse(text)
    assert page.format is PageFormat.AUTHOR_ABSTRACTS
    assert page.owner == "Nadia Okafor"
    assert page.records[0].authors == ("Lena Brandt", "Nadia Okafor")


def test_abstract_mentioning_attribution_or_record_counts_is_not_a_header() -> None:
    text = page_text(
        "Nadia Okafor",
        "Lena Brandt, Nadia Okafor et al.",
        "12 records were lost before this study. Most losses are attributed to the cold chain.",
        "Tom Sato",
        "Publications attributed to a lab are often miscounted; we propose a fix for this.",
    )
    page = parse(text)
    assert page.format is PageFormat.AUTHOR_ABSTRACTS
    assert page.owner == "Nadia Okafor"
    assert [r.authors for r in page.records] == [("Lena Brandt", "Nadia Okafor"), ("Tom Sato",)]


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        (r"In this work, we introduce BAMBOO (\textbf{B}yte \textbf{A}I), a framework.", "BAMBOO"),
        (
            "To address this, we propose Balanced Actor Initialization (BAI), a two-stage merge.",
            "Balanced Actor Initialization (BAI)",
        ),
        ("This paper presents Arnoldi, a scheduler for GPU jobs.", "Arnoldi"),
        ("We propose CAMEO to reduce memory while training.", "CAMEO"),
        ("We present a new estimator called DeepWalk2 for graphs.", "DeepWalk2"),
        ("Here we present GNN-X: graph networks for chemistry.", "GNN-X"),
        ("TeleMoE-3 is the latest series of large models.", "TeleMoE-3"),
        ("We introduce Seed1.5-Thinking, capable of reasoning.", "Seed1.5-Thinking"),
        (
            "Automatic code generation has been a longstanding research topic. We study it.",
            "Automatic code generation has been a longstanding research…",
        ),
        ("Short abstract.", "Short abstract"),
        ("", "Untitled record"),
    ],
)
def test_provisional_title_suggestions(abstract: str, title: str) -> None:
    assert suggest_title(abstract) == title


def test_provisional_title_is_short_and_never_empty() -> None:
    title = suggest_title("word " * 400)
    assert 0 < len(title) <= 61
    assert title.endswith("…")


# ----------------------------------------------------------------------------- not a page


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "the text is empty"),
        (" \n\t\r\n  \n", "the text contains only blank lines"),
        (
            "Dear colleagues,\n\nthe seminar moves to room 4 on Thursday. Please bring the "
            "slides you promised last week.\n\nBest wishes, the organisers",
            "no line looks like the start of a paper",
        ),
        ("apples\nbananas\ncherries\n", "no line looks like the start of a paper"),
        ("Ann Lee\nBob Stone\nCarl Dahl\n", "no line looks like the start of a paper"),
        ("Ada Lindqvist\n\n2 recordsLinked to original sources\n", "the page names Ada Lindqvist"),
        (  # a profile's address instead of its text
            " https://dblp.org/pid/12/345.html \n",
            "‘https://dblp.org/pid/12/345.html’ is a web address; refman cannot download pages. "
            "Open the page in your browser",
        ),
        ("see https://dblp.org/pid/12/345.html\n", "no line looks like the start of a paper"),
    ],
)
def test_text_that_is_not_an_author_page_says_why(text: str, reason: str) -> None:
    with pytest.raises(NotAnAuthorPageError) as caught:
        parse(text)
    message = caught.value.message
    assert message.startswith("No publication records found: " + reason)
    assert "An author page starts with the researcher's name" in message


def test_huge_single_line_is_rejected_quickly() -> None:
    with pytest.raises(NotAnAuthorPageError):
        parse("x" * 2_000_000)


# ----------------------------------------------------------------------------- files


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFileError, match=r"‘nope\.txt’ does not exist"):
        read_page(tmp_path / "nope.txt")


def test_folder_instead_of_a_file(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFileError, match="is a folder, not a file"):
        read_page(tmp_path)


def test_a_file_too_large_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "huge.txt"
    with big.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(UnreadableFileError) as caught:
        read_page(big)
    assert caught.value.message == (
        "‘huge.txt’ is larger than 512 MB, the most refman reads from one file; export the "
        "library in parts (one collection at a time) and import each."
    )


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read any file"
)
def test_file_without_read_permission(tmp_path: Path) -> None:
    locked = tmp_path / "locked.txt"
    locked.write_text(page_text(*HEADER, *REC_A, *REC_B), encoding="utf-8")
    locked.chmod(0)
    try:
        with pytest.raises(UnreadableFileError, match="permission denied"):
            read_page(locked)
    finally:
        locked.chmod(0o600)


def test_permission_error_while_reading_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = tmp_path / "page.txt"
    page.write_text(page_text(*HEADER, *REC_A, *REC_B), encoding="utf-8")

    def refuse(self: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(UnreadableFileError) as caught:
        read_page(page)
    assert caught.value.message == "‘page.txt’ cannot be read: permission denied."


def test_a_page_file_may_be_named_by_a_str_and_its_encoding_is_detected() -> None:
    page = read_page(str(PAGES / "list_utf16.txt"))
    assert page.encoding == "utf-16-le"
    assert page.owner == "Hélène Dubois"
    cp = read_page(PAGES / "list_cp1252.txt")
    assert cp.encoding == "cp1252"
    assert cp.records[0].title == page.records[0].title
    assert cp.warnings[0].startswith("The file is not UTF-8")


def test_parse_bytes_matches_parse_for_utf8() -> None:
    text = page_text(*HEADER, *REC_A, *REC_B)
    assert page_from_bytes(text.encode("utf-8")).records == parse(text).records


# ----------------------------------------------------------------------------- seeds


def _seed(prefix: str) -> Path:
    if not SEEDS.is_dir():
        pytest.skip("the shared seed pages are not available")
    matches = sorted(SEEDS.glob(f"{prefix}_*.txt"))
    if not matches:
        pytest.skip(f"seed {prefix} is not available")
    return matches[0]


def test_seed_000_publication_list() -> None:
    page = read_page(_seed("000"))
    assert page.owner == "Zhuo Jiang"
    assert page.format is PageFormat.PUBLICATION_LIST
    assert page.claimed == 12
    assert len(page.records) == 12
    assert page.warnings == []
    first = page.records[0]
    assert first.title.startswith("Revisiting On-Policy Distillation: ")
    assert (first.year, first.venue, first.subjects) == (2026, "arXiv", ("cs.LG",))
    assert all(r.abstract and r.subjects and not r.title_provisional for r in page.records)


def test_seed_002_publication_list() -> None:
    page = read_page(_seed("002"))
    assert page.owner == "Kaihua Jiang"
    assert page.claimed == 6
    assert len(page.records) == 6
    assert page.warnings == []


def test_seed_003_author_abstracts() -> None:
    page = read_page(_seed("003"))
    assert page.owner == "Liang Xiang"
    assert page.format is PageFormat.AUTHOR_ABSTRACTS
    assert len(page.records) == 4
    first = page.records[0]
    assert first.authors == ("Ziheng Jiang", "Haibin Lin", "Yinmin Zhong")
    assert first.authors_complete is False
    assert all(r.title_provisional for r in page.records)
    bamboo = next(r for r in page.records if "BAMBOO" in r.abstract)
    assert bamboo.title == "BAMBOO"


def test_an_author_abstracts_page_in_japanese() -> None:
    """Japanese (and Chinese) abstracts have no spaces between words: an abstract of one
    sentence is an abstract, not a line too short to be one."""
    text = (
        "田中 一郎\n\n山本 健, 田中 一郎\n"
        "本研究では日本語の音声合成について新しい手法を提案し、"
        "その有効性を評価実験によって示した。\n\n"
        "田中 一郎, 佐藤 花子\n"
        "本論文では大規模言語モデルの推論を高速化するための量子化手法を検討する。\n"
    )
    page = parse_text(text, "tanaka.txt")
    assert (page.format, page.owner) == (PageFormat.AUTHOR_ABSTRACTS, "田中 一郎")
    assert [r.authors for r in page.records] == [
        ("山本 健", "田中 一郎"),
        ("田中 一郎", "佐藤 花子"),
    ]
    assert page.records[1].abstract.startswith("本論文では大規模言語モデル")
    assert page.warnings == []
