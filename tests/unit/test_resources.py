"""Tests for the shipped icons, the arXiv category names and the resource helpers.

These tests are Qt-free: PNG sizes are read from the file header with :mod:`struct`.
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from refman.core.subjects import is_subject_code, subject_label, subject_name
from refman.resources import ICON_SIZES, data_path, icon_path

REPO = Path(__file__).resolve().parents[2]
RESOURCES = REPO / "resources"
HICOLOR = RESOURCES / "icons" / "hicolor"
PACKAGE_ICONS = REPO / "refman" / "data" / "icons"
APP_ID = "io.github.refman.Refman"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    """Return ``(width, height)`` from a PNG's IHDR chunk."""
    header = path.read_bytes()[:24]
    assert header[:8] == PNG_SIGNATURE, f"{path} is not a PNG"
    assert header[12:16] == b"IHDR", f"{path} has no IHDR chunk first"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


# --- icons -------------------------------------------------------------------------


def test_icon_sizes_match_the_hicolor_sizes() -> None:
    assert ICON_SIZES == (16, 24, 32, 48, 64, 128, 256, 512)


@pytest.mark.parametrize("size", ICON_SIZES)
def test_hicolor_png_has_the_right_dimensions(size: int) -> None:
    png = HICOLOR / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
    assert png.is_file(), f"missing {png}; run resources/make_icons.py"
    assert png_size(png) == (size, size)


@pytest.mark.parametrize("size", ICON_SIZES)
def test_package_png_is_a_copy_of_the_hicolor_png(size: int) -> None:
    hicolor = HICOLOR / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
    packaged = icon_path(size)
    assert packaged == PACKAGE_ICONS / f"refman-{size}.png"
    assert packaged.read_bytes() == hicolor.read_bytes()
    assert png_size(packaged) == (size, size)


def test_svg_copies_are_identical_to_the_master() -> None:
    master = (RESOURCES / "icons" / "refman.svg").read_bytes()
    scalable = HICOLOR / "scalable" / "apps" / f"{APP_ID}.svg"
    assert scalable.read_bytes() == master
    assert icon_path().read_bytes() == master
    assert icon_path() == PACKAGE_ICONS / "refman.svg"


def test_svg_uses_no_text_or_external_references() -> None:
    svg = icon_path().read_text(encoding="utf-8")
    assert "<svg" in svg
    assert "<text" not in svg
    assert "href" not in svg


@pytest.mark.parametrize("size", [0, 15, 100, 1024])
def test_icon_path_rejects_unknown_sizes(size: int) -> None:
    with pytest.raises(ValueError, match=r"no .*px icon"):
        icon_path(size)


# --- data_path ----------------------------------------------------------------------


def test_data_path_finds_the_category_table() -> None:
    path = data_path("arxiv_categories.json")
    assert path == REPO / "refman" / "data" / "arxiv_categories.json"
    assert path.is_file()


def test_data_path_reports_a_missing_file() -> None:
    with pytest.raises(FileNotFoundError):
        data_path("no-such-file.txt")


@pytest.mark.parametrize("name", ["", "/etc/passwd", "../__init__.py", "icons/../x", "a//b"])
def test_data_path_rejects_names_outside_the_package(name: str) -> None:
    with pytest.raises(ValueError, match="invalid data file name"):
        data_path(name)


# --- arXiv categories ------------------------------------------------------------------

EXPECTED_COUNTS = {
    "cs": 40,
    "math": 32,
    "stat": 6,
    "eess": 4,
    "econ": 3,
    "q-bio": 10,
    "q-fin": 9,
    "physics": 22,
    "astro-ph": 6,
    "cond-mat": 9,
    "nlin": 5,
}
STAND_ALONE = ["gr-qc", "hep-ex", "hep-lat", "hep-ph", "hep-th", "math-ph", "nucl-ex", "nucl-th"]


def _table() -> dict[str, str]:
    text = data_path("arxiv_categories.json").read_text(encoding="utf-8")
    table: dict[str, str] = json.loads(text)
    return table


def test_category_table_covers_every_archive() -> None:
    table = _table()
    for archive, count in EXPECTED_COUNTS.items():
        subs = [code for code in table if code.startswith(f"{archive}.")]
        assert len(subs) == count, archive
        assert archive in table, f"archive name {archive!r} missing"
    for code in [*STAND_ALONE, "quant-ph"]:
        assert code in table


def test_every_table_entry_is_a_subject_code_with_a_name() -> None:
    for code, name in _table().items():
        assert is_subject_code(code), code
        assert name and name == name.strip(), code


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("cs.LG", "Machine Learning"),
        ("cs.DC", "Distributed, Parallel, and Cluster Computing"),
        ("eess.IV", "Image and Video Processing"),
        ("math.OC", "Optimization and Control"),
        ("stat.ML", "Machine Learning"),
        ("cond-mat.mtrl-sci", "Materials Science"),
        ("astro-ph.CO", "Cosmology and Nongalactic Astrophysics"),
        ("hep-th", "High Energy Physics - Theory"),
        ("quant-ph", "Quantum Physics"),
        ("astro-ph", "Astrophysics"),
        ("cond-mat", "Condensed Matter"),
    ],
)
def test_subject_name_known_codes(code: str, name: str) -> None:
    assert subject_name(code) == name


def test_subject_name_is_case_insensitive_but_exact() -> None:
    assert subject_name("CS.lg") == "Machine Learning"
    assert subject_name(" cs.LG ") == "Machine Learning"
    assert subject_name("cs.L") is None
    assert subject_name("cs.LGX") is None


@pytest.mark.parametrize("code", ["cs.XX", "Hello", "", "x.y", "machine learning"])
def test_subject_name_unknown_codes(code: str) -> None:
    assert subject_name(code) is None


def test_subject_label() -> None:
    assert subject_label("cs.LG") == "Machine Learning (cs.LG)"
    assert subject_label("cs.lg") == "Machine Learning (cs.LG)"
    assert subject_label("hep-th") == "High Energy Physics - Theory (hep-th)"
    assert subject_label("cs.XX") == "cs.XX"
    assert subject_label("Hello") == "Hello"


@pytest.mark.parametrize(
    "code",
    [
        "math.OC",
        "stat.ML",
        "eess.AS",
        "q-bio.NC",
        "hep-th",
        "cond-mat.mtrl-sci",
        "astro-ph.CO",
        "physics.optics",
        "cs.ZZ",  # well-formed but undefined: the check is syntactic
        # Bare archive names are accepted on purpose: arXiv files older papers under
        # them and author pages list them next to full codes (like "hep-th").
        "cs",
        "astro-ph",
        "cond-mat",
    ],
)
def test_is_subject_code_accepts(code: str) -> None:
    assert is_subject_code(code)


@pytest.mark.parametrize(
    "code",
    [
        "Hello",
        "x.y",
        "",
        "cs.",
        "cs.lg",
        "CS.LG",
        "cs.LGX",
        "hep-th.XX",
        "cond-mat.MTRL",
        " cs.LG",
        "cs.LG,",
        "Computer Science",
        "math.OC math.PR",
    ],
)
def test_is_subject_code_rejects(code: str) -> None:
    assert not is_subject_code(code)


def test_subjects_import_without_qt() -> None:
    script = (
        "import sys\n"
        "import refman.core.subjects as s\n"
        "import refman.resources as r\n"
        "assert s.subject_name('cs.LG') == 'Machine Learning'\n"
        "assert r.icon_path().is_file()\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6'))\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, cwd=REPO
    )
    assert result.returncode == 0, result.stderr
