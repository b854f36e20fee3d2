"""An edited book is shown with its editors, not as a paper of nobody: ``refman show`` prints
*Editors:* (and the book's place), a chapter names its book's editors, and a paper's JSON
gives them as ``editors``."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import Cli

BIB = """@book{rossi2018,
  editor = {Rossi, Luca and Mensah, Kofi},
  title = {Coastal Processes in a Changing Climate},
  publisher = {Springer}, address = {Berlin}, year = {2018}
}
@incollection{okafor2018,
  author = {Okafor, Ngozi}, editor = {Rossi, Luca and Mensah, Kofi},
  title = {Sediment budgets}, booktitle = {Coastal Processes in a Changing Climate},
  pages = {301--330}, publisher = {Springer}, year = {2018}
}
@article{lund2019,
  author = {Lund, Kari}, title = {Fjord sills}, journal = {Marine Geology}, year = {2019}
}
"""


def _ids(cli: Cli, tmp_path: Path) -> dict[str, int]:
    bib = tmp_path / "edited.bib"
    bib.write_text(BIB, encoding="utf-8")
    assert cli("import", bib).code == 0
    return {p["citekey"]: p["id"] for p in json.loads(cli("list", "--json").out)}


def test_show_prints_an_edited_books_editors_and_place(cli: Cli, tmp_path: Path) -> None:
    ids = _ids(cli, tmp_path)
    lines = cli("show", ids["rossi2018"]).out.splitlines()
    assert "Editors:       Luca Rossi, Kofi Mensah" in lines
    assert "Place:         Berlin" in lines
    chapter = cli("show", ids["okafor2018"]).out.splitlines()
    assert "Authors:       Ngozi Okafor" in chapter
    assert "Editors:       Luca Rossi, Kofi Mensah" in chapter
    article = cli("show", ids["lund2019"]).out
    assert "Editors:" not in article and "Place:" not in article


def test_a_papers_json_lists_its_editors(cli: Cli, tmp_path: Path) -> None:
    ids = _ids(cli, tmp_path)
    shown = {key: json.loads(cli("show", "--json", pid).out) for key, pid in ids.items()}
    assert shown["rossi2018"]["editors"] == ["Luca Rossi", "Kofi Mensah"]
    assert shown["rossi2018"]["authors"] == []
    assert shown["okafor2018"]["editors"] == ["Luca Rossi", "Kofi Mensah"]
    assert shown["lund2019"]["editors"] == []


def test_list_names_an_edited_books_editors_in_the_author_column(cli: Cli, tmp_path: Path) -> None:
    ids = _ids(cli, tmp_path)
    rows = cli("list", "--sort", "author").out.splitlines()
    authors = [row for row in rows if row.startswith("#")]
    assert [int(row.split()[0][1:]) for row in authors] == [
        ids["lund2019"],
        ids["okafor2018"],
        ids["rossi2018"],
    ]
    assert "Luca Rossi et al. (eds.)" in authors[2]
    assert "(ed" not in authors[1]  # a chapter shows its own author


def test_list_keeps_the_editors_mark_of_a_name_cut_short(cli: Cli, tmp_path: Path) -> None:
    bib = tmp_path / "long.bib"
    bib.write_text(
        "@book{ioc2014, editor = {{Intergovernmental Oceanographic Commission}},\n"
        "  title = {Ocean Observing Report}, year = {2014}}\n"
        "@book{tan2015, editor = {Tanaka-Whitmore, Alexandra and Rossi, Luca},\n"
        "  title = {Deltas of the World}, year = {2015}}\n",
        encoding="utf-8",
    )
    assert cli("import", bib).code == 0
    rows = [row for row in cli("list", "--sort", "author").out.splitlines() if "#" in row]
    cells = [row.split("  ")[2] for row in rows]
    assert cells == ["Intergovernmental… (ed.)", "Alexandra Tanaka… (eds.)"]  # 24 columns
