"""The text of attached PDFs in the search: read in a worker process, kept file by file
(an indexing stopped half-way goes on where it stopped), found by the search in Everything
mode only, read again when a file changes; bad files get a reason, never a hang."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from refman.core.extraction import Extractor
from refman.core.file_index import IndexProgress
from refman.core.library import LibraryService
from refman.core.values import PaperQuery
from refman.importers.errors import NotAnAuthorPageError
from tests.helpers.fixtures import sourced
from tests.helpers.pages import THREE_PAPERS, publication_page
from tests.helpers.pdfs import damaged_pdf, encrypted_pdf, make_pdf


@pytest.fixture
def extractor() -> Iterator[Extractor]:
    with Extractor() as made:
        yield made


@pytest.fixture
def ids(library: LibraryService) -> list[int]:
    library.import_pages([sourced(publication_page("Zhuo Jiang", THREE_PAPERS))])
    return library.paper_ids()


def _pdf(tmp_path: Path, name: str, *lines: str, pages: int = 2) -> Path:
    return make_pdf(tmp_path / name, pages, title="Appendix", lines=lines)


def test_words_only_in_a_pdf_are_found_in_everything_mode(
    library: LibraryService, ids: list[int], tmp_path: Path, extractor: Extractor
) -> None:
    library.attach(
        ids[0], [_pdf(tmp_path, "a.pdf", "Zygomorphic gradients stall on covid19 data.")], link=True
    )
    library.attach(ids[1], [_pdf(tmp_path, "b.pdf", "Nothing to see here.")], link=True)
    assert library.index_progress() == IndexProgress(0, 2)
    told: list[IndexProgress] = []
    assert library.index_files(extractor, told.append).read == 2
    assert told[-1] == IndexProgress(2, 2, 2)
    assert library.paper_ids(PaperQuery(text="zygomorphic")) == []
    assert library.paper_ids(PaperQuery(text="zygomorphic", everything=True)) == [ids[0]]
    assert library.count(PaperQuery(text="zygomorph", everything=True)) == 1  # a prefix
    # A word that could be a citation key (a key alone finds its paper too), or left out.
    assert library.paper_ids(PaperQuery(text="covid19", everything=True)) == [ids[0]]
    assert ids[0] not in library.paper_ids(PaperQuery(text="-zygomorphic", everything=True))
    # A word of the paper's own fields and a word of its PDF, together.
    title_word = library.paper(ids[0]).title.split()[0]
    both = PaperQuery(text=f"{title_word} zygomorphic", everything=True)
    assert library.paper_ids(both) == [ids[0]]
    found = library.snippet(ids[0], "zygomorphic")
    assert found is not None and (found.file, found.missing) == ("a.pdf", False)
    assert found.text.endswith("Zygomorphic gradients stall on covid19 data.")
    assert len(found.text) < 60
    assert library.index_files(extractor).looked_at == 0  # nothing changed: nothing read again


def test_a_changed_file_is_read_again_and_a_removed_one_forgotten(
    library: LibraryService, ids: list[int], tmp_path: Path, extractor: Extractor
) -> None:
    pdf = _pdf(tmp_path, "draft.pdf", "Quokka sightings.")
    (view,) = library.attach(ids[0], [pdf], link=True)
    library.index_files(extractor)
    make_pdf(pdf, 3, lines=("Wombat burrows.",))
    os.utime(pdf, (1_900_000_000, 1_900_000_000))
    assert library.index_files(extractor).read == 1
    assert library.count(PaperQuery(text="wombat", everything=True)) == 1
    assert library.count(PaperQuery(text="quokka", everything=True)) == 0
    assert library.paper(ids[0]).files[0].pages == 3
    library.remove_files([view.id])
    assert library.count(PaperQuery(text="wombat", everything=True)) == 0


def test_a_missing_files_text_still_matches_and_the_match_says_the_file_is_missing(
    library: LibraryService, ids: list[int], tmp_path: Path, extractor: Extractor
) -> None:
    """A file gone from its place (a disk unplugged, a synced folder not synced here) is
    still the paper's file: its text, read while it was there, is still searched, and where
    the search found the paper says the file is missing; removed, it matches no more."""
    pdf = _pdf(tmp_path, "field.pdf", "Snapping shrimp dominate the nocturnal chorus.")
    (view,) = library.attach(ids[0], [pdf], link=True)
    library.index_files(extractor)
    pdf.unlink()
    assert library.index_files(extractor).looked_at == 0  # (nothing to read, nothing lost)
    assert library.paper_ids(PaperQuery(text="shrimp", everything=True)) == [ids[0]]
    found = library.snippet(ids[0], "shrimp")
    assert found is not None and (found.file, found.missing) == ("field.pdf", True)
    assert found.where == "“field.pdf” (missing: its text was read while it was there)"
    _pdf(tmp_path, "field.pdf", "Snapping shrimp dominate the nocturnal chorus.")
    back = library.snippet(ids[0], "shrimp")
    assert back is not None and not back.missing and back.where == "“field.pdf”"
    library.remove_files([view.id])
    assert library.paper_ids(PaperQuery(text="shrimp", everything=True)) == []


def test_bad_files_get_a_reason_and_are_not_read_twice(
    library: LibraryService, ids: list[int], tmp_path: Path, extractor: Extractor
) -> None:
    fake = tmp_path / "fake.pdf"
    fake.write_text("not a pdf", encoding="utf-8")
    empty = tmp_path / "empty.pdf"
    empty.touch()  # a download that never came: not said to be "not a PDF"
    files = [encrypted_pdf(tmp_path / "locked.pdf"), damaged_pdf(tmp_path / "cut.pdf"), fake]
    library.attach(ids[0], [*files, empty], link=True)
    report = library.index_files(extractor)
    assert report.read == 0
    why = {name: reason for _, name, reason in report.unreadable}
    assert set(why) == {"locked.pdf", "cut.pdf", "fake.pdf", "empty.pdf"}
    assert "encrypted" in why["locked.pdf"] and "not a PDF" in why["fake.pdf"]
    assert why["empty.pdf"] == "it is empty (0 bytes)"
    assert library.index_files(extractor).looked_at == 0
    assert library.index_progress() == IndexProgress(4, 4, 0)  # (none has words to search)
    assert library.index_progress().without_text == 4


def test_indexing_stopped_half_way_goes_on_where_it_stopped(
    library: LibraryService, ids: list[int], tmp_path: Path, extractor: Extractor
) -> None:
    for n in range(3):
        library.attach(ids[0], [_pdf(tmp_path, f"p{n}.pdf", f"Marker{n} text.")], link=True)

    def stop_after_one() -> bool:  # as closing the window does, between two files
        return library.index_progress().done >= 1

    assert library.index_files(extractor, cancelled=stop_after_one).read == 1
    assert library.index_progress() == IndexProgress(1, 3, 1)
    assert library.index_files(extractor).read == 2
    assert library.count(PaperQuery(text="marker2", everything=True)) == 1


def test_a_file_that_takes_too_long_is_given_up_and_the_reader_goes_on(tmp_path: Path) -> None:
    big = make_pdf(tmp_path / "big.pdf", pages=400, lines=("word " * 40,) * 40)
    small = make_pdf(tmp_path / "small.pdf", pages=1, lines=("Small file.",))
    with Extractor(time_limit=0.05) as slow:
        read = slow.extract(big)
        assert read.text == "" and read.error is not None and "took over" in read.error
    with Extractor() as reader:
        assert "Small file." in reader.extract(small).text


def test_a_pdf_dropped_in_to_import_is_read_in_the_worker_and_bounded(tmp_path: Path) -> None:
    paper = make_pdf(tmp_path / "paper.pdf", pages=3, title="Worker Read Title")
    with Extractor() as reader:
        (record,) = reader.paper(paper).records
        assert (record.title, record.files) == ("Worker Read Title", (str(paper),))
        with pytest.raises(NotAnAuthorPageError) as locked:
            reader.paper(encrypted_pdf(tmp_path / "locked.pdf"))
        assert "is encrypted" in locked.value.message and locked.value.hint
    big = make_pdf(tmp_path / "big.pdf", pages=400, lines=("word " * 40,) * 40)
    with Extractor(time_limit=0.05) as slow, pytest.raises(NotAnAuthorPageError) as late:
        slow.paper(big)
    assert "“big.pdf” cannot be read: reading it took over" in late.value.message
    assert "Attach it to a paper instead" in late.value.hint
