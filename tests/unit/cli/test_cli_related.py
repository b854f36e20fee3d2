"""``refman related ID``: the most related papers with why, as text and as JSON."""

from __future__ import annotations

import json
from pathlib import Path

from refman.cli.related_cmd import RELATED_KEYS
from tests.helpers.cli import Cli
from tests.helpers.related_library import PAPERS, related_bib


def test_related_papers_are_listed_with_the_words_they_share(cli: Cli, tmp_path: Path) -> None:
    bib = tmp_path / "related.bib"
    bib.write_text(related_bib(), encoding="utf-8")
    assert cli("import", bib).code == 0
    listed = json.loads(cli("list", "--json", "--limit", "100").out)
    ids = {p["title"]: p["id"] for p in listed}
    focus, closest, close = (ids[title] for _, title, _ in PAPERS[:3])

    found = json.loads(cli("related", str(focus), "--json").out)
    assert [tuple(p) for p in found] == [RELATED_KEYS] * len(found)
    assert [p["id"] for p in found] == [closest, close]
    assert "straggler" in found[0]["shares"] and "MFU" in found[0]["shares"]
    assert found[0]["score"] > found[1]["score"] > 0

    text = cli("related", str(focus), "--limit", "1").out
    assert f"Related to #{focus} “Straggler-aware pipeline parallelism for MFU”" in text
    assert "Rebalancing pipeline stages around a straggler" in text
    assert "Mitigating stragglers" not in text  # --limit 1
    assert "shares: " in text and "MFU" in text

    far = ids[PAPERS[3][1]]
    assert "No paper shares the distinctive words" in cli("related", str(far)).out


def test_related_to_a_paper_that_is_not_there_says_so(cli: Cli) -> None:
    missing = cli("related", "4242")
    assert missing.code == 2 and "4242" in missing.err
    assert cli("related", "twelve").code == 2
