"""Reading CSL-JSON as Zotero and citation.js write it: arrays, a single item, items by id;
JSON that is no bibliography refused plainly; a damaged file gives the items before the damage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.importers.csljson import parse_csl_json
from refman.importers.errors import NotABibliographyError, NotAnAuthorPageError
from refman.importers.records import PageFormat, ParsedPage, PersonName
from refman.importers.sources import load_bytes, load_source
from tests.helpers.fixtures import FIXTURES

BIB = FIXTURES / "bib"


def read(name: str) -> ParsedPage:
    page = load_source(BIB / name).parse()
    assert page.format is PageFormat.CSL_JSON and page.owner == "" and page.claimed is None
    return page


def test_zotero_csl_json_field_by_field() -> None:
    page = read("zotero.json")
    assert page.warnings == []
    r = page.records[0]
    assert r.title == "Deep learning for DNA sequence analysis: a Bayesian view"  # <i> dropped
    assert (r.type, r.year) == ("article-journal", 2020)
    assert r.venue == "Journal of Computational Biology"
    assert r.author_names[2] == PersonName("Berg", "Jan", particle="van der")
    assert r.authors == ("John Smith", "Jürgen Müller", "Jan van der Berg")
    assert (r.doi, r.volume, r.issue, r.pages) == ("10.1089/cmb.2019.0123", "27", "3", "100-110")
    assert r.citekey == "smith2020deep"  # from Zotero's "Citation Key:" line, not the item URI
    assert r.extra == {
        "ISSN": "1066-5277",
        "container-title-short": "J. Comput. Biol.",
        "language": "en",
        "source": "DOI.org (Crossref)",
        "title-short": "Deep learning for DNA",
        "accessed": {"date-parts": [[2024, 1, 5]]},
        "PMID": "31000000",
        "issued": {"date-parts": [[2020, 3, 15]]},
    }
    assert r.notes == () and r.line == 2
    assert json.loads(r.raw)["DOI"] == "10.1089/cmb.2019.0123"


def test_zotero_csl_json_other_items() -> None:
    preprint, chapter, report = read("zotero.json").records[1:]
    assert (preprint.type, preprint.venue, preprint.arxiv_id) == ("article", "arXiv", "1706.03762")
    assert "number" not in preprint.extra and preprint.extra["note"] == "arXiv:1706.03762 [cs]"
    assert preprint.citekey is None
    assert chapter.extra["editor"] == [
        {"family": "Gross", "given": "Jonathan L."},
        {"family": "Yellen", "given": "Jay"},
    ]
    assert (chapter.year, chapter.venue) == (2010, "Handbook of Graph Theory")
    assert report.author_names == (PersonName("World Health Organization", literal=True),)
    assert report.extra["number"] == "WHO/2021.1"


def test_citation_js_csl_json() -> None:
    talk, book, webpage = read("citationjs.json").records
    assert talk.citekey == "jiang2024megascale"
    assert talk.author_names[2] == PersonName("Davis", "Sammy", suffix="Jr.")
    assert talk.tags == ("training", "GPUs", "scale")
    assert talk.extra["issued"] == {"date-parts": [[2024, 4]]}
    assert "_graph" not in talk.extra
    assert (book.year, book.extra["edition"]) == (1997, "3")  # {"raw": "1997"}, a number
    assert book.notes == ("Bought at the 2019 book fair; margin notes in chapter 2.",)
    assert webpage.extra["issued"] == {"date-parts": [[2023, 5, 1]]}  # an EDTF string


def test_a_suffix_written_after_the_given_name_is_a_suffix() -> None:
    item = {
        "id": "brown2020",
        "type": "article-journal",
        "title": "Suffixes in Names",
        "author": [{"family": "Brown", "given": "Robert, Jr."}, {"family": "Ng", "given": "A."}],
    }
    [record] = parse_csl_json(json.dumps([item])).records
    assert record.authors == ("Robert Brown Jr.", "A. Ng")
    assert record.author_names[0] == PersonName("Brown", "Robert", suffix="Jr.")


def test_a_single_item_and_items_by_id() -> None:
    [single] = read("csl-single.json").records
    assert (single.citekey, single.volume, single.year) == ("lovelace1843", "3", 1843)
    by_id = {"a": {"type": "book", "title": "One"}, "b": {"type": "book", "title": "Two"}}
    assert [r.title for r in parse_csl_json(json.dumps(by_id)).records] == ["One", "Two"]


def test_a_damaged_file_gives_the_items_before_the_damage() -> None:
    page = read("damaged.json")
    assert [r.title for r in page.records] == ["A whole first item", "A whole second item"]
    assert page.warnings == [
        "The file is damaged at line 5, column 61 (Expecting ',' delimiter); the items from "
        "there on were not imported (3 before it were).",
        "Skipped the element number 3 on line 4: it is not a CSL item (an object with a type, "
        "a title or authors).",
    ]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ((BIB / "not-csl.json").read_text(encoding="utf-8"), "holds no CSL-JSON items"),
        ("[1, 2, 3]", "holds no CSL-JSON items"),
        ("[]", "holds no CSL-JSON items"),
        ('{"a": 1,', "is not valid JSON"),
        ('[{"title": "x",', "the JSON text is damaged"),
    ],
)
def test_json_that_is_no_bibliography_is_refused(text: str, reason: str) -> None:
    with pytest.raises(NotABibliographyError, match=reason) as caught:
        parse_csl_json(text)
    assert caught.value.message.startswith("No publication records found: ")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply to be read"),
        ('{"a": ' * 100_000 + "1" + "}" * 100_000, "the JSON is nested too deeply to be read"),
    ],
)
def test_json_nested_too_deeply_is_refused_plainly(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(NotABibliographyError, match=reason) as caught:
        load_source(path).parse()
    assert caught.value.message.startswith("No publication records found: ")


def test_items_before_an_item_nested_too_deeply_are_kept() -> None:
    deep = '{"type": "book", "title": "Deep", "note": ' + "[" * 5000 + "]" * 5000 + "}"
    page = parse_csl_json(f'[{{"type": "book", "title": "Shallow"}},\n{deep}]')
    assert [r.title for r in page.records] == ["Shallow"]
    assert page.warnings == [
        "The file is damaged at line 2: its lists or objects are nested too deeply to be read; "
        "the items from there on were not imported (1 before it were)."
    ]


def test_some_other_json_file_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "package.json"
    path.write_bytes((BIB / "not-csl.json").read_bytes())
    with pytest.raises(NotAnAuthorPageError, match="holds no CSL-JSON items"):
        load_source(path).parse()


def test_a_list_starting_with_a_bracket_is_not_taken_for_json() -> None:
    with pytest.raises(NotAnAuthorPageError) as caught:
        load_bytes(
            b"[1] Buy milk and bread.\n[2] Call the office about the 2021 taxes.\n", "x"
        ).parse()
    assert "not valid JSON" not in caught.value.message
    assert "An author page starts with" in caught.value.message


@pytest.mark.parametrize("name", ["zotero.json", "citationjs.json", "csl-single.json"])
def test_import_then_reimport_adds_nothing(library: LibraryService, name: str) -> None:
    first = library.import_pages([SourcedPage(read(name), name)])
    assert first.new_ids
    again = library.import_pages([SourcedPage(read(name), name)])
    assert again.new_ids == () and again.merged_ids == () and again.batch_ids == ()


def test_refmans_extension_in_custom_wins_over_the_variables() -> None:
    item = {
        "id": "x",
        "type": "article",
        "title": "T",
        "publisher": "arXiv",
        "annote": "one\n\ntwo",
        "keyword": "Neoplasms, Experimental",
        "custom": {
            "short_id": "ignored",
            "refman": {"notes": ["one", "two"], "tags": ["Neoplasms, Experimental"]},
        },
    }
    [r] = parse_csl_json(json.dumps([item])).records
    assert (r.notes, r.tags) == (("one", "two"), ("Neoplasms, Experimental",))
    assert (r.type, r.venue, r.publisher) == ("article", "arXiv", None)  # an arXiv preprint
    item["custom"] = {"refman": {"notes": "one", "tags": [1]}}  # not refman's: ignored
    [r] = parse_csl_json(json.dumps([item])).records
    assert (r.notes, r.tags) == (("one two",), ("Neoplasms", "Experimental"))


def test_a_title_holding_latex_is_kept_as_the_text_it_prints() -> None:
    item = {"id": "x", "type": "article-journal", "title": 'On $\\alpha$-stable {\\"U}ber laws'}
    [record] = parse_csl_json(json.dumps([item])).records
    assert record.title == "On α-stable Über laws"
