"""Tests of reading page bytes: encodings, byte-order marks and binary data."""

from __future__ import annotations

import codecs

import pytest

from refman.importers import NotAnAuthorPageError, UnreadableFileError
from refman.importers.decode import decode_bytes
from refman.importers.sources import load_bytes
from tests.helpers.fixtures import page_from_bytes

PAGE = "\n\n".join(
    [
        "Hélène Dubois",
        "Publications and source records attributed to Hélène Dubois.",
        "1 recordLinked to original sources",
        "SIGMOD 2020",
        "Caching Query Plans for Café Point-of-Sale Systems",
        "Small café point-of-sale systems re-plan the same queries all day long.",
        "cs.DB↗",
    ]
)
CP1252_PAGE = PAGE.replace("↗", "")


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (PAGE.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF8 + PAGE.encode("utf-8"), "utf-8-sig"),
        (codecs.BOM_UTF16_LE + PAGE.encode("utf-16-le"), "utf-16-le"),
        (codecs.BOM_UTF16_BE + PAGE.encode("utf-16-be"), "utf-16-be"),
        (PAGE.encode("utf-16-le"), "utf-16-le"),
        (PAGE.encode("utf-32"), "utf-32-le"),
    ],
)
def test_unicode_encodings_give_the_same_page(data: bytes, encoding: str) -> None:
    page = page_from_bytes(data)
    assert page.encoding == encoding
    assert page.owner == "Hélène Dubois"
    assert page.records[0].title == "Caching Query Plans for Café Point-of-Sale Systems"
    assert page.records[0].subjects == ("cs.DB",)
    assert page.warnings == []


def test_byte_order_mark_does_not_end_up_in_the_owner_name() -> None:
    page = page_from_bytes(codecs.BOM_UTF8 + PAGE.encode("utf-8"))
    assert not page.owner.startswith("\ufeff")


def test_windows_1252_is_read_with_a_warning_about_accents() -> None:
    page = page_from_bytes(CP1252_PAGE.encode("cp1252"))
    assert page.encoding == "cp1252"
    assert page.owner == "Hélène Dubois"
    assert "Café" in page.records[0].title
    assert page.warnings == [
        "The file is not UTF-8; it was read as Windows-1252 (cp1252). Check accented letters."
    ]


def test_windows_1252_smart_quotes_are_decoded() -> None:
    text = CP1252_PAGE.replace("Small café", "“Small” café")
    page = page_from_bytes(text.encode("cp1252"))
    assert page.records[0].abstract.startswith("“Small” café")


def test_damaged_utf8_after_a_bom_is_replaced_and_reported() -> None:
    data = codecs.BOM_UTF8 + PAGE.encode("utf-8").replace(b"SIGMOD", b"SIG\xffMOD")
    decoded = decode_bytes(data)
    assert decoded.encoding == "utf-8-sig"
    assert "\ufffd" in decoded.text
    assert decoded.warnings and "replaced" in decoded.warnings[0]


@pytest.mark.parametrize(
    "data",
    [
        bytes(range(256)) * 8,
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00",
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + b"\x00\x01\x02" * 50,
        b"text with a NUL\x00 in the middle of an otherwise normal line",
        b"\x01\x02\x03\x04\x05\x06\x07\x08 mostly control characters \x0e\x0f\x10\x11",
    ],
)
def test_binary_data_is_refused_as_not_text(data: bytes) -> None:
    with pytest.raises(UnreadableFileError) as caught:
        page_from_bytes(data)
    assert caught.value.message.startswith("‘page.txt’ ")
    assert caught.value.message.endswith(", not text.")
    assert "paste it" in caught.value.hint


def test_empty_bytes_are_not_an_author_page() -> None:
    with pytest.raises(NotAnAuthorPageError, match=r"^No publication records found: the text is"):
        page_from_bytes(b"")


def test_crlf_bytes_parse_like_lf_bytes() -> None:
    lf = page_from_bytes(PAGE.encode("utf-8"))
    crlf = page_from_bytes(PAGE.replace("\n", "\r\n").encode("utf-8"))
    assert crlf.records == lf.records
    assert crlf.owner == lf.owner


def test_a_utf8_bibliography_with_a_few_windows_1252_lines_keeps_both_readable() -> None:
    # A JabRef file kept for years: entries saved in UTF-8, one pasted in from a cp1252 editor.
    utf8 = "@article{muller2019,\n  title = {Über die Stabilität},\n  year = {2019},\n}\n"
    cp1252 = "@article{dupont2001,\n  title = {Étude des réseaux},\n  year = {2001},\n}\n"
    data = utf8.encode("utf-8") + cp1252.encode("cp1252") + utf8.replace("2019", "2020").encode()
    page = load_bytes(data, "library.bib").parse()
    assert [r.title for r in page.records] == [
        "Über die Stabilität",
        "Étude des réseaux",
        "Über die Stabilität",
    ]
    assert page.warnings[0] == (
        "The file is UTF-8 but for 1 line (the first is line 6), read as Windows-1252 (cp1252). "
        "Check their accented letters."
    )
