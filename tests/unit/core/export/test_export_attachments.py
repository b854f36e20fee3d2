"""Exports name the files attached to papers: BibTeX and BibLaTeX in JabRef's ``file`` field
(read back by bibtexparser), RIS one ``L1`` line per file (read back by rispy); CSL-JSON
leaves them out."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import rispy

from refman.core.library import LibraryService
from tests.helpers.fixtures import sourced
from tests.helpers.pages import THREE_PAPERS, publication_page
from tests.helpers.pdfs import make_pdf
from tests.unit.core.export.bibcheck import parse_bibtexparser


@pytest.fixture
def attached(library_path: Path, tmp_path: Path) -> tuple[LibraryService, int, list[str]]:
    service = LibraryService.open(library_path)
    service.import_pages([sourced(publication_page("Zhuo Jiang", THREE_PAPERS))])
    pid = service.paper_ids()[0]
    odd = tmp_path / "notes; v2: final.pdf"
    views = service.attach(pid, [make_pdf(tmp_path / "paper.pdf"), make_pdf(odd)])
    return service, pid, [v.path for v in views]


def _jabref_files(value: str) -> list[tuple[str, ...]]:
    """JabRef's ``file`` field read as JabRef reads it: ``;`` between files, ``:`` between
    description, path and type, each escaped with a backslash inside a part."""
    unescape = re.compile(r"\\(.)")
    return [
        tuple(unescape.sub(r"\1", part) for part in re.split(r"(?<!\\):", item))
        for item in re.split(r"(?<!\\);", value)
    ]


def test_bibtex_and_biblatex_carry_the_files_as_jabref_writes_them(
    attached: tuple[LibraryService, int, list[str]],
) -> None:
    service, pid, paths = attached
    for fmt in ("bibtex", "biblatex"):
        ((_, fields),) = parse_bibtexparser(service.export([pid], fmt)).values()
        files = _jabref_files(fields["file"])
        assert files == [(Path(p).name, p, "PDF") for p in paths]


def test_ris_has_one_l1_per_file_and_csl_json_none(
    attached: tuple[LibraryService, int, list[str]],
) -> None:
    service, pid, paths = attached
    (record,) = rispy.loads(service.export([pid], "ris"), list_tags=[*rispy.LIST_TYPE_TAGS, "L1"])
    assert record["file_attachments1"] == paths
    (item,) = json.loads(service.export([pid], "csl-json"))
    assert not any(isinstance(v, str) and v in paths for v in item.values())
