"""A paper not out yet ("Okafor, N. (in press). Title.") says so where its year goes: in
``refman list`` and ``refman show``, and its JSON gives it as ``publication_status``, as its
citations print it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import Cli

#: A CV's list: a paper in press, an undated one and a published one.
CV = """Nadia Okafor

Publications

Okafor, N. (in press). Tidal mixing in deltas. Marine Geology.
Okafor, N., & Lindqvist, E. (forthcoming). Salt wedges in small estuaries. Estuaries and Coasts.
Okafor, N. (2021). Sediment budgets of small estuaries. Marine Geology, 4(2), 1–9.
"""


def _imported(cli: Cli, tmp_path: Path) -> dict[str, dict[str, object]]:
    page = tmp_path / "cv.txt"
    page.write_text(CV, encoding="utf-8")
    assert cli("import", page).code == 0
    result = cli("list", "--json")
    assert result.code == 0, result.err
    return {str(p["title"]): p for p in json.loads(result.out)}


def test_a_paper_in_press_says_so_in_list_and_show_and_their_json(cli: Cli, tmp_path: Path) -> None:
    papers = _imported(cli, tmp_path)
    tidal = papers["Tidal mixing in deltas"]
    assert (tidal["year"], tidal["publication_status"]) == (None, "in press")
    assert papers["Salt wedges in small estuaries"]["publication_status"] == "forthcoming"
    budgets = papers["Sediment budgets of small estuaries"]
    assert (budgets["year"], budgets["publication_status"]) == (2021, None)

    lines = cli("list").out.splitlines()
    assert lines[0].split() == ["ID", "YEAR", "AUTHOR", "TITLE"]
    row = next(line for line in lines if "Tidal mixing" in line)
    assert f"#{tidal['id']}  in press     N. Okafor" in row
    starts = {line.index("Okafor") for line in lines[1:-1]}
    assert len(starts) == 1  # the author column stays aligned past "forthcoming"

    shown = cli("show", tidal["id"]).out
    assert "Year:          in press" in shown.splitlines()
    assert json.loads(cli("show", tidal["id"], "--json").out)["publication_status"] == "in press"
    cited = cli("cite", tidal["id"]).out
    assert "(in press)" in cited
