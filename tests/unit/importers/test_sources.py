"""Reading dropped or opened files: text, Markdown and HTML in; images, PDFs, binaries out."""

from __future__ import annotations

import html
import os
import subprocess
import sys
from pathlib import Path

import pytest

from refman.importers import NotAnAuthorPageError, UnreadableFileError, parse
from refman.importers.records import PageFormat
from refman.importers.sources import (
    MAX_FILE_BYTES,
    LoadedSource,
    check_file,
    html_to_text,
    load_source,
)
from tests.helpers.fixtures import seed_files
from tests.helpers.pdfs import make_pdf

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"


def _as_html(text: str) -> str:
    """The page as a browser would have saved it: one paragraph per line, entities escaped."""
    body = "\n".join(f"  <p>{html.escape(line)}</p>" for line in text.splitlines() if line)
    return (
        "<!DOCTYPE html>\n<html><head><title>Profile</title>"
        "<style>p { margin: 0 }</style><script>var x = '<p>not shown</p>';</script>"
        f"</head>\n<body>\n{body}\n</body></html>\n"
    )


# -- html_to_text ----------------------------------------------------------------------------


def test_html_drops_head_script_and_style() -> None:
    text = html_to_text(
        "<html><head><title>Tab title</title><style>p{color:red}</style></head>"
        "<body><script>alert('x')</script><p>Visible</p><noscript>No JS</noscript></body></html>"
    )
    assert text == "Visible\n"


def test_html_blocks_become_lines_and_inline_elements_join() -> None:
    text = html_to_text(
        "<h1>Zhuo <b>Jiang</b></h1><div>arXiv<span>2026</span></div>"
        "<ul><li>one</li><li>two</li></ul>first<br>second<br/>third"
    )
    assert text.splitlines() == [
        "Zhuo Jiang",
        "",
        "arXiv2026",
        "one",
        "two",
        "first",
        "second",
        "third",
    ]


def test_html_entities_are_decoded_and_white_space_collapses() -> None:
    text = html_to_text(
        "<p>Ranking &amp; retrieval&nbsp;at   scale\n  &#8212; &lt;fast&gt; &eacute;</p>"
    )
    assert text == "Ranking & retrieval at scale — <fast> é\n"


def test_html_pre_keeps_its_lines_and_spaces() -> None:
    assert html_to_text("<p>a</p><pre>  x\n  y</pre>") == "a\n\n  x\n  y\n"


def test_html_unclosed_head_does_not_hide_the_body() -> None:
    assert html_to_text("<head><meta charset=utf-8><title>t</title><body><p>Hi</p>") == "Hi\n"


def test_html_table_cells_are_spaced_and_rows_are_lines() -> None:
    text = html_to_text("<table><tr><td>arXiv</td><td>2024</td></tr><tr><td>b</td></tr></table>")
    assert text.splitlines() == ["arXiv 2024", "b"]


def test_html_of_nothing_is_empty() -> None:
    assert html_to_text("") == ""
    assert html_to_text("<script>x</script>") == ""


@pytest.mark.parametrize("seed", seed_files(), ids=lambda p: p.name)
def test_saved_html_page_parses_like_the_text(seed: Path) -> None:
    text = seed.read_text(encoding="utf-8")
    from_html = parse(html_to_text(_as_html(text)))
    original = parse(text)
    assert from_html.owner == original.owner
    assert [r.title for r in from_html.records] == [r.title for r in original.records]
    assert [r.abstract for r in from_html.records] == [r.abstract for r in original.records]


# -- load_source -----------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".txt", ".text", ".md"])
def test_text_files_load_and_parse(tmp_path: Path, suffix: str) -> None:
    seed = seed_files()[0]
    path = tmp_path / f"page{suffix}"
    path.write_bytes(seed.read_bytes())
    loaded = load_source(path)
    text = seed.read_text(encoding="utf-8")
    assert loaded == LoadedSource(f"page{suffix}", text, [], "utf-8", folder=tmp_path.resolve())
    assert loaded.parse().owner == parse(seed.read_text(encoding="utf-8")).owner


@pytest.mark.parametrize("suffix", [".html", ".htm"])
def test_html_files_load_as_visible_text(tmp_path: Path, suffix: str) -> None:
    seed = seed_files()[0]
    path = tmp_path / f"saved{suffix}"
    path.write_text(_as_html(seed.read_text(encoding="utf-8")), encoding="utf-8")
    loaded = load_source(path)
    assert "not shown" not in loaded.text and "Profile" not in loaded.text
    page = loaded.parse()
    assert len(page.records) == len(parse(seed.read_text(encoding="utf-8")).records)


def test_unknown_suffix_with_html_content_is_read_as_html(tmp_path: Path) -> None:
    path = tmp_path / "profile"
    path.write_text("<!doctype html><html><body><p>Ada</p><p>Lovelace</p></body></html>")
    assert load_source(path).text == "Ada\n\nLovelace\n"


def test_unknown_suffix_with_text_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "page.csv"
    path.write_text("just text")
    assert load_source(path).text == "just text"


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        ("Zoë Müller\n".encode("utf-8-sig"), "utf-8-sig"),
        ("\ufeffZoë Müller\n".encode("utf-16-le"), "utf-16-le"),
        ("Zoë Müller\n".encode("cp1252"), "cp1252"),
    ],
)
def test_encodings_are_detected(tmp_path: Path, data: bytes, encoding: str) -> None:
    path = tmp_path / "page.txt"
    path.write_bytes(data)
    loaded = load_source(path)
    assert loaded.text.strip() == "Zoë Müller"
    assert loaded.encoding == encoding
    assert bool(loaded.warnings) == (encoding == "cp1252")


def test_reading_warnings_come_first_in_the_parsed_page(tmp_path: Path) -> None:
    text = seed_files()[0].read_text(encoding="utf-8").replace("'", "’")
    path = tmp_path / "page.txt"
    path.write_bytes(text.encode("cp1252", errors="ignore"))
    page = load_source(path).parse()
    assert page.encoding == "cp1252"
    assert "Windows-1252" in page.warnings[0]


def test_a_text_file_that_is_no_page_loads_but_does_not_parse(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Shopping list: milk, eggs.")
    loaded = load_source(path)
    with pytest.raises(NotAnAuthorPageError):
        loaded.parse()


# -- refusals --------------------------------------------------------------------------------

_REFUSED = [
    ("photo.png", PNG, "is an image (PNG)"),
    ("photo.txt", PNG, "is a PNG image"),
    ("photo.jpg", b"anything", "is an image (JPEG)"),
    ("scan.dat", b"\xff\xd8\xff\xe0\x00\x10JFIF", "is a JPEG image"),
    ("anim.bin", b"GIF89a\x01\x00", "is a GIF image"),
    ("pic.data", b"RIFF\x10\x00\x00\x00WEBPVP8 ", "is a WebP image"),
    ("logo.svg", b"<svg/>", "is an image (SVG)"),
    ("logo.txt", b'<?xml version="1.0"?>\n<svg xmlns="x"></svg>', "is an image (SVG)"),
    ("paper.pdf", b"plain words", "is named .pdf but is not a PDF document"),
    ("download.pdf", b"", "is named .pdf but is empty."),
    ("page.docx", b"PK\x03\x04\x14\x00", "ZIP archive"),
    ("page.html.gz", b"\x1f\x8b\x08\x00", "compressed"),
    ("page.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00", "Microsoft Office"),
    ("blob.txt", bytes(range(256)) * 8, "contains binary data"),
    ("program", b"\x7fELF\x02\x01\x01", "is a program"),
]


@pytest.mark.parametrize(("name", "data", "reason"), _REFUSED, ids=[r[0] for r in _REFUSED])
def test_images_false_pdfs_and_binaries_are_refused(
    tmp_path: Path, name: str, data: bytes, reason: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    for check in (check_file, load_source):
        with pytest.raises(UnreadableFileError) as info:
            check(path)
        message = info.value.message
        assert message.startswith(f"‘{name}’ ") and reason in message


def test_missing_file_and_folder_are_refused(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFileError, match=r"‘gone\.txt’ does not exist"):
        load_source(tmp_path / "gone.txt")
    folder = tmp_path / "pages.txt"
    folder.mkdir()
    with pytest.raises(UnreadableFileError, match=r"‘pages\.txt’ is a folder"):
        check_file(folder)


def test_files_too_large_are_refused_without_reading_them(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    with path.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # sparse: sized, never written
    for check in (check_file, load_source):
        with pytest.raises(UnreadableFileError, match=r"‘huge\.txt’ is larger than 512 MB"):
            check(path)


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="needs POSIX non-root")
def test_unreadable_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "secret.txt"
    path.write_text("x")
    path.chmod(0)
    with pytest.raises(UnreadableFileError, match="permission denied"):
        load_source(path)


def test_check_file_accepts_a_large_utf8_page_cut_inside_a_character(tmp_path: Path) -> None:
    path = tmp_path / "page.txt"
    path.write_bytes(b"a" * 65535 + "蒋".encode() * 10)  # the 64 KiB sample ends mid-character
    check_file(path)
    assert load_source(path).text.endswith("蒋")


def test_refusals_carry_a_hint(tmp_path: Path) -> None:
    path = tmp_path / "photo.png"
    path.write_bytes(PNG)
    with pytest.raises(UnreadableFileError) as info:
        check_file(path)
    assert "paste" in info.value.hint


def test_sources_module_does_not_import_qt() -> None:
    code = "import sys, refman.importers.sources; print('PySide6' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"


def test_a_pdf_passes_and_its_paper_is_read_when_parsed(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "paper.txt", title="Quiet Progress in Learned Index Structures")
    check_file(pdf)  # by its first bytes, whatever its name
    loaded = load_source(pdf)
    assert loaded.pdf == pdf and loaded.text == ""
    page = loaded.parse()
    assert page.format is PageFormat.PDF and page.claimed == 1
    (record,) = page.records
    assert record.title == "Quiet Progress in Learned Index Structures"
    assert record.files == (str(pdf),)
