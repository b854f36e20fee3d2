"""Property: any well-formed publication-list page round-trips through import and list."""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from refman.__main__ import main
from refman.core.matching import NEAR_DUPLICATE, match_keys, similarity

_VOCABULARY = """
adaptive attention batch cache cluster compiler convex data decoding dense diffusion
efficient embedding energy fault gradient graph kernel latency layer learning memory mesh
model network neural noise optimizer parallel pipeline policy quantum query random reward
robust sample scaling schedule search sensor sparse spectral stable storage stream tensor
token training transfer vision weight window
"""
WORDS = tuple(_VOCABULARY.split())
VENUES = ("arXiv", "NeurIPS", "ICML", "ACL", "Proc. VLDB", None)
SUBJECTS = ("cs.LG", "cs.CL", "cs.DC", "stat.ML", "math.OC", "eess.IV", "hep-th", "q-bio.NC")


@dataclass(frozen=True)
class Record:
    title: str
    year: int
    venue: str | None
    subjects: tuple[str, ...]
    abstract: str


titles = st.lists(st.sampled_from(WORDS), min_size=2, max_size=8).map(
    lambda words: " ".join(w.capitalize() for w in words)
)
abstracts = st.lists(st.sampled_from(WORDS), min_size=8, max_size=40).map(
    lambda words: " ".join(words).capitalize() + "."
)
records = st.builds(
    Record,
    title=titles,
    year=st.integers(1990, 2030),
    venue=st.sampled_from(VENUES),
    subjects=st.lists(st.sampled_from(SUBJECTS), min_size=1, max_size=3, unique=True).map(tuple),
    abstract=abstracts,
)
pages = st.lists(records, min_size=1, max_size=6, unique_by=(lambda r: r.title.casefold()))


def page_text(items: list[Record], separator: str) -> str:
    lines = [
        "arXiv subjects",
        "Ada Okafor",
        "Publications and source records attributed to Ada Okafor.",
        f"{len(items)} recordsLinked to original sources",
    ]
    for r in items:
        lines.append(f"{r.venue}{separator}{r.year}" if r.venue else str(r.year))
        lines += [r.title, r.abstract, " ".join(f"{code}↗" for code in r.subjects)]
    return "\n\n".join(lines) + "\n"


def distinct(items: list[Record]) -> bool:
    """No two records are the same or near-identical papers (those would merge)."""
    keys = [match_keys(r.title, False, r.abstract) for r in items]
    return all(
        similarity(a, b) < NEAR_DUPLICATE and a.abstract != b.abstract
        for i, a in enumerate(keys)
        for b in keys[i + 1 :]
    )


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(items=pages, separator=st.sampled_from(["", " "]))
def test_imported_pages_list_back_the_same_records(
    items: list[Record],
    separator: str,
    _template_library: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assume(distinct(items))
    with tempfile.TemporaryDirectory() as folder:
        library = Path(folder) / "library.sqlite"
        shutil.copy(_template_library, library)
        page = Path(folder) / "page.txt"
        page.write_text(page_text(items, separator), encoding="utf-8")
        capsys.readouterr()
        assert main(["--db", str(library), "import", "--json", str(page)]) == 0
        report = json.loads(capsys.readouterr().out)
        assert (report["parsed"], report["new"], report["warnings"]) == (len(items), len(items), [])
        assert main(["--db", str(library), "list", "--json"]) == 0
        listed = json.loads(capsys.readouterr().out)
    got = {(p["title"], p["year"], p["venue"], tuple(p["subjects"]), p["abstract"]) for p in listed}
    want = {(r.title, r.year, r.venue, r.subjects, r.abstract) for r in items}
    assert len(listed) == len(items)
    assert got == want
