"""What a bibliography record brings besides its fields: tags, notes, its raw text, name
parts — kept on import, added once only, and taken back exactly by undo; and its abstract,
read the same in every view."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from refman.core.csl import csl_item
from refman.core.export import ExportFormat, export_papers
from refman.core.importing.values import SourcedPage
from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from refman.importers.bibtex import parse_bibtex
from refman.importers.records import PageFormat, ParsedPage, ParsedRecord, PersonName
from tests.helpers.fixtures import dump

RAW = "@article{lovelace1843,\n  title = {Notes on the Analytical Engine},\n}"


def bib(*records: ParsedRecord) -> SourcedPage:
    return SourcedPage(ParsedPage("", PageFormat.BIBTEX, None, list(records)), "refs.bib")


def record(**fields: object) -> ParsedRecord:
    base: dict[str, object] = {
        "title": "Notes on the Analytical Engine",
        "title_provisional": False,
        "abstract": "A translation of Menabrea's memoir, with notes of the translator's own.",
        "year": 1843,
        "type": "article-journal",
        "venue": "Scientific Memoirs",
        "authors": ("Augusta Ada King", "Luigi Menabrea"),
        "author_names": (
            PersonName("King", "Augusta Ada"),
            PersonName("Menabrea", "Luigi", suffix="Jr."),
        ),
        "tags": ("history", "computing"),
        "notes": ("Note G has the first program.",),
        "raw": RAW,
        "citekey": "lovelace1843",
        "volume": "3",
        "pages": "666--731",
        "extra": {"editor": [{"family": "Taylor", "given": "Richard"}]},
    }
    base.update(fields)
    return ParsedRecord(**base)  # type: ignore[arg-type]


def test_tags_notes_raw_and_name_parts_come_in(library: LibraryService, library_path: Path) -> None:
    [pid] = library.import_pages([bib(record())]).new_ids
    paper = library.paper(pid)
    assert [t.name for t in paper.tags] == ["computing", "history"]
    assert [n.text for n in paper.notes] == ["Note G has the first program."]
    # the note is the importing person's, as the paper is
    assert paper.created_by is not None
    assert [(n.created_by, n.modified_by) for n in paper.notes] == [(paper.created_by,) * 2]
    assert paper.citekey == "lovelace1843"
    assert paper.author_names[1] == PersonName("Menabrea", "Luigi", suffix="Jr.")
    with sqlite3.connect(library_path) as conn:
        assert conn.execute("SELECT raw FROM batch_papers").fetchall() == [(RAW,)]
    item = csl_item(paper)
    assert item["id"] == "lovelace1843" and item["type"] == "article-journal"
    assert item["author"][1] == {"family": "Menabrea", "given": "Luigi", "suffix": "Jr."}
    assert item["editor"] == [{"family": "Taylor", "given": "Richard"}]
    assert (item["container-title"], item["page"], item["volume"]) == (
        "Scientific Memoirs",
        "666--731",
        "3",
    )


def test_importing_the_same_file_again_adds_no_note_and_no_tag(library: LibraryService) -> None:
    [pid] = library.import_pages([bib(record())]).new_ids
    again = library.import_pages([bib(record())])
    assert again.new_ids == () and again.batch_ids == ()
    assert len(library.paper(pid).notes) == 1


def test_a_note_is_all_a_file_brings_to_a_paper_and_it_comes_in(library: LibraryService) -> None:
    # (the file exported again after a note was written in the old program: nothing else new)
    [pid] = library.import_pages([bib(record(notes=()))]).new_ids
    again = library.import_pages([bib(record(notes=("Read with Note G.",)))])
    assert again.batch_ids != ()
    assert [n.text for n in library.paper(pid).notes] == ["Read with Note G."]
    assert library.import_pages([bib(record(notes=("Read with Note G.",)))]).batch_ids == ()
    library.undo_import(again.batch_ids)
    assert library.paper(pid).notes == ()


def test_undo_takes_back_the_notes_an_import_added_to_a_paper_it_merged(
    library: LibraryService, library_path: Path
) -> None:
    library.import_pages([bib(record(notes=(), tags=()))])
    before = dump(library_path)
    merged = library.import_pages([bib(record(notes=("A second thought.",), citekey=None))])
    assert merged.merged_ids
    library.undo_import(merged.batch_ids)
    assert dump(library_path) == before


def test_a_bib_abstract_reads_everywhere_as_bibtex_prints_it(library: LibraryService) -> None:
    text = (
        "@article{jumper2021,\n  title = {Protein Structure with {AlphaFold}},\n"
        "  abstract = {From {AlphaFold} to {{RoseTTAFold}}, with $\\alpha$-helices.},\n}\n"
    )
    [pid] = library.import_pages([SourcedPage(parse_bibtex(text), "refs.bib")]).new_ids
    paper = library.paper(pid)
    shown = "From AlphaFold to RoseTTAFold, with α-helices."
    assert paper.abstract_text == shown  # the detail pane, `refman show`
    assert library.paper_ids(PaperQuery(text="rosettafold helices")) == [pid]
    assert csl_item(paper)["abstract"] == shown  # what citations are made from
    assert f"AB  - {shown}" in export_papers([paper], ExportFormat.RIS)
    bib = export_papers([paper], ExportFormat.BIBTEX)
    assert "abstract = {From AlphaFold to RoseTTAFold, with $\\alpha$-helices.}" in bib
    assert "x-refman" not in bib  # read back, it is the same abstract


def test_a_tie_in_a_bib_abstract_shows_as_a_space_and_goes_out_as_a_tie(
    library: LibraryService,
) -> None:
    text = (
        "@article{smith2020,\n  title = {Ties in Abstracts},\n  abstract = {As Fig.~3 shows, "
        "Smith~et~al. use \\LaTeX~macros; see \\url{https://example.org/~smith}.},\n}\n"
    )
    [pid] = library.import_pages([SourcedPage(parse_bibtex(text), "refs.bib")]).new_ids
    paper = library.paper(pid)
    shown = "As Fig.\xa03 shows, Smith\xa0et\xa0al. use LaTeX\xa0macros; see"
    assert paper.abstract_text.startswith(shown)  # no "~" in the detail pane
    assert "~smith" in paper.abstract_text  # the link's tilde is the link's
    assert library.paper_ids(PaperQuery(text="fig 3 smith")) == [pid]
    assert f"AB  - {shown.replace(chr(0xA0), ' ')}" in export_papers([paper], ExportFormat.RIS)
    bib = export_papers([paper], ExportFormat.BIBTEX)
    assert "As Fig.~3 shows, Smith~et~al. use \\LaTeX~macros" in bib
    assert "\xa0" not in bib
    again = library.import_pages([SourcedPage(parse_bibtex(bib), "again.bib")])
    assert (again.new_ids, again.merged_ids) == ((), ())  # read back, the same paper as it is
