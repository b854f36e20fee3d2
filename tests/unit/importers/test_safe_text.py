"""What an imported record may not bring in: the quick look that lets most records through
unchanged must never let through one that cleaning would change."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from refman.common.controls import UNSAFE
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord
from refman.importers.safe_text import MAX_FIELD, safe_page

#: Letters, and every kind of character cleaning looks for: controls, bidirectional marks,
#: tabs and line breaks, line and paragraph separators.
_CHARS = st.sampled_from([*"ab Z.", "\x1b", "\x00", "\u202e", "\t", "\n", "\r", "\u2028"])
_TEXT = st.text(_CHARS, max_size=12)
_SHORT = st.one_of(st.none(), _TEXT)


@st.composite
def _records(draw: st.DrawFn) -> ParsedRecord:
    authors = tuple(draw(st.lists(_TEXT, max_size=3)))
    return ParsedRecord(
        title=draw(_TEXT),
        title_provisional=False,
        abstract=draw(_TEXT),
        venue=draw(_SHORT),
        doi=draw(_SHORT),
        url=draw(_SHORT),
        publisher=draw(st.one_of(st.none(), st.just("P" * (MAX_FIELD + 1)))),
        authors=authors,
        subjects=tuple(draw(st.lists(_TEXT, max_size=2))),
        tags=tuple(draw(st.lists(_TEXT, max_size=2))),
    )


def _page(records: list[ParsedRecord]) -> ParsedPage:
    return ParsedPage("Maren Solvik", PageFormat.PUBLICATION_LIST, len(records), records)


@given(st.lists(_records(), min_size=1, max_size=4))
@settings(max_examples=400, deadline=None)
def test_no_record_keeps_a_control_character_or_a_line_break_in_a_one_line_field(
    records: list[ParsedRecord],
) -> None:
    cleaned = safe_page(_page(records)).records
    for record in cleaned:
        for text in (record.title, record.venue, record.doi, record.url, *record.authors):
            assert not any(c in (text or "") for c in "\x1b\x00\u202e\t\n\r\u2028")
        assert not any(c in record.abstract for c in "\x1b\x00\u202e\u2028")
        assert all(len(v) <= MAX_FIELD for v in (record.publisher, *record.tags) if v)


def test_a_clean_page_comes_back_as_it_was() -> None:
    record = ParsedRecord(
        title="Glacier Flow at Scale",
        title_provisional=False,
        abstract="We measure glacier flow.\nA second paragraph.",
        venue="arXiv",
        authors=("Maren Solvik", "Ivo Brandt"),
        subjects=("physics.geo-ph",),
    )
    page = _page([record])
    assert safe_page(page) is page


def test_every_character_cleaning_takes_out_of_a_field_is_unprintable() -> None:
    # The quick look lets printable text through unsearched: a character cleaning must take
    # out (a control, a direction mark, a break) may never count as printable.
    for code in range(0x110000):
        char = chr(code)
        if UNSAFE.match(char) or char in "\t\r\n\u2028\u2029":
            assert not char.isprintable(), hex(code)
