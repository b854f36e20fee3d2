"""Acceptance: the three real seed author pages through the command line.

Skipped when the seeds folder is absent (the project's stand-ins have other content).
"""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from refman.__main__ import main
from tests.helpers.fixtures import SEEDS, dump

pytestmark = pytest.mark.skipif(
    not (SEEDS.is_dir() and len(list(SEEDS.glob("*.txt"))) == 3),
    reason="the three seed author pages are not available",
)

MEGASCALE = "MegaScale: Scaling Large Language Model Training to More Than 10,000 GPUs"


def seeds() -> list[Path]:
    return sorted(SEEDS.glob("*.txt"))


def run(capsys: pytest.CaptureFixture[str], library: Path, *args: str) -> str:
    code = main(["--db", str(library), *args])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.err == ""
    return captured.out


def listed(capsys: pytest.CaptureFixture[str], library: Path) -> list[dict[str, Any]]:
    return list(json.loads(run(capsys, library, "list", "--json")))


def normalised(papers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Papers without what depends on import order or time: ids, times, source order, and
    the citation key (made once, from what the first page to bring the paper said)."""
    out = []
    for paper in papers:
        paper = {k: v for k, v in paper.items() if k not in ("id", "added", "citekey")}
        paper["attributed_to"] = sorted(paper["attributed_to"])
        paper["sources"] = sorted((s["owner"], s["file"]) for s in paper["sources"])
        out.append(paper)
    return sorted(out, key=lambda p: (p["title"], p["abstract"]))


def test_seed_pages_import_into_twenty_papers(
    capsys: pytest.CaptureFixture[str], library_path: Path
) -> None:
    out = run(capsys, library_path, "import", *map(str, seeds()))
    assert len(out.splitlines()) == 3
    papers = listed(capsys, library_path)
    assert len(papers) == 20
    megascale = [p for p in papers if p["title"] == MEGASCALE]
    assert len(megascale) == 1
    paper = megascale[0]
    assert paper["title_provisional"] is False
    assert paper["year"] == 2024
    assert set(paper["attributed_to"]) == {"Zhuo Jiang", "Liang Xiang"}
    assert paper["authors"] == ["Ziheng Jiang", "Haibin Lin", "Yinmin Zhong"]
    assert paper["authors_complete"] is False
    topology = [p for p in papers if "Topology-Aware" in p["title"]]
    assert len(topology) == 1
    assert set(topology[0]["attributed_to"]) == {"Zhuo Jiang", "Kaihua Jiang"}
    assert sum(p["title_provisional"] for p in papers) == 3


def test_every_import_order_gives_the_same_library(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, library_path: Path
) -> None:
    results = []
    for number, order in enumerate(itertools.permutations(seeds())):
        library = tmp_path / f"order{number}.sqlite"
        shutil.copy(library_path, library)
        run(capsys, library, "import", *map(str, order))
        results.append(normalised(listed(capsys, library)))
    assert len(results) == 6
    assert len(results[0]) == 20
    for result in results[1:]:
        assert result == results[0]


def test_reimporting_a_seed_changes_nothing(
    capsys: pytest.CaptureFixture[str], library_path: Path
) -> None:
    run(capsys, library_path, "import", *map(str, seeds()))
    before = dump(library_path)
    for seed in seeds():
        out = run(capsys, library_path, "import", str(seed))
        assert "0 new" in out
        assert "already in library" in out
        assert "merged" not in out.replace("0 merged", "")
    assert dump(library_path) == before
