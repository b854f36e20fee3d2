"""TeX's dashes and quotes in text written for TeX, shown as TeX prints them; code that only
looks so (an option, a decrement, LaTeX's own marks) as written."""

from __future__ import annotations

import pytest

from refman.common.typeset import printed_prose, typeset_ligatures


@pytest.mark.parametrize(
    ("written", "printed"),
    [
        ("Sediment budgets, 1990--2020", "Sediment budgets, 1990–2020"),
        ("Learning---fast and slow", "Learning—fast and slow"),
        ("Tides -- a review", "Tides – a review"),
        ("Pre--post analysis", "Pre–post analysis"),
        ("``Deep'' learning, revisited", "“Deep” learning, revisited"),
    ],
)
def test_tex_dashes_and_quotes_read_as_tex_prints_them(written: str, printed: str) -> None:
    assert typeset_ligatures(written) == printed


@pytest.mark.parametrize(
    "code",
    [
        "The --help flag considered harmful",
        "Using git commit --amend safely",
        "Options (--dry-run) in practice",
        "C--: a portable assembly language",
        "Why i-- is slower than --i",
        "A rule ---- of four hyphens",
        "Two quotes '' alone",
    ],
)
def test_code_that_looks_like_tex_dashes_stays_as_written(code: str) -> None:
    assert typeset_ligatures(code) == code


def test_only_the_prose_around_latex_is_typeset() -> None:
    """LaTeX's own marks (math, a typewriter argument) are LaTeX's to read."""
    assert printed_prose("Bounds -- for $f''(x)$ and \\texttt{--x}") == (
        "Bounds – for $f''(x)$ and \\texttt{--x}"
    )
