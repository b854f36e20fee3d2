"""``refman cite`` and ``refman styles`` through :func:`refman.__main__.main`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from refman.__main__ import main
from refman.core.citations import STYLES, paper_citation, paper_entries, render_bibliography
from refman.core.library import LibraryService
from refman.core.values import PaperDetail
from tests.helpers.cli import Cli, runner
from tests.helpers.pages import publication_page
from tests.unit.core.test_citations import LIBRARY, import_items

#: The title of a paper an author page lists without its authors.
TITLE = "Quiet Lattices for Sparse Retrieval"


@pytest.fixture
def papers(library: LibraryService) -> list[PaperDetail]:
    """The citation fixture library: smith2020bayesian, jiang2024megascale, doe2023attention…"""
    return import_items(library, LIBRARY[:6])


@pytest.fixture
def cli(
    capsys: pytest.CaptureFixture[str], library_location: str, papers: list[PaperDetail]
) -> Cli:
    return runner(capsys, library_location)


def _ids(papers: list[PaperDetail], *numbers: int) -> list[str]:
    return [str(papers[n].id) for n in numbers]


def test_cite_prints_the_bibliography_in_apa_by_default(
    cli: Cli, papers: list[PaperDetail]
) -> None:
    result = cli("cite", *_ids(papers, 0, 1, 2))
    assert (result.code, result.err) == (0, "")
    assert result.out == render_bibliography(papers[:3], "apa", "text")
    assert result.out.splitlines()[0].startswith("Doe, J., & Roe, R. (2023). Attention")


def test_a_paper_named_from_the_trash_is_cited_and_stderr_says_it_is_there(
    cli: Cli, papers: list[PaperDetail], library: LibraryService
) -> None:
    """Named by id, a paper in the Trash is cited all the same (it was asked for), and
    stderr says where it is and how to bring it back; a search leaves it out."""
    library.trash([papers[1].id, papers[2].id])
    result = cli("cite", *_ids(papers, 0, 1, 2))
    assert result.code == 0
    assert result.out == render_bibliography(papers[:3], "apa", "text")
    one, two = papers[1].id, papers[2].id
    assert result.err == (
        f"refman: #{one} and #{two} are in the Trash (cited all the same; "
        f"“refman restore {one} {two}” brings them back).\n"
    )
    alone = cli("cite", str(one), "--keys")
    assert alone.err == (
        f"refman: #{one} is in the Trash (cited all the same; "
        f"“refman restore {one}” brings it back).\n"
    )
    assert cli("cite", *_ids(papers, 0)).err == ""


def test_a_numbered_style_numbers_the_papers_in_the_order_given(
    cli: Cli, papers: list[PaperDetail]
) -> None:
    lines = cli("cite", *_ids(papers, 1, 0), "--style", "ieee").out.splitlines()
    assert lines[0].startswith("[1] Z. Jiang et al., “MegaScale:")
    assert lines[1].startswith("[2] J. Smith, J. Müller, and A. Okonkwo, “A study")


def test_html_is_citeproc_js_markup(cli: Cli, papers: list[PaperDetail]) -> None:
    result = cli("cite", *_ids(papers, 0), "--style", "nature", "--format", "html")
    assert result.out.startswith('<div class="csl-bib-body">\n  <div class="csl-entry">\n')
    assert '<div class="csl-left-margin">1.</div>' in result.out
    assert "<i>Journal of Computational Biology</i> <b>27</b>" in result.out
    assert result.out.endswith("</div>\n")


def test_an_ampersand_in_a_volume_or_issue_is_escaped_in_html(
    cli: Cli, papers: list[PaperDetail]
) -> None:
    paper = _ids(papers, 0)[0]
    assert cli("edit", paper, "--volume", "3 & 4", "--issue", "1 & 2").code == 0
    for style in ("apa", "nature", "chicago-author-date"):
        html = cli("cite", paper, "--style", style, "--format", "html").out
        assert "3 &#38; 4" in html and " & " not in html, (style, html)
        text = cli("cite", paper, "--style", style).out
        assert "3 & 4" in text, (style, text)


def test_keys_print_a_cite_command(cli: Cli, papers: list[PaperDetail]) -> None:
    result = cli("cite", *_ids(papers, 2, 0, 2), "--keys")
    assert result.out == "\\cite{doe2023attention,smith2020bayesian}\n"
    listed = json.loads(cli("cite", *_ids(papers, 2, 0), "--keys", "--json").out)
    assert listed == [
        {"id": papers[2].id, "citekey": "doe2023attention"},
        {"id": papers[0].id, "citekey": "smith2020bayesian"},
    ]
    refused = cli("cite", papers[0].id, "--keys", "--format", "html")  # keys have no format
    assert (refused.code, refused.out) == (2, "") and "not allowed with" in refused.err


def test_json_has_one_object_per_paper_in_bibliography_order(
    cli: Cli, papers: list[PaperDetail]
) -> None:
    objects = json.loads(cli("cite", *_ids(papers, 0, 2), "--json").out)
    entries = paper_entries([papers[0], papers[2]], "apa")
    assert objects == [
        {"id": detail.id, "citekey": detail.citekey, "text": entry.rstrip("\n")}
        for detail, entry in entries
    ]
    with_html = json.loads(cli("cite", *_ids(papers, 0), "--json", "--format", "html").out)
    assert set(with_html[0]) == {"id", "citekey", "text", "html"}
    assert with_html[0]["html"].startswith('<div class="csl-entry">Smith, J., Müller, J., &#38;')


def test_an_unknown_style_is_a_user_error_that_lists_the_styles(
    cli: Cli, papers: list[PaperDetail]
) -> None:
    result = cli("cite", *_ids(papers, 0), "--style", "mla")
    assert (result.code, result.out) == (2, "")
    assert "There is no citation style “mla”" in result.err
    assert all(style in result.err for style in STYLES)


def test_cite_writes_in_the_language_asked_for(cli: Cli, papers: list[PaperDetail]) -> None:
    result = cli("cite", *_ids(papers, 0, 1), "--style", "ieee", "--language", "de")
    assert (result.code, result.err) == (0, "")
    assert result.out == render_bibliography(papers[:2], "ieee", "text", "de-DE")
    assert "J. Smith, J. Müller, und A. Okonkwo, „A study" in result.out
    as_json = json.loads(cli("cite", *_ids(papers, 0), "--language", "fr", "--json").out)
    assert as_json[0]["text"] == render_bibliography(papers[:1], "apa", "text", "fr-FR").strip()


def test_a_style_written_in_one_language_says_so_and_keeps_it(
    cli: Cli, papers: list[PaperDetail]
) -> None:
    result = cli("cite", *_ids(papers, 0), "--style", "nature", "--language", "German")
    assert result.code == 0
    assert result.out == render_bibliography(papers[:1], "nature", "text")
    assert result.err == (
        "refman: The style Nature is always written in English (UK); --language does not "
        "change it.\n"
    )


def test_in_text_prints_the_papers_citation(cli: Cli, papers: list[PaperDetail]) -> None:
    result = cli("cite", *_ids(papers, 0, 2, 1), "--in-text")
    assert (result.code, result.err) == (0, "")
    assert result.out == "(Doe & Roe, 2023; Jiang et al., 2024; Smith et al., 2020)\n"
    numbered = cli("cite", *_ids(papers, 0, 1, 2), "--in-text", "--style", "acm")
    assert numbered.out == "[1–3]\n"
    as_json = json.loads(
        cli(
            "cite",
            *_ids(papers, 0, 1),
            "--in-text",
            "--style",
            "nature",
            "--format",
            "html",
            "--json",
        ).out
    )
    assert as_json == {
        "ids": [papers[0].id, papers[1].id],
        "text": paper_citation(papers[:2], "nature"),
        "html": "<sup>1,2</sup>",
    }
    both = cli("cite", *_ids(papers, 0), "--in-text", "--keys")
    assert (both.code, both.out) == (2, "")
    assert "--in-text and --keys cannot go together" in both.err


def test_an_unknown_language_is_a_user_error(cli: Cli, papers: list[PaperDetail]) -> None:
    result = cli("cite", *_ids(papers, 0), "--language", "Klingon")
    assert (result.code, result.out) == (2, "")
    assert "Citations cannot be written in “Klingon”" in result.err
    assert "refman styles --languages" in result.err


def test_an_unknown_paper_is_a_user_error(cli: Cli, papers: list[PaperDetail]) -> None:
    for extra in ((), ("--json",), ("--keys",)):
        result = cli("cite", *_ids(papers, 0), "424242", *extra)
        assert (result.code, result.out) == (2, "")
        assert "#424242" in result.err


def test_styles_lists_the_styles_without_opening_a_library(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "never" / "made.sqlite"
    assert main(["--db", str(missing), "styles"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(STYLES)
    assert lines[0].endswith("APA (7th edition)")
    assert main(["styles", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed == [{"id": key, "name": name} for key, name in STYLES.items()]
    assert not missing.parent.exists()


def test_styles_lists_the_languages_citations_can_be_written_in(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["styles", "--languages"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(maxsplit=1) for line in lines if line.startswith("de-DE")] == [
        ["de-DE", "Deutsch (Deutschland) — German (Germany)"]
    ]
    assert main(["styles", "--languages", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {"id": "fr-FR", "name": "Français (France) — French (France)"} in listed
    assert len(listed) == len(lines) > 50


@pytest.mark.parametrize("style", ["apa", "chicago-author-date", "harvard-cite-them-right"])
def test_a_paper_without_authors_is_cited_with_its_title_once(
    cli: Cli, papers: list[PaperDetail], style: str, tmp_path: Path
) -> None:
    # Author pages often give no authors: the title takes the author's place, once.
    page = tmp_path / "page.txt"
    page.write_text(publication_page("Ada Okafor", [(TITLE, 2025, "ICLR")]), encoding="utf-8")
    assert cli("import", page).code == 0
    (paper,) = [p for p in json.loads(cli("list", "--json").out) if p["title"] == TITLE]
    for fmt in ("text", "html"):
        out = cli("cite", str(paper["id"]), "--style", style, "--format", fmt).out
        assert out.count("Quiet Lattices") == 1, out


def test_a_tag_search_or_section_chooses_the_papers_as_export_does(
    cli: Cli, library: LibraryService, papers: list[PaperDetail]
) -> None:
    """A thesis's bibliography: ``refman cite --tag thesis`` (cite took only ids)."""
    library.tag([papers[1].id, papers[0].id], ["thesis"])
    library.trash([papers[2].id])
    thesis = [papers[1], papers[0]]  # (in list order: the newest added first)
    result = cli("cite", "--tag", "THESIS", "--style", "ieee")
    assert (result.code, result.err) == (0, "")
    assert result.out == render_bibliography(thesis, "ieee", "text")
    keys = cli("cite", "--tag", "thesis", "--keys").out
    assert keys == f"\\cite{{{papers[1].citekey},{papers[0].citekey}}}\n"
    found = cli("cite", "--search", "MegaScale", "--json").out
    assert [e["id"] for e in json.loads(found)] == [papers[1].id]
    trashed = cli("cite", "--section", "trash", "--keys").out
    assert trashed == f"\\cite{{{papers[2].citekey}}}\n"


def test_cite_says_which_papers_it_needs(cli: Cli, papers: list[PaperDetail]) -> None:
    result = cli("cite")
    assert (result.code, result.out) == (2, "")
    assert "Name the papers to cite: their ids, or --search, --tag or --section." in result.err
    result = cli("cite", str(papers[0].id), "--tag", "x")
    assert "either paper ids or --search/--tag/--section, not both" in result.err
    result = cli("cite", "--tag", "nowhere")
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith("refman: There is no tag “nowhere”.")
    result = cli("cite", "--search", "nothing-matches-this")
    assert (result.code, result.out) == (2, "")
    assert "No paper to cite" in result.err
