"""``refman attach``, ``detach``, ``open`` and the ``files`` of ``show``: PDFs copied beside
the library or linked, listed with pages and size, opened with the system's viewer."""

from __future__ import annotations

import json
import os
import shutil
import stat
import time
from multiprocessing.context import SpawnProcess
from pathlib import Path

import pytest

from refman.cli.output import FILE_KEYS
from refman.core import extraction
from refman.store.file_store import storage_beside
from tests.helpers.cli import Cli, refman_process, runner
from tests.helpers.disk import read_only, size_limit
from tests.helpers.pages import THREE_PAPERS, publication_page
from tests.helpers.pdfs import encrypted_pdf, make_pdf


def _with_papers(cli: Cli, tmp_path: Path) -> int:
    page = tmp_path / "zhuo.txt"
    page.write_text(publication_page("Zhuo Jiang", THREE_PAPERS), encoding="utf-8")
    assert cli("import", page).code == 0
    return int(json.loads(cli("list", "--json").out)[0]["id"])


def test_attaching_a_pdf_counts_its_pages_and_reads_its_text_in_one_worker(
    capsys: pytest.CaptureFixture[str],
    library_path: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cli = runner(capsys, library_path)
    pid = _with_papers(cli, tmp_path)
    monkeypatch.setattr(extraction, "_counter", None)  # as in a new process
    started: list[str] = []
    start = SpawnProcess.start

    def counted(process: SpawnProcess) -> None:
        started.append(process.name)
        start(process)

    monkeypatch.setattr(SpawnProcess, "start", counted)
    pdf = make_pdf(tmp_path / "stragglers.pdf", pages=3, lines=("Quokka tiers on tape.",))
    done = cli("attach", pid, pdf)
    assert done.code == 0 and "3 pages" in done.out and "Read the text of 1 PDF" in done.out
    assert started == ["refman-text"]  # one worker process, about half a second, not two
    found = json.loads(cli("search", "quokka", "--everything", "--json").out)
    assert [p["id"] for p in found] == [pid]


def test_a_pdf_is_attached_shown_opened_and_detached(
    capsys: pytest.CaptureFixture[str],
    library_path: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cli = runner(capsys, library_path)
    pid = _with_papers(cli, tmp_path)
    pdf = make_pdf(tmp_path / "stragglers.pdf", pages=3)
    done = cli("attach", pid, pdf)
    assert done.code == 0 and "Attached stragglers.pdf — 3 pages, " in done.out
    shown = json.loads(cli("show", pid, "--json").out)
    (file,) = shown["files"]
    assert tuple(file) == FILE_KEYS
    stored = storage_beside(library_path) / str(pid) / "stragglers.pdf"
    assert (file["name"], file["path"], file["pages"], file["missing"]) == (
        "stragglers.pdf",
        str(stored),
        3,
        False,
    )
    assert file["size"] == pdf.stat().st_size == stored.stat().st_size
    assert "Files\n  stragglers.pdf — 3 pages," in cli("show", pid).out

    opened = tmp_path / "opened.txt"
    viewer = tmp_path / "viewer.sh"
    viewer.write_text(f'#!/bin/sh\nprintf "%s" "$1" > {opened}\n', encoding="utf-8")
    viewer.chmod(viewer.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("REFMAN_OPEN_WITH", str(viewer))
    assert cli("open", pid).code == 0
    for _ in range(100):
        if opened.exists() and opened.read_text(encoding="utf-8"):
            break
        time.sleep(0.05)
    assert opened.read_text(encoding="utf-8") == str(stored)

    detached = cli("detach", pid, "1")
    assert detached.code == 0 and "kept until the Trash is emptied" in detached.out
    assert json.loads(cli("show", pid, "--json").out)["files"] == []
    nothing = cli("open", pid)
    assert nothing.code == 2 and f"Paper #{pid} has no files" in nothing.err
    # A paper without files opens its DOI in the browser, as Enter in the window does.
    opened.unlink()
    assert cli("edit", pid, "--doi", "10.1000/straggler.42").code == 0
    online = cli("open", pid)
    address = "https://doi.org/10.1000/straggler.42"
    assert (
        online.code == 0 and online.out == f"Paper #{pid} has no files: opened its DOI, {address}\n"
    )
    for _ in range(100):
        if opened.exists() and opened.read_text(encoding="utf-8"):
            break
        time.sleep(0.05)
    assert opened.read_text(encoding="utf-8") == address
    named = cli("open", pid, "--file", "stragglers.pdf")  # a file named: that file, or none
    assert named.code == 2 and f"Paper #{pid} has no files" in named.err


def test_bad_files_are_refused_with_a_reason(cli: Cli, tmp_path: Path) -> None:
    pid = _with_papers(cli, tmp_path)
    missing = cli("attach", pid, tmp_path / "nowhere.pdf", "--link")
    assert missing.code == 2 and "There is no file" in missing.err
    folder = cli("attach", pid, tmp_path, "--link")
    assert folder.code == 2 and "is a folder" in folder.err
    assert json.loads(cli("show", pid, "--json").out)["files"] == []

    linked = make_pdf(tmp_path / "linked.pdf", lines=("A quokka in the margin.",))
    done = cli("attach", pid, linked, "--link", "--json")
    (file,) = json.loads(done.out)
    assert file["linked"] is True and file["path"] == str(linked.resolve())
    assert "quokka" in cli("search", "--everything", "quokka").out  # its text read at once
    linked.unlink()
    gone = cli("open", pid, "--file", "linked.pdf")
    assert gone.code == 2 and "is missing" in gone.err
    assert "missing: not at" in cli("show", pid).out
    wrong = cli("open", pid, "--file", "other.pdf")
    assert wrong.code == 2 and "no file “other.pdf”" in wrong.err


def test_a_shared_library_links_files_and_says_why_it_cannot_store_them(
    backend: str, cli: Cli, tmp_path: Path
) -> None:
    pid = _with_papers(cli, tmp_path)
    pdf = make_pdf(tmp_path / "paper.pdf")
    copied = cli("attach", pid, pdf)
    if backend == "postgres":
        assert copied.code == 2 and "no folder to store files" in copied.err
        assert cli("attach", pid, pdf, "--link").code == 0
    else:
        assert copied.code == 0
    assert len(json.loads(cli("show", pid, "--json").out)["files"]) == 1


def test_check_files_lists_the_missing_ones_and_exits_2(cli: Cli, tmp_path: Path) -> None:
    pid = _with_papers(cli, tmp_path)
    none = cli("check", "--files")
    assert none.code == 0 and none.out == "No files are attached.\n"  # not "All 0 … files"
    pdf = make_pdf(tmp_path / "linked.pdf")
    assert cli("attach", pid, pdf, "--link").code == 0
    fine = cli("check", "--files")
    assert fine.code == 0 and "The attached file is where it should be" in fine.out
    pdf.unlink()
    missing = cli("check", "--files")
    assert missing.code == 2 and f"#{pid}  linked.pdf: not at {pdf.resolve()}" in missing.out
    report = json.loads(cli("check", "--files", "--json").out)
    assert (report["files"], report["ok"]) == (1, False)
    assert [(f["paper"], f["name"], f["missing"]) for f in report["missing"]] == [
        (pid, "linked.pdf", True)
    ]
    assert "Find it, then refman locate ID FILE PATH" in missing.out


@pytest.mark.sqlite_only  # (a stored file: a shared library has no storage folder)
def test_locate_puts_a_missing_file_back_as_the_windows_locate_does(
    cli: Cli, tmp_path: Path
) -> None:
    pid = _with_papers(cli, tmp_path)
    pdf = make_pdf(tmp_path / "stored.pdf", lines=("Narwhal tusks sense salinity.",))
    assert cli("attach", pid, pdf).code == 0
    (stored,) = json.loads(cli("show", pid, "--json").out)["files"]
    Path(stored["path"]).unlink()  # deleted outside refman
    refused = cli("open", pid)
    assert refused.code == 2 and f"refman locate {pid} stored.pdf PATH" in refused.err
    again = cli("attach", pid, pdf)  # the same file: not attached twice, and said how instead
    assert "not attached again" in again.out
    assert f"To put it back in its place: refman locate {pid} stored.pdf {pdf}" in again.out
    nowhere = cli("locate", pid, "stored.pdf", tmp_path / "nowhere.pdf")
    assert nowhere.code == 2 and "There is no file" in nowhere.err
    found = json.loads(cli("locate", pid, "stored.pdf", pdf, "--json").out)
    assert found["changed"] == [pid] and found["file"]["missing"] is False
    assert Path(found["file"]["path"]) == Path(stored["path"])  # back in its place, a copy
    assert Path(stored["path"]).read_bytes() == pdf.read_bytes()
    assert cli("check", "--files").code == 0
    assert [
        p["id"] for p in json.loads(cli("search", "narwhal", "--everything", "--json").out)
    ] == [pid]
    twice = cli("locate", pid, "1", pdf)
    assert twice.code == 2 and "is not missing" in twice.err


def test_search_everything_finds_words_inside_the_pdfs(cli: Cli, tmp_path: Path) -> None:
    pid = _with_papers(cli, tmp_path)
    pdf = make_pdf(tmp_path / "inside.pdf", lines=("Axolotl regeneration is remarkable.",))
    attached = cli("attach", pid, pdf, "--link")
    assert "Read the text of 1 PDF into the search" in attached.out
    assert json.loads(cli("search", "axolotl", "--json").out) == []
    found = json.loads(cli("search", "axolotl", "--everything", "--json").out)
    assert [p["id"] for p in found] == [pid]
    assert found[0]["snippet"]["file"] == "inside.pdf"
    assert found[0]["snippet"]["missing"] is False
    assert "Axolotl regeneration is remarkable." in found[0]["snippet"]["text"]
    text = cli("search", "--everything", "axolotl").out
    assert f"#{pid} in “inside.pdf”: “" in text
    again = json.loads(cli("index-files", "--json").out)
    assert again == {
        "read": 0,
        "indexed": 1,
        "files": 1,
        "without_text": 0,
        "unreadable": [],
        "searched": 1,
    }
    pdf.unlink()  # the text read stays searched; where it was found says the file is gone
    gone = json.loads(cli("search", "axolotl", "--everything", "--json").out)
    assert gone[0]["snippet"]["missing"] is True
    text = cli("search", "--everything", "axolotl").out
    assert f"#{pid} in “inside.pdf” (missing: its text was read while it was there): “" in text


def test_import_a_pdf_adds_its_paper_with_the_file(cli: Cli, tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "paper.pdf", pages=4, title="Learned Index Structures Revisited")
    done = cli("import", pdf)
    assert done.code == 0
    assert "paper.pdf: the paper's PDF (pdf) — 1 new" in done.out
    (paper,) = json.loads(cli("list", "--json").out)
    assert paper["title"] == "Learned Index Structures Revisited"
    assert [(f["name"], f["pages"]) for f in paper["files"]] == [("paper.pdf", 4)]
    report = json.loads(cli("import", pdf, "--json").out.splitlines()[0])
    assert (report["format"], report["new"]) == ("pdf", 0)
    fake = tmp_path / "fake.pdf"
    fake.write_text("hello", encoding="utf-8")
    refused = cli("import", fake)
    assert refused.code == 2 and "is named .pdf but is not a PDF document" in refused.err
    locked = cli("import", encrypted_pdf(tmp_path / "locked.pdf"))  # read in the worker
    assert locked.code == 2 and "“locked.pdf” is encrypted" in locked.err
    assert len(json.loads(cli("list", "--json").out)) == 1


def test_attach_and_index_files_name_a_pdf_without_text_and_why(cli: Cli, tmp_path: Path) -> None:
    pid = _with_papers(cli, tmp_path)
    locked = encrypted_pdf(tmp_path / "locked.pdf")
    attached = cli("attach", pid, locked, "--link")
    assert attached.code == 0
    assert "Read the text of" not in attached.out  # nothing was read
    assert "The text of “locked.pdf” could not be read: it is encrypted" in attached.out
    fake = tmp_path / "fake.pdf"
    fake.write_text("a note saved with the wrong name", encoding="utf-8")
    files = json.loads(cli("attach", pid, fake, "--link", "--json").out)
    assert "not a PDF" in files[0]["unreadable"]
    readable = make_pdf(tmp_path / "fine.pdf")
    assert json.loads(cli("attach", pid, readable, "--link", "--json").out)[0]["unreadable"] is None
    # changed since it was read: index-files reads it again and says what became of it
    fake.write_text("still not a PDF, and longer than before", encoding="utf-8")
    again = json.loads(cli("index-files", "--json").out)
    # only the readable one's words are in the search; the two others are said to have none
    counts = ("read", "indexed", "searched", "files", "without_text")
    assert tuple(again[key] for key in counts) == (0, 3, 1, 3, 2)  # 2 read had no text
    assert [(u["name"], "not a PDF" in u["why"]) for u in again["unreadable"]] == [
        ("fake.pdf", True)
    ]
    said = cli("index-files").out
    assert said == (
        "Read the text of 0 PDFs. In the search (refman search --everything): 1 of 3 PDFs; "
        "2 without text to read.\n"
    )


def test_attaching_a_file_the_paper_has_says_so_and_adds_no_copy(cli: Cli, tmp_path: Path) -> None:
    pid = _with_papers(cli, tmp_path)
    pdf = make_pdf(tmp_path / "paper.pdf")
    assert cli("attach", pid, pdf, "--link").code == 0
    copy = tmp_path / "paper (1).pdf"
    copy.write_bytes(pdf.read_bytes())
    again = cli("attach", pid, copy, "--link")
    assert again.code == 0
    assert f"#{pid} already has “paper (1).pdf”, as paper.pdf" in again.out
    assert "Linked" not in again.out
    files = json.loads(cli("attach", pid, pdf, copy, "--link", "--json").out)
    assert [(f["name"], f["held"]) for f in files] == [("paper.pdf", True), ("paper.pdf", True)]
    shown = json.loads(cli("show", pid, "--json").out)
    assert [f["name"] for f in shown["files"]] == ["paper.pdf"]


def test_a_storage_folder_that_cannot_be_written_to_is_said_plainly(
    capsys: pytest.CaptureFixture[str], library_path: Path, tmp_path: Path
) -> None:
    cli = runner(capsys, library_path)
    pid = _with_papers(cli, tmp_path)
    assert cli("attach", pid, make_pdf(tmp_path / "kept.pdf")).code == 0
    other = json.loads(cli("list", "--json").out)[1]["id"]
    assert cli("attach", other, make_pdf(tmp_path / "trashed.pdf")).code == 0
    assert cli("trash", other).code == 0
    storage = storage_beside(library_path)
    before = [cli("show", p, "--json").out for p in (pid, other)]
    with read_only(storage / str(pid)), read_only(storage / str(other)), read_only(storage):
        for command in (
            ("attach", pid, make_pdf(tmp_path / "new.pdf")),
            ("detach", pid, "kept.pdf"),
            ("empty-trash",),
        ):
            refused = cli(*command)
            assert refused.code == 2, command  # it was an internal error (exit 1)
            assert "cannot be written to (it is read-only" in refused.err, command
            assert "internal error" not in refused.err
    assert [cli("show", p, "--json").out for p in (pid, other)] == before  # nothing changed
    assert cli("empty-trash").out == "Deleted 1 paper for good.\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_is_refused_instead_of_read_for_ever(cli: Cli, tmp_path: Path) -> None:
    pid = _with_papers(cli, tmp_path)
    pipe = tmp_path / "downloads.pdf"
    os.mkfifo(pipe)
    refused = cli("attach", pid, pipe)
    assert refused.code == 2 and "is not a file one can attach" in refused.err


def test_copy_library_onto_a_full_disk_says_so_and_leaves_no_copy(
    capsys: pytest.CaptureFixture[str], library_path: Path, tmp_path: Path
) -> None:
    cli = runner(capsys, library_path)
    pid = _with_papers(cli, tmp_path)
    data = tmp_path / "measurements.bin"
    data.write_bytes(os.urandom(3 * 1024 * 1024))
    assert cli("attach", pid, data).code == 0
    dest = tmp_path / "copy" / "library.sqlite"
    dest.parent.mkdir()
    limit = size_limit(2 * 1024 * 1024)  # room for the library's rows, not for the file
    home = tmp_path / "home"
    done = refman_process(library_path, home, "copy-library", str(library_path), str(dest))
    assert done.returncode == 0, done.stderr  # (with room)
    shutil.rmtree(dest.parent)
    dest.parent.mkdir()
    full = refman_process(
        library_path, home, "copy-library", str(library_path), str(dest), preexec_fn=limit
    )
    assert full.returncode == 2, full.stderr  # it was an internal error (exit 1)
    assert "The disk is full: “measurements.bin” could not be copied" in full.stderr
    assert list(dest.parent.iterdir()) == []  # no library looking like a copy
