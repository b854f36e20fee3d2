"""Formatted citations: the styles refman ships, rendering real papers imported through the
service, the work-arounds for citeproc-py, and the comparison with citeproc-js (Zotero's
engine) on the fixture library in tests/fixtures/citations."""

from __future__ import annotations

import hashlib
import json
import random
import re
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from citeproc import LOCALES_PATH

from refman.common.errors import InvalidValueError, NotFoundError
from refman.core.citation_languages import check_language, languages
from refman.core.citations import (
    FORMATS,
    STYLES,
    bibliography_entries,
    check_style,
    citation_keys,
    paper_citation,
    paper_entries,
    render_bibliography,
    style_language,
    style_path,
)
from refman.core.csl import csl_item
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperDetail
from refman.importers import parse
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord, PersonName
from tests.helpers.fixtures import FIXTURES, REPO, sourced_file
from tests.helpers.pages import abstracts_page

CITATIONS = FIXTURES / "citations"
LIBRARY: list[dict[str, Any]] = json.loads((CITATIONS / "library.json").read_text("utf-8"))
EXPECTED: dict[str, Any] = json.loads((CITATIONS / "expected.json").read_text("utf-8"))
DIFFERENCES = CITATIONS / "DIFFERENCES.md"
REGENERATE = "regenerate it: cd tools/citeproc-js && npm install && node render.js"
#: The languages render.js renders the fixture library in, besides each style's own.
LANGUAGES = ("de-DE", "fr-FR")

#: CSL variables that are paper fields (the rest goes to the paper's ``extra``).
_FIELDS = {
    "title": "title",
    "DOI": "doi",
    "URL": "url",
    "volume": "volume",
    "issue": "issue",
    "page": "pages",
    "publisher": "publisher",
    "container-title": "venue",
}


def _person(name: dict[str, str]) -> PersonName:
    if "literal" in name:
        return PersonName(name["literal"], literal=True)
    parts = (name.get("given", ""), name.get("non-dropping-particle", ""), name.get("suffix", ""))
    return PersonName(name["family"], *parts)


def fixture_record(item: dict[str, Any]) -> ParsedRecord:
    """The bibliography record a CSL-JSON item of the fixture library would import as."""
    fields: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for variable, value in item.items():
        if variable in _FIELDS:
            fields[_FIELDS[variable]] = value
        elif variable == "issued":
            fields["year"] = value["date-parts"][0][0]
            if len(value["date-parts"][0]) > 1:
                extra["issued"] = value
        elif variable not in ("id", "type", "author"):
            extra[variable] = value
    if str(item.get("number", "")).startswith("arXiv:"):  # as an arXiv record brings it
        fields.update(arxiv_id=extra.pop("number")[6:], venue="arXiv", publisher=None, url=None)
    names = tuple(_person(n) for n in item.get("author", []))
    return ParsedRecord(
        title_provisional=False,
        abstract="",
        authors=tuple(n.display for n in names),
        author_names=names,
        authors_complete=bool(names),
        type=item["type"],
        citekey=item["id"],
        extra=extra,
        **fields,
    )


def import_items(library: LibraryService, items: list[dict[str, Any]]) -> list[PaperDetail]:
    """Import CSL-JSON items through the service; the papers, in the items' order."""
    page = ParsedPage("", PageFormat.CSL_JSON, None, [fixture_record(i) for i in items])
    result = library.import_pages([SourcedPage(page, "library.json")])
    return library.details(list(result.new_ids))


@pytest.fixture
def papers(library: LibraryService) -> list[PaperDetail]:
    """The fixture library, imported."""
    return import_items(library, LIBRARY)


# -- the styles ------------------------------------------------------------------------------


@pytest.mark.parametrize("style", STYLES)
def test_each_style_is_an_official_csl_file_under_cc_by_sa(style: str) -> None:
    text = style_path(style).read_text("utf-8")
    assert f"<id>http://www.zotero.org/styles/{style}</id>" in text
    assert '<rights license="http://creativecommons.org/licenses/by-sa/3.0/">' in text


def test_the_styles_licence_is_noted_beside_them() -> None:
    note = (style_path("apa").parent / "LICENSE.md").read_text("utf-8")
    assert "CC BY-SA 3.0" in note
    assert all(f"{style}.csl" in note for style in STYLES)


def test_an_unknown_style_is_refused_with_the_list_of_styles() -> None:
    with pytest.raises(InvalidValueError) as error:
        render_bibliography([], "vancouver")
    assert "vancouver" in str(error.value)
    assert all(style in str(error.value) for style in STYLES)


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(InvalidValueError, match="rtf"):
        render_bibliography([], "apa", "rtf")


def test_style_ids_are_read_in_any_case(papers: list[PaperDetail]) -> None:
    assert render_bibliography(papers[:1], "IEEE") == render_bibliography(papers[:1], "ieee")


def test_a_style_is_known_by_its_short_name_too(papers: list[PaperDetail]) -> None:
    """``--style acm`` (as the README names it: ACM, Chicago, Harvard) was refused."""
    for short, style in (
        ("ACM", "association-for-computing-machinery"),
        ("chicago", "chicago-author-date"),
        (" harvard", "harvard-cite-them-right"),
    ):
        assert check_style(short) == style
        assert render_bibliography(papers[:1], short) == render_bibliography(papers[:1], style)


# -- real papers -----------------------------------------------------------------------------


@pytest.fixture
def page_papers(library: LibraryService) -> list[PaperDetail]:
    """Papers imported from the author pages of tests/fixtures/seedlike."""
    for path in sorted((FIXTURES / "seedlike").glob("*.txt")):
        library.import_pages([sourced_file(path)])
    return library.details(library.paper_ids())


@pytest.mark.parametrize("style", STYLES)
def test_every_style_renders_every_paper_of_author_pages(
    page_papers: list[PaperDetail], style: str
) -> None:
    text = render_bibliography(page_papers, style, "text")
    html = render_bibliography(page_papers, style, "html")
    assert text.count("\n") == len(page_papers) and "\n\n" not in text
    assert html.startswith('<div class="csl-bib-body">\n') and html.endswith("</div>")
    assert html.count('<div class="csl-entry">') == len(page_papers)
    for paper in page_papers:
        assert paper.title.split(":")[0].casefold() in text.casefold()


def test_numbered_styles_number_in_citation_order_unless_they_sort(
    papers: list[PaperDetail],
) -> None:
    smith, jiang = papers[0], papers[1]
    assert render_bibliography([jiang, smith], "ieee").startswith("[1] Z. Jiang et al.")
    assert render_bibliography([smith, jiang], "ieee").startswith("[1] J. Smith")
    acm = render_bibliography([smith, jiang], "association-for-computing-machinery")
    assert acm.startswith("[1] Ziheng Jiang") and "\n[2] John Smith" in acm


def test_entries_keep_their_paper(papers: list[PaperDetail]) -> None:
    entries = paper_entries(papers[:3], "apa")
    assert [d.citekey for d, _ in entries] == [
        "doe2023attention",
        "jiang2024megascale",
        LIBRARY[0]["id"],
    ]
    assert entries[0][1].startswith("Doe, J., & Roe, R. (2023).")


def test_the_service_cites_papers_by_id(library: LibraryService, papers: list[PaperDetail]) -> None:
    ids = [paper.id for paper in papers[:2]]
    assert library.cite(ids, "nature", "html") == render_bibliography(papers[:2], "nature", "html")
    assert library.cite([]) == ""
    with pytest.raises(NotFoundError):
        library.cite([ids[0], 999_999])


def test_citation_keys(papers: list[PaperDetail]) -> None:
    assert citation_keys(papers[:2] + papers[:1]) == r"\cite{smith2020bayesian,jiang2024megascale}"
    assert citation_keys([]) == ""


# -- the data citeproc-py is given -------------------------------------------------------------


def _one(item: dict[str, Any], style: str = "apa", fmt: str = "text") -> str:
    base = {
        "id": "x",
        "type": "article-journal",
        "title": "A title",
        "author": [{"family": "Zed", "given": "A"}],
        "issued": {"date-parts": [[2020]]},
    }
    [(_, entry)] = bibliography_entries([{**base, **item}], style, fmt)
    return entry


def test_html_output_escapes_the_data_but_keeps_csl_rich_text() -> None:
    title = "<script>alert(1)</script> & <i>Drosophila</i> H<sub>2</sub>O"
    html = _one({"title": title}, "ieee", "html")
    assert "<script>" not in html and "&#60;script&#62;alert(1)&#60;/script&#62; &#38;" in html
    assert "<i>Drosophila</i> H<sub>2</sub>O" in html
    text = _one({"title": title}, "ieee")
    assert "“<script>alert(1)</script> & Drosophila H2O,” 2020." in text


@pytest.mark.parametrize(
    "issued",
    [{"raw": "2020-05-01"}, "2020-05-01", {"date-parts": [["2020", "5"]]}, {"literal": "2020"}],
)
def test_raw_edtf_and_text_dates_are_read(issued: object) -> None:
    assert _one({"issued": issued}).startswith("Zed, A. (2020")


def test_unknown_variables_and_odd_values_neither_warn_nor_fail() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        entry = _one(
            {
                "custom": {"a": 1},
                "event-title": "Workshop",
                "categories": ["x"],
                "director": [{"family": "D"}],
                "author": [{"family": "Zed", "given": "A", "sequence": "first"}, {}],
                "issued": {"date-parts": [["spring"]]},
                "volume": None,
            }
        )
    assert entry == "Zed, A. (n.d.). A title. Workshop.\n"  # APA 7 knows event-title


def test_quotes_and_apostrophes_are_nested_as_citeproc_js_does() -> None:
    title = "Why \"good enough\" isn't: the 'last mile' of students' code"
    assert "Why “good enough” isn’t: the ‘last mile’ of students’ code." in _one({"title": title})
    inner = "“Why ‘good enough’ isn’t: the ‘last mile’ of students’ code,”"
    assert inner in _one({"title": title}, "ieee")
    british = _one({"title": "A 'quoted' word", "container-title": "J"}, "nature")
    assert "A ‘quoted’ word." in british  # Nature writes British English: outer quotes ‘…’


def test_lower_case_hyphenated_given_names_are_initialised_as_in_citeproc_js() -> None:
    entry = _one(
        {"author": [{"family": "Kim", "given": "Min-jun"}, {"family": "Roy", "given": "Jean-Paul"}]}
    )
    assert entry.startswith("Kim, M., & Roy, J.-P.")


def test_names_without_letter_case_are_written_whole_as_citeproc_js_writes_them() -> None:
    """Chinese, Japanese and Korean names: family name first, nothing between, no initials
    (the strings citeproc-js 2.4.63 writes for these data)."""
    authors = [
        {"family": "山田", "given": "太郎"},
        {"family": "Ñúñez", "given": "José"},
        {"family": "김", "given": "민준"},
    ]
    book = {"type": "book", "author": authors, "title": "日本語の本", "publisher": "Iwanami"}
    assert _one(book).startswith("山田太郎, Ñúñez, J., & 김민준. (2020). 日本語の本.")
    assert _one(book, "ieee").startswith("[1] 山田太郎, J. Ñúñez, and 김민준, 日本語の本.")
    chicago = _one(book, "chicago-author-date")
    assert chicago.startswith("山田太郎, José Ñúñez, and 김민준. 2020.")


def test_chicago_writes_given_names_in_full_and_formats_initials_only() -> None:
    authors = [
        {"family": "Tolkien", "given": "J.R.R."},
        {"family": "Lovelace", "given": "Ada Augusta"},
        {"family": "Kim", "given": "Min-jun"},
    ]
    entry = _one({"author": authors, "title": "Notes"}, "chicago-author-date")
    assert entry.startswith("Tolkien, J. R. R., Ada Augusta Lovelace, and Min-jun Kim.")
    assert _one({"author": authors}).startswith("Tolkien, J. R. R., Lovelace, A. A., & Kim, M.")


def test_an_edited_book_shows_its_editor_once_in_the_authors_place() -> None:
    book = {
        "type": "book",
        "title": "Handbook of Lattices",
        "author": [],
        "editor": [{"family": "Okafor", "given": "Mira Adaeze"}],
        "publisher": "Elsevier",
    }
    chicago = _one(book, "chicago-author-date")
    assert chicago.startswith("Okafor, Mira Adaeze, ed. 2020. Handbook of Lattices.")
    assert "Edited by" not in chicago
    assert _one(book).startswith("Okafor, M. A. (Ed.). (2020). Handbook of Lattices.")
    harvard = _one(book, "harvard-cite-them-right")
    assert harvard.count("Okafor") == 1


#: The styles whose bibliography shortens a list of eight authors itself.
_TRUNCATING_EIGHT = {"ieee", "chicago-author-date", "harvard-cite-them-right", "nature"}


def test_an_author_list_that_stops_short_ends_in_et_al_in_every_style(
    library: LibraryService,
) -> None:
    """A page that lists the first authors and "et al." does not credit the paper to those
    alone: the style's "et al." follows them (and is not doubled where the style truncates)."""
    three, eight = LIBRARY[0], LIBRARY[1]  # 3 and 8 authors
    solo = {**three, "id": "solo", "title": "Solo work", "author": three["author"][:1]}
    del solo["DOI"]
    records = [fixture_record(item) for item in (three, eight, solo)]
    records = [replace(records[0], authors_complete=False), records[1]]
    records.append(replace(fixture_record(solo), authors_complete=False))
    page = ParsedPage("", PageFormat.CSL_JSON, None, records)
    papers = library.details(list(library.import_pages([SourcedPage(page, "x")]).new_ids))
    assert [p.authors_complete for p in papers] == [False, True, False]
    apa = render_bibliography(papers, "apa")
    assert "Smith, J., Müller, J., Okonkwo, A., et al. (2020)." in apa
    assert "Smith, J. et al. (2020). Solo work." in apa
    assert "Peng, Y., & Li, X. (2024)." in apa  # a complete list: as before
    ieee = render_bibliography(papers, "ieee", "html")
    assert "J. Smith, J. Müller, A. Okonkwo, <i>et al.</i>, “A study" in ieee
    long_short = replace(papers[1], authors_complete=False)
    for style in STYLES:
        text = render_bibliography(papers, style)
        truncates = style in _TRUNCATING_EIGHT  # the style's own "et al." for 8 authors
        assert text.count("et al.") == 2 + truncates, style
        assert render_bibliography([long_short], style).count("et al.") == 1, style


def test_a_long_author_list_that_stops_short_never_names_a_last_author(
    library: LibraryService,
) -> None:
    """APA writes 21 authors or more as the first 19, "…" and the last one; of a list known
    to stop short, the last name given is not the paper's last author ("…, Wolf, W." read
    as if Wolf were): the list ends in "et al." instead. A complete list is as APA says."""
    people = [{"family": f"Family{chr(65 + n)}", "given": "Ann"} for n in range(23)]
    base = {"type": "article-journal", "issued": {"date-parts": [[2021]]}, "author": people}
    items = [
        {**base, "id": "short", "title": "Twenty-three names given, and others"},
        {**base, "id": "whole", "title": "Twenty-three authors in all"},
    ]
    records = [fixture_record(item) for item in items]
    records[0] = replace(records[0], authors_complete=False)
    page = ParsedPage("", PageFormat.CSL_JSON, None, records)
    short, whole = library.details(list(library.import_pages([SourcedPage(page, "x")]).new_ids))
    cited = render_bibliography([short], "apa")
    assert cited.startswith("FamilyA, A., FamilyB, A., FamilyC, A.,")
    assert "FamilyS, A., et al. (2021). Twenty-three names given" in cited
    assert "FamilyW" not in cited and "…" not in cited
    assert "FamilyS, A., … FamilyW, A. (2021)." in render_bibliography([whole], "apa")


def test_an_organisation_among_a_pages_authors_is_cited_by_its_whole_name(
    library: LibraryService,
) -> None:
    """An author page names people and groups alike; "Google DeepMind" is not a Mr DeepMind."""
    authors = "Google DeepMind, Ines Carvalho, World Health Organization"
    abstract = "We train a forecasting model of influenza seasons on fifteen years of reports."
    page = parse(abstracts_page("Ines Carvalho", [(authors, abstract)]))
    result = library.import_pages([SourcedPage(page, "page.txt")])
    paper = library.details(list(result.new_ids))[0]
    apa = render_bibliography([paper], "apa")
    assert apa.startswith("Google DeepMind, Carvalho, I., & World Health Organization. (n.d.).")
    ieee = render_bibliography([paper], "ieee")
    assert ieee.startswith("[1] Google DeepMind, I. Carvalho, and World Health Organization,")
    assert "{Google DeepMind} and Carvalho, Ines" in library.export([paper.id], "bibtex")


def test_any_text_renders_in_every_style_without_leaving_private_marks() -> None:
    rng = random.Random(9)
    alphabet = "abcXYZ   '\"“”‘’<>&-:.,?!()$_#%äßØé中α" + "<i></i><b></b><sub></sub>"

    def text(n: int) -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, n)))

    for trial in range(4):
        items = [
            {
                "id": f"{trial}-{n}",
                "type": kind,
                "title": text(40),
                "container-title": text(20),
                "page": text(6),
                "number": text(8),
                "author": [{"family": text(8), "given": text(8)} for _ in range(n)],
                "issued": [{"raw": text(10)}, text(10), {"date-parts": [[]]}][n],
            }
            for n, kind in enumerate(("article-journal", "chapter", "webpage"))
        ]
        for style in STYLES:
            for fmt in FORMATS:
                for _, entry in bibliography_entries(items, style, fmt):
                    assert not any("\ue000" <= c <= "\ue1ff" for c in entry)


# -- the same output as citeproc-js ----------------------------------------------------------


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_expected_strings_were_made_from_the_current_inputs() -> None:
    library = _sha256(CITATIONS / "library.json")
    assert EXPECTED["library_sha256"] == library, f"library.json changed: {REGENERATE}"
    for style in STYLES:
        assert EXPECTED["styles"][style]["sha256"] == _sha256(style_path(style)), REGENERATE
    for name, digest in EXPECTED["locales"].items():
        installed = _sha256(Path(LOCALES_PATH) / name)
        assert installed == digest, f"citeproc-py's {name} is not the one compared: {REGENERATE}"


def test_render_js_renders_the_styles_of_refman() -> None:
    script = (REPO / "tools" / "citeproc-js" / "render.js").read_text("utf-8")
    listed = re.search(r"const STYLES = \[(.*?)\];", script, re.DOTALL)
    assert listed is not None
    assert re.findall(r"'([\w-]+)'", listed.group(1)) == list(STYLES)


def test_the_imported_papers_are_the_fixture_items(papers: list[PaperDetail]) -> None:
    assert [csl_item(paper) for paper in papers] == LIBRARY


Difference = tuple[Any, Any]  # (citeproc-js, refman)


def actual_differences(papers: list[PaperDetail]) -> dict[tuple[str, str, str], Difference]:
    """Every entry (and bibliography order) where refman differs from expected.json."""
    found: dict[tuple[str, str, str], Difference] = {}
    for style in STYLES:
        for fmt in FORMATS:
            theirs = EXPECTED["styles"][style][fmt]["entries"]
            ours = [(str(d.citekey), e) for d, e in paper_entries(papers, style, fmt)]
            if [k for k, _ in ours] != [k for k, _ in theirs]:
                found[(style, fmt, "order")] = ([k for k, _ in theirs], [k for k, _ in ours])
            expected = dict(theirs)
            for key, entry in ours:
                if entry != expected[key]:
                    found[(style, fmt, key)] = (expected[key], entry)
    return found


_SECTION = re.compile(
    r"^### (\S+) · (text|html) · (\S+)\n\nWhy: (.+?)\n\n```json\n(.*?)\n```", re.M | re.S
)


def documented_differences() -> tuple[dict[tuple[str, str, str], Difference], set[str]]:
    """The differences DIFFERENCES.md lists, and the causes they name."""
    text = DIFFERENCES.read_text("utf-8")
    found: dict[tuple[str, str, str], Difference] = {}
    causes: set[str] = set()
    for style, fmt, key, why, block in _SECTION.findall(text):
        strings = json.loads(block)
        found[(style, fmt, key)] = (strings["citeproc-js"], strings["refman"])
        causes.update(re.findall(r"\bC\d+\b", why))
    return found, causes


def _section(key: tuple[str, str, str], difference: Difference) -> str:
    strings = {"citeproc-js": difference[0], "refman": difference[1]}
    body = json.dumps(strings, ensure_ascii=False, indent=2)
    return f"### {' · '.join(key)}\n\nWhy: ?\n\n```json\n{body}\n```\n"


def test_refman_differs_from_citeproc_js_exactly_where_documented(
    papers: list[PaperDetail],
) -> None:
    actual = actual_differences(papers)
    documented, causes = documented_differences()
    defined = set(re.findall(r"^- \*\*(C\d+)\*\*", DIFFERENCES.read_text("utf-8"), re.M))
    assert causes <= defined, f"DIFFERENCES.md names undefined causes: {causes - defined}"
    new = [_section(k, v) for k, v in actual.items() if documented.get(k) != v]
    gone = [" · ".join(k) for k in documented if k not in actual]
    assert not new and not gone, (
        "refman's citations no longer differ from citeproc-js where DIFFERENCES.md says.\n"
        f"Not documented (or changed):\n{''.join(new)}\nNo longer different: {gone}"
    )


def test_render_js_renders_the_languages_compared_here() -> None:
    script = (REPO / "tools" / "citeproc-js" / "render.js").read_text("utf-8")
    listed = re.search(r"const LANGUAGES = \[(.*?)\];", script, re.DOTALL)
    assert listed is not None
    assert re.findall(r"'([\w-]+)'", listed.group(1)) == list(LANGUAGES)
    assert sorted(EXPECTED["languages"]) == sorted(LANGUAGES), REGENERATE


@pytest.mark.parametrize("language", LANGUAGES)
def test_in_another_language_every_entry_reads_as_citeproc_js_writes_it(
    papers: list[PaperDetail], language: str
) -> None:
    """German and French terms, ordinals ("2. Aufl.", "2ᵉ éd.", in HTML ``2<sup>e</sup>``),
    quotes („…“, «\u00a0…\u00a0»), French page ranges and particles ("van\u00a0Leeuwen"), and
    titles left as written outside English: all 21 papers in every style and format."""
    for style in STYLES:
        for fmt in FORMATS:
            theirs = EXPECTED["languages"][language][style][fmt]["entries"]
            ours = [(str(d.citekey), e) for d, e in paper_entries(papers, style, fmt, language)]
            assert ours == [(k, e) for k, e in theirs], (style, fmt)


def _cited(papers: list[PaperDetail], ids: list[str]) -> list[PaperDetail]:
    by_key = {str(paper.citekey): paper for paper in papers}
    return [by_key[key] for key in ids]


def test_in_text_citations_read_as_citeproc_js_writes_them(papers: list[PaperDetail]) -> None:
    """Each paper alone, clusters that sort, group and collapse ("(Smith et al., 2020a,
    2020b)", "[1–3]"), and all 21 together, in every style and format; then in German and
    French."""
    for style in STYLES:
        for fmt in FORMATS:
            for ids, theirs in EXPECTED["citations"][style][fmt]:
                assert paper_citation(_cited(papers, ids), style, fmt) == theirs, (style, ids)
        for language in LANGUAGES:
            for ids, theirs in EXPECTED["languages"][language][style]["citations"]:
                ours = paper_citation(_cited(papers, ids), style, "text", language)
                assert ours == theirs, (style, language, ids)


def test_an_in_text_citation_collapses_what_the_style_collapses(
    papers: list[PaperDetail],
) -> None:
    smith = _cited(papers, ["smith2020markov", "doe2023attention", "smith2020bayesian"])
    assert paper_citation(smith, "apa") == "(Doe & Roe, 2023; Smith et al., 2020b, 2020a)"
    assert paper_citation(smith[::2], "apa") == "(Smith et al., 2020b, 2020a)"
    assert paper_citation(papers[:5], "acm") == "[1–5]"
    assert paper_citation(papers[:2], "acm") == "[1, 2]"
    assert paper_citation(papers[:3], "nature", "html") == "<sup>1–3</sup>"
    assert paper_citation([], "apa") == ""


@pytest.mark.parametrize(
    ("typed", "locale"),
    [
        ("de", "de-DE"),
        ("DE_de", "de-DE"),
        ("German", "de-DE"),
        ("deutsch", "de-DE"),
        ("Français (Canada)", "fr-CA"),
        ("pt-br", "pt-BR"),
        ("en", "en-US"),
        ("English (UK)", "en-GB"),
    ],
)
def test_a_language_is_named_as_people_name_it(typed: str, locale: str) -> None:
    assert check_language(typed) == locale


def test_an_unknown_language_is_refused_saying_where_the_languages_are_listed() -> None:
    with pytest.raises(InvalidValueError) as raised:
        check_language("Klingon")
    assert "“Klingon”" in str(raised.value)
    assert "refman styles --languages" in raised.value.hint
    with pytest.raises(InvalidValueError):
        bibliography_entries(LIBRARY[:1], "apa", "text", (), "xx")


def test_every_language_offered_writes_citations() -> None:
    offered = languages()
    assert {"de-DE", "fr-FR", "es-ES", "ja-JP", "en-GB"} <= offered.keys()
    assert offered["de-DE"] == "Deutsch (Deutschland) — German (Germany)"
    for locale in offered:
        entries = bibliography_entries(LIBRARY[:3], "apa", "text", (), locale)
        assert len(entries) == 3, locale
        assert not any("\ue000" <= c <= "\ue1ff" for _, e in entries for c in e), locale
    spanish = dict(bibliography_entries(LIBRARY[:1], "ieee", "text", (), "es"))
    assert " y A. Okonkwo" in spanish["smith2020bayesian"]


def test_a_style_written_in_one_language_keeps_it(papers: list[PaperDetail]) -> None:
    assert (style_language("nature"), style_language("acm"), style_language("apa")) == (
        "en-GB",
        "en-US",
        None,
    )
    assert paper_entries(papers, "nature", "text", "de-DE") == paper_entries(
        papers, "nature", "text"
    )
    assert paper_entries(papers, "apa", "text", "de-DE") != paper_entries(papers, "apa", "text")


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_bibliography_is_wrapped_as_citeproc_js_wraps_it(
    papers: list[PaperDetail], fmt: str
) -> None:
    rendered = EXPECTED["styles"]["ieee"][fmt]
    entries = "".join(entry for _, entry in paper_entries(papers, "ieee", fmt))
    assert (
        render_bibliography(papers, "ieee", fmt)
        == rendered["bibstart"] + entries + rendered["bibend"]
    )
