"""Property tests: parse never fails unexpectedly, and rendered pages read back unchanged."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from refman.importers import (
    NotAnAuthorPageError,
    PageFormat,
    ParsedPage,
    UnreadableFileError,
    parse,
)
from tests.helpers.fixtures import page_from_bytes

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NAMES = [
    "Ada Lindqvist",
    "Zoë Müller",
    "José Ángel Ortega",
    "李明",
    "Priya Natarajan",
    "Tomás Herrera",
    "Jean-Luc O'Brien",
    "Ludwig van Beethoven",
    "Mei Xu",
]
VENUES = ["arXiv", "NeurIPS", "ICML", "Proc. VLDB", "Phys. Rev. Lett.", "ICLR", "Nature"]
SUBJECTS = [
    "cs.LG",
    "cs.CL",
    "math.OC",
    "stat.ML",
    "eess.AS",
    "q-bio.NC",
    "astro-ph.CO",
    "hep-th",
    "cond-mat.mtrl-sci",
    "physics.optics",
    "quant-ph",
    "econ.EM",
    "q-fin.ST",
    "nlin.CD",
    "gr-qc",
    "math-ph",
    "nucl-th",
]
PAGE_BITS = [
    "arXiv2024",
    "NeurIPS 2023",
    "cs.LG↗",
    "math.OC, stat.ML",
    "12 recordsLinked to original sources",
    "1 record",
    "Publications and source records attributed to Ada Lindqvist.",
    "Ada Lindqvist",
    "Ziheng Li, Ann Lee et al.",
    "We present Thing, a system.",
    "",
    "\r\n",
    "\r",
    "$x^2$ \\textbf{y} 30% {z}",
]

WORDS = ["we", "study", "how", "sparse", "models", "fail", "under", "drift", "and", "propose"]

# Title words: capitalised words, numbers, model names and punctuation that titles carry.
title_word = st.one_of(
    st.sampled_from(["Sparse", "Retrieval", "Learning", "Graphs", "On", "Towards", "Scaling"]),
    st.sampled_from(
        ["GPT-4", "2024:", "Seed1.5-Thinking", "of", "for", "and", "3D", "10,000", "(Re)visiting"]
    ),
    st.sampled_from(["Zoë", "Müller", "Émile", "Straße", "—", "&", "?", "LLMs:"]),
)
titles = st.lists(title_word, min_size=1, max_size=12).map(" ".join)
# Abstract paragraphs: a capital letter, any one-line text, and a closing sentence.
paragraph_body = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\x85"
    ),
    max_size=200,
)
paragraphs = st.builds(
    lambda head, body: f"{head}{body} and that is the end.",
    st.sampled_from(["A", "We", "Our", "Dense", "É", "Z"]),
    paragraph_body,
)


@dataclass(frozen=True)
class Rec:
    """A generated publication-list record."""

    venue: str
    year: int
    title: str
    paragraphs: tuple[str, ...]
    subjects: tuple[str, ...]


records = st.builds(
    Rec,
    venue=st.sampled_from(VENUES),
    year=st.integers(1900, 2100),
    title=titles,
    paragraphs=st.lists(paragraphs, min_size=0, max_size=3).map(tuple),
    subjects=st.lists(st.sampled_from(SUBJECTS), min_size=1, max_size=3, unique=True).map(tuple),
)


@dataclass(frozen=True)
class Layout:
    """How a browser copy happens to lay the page out."""

    ending: str
    blank_lines: int
    breadcrumb: bool
    count_line: bool
    arrows: bool
    glue_year: bool
    indent: str
    separator: str
    subject_per_line: bool


layouts = st.builds(
    Layout,
    ending=st.sampled_from(["\n", "\r\n", "\r"]),
    blank_lines=st.integers(0, 3),
    breadcrumb=st.booleans(),
    count_line=st.booleans(),
    arrows=st.booleans(),
    glue_year=st.booleans(),
    indent=st.sampled_from(["", " ", "  ", "\t"]),
    separator=st.sampled_from([" ", ", ", "; "]),
    subject_per_line=st.booleans(),
)


def render(owner: str, recs: list[Rec], layout: Layout) -> str:
    """Write records as a publication-list page in the given layout."""
    lines = ["arXiv subjects"] if layout.breadcrumb else []
    lines += [owner, f"Publications and source records attributed to {owner}."]
    if layout.count_line:
        word = "record" if len(recs) == 1 else "records"
        lines.append(f"{len(recs)} {word}Linked to original sources")
    for rec in recs:
        lines.append(f"{rec.venue}{'' if layout.glue_year else ' '}{rec.year}")
        lines.append(rec.title)
        lines.extend(rec.paragraphs)
        codes = [f"{code}{'↗' if layout.arrows else ''}" for code in rec.subjects]
        if layout.subject_per_line:
            lines.extend(codes)
        else:
            lines.append(layout.separator.join(codes))
    gap = layout.ending * (layout.blank_lines + 1)
    return gap.join(f"{layout.indent}{line}" for line in lines) + layout.ending


def strip_line(text: str) -> str:
    """Strip a line the way a reader of the page would (spaces and invisible characters)."""
    return text.strip().strip("\u200b\u200c\u200d\u200e\u200f\u2060\ufeff").strip()


@SETTINGS
@given(st.text(max_size=3000))
def test_parse_returns_a_page_or_says_it_is_not_one(text: str) -> None:
    try:
        page = parse(text)
    except NotAnAuthorPageError as error:
        assert error.message.startswith("No publication records found: ")
    else:
        assert isinstance(page, ParsedPage)
        assert page.records
        assert all(record.title for record in page.records)


@SETTINGS
@given(st.lists(st.one_of(st.sampled_from(PAGE_BITS), st.text(max_size=80)), max_size=40))
def test_parse_survives_page_like_noise(bits: list[str]) -> None:
    try:
        page = parse("\n".join(bits))
    except NotAnAuthorPageError:
        return
    assert page.records
    assert all(record.title and "\n" not in record.title for record in page.records)
    assert all(1900 <= record.year <= 2100 for record in page.records if record.year)


@SETTINGS
@given(st.binary(max_size=2000))
@example(b"SQLite format 3\x00")  # (a database says what it is)
def test_any_bytes_give_a_page_or_say_plainly_why_not(data: bytes) -> None:
    try:
        page_from_bytes(data)
    except NotAnAuthorPageError as error:
        assert error.message.startswith("No publication records found: ")
    except UnreadableFileError as error:
        # what the file is: "is a PNG image, not text.", "is a database (SQLite) that is not…"
        said = (", not text.", " that is not a Zotero or Mendeley library.")
        assert error.message.startswith("‘page.txt’ ") and error.message.endswith(said)


@SETTINGS
@given(
    owner=st.sampled_from(NAMES),
    recs=st.lists(records, min_size=1, max_size=6),
    layout=layouts,
)
def test_rendered_publication_list_reads_back_unchanged(
    owner: str, recs: list[Rec], layout: Layout
) -> None:
    page = parse(render(owner, recs, layout))
    assert page.format is PageFormat.PUBLICATION_LIST
    assert page.owner == owner
    assert page.claimed == (len(recs) if layout.count_line else None)
    assert page.warnings == []
    assert [r.title for r in page.records] == [rec.title for rec in recs]
    assert [(r.year, r.venue) for r in page.records] == [(rec.year, rec.venue) for rec in recs]
    assert [r.subjects for r in page.records] == [rec.subjects for rec in recs]
    assert [r.abstract for r in page.records] == [
        "\n\n".join(strip_line(p) for p in rec.paragraphs if strip_line(p)) for rec in recs
    ]
    assert not any(r.title_provisional for r in page.records)


@dataclass(frozen=True)
class AuthorRec:
    """A generated author-abstracts record."""

    authors: tuple[str, ...]
    et_al: bool
    paragraphs: tuple[str, ...]


author_records = st.builds(
    AuthorRec,
    authors=st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True).map(tuple),
    et_al=st.booleans(),
    paragraphs=st.lists(
        st.builds(
            lambda words, tail: " ".join(words) + tail,
            st.lists(st.sampled_from(WORDS), min_size=5, max_size=30),
            st.sampled_from([".", " in 2024.", " (see 3.1).", ", and more."]),
        ).map(lambda s: s[0].upper() + s[1:]),
        min_size=1,
        max_size=3,
    ).map(tuple),
)


@SETTINGS
@given(
    owner=st.sampled_from(NAMES),
    recs=st.lists(author_records, min_size=1, max_size=5),
    ending=st.sampled_from(["\n", "\r\n"]),
    blank_lines=st.integers(0, 2),
)
def test_rendered_author_abstracts_page_reads_back_unchanged(
    owner: str, recs: list[AuthorRec], ending: str, blank_lines: int
) -> None:
    lines = [owner]
    for rec in recs:
        lines.append(", ".join(rec.authors) + (" et al." if rec.et_al else ""))
        lines.extend(rec.paragraphs)
    page = parse((ending * (blank_lines + 1)).join(lines))
    assert page.format is PageFormat.AUTHOR_ABSTRACTS
    assert page.owner == owner
    assert page.warnings == []
    assert [(r.authors, r.authors_complete) for r in page.records] == [
        (rec.authors, not rec.et_al) for rec in recs
    ]
    assert [r.abstract for r in page.records] == ["\n\n".join(rec.paragraphs) for rec in recs]
    assert all(r.title_provisional and r.title for r in page.records)
